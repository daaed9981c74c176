# Util: the small helpers scripts for perf's Python interface import with
# "from Util import *" -- pcl's own implementation of that module's API,
# returning what perf's does (nsecs_str's one-string tuple included).
import errno
import os

FUTEX_WAIT = 0
FUTEX_WAKE = 1
FUTEX_PRIVATE_FLAG = 128
FUTEX_CLOCK_REALTIME = 256
FUTEX_CMD_MASK = ~(FUTEX_PRIVATE_FLAG | FUTEX_CLOCK_REALTIME)

NSECS_PER_SEC = 1000000000


def avg(total, n):
    return total / n


def nsecs(secs, nsecs):
    return secs * NSECS_PER_SEC + nsecs


def nsecs_secs(nsecs):
    return nsecs / NSECS_PER_SEC


def nsecs_nsecs(nsecs):
    return nsecs % NSECS_PER_SEC


def nsecs_str(nsecs):
    return ("%5u.%09u" % (nsecs_secs(nsecs), nsecs_nsecs(nsecs)),)


def add_stats(dict, key, value):
    """dict[key] = (min, max, running average, count) of the values seen;
    the average is halved toward each new value, as perf's is."""
    if key in dict:
        lo, hi, mean, count = dict[key]
        dict[key] = (min(lo, value), max(hi, value), (mean + value) / 2, count + 1)
    else:
        dict[key] = (value, value, value, 1)


def clear_term():
    print("\x1b[H\x1b[2J")


# syscall names come from the audit bindings, when installed
audit_package_warned = False
try:
    import audit
    machine_id = getattr(audit, {
        'x86_64': 'MACH_86_64', 'alpha': 'MACH_ALPHA', 'ia64': 'MACH_IA64',
        'ppc': 'MACH_PPC', 'ppc64': 'MACH_PPC64', 'ppc64le': 'MACH_PPC64LE',
        's390': 'MACH_S390', 's390x': 'MACH_S390X', 'i386': 'MACH_X86',
        'i586': 'MACH_X86', 'i686': 'MACH_X86', 'armeb': 'MACH_ARMEB',
    }[os.uname()[4]])
except Exception:
    audit_package_warned = True
    print("Install the audit-libs-python package to get syscall names.\n"
          "For example:\n  # apt-get install python-audit (Ubuntu)"
          "\n  # yum install audit-libs-python (Fedora)"
          "\n  etc.\n")


def syscall_name(id):
    try:
        return audit.audit_syscall_to_name(id, machine_id)
    except Exception:
        return str(id)


def strerror(nr):
    try:
        return errno.errorcode[abs(nr)]
    except Exception:
        return "Unknown %d errno" % nr
