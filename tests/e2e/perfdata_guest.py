"""Writes perf.data files such as `perf kvm record` makes of running guests,
for machines that run none: cycles:G samples of two QEMU processes' vCPU
threads in guest kernel mode (PERF_RECORD_MISC_GUEST_KERNEL) and guest user
mode (GUEST_USER), a few in the host's user mode and the hypervisor's, and
the guest kernel's map as perf record synthesizes it for its default guest
(an MMAP of "[guest.kernel.kallsyms]_text", pid 0, guest kernel mode) after
the host kernel's.

KALLSYMS is a guest's /proc/kallsyms for --guestkallsyms: the samples hit
its functions, the space past its last one and the space before _text.
"""
import struct

import perfdata_file
from perfdata_mem import _record, _string  # the layout every synthesized file shares

IP, TID, TIME, ID, CPU, PERIOD, IDENTIFIER = 1, 2, 4, 64, 128, 256, 1 << 16
MMAP, COMM, SAMPLE, FINISHED_ROUND = 1, 3, 9, 68
HEADER_NRCPUS, HEADER_EVENT_DESC = 7, 12
KERNEL, USER, HYPERVISOR, GUEST_KERNEL, GUEST_USER = 1, 2, 3, 4, 5
ATTR_SIZE = 128
SID = 77
TEXT = 0xffffffff81000000

KALLSYMS = "".join("%016x %s %s\n" % (TEXT + off, kind, name) for off, kind, name in (
    (0, "T", "_text"), (0x1000, "T", "start_kernel"), (0x1800, "t", "do_idle"),
    (0x2000, "T", "native_safe_halt"), (0x2400, "W", "guest_weak_fn"),
    (0x3000, "t", "handle_irq"), (0x5000, "D", "guest_data"), (0x8000, "t", "last_fn")))

# (mode, ip) the samples take in turn
SAMPLES = [(GUEST_KERNEL, TEXT + 0x1010), (GUEST_KERNEL, TEXT + 0x2020),
           (GUEST_KERNEL, TEXT + 0x2030), (GUEST_USER, 0x401234), (GUEST_KERNEL, TEXT + 0x9000),
           (GUEST_USER, 0x7f0000001000), (GUEST_KERNEL, TEXT + 0x1810),
           (GUEST_KERNEL, TEXT + 0x2404), (GUEST_KERNEL, TEXT + 0x3100),
           (GUEST_KERNEL, TEXT - 0x100), (USER, 0x55d0c0de1234), (HYPERVISOR, 0xfffff000),
           (GUEST_KERNEL, TEXT + 0x1010), (GUEST_KERNEL, TEXT + 0x8008)]
THREADS = [(4242, 4243, "CPU 0/KVM"), (4242, 4244, "CPU 1/KVM"), (5353, 5354, "CPU 0/KVM")]
GUEST_CODE = 0x400000  # where guest_code maps its binary: 0x401234 is in it


def _trailer(pid, tid, time, cpu):
    return struct.pack("<IIQQIIQ", pid, tid, time, SID, cpu, 0, SID)


def write(path, nr=140, seed=0, guest_code=None, unnamed=False):
    """Writes the file; seed shifts which samples each thread takes (for
    a second file to diff).  guest_code: a binary the first QEMU process
    maps at GUEST_CODE, where its guest user samples land, as KVM test
    programs run their own code in their guests (perf's --guest-code).
    unnamed: samples of a third process too, which no record names."""
    st = IDENTIFIER | IP | TID | TIME | ID | CPU | PERIOD
    t0 = 3000000000
    threads = THREADS + [(6000, 6001, None)] if unnamed else THREADS
    recs = [_record(COMM, 0, struct.pack("<II", pid, pid) + b"qemu-system-x86\0" +
                    _trailer(pid, pid, t0, 0)) for pid in (4242, 5353)]
    recs += [_record(COMM, 0, struct.pack("<II", pid, tid) +
                     (comm.encode() + b"\0").ljust(16, b"\0") + _trailer(pid, tid, t0, 0))
             for pid, tid, comm in THREADS]
    host = 0xffffffffa0000000      # the host's kernel, which no sample hits
    recs.append(_record(MMAP, KERNEL, struct.pack("<IIQQQ", 0xffffffff, 0, host,
                                                  (1 << 64) - 1 - host, host) +
                        b"[kernel.kallsyms]_text\0".ljust(24, b"\0") +
                        _trailer(0xffffffff, 0, t0, 0)))
    name = b"[guest.kernel.kallsyms]_text\0"
    recs.append(_record(MMAP, GUEST_KERNEL, struct.pack("<IIQQQ", 0, 0, TEXT,
                                                        (1 << 64) - 1 - TEXT, TEXT) +
                        name.ljust(32, b"\0") +
                        _trailer(0, 0, t0, 0)))
    if guest_code:
        name = guest_code.encode() + b"\0"
        recs.append(_record(MMAP, USER, struct.pack("<IIQQQ", 4242, 4242, GUEST_CODE, 0x10000, 0) +
                            name.ljust((len(name) + 7) // 8 * 8, b"\0") +
                            _trailer(4242, 4242, t0, 0)))
    t = t0 + 1000
    for k in range(nr):
        mode, ip = SAMPLES[(k * 5 + seed + k // 7) % len(SAMPLES)]
        pid, tid, _ = threads[(k + seed) % len(threads)]
        body = struct.pack("<QQIIQQIIQ", SID, ip, pid, tid, t, SID, k % 4, 0, 1000 + 37 * (k % 9))
        recs.append(_record(SAMPLE, mode, body))
        t += 997
    recs.append(_record(FINISHED_ROUND, 0, b""))
    data = b"".join(recs)
    # disabled, inherit, freq, sample_id_all, exclude_host
    flags = 1 << 0 | 1 << 1 | 1 << 10 | 1 << 18 | 1 << 19
    attr = struct.pack("<IIQQQQQIIQQ", 0, ATTR_SIZE, 0, 4000, st, 0, flags, 0, 0, 0, 0)
    attr = attr.ljust(ATTR_SIZE, b"\0")
    desc = struct.pack("<II", 1, ATTR_SIZE) + attr + struct.pack("<I", 1) + \
        _string("cycles:G") + struct.pack("<Q", SID)
    sections = [(HEADER_NRCPUS, struct.pack("<II", 4, 4)), (HEADER_EVENT_DESC, desc)]
    perfdata_file.write(path, [(attr, struct.pack("<Q", SID))], data, sections)
