"""Writes a host and a guest perf.data such as perf inject --guest-data
merges, for machines that run no VM: the host's QEMU process (HOST_PID) names
its VCPU threads "CPU N/KVM" (VCPUs 0, 1 and 3), switches them in on host
CPUs, and ends its set-up with FINISHED_INIT; the guest file (recorded
per CPU, with --sample-identifier) has side-band records of every kind perf
merges, and samples and a BPF ksymbol it leaves out, over several rounds.
Both carry a TIME_CONV (TSC clocks with different parameters), so guest
times go through perf's TSC arithmetic.

write(host, guest, vcpus=..., cpu_shift=0) — vcpus: the names the host
gives, cpu_shift: moves the guest's CPUs, to make perf's errors.
"""
import struct

import perfdata_file
from perfdata_mem import _record, _string

IP, TID, TIME, ID, CPU, IDENTIFIER = 1, 2, 4, 64, 128, 1 << 16
MMAP, LOST, COMM, EXIT, FORK, SAMPLE, MMAP2 = 1, 2, 3, 4, 7, 9, 10
SWITCH_CPU_WIDE, KSYMBOL, FINISHED_ROUND, ID_INDEX = 15, 17, 68, 69
TIME_CONV, FINISHED_INIT = 79, 82
HEADER_BUILD_ID, HEADER_EVENT_DESC = 2, 12
KERNEL, USER = 1, 2
SWITCH_OUT = 1 << 13
ATTR_SIZE = 128
HOST_PID = 4242
ST = IDENTIFIER | TID | TIME | CPU
VDSO_ID = bytes(range(1, 21))
GUEST_VDSO_ID = bytes(range(40, 60))


def _attr(config, flags, st=ST):
    attr = struct.pack("<IIQQQQQIIQQ", 1, ATTR_SIZE, config, 1000, st, 0, flags, 0, 0, 0, 0)
    return attr.ljust(ATTR_SIZE, b"\0")


def _trailer(pid, tid, time, cpu, sid):
    return struct.pack("<IIQIIQ", pid, tid, time, cpu, 0, sid)


def _build_id(misc, pid, bid, name):
    name = name.encode() + b"\0"
    name = name.ljust((len(name) + 63) // 64 * 64, b"\0")
    body = struct.pack("<i", pid) + bid.ljust(20, b"\0") + struct.pack("<I", len(bid)) + name
    return _record(0, misc | 1 << 15, body)


def _time_conv(shift, mult, zero):
    return _record(TIME_CONV, 0, struct.pack("<QQQQQBB6x", shift, mult, zero, 0, 0, 1, 0))


def _file(path, attrs, records, build_ids):
    """attrs: [(attr, name, ids)]"""
    desc = struct.pack("<II", len(attrs), ATTR_SIZE) + b"".join(
        attr + struct.pack("<I", len(i)) + _string(name) + struct.pack("<%dQ" % len(i), *i)
        for attr, name, i in attrs)
    ids = [(attr, struct.pack("<%dQ" % len(i), *i)) for attr, _, i in attrs]
    perfdata_file.write(path, ids, b"".join(records),
                        [(HEADER_BUILD_ID, b"".join(build_ids)), (HEADER_EVENT_DESC, desc)])


def _comm(pid, tid, name, time, cpu, sid, misc=0):
    body = struct.pack("<II", pid, tid) + (name.encode() + b"\0").ljust(16, b"\0")
    return _record(COMM, misc, body + _trailer(pid, tid, time, cpu, sid))


def _mmap(pid, tid, start, name, time, cpu, sid, misc=USER):
    name = name.encode() + b"\0"
    body = struct.pack("<IIQQQ", pid, tid, start, 0x1000, 0) + \
        name.ljust((len(name) + 7) // 8 * 8, b"\0")
    return _record(MMAP, misc, body + _trailer(pid, tid, time, cpu, sid))


def _host(path, vcpus):
    # disabled, inherit, mmap, comm, sample_id_all
    flags = 1 << 0 | 1 << 1 | 1 << 18 | 1 << 8 | 1 << 9
    sids = [11, 12]     # per host CPU
    t0 = 5000000000
    recs = [_time_conv(10, 700, 1000)]
    recs.append(_comm(HOST_PID, HOST_PID, "qemu-system-x86", 0, 0, 0))
    for tid, name in vcpus:
        recs.append(_comm(HOST_PID, tid, name, 0, 0, 0))
    recs.append(_record(FINISHED_INIT, 0, b""))
    t = t0
    for rnd in range(4):
        for k in range(6):
            cpu = (k + rnd) % 2
            sid = sids[cpu]
            tid = vcpus[k % len(vcpus)][0]
            # in, on this CPU; then a sample of that thread; then out
            recs.append(_record(SWITCH_CPU_WIDE, 0, struct.pack("<II", HOST_PID, tid) +
                                _trailer(HOST_PID, tid, t, cpu, sid)))
            t += 3000
            recs.append(_record(SAMPLE, USER, struct.pack("<QQIIQII", sid, 0x401000 + 16 * k,
                                                          HOST_PID, tid, t, cpu, 0)))
            t += 2000
            recs.append(_record(SWITCH_CPU_WIDE, SWITCH_OUT, struct.pack("<II", 0, 0) +
                                _trailer(HOST_PID, tid, t, cpu, sid)))
            t += 4000
        recs.append(_mmap(HOST_PID, HOST_PID, 0x7f0000000000 + rnd * 0x10000, "/usr/lib/h%d.so"
                          % rnd, t, 0, sids[0]))
        t += 1000
        recs.append(_record(FINISHED_ROUND, 0, b""))
    attrs = [(_attr(1, flags, ST | IP), "task-clock", sids)]
    bids = [_build_id(USER, -1, VDSO_ID, "[vdso]"),
            _build_id(KERNEL, -1, bytes(range(100, 120)), "[kernel.kallsyms]")]
    _file(path, attrs, recs, bids)


def _guest(path, cpu_shift):
    flags = 1 << 0 | 1 << 1 | 1 << 18 | 1 << 8 | 1 << 9
    sids = [5, 6]       # per guest CPU (VCPU)
    recs = [_time_conv(9, 500, 77)]
    idx = struct.pack("<Q", 2) + b"".join(struct.pack("<QQqq", s, 0, c, -1)
                                          for c, s in enumerate(sids))
    recs.append(_record(ID_INDEX, 0, idx))
    # synthesized at start: zeroed trailers
    recs.append(_comm(1, 1, "systemd", 0, 0, 0))
    recs.append(_mmap(-1 & 0xffffffff, 0, 0xffffffff81000000, "[kernel.kallsyms]_text", 0, 0, 0,
                      misc=KERNEL))
    recs.append(_mmap(1, 1, 0x400000, "/usr/lib/systemd/systemd", 0, 0, 0))
    recs.append(_record(FINISHED_INIT, 0, b""))
    # guest perf time -> TSC (x 1.024) -> host perf time (x 0.68), so x 0.7: with
    # offset 0 and scale 1 these interleave with the host's rounds
    t = 7142871000     # about the host's 5000010000
    for rnd in range(4):
        for k in range(5):
            sid = sids[k % 2]
            cpu = k % 2 + cpu_shift
            pid = 100 + k
            kind = (k + rnd) % 5
            if kind == 0:
                recs.append(_comm(pid, pid, "task%d" % rnd, t, cpu, sid))
            elif kind == 1:
                recs.append(_mmap(pid, pid, 0x500000 + rnd * 0x1000, "/bin/g%d" % rnd, t, cpu,
                                  sid))
            elif kind == 2:
                recs.append(_record(FORK, 0, struct.pack("<IIIIQ", pid, 1, pid, 1, t) +
                                    _trailer(pid, pid, t, cpu, sid)))
            elif kind == 3:
                recs.append(_record(EXIT, 0, struct.pack("<IIIIQ", pid, 1, pid, 1, t) +
                                    _trailer(pid, pid, t, cpu, sid)))
            else:
                name = b"guest_ool_fn\0".ljust(16, b"\0")
                for ktype in (2, 1):    # out of line code, then BPF (left out)
                    recs.append(_record(KSYMBOL, KERNEL, struct.pack(
                        "<QIHH", 0xffffffffc0000000 + rnd * 64, 32, ktype, 0) + name +
                        _trailer(0, 0, t, cpu, sid)))
            t += 6000
            recs.append(_record(SAMPLE, KERNEL, struct.pack("<QIIQII", sid, pid, pid, t, cpu, 0)))
            t += 7000
        recs.append(_record(LOST, 0, struct.pack("<QQ", sids[1], 3) +
                            _trailer(0, 0, t, 1, sids[1])))
        recs.append(_record(FINISHED_ROUND, 0, b""))
    attrs = [(_attr(1, flags), "task-clock", sids)]
    bids = [_build_id(KERNEL, -1, bytes(range(200, 220)), "[kernel.kallsyms]"),
            _build_id(USER, -1, GUEST_VDSO_ID, "[vdso]")]
    _file(path, attrs, recs, bids)


def write(host, guest, vcpus=((4243, "CPU 0/KVM"), (4244, "CPU 1/KVM"), (4246, "CPU 3/KVM")),
          cpu_shift=0):
    """cpu_shift: added to the guest records' CPUs (past the host's VCPUs:
    perf's unknown VCPU error)."""
    _host(host, list(vcpus))
    _guest(guest, cpu_shift)
