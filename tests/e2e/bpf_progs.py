"""Loads small BPF programs (raw instructions through the bpf syscall, no
library) so that a recording made meanwhile describes them in its header
(HEADER_BPF_PROG_INFO, HEADER_BPF_BTF).  Each one stays loaded while its
file descriptor is open."""
import contextlib
import ctypes
import os
import struct

_libc = ctypes.CDLL(None, use_errno=True)
_SYS_BPF = 321
_PROG_LOAD, _BTF_LOAD = 5, 18
_TRACEPOINT = 5
_keep = []      # buffers the kernel reads while a call runs


def _bpf(cmd, attr):
    buf = ctypes.create_string_buffer(attr)
    fd = _libc.syscall(_SYS_BPF, cmd, buf, len(attr))
    if fd < 0:
        raise OSError(ctypes.get_errno(), os.strerror(ctypes.get_errno()))
    return fd


def _addr(data):
    buf = ctypes.create_string_buffer(data, len(data))
    _keep.append(buf)
    return ctypes.addressof(buf)


def _insn(code, dst=0, src=0, off=0, imm=0):
    return struct.pack("<BBhi", code, (src << 4) | dst, off, imm)


R0_ZERO, EXIT = _insn(0xb7, 0), _insn(0x95)
# main: call the function 2 instructions on (a bpf-to-bpf call), return 0
TWO_FUNCS = _insn(0x85, 0, 1, 0, 2) + R0_ZERO + EXIT + R0_ZERO + EXIT


def btf(func_names):
    """Raw BTF: int, void *, int (*)(void *ctx), a static FUNC of that
    prototype per name (type ids 4, 5, ...)."""
    strings = b"\0int\0ctx\0"
    offs = []
    for name in func_names:
        offs.append(len(strings))
        strings += name.encode() + b"\0"
    types = struct.pack("<IIII", 1, 1 << 24, 4, (1 << 24) | 32)        # 1: int
    types += struct.pack("<III", 0, 2 << 24, 0)                        # 2: void *
    types += struct.pack("<IIIII", 0, 13 << 24 | 1, 1, 5, 2)           # 3: int (void *ctx)
    for off in offs:
        types += struct.pack("<III", off, 12 << 24, 3)                 # FUNC, static
    header = struct.pack("<HBBIIIII", 0xeB9F, 1, 0, 24, 0, len(types), len(types),
                         len(strings))
    return header + types + strings


def load(name, insns=R0_ZERO + EXIT, btf_funcs=None, func_offsets=(0,)):
    """A tracepoint program named name (its functions named btf_funcs in
    BTF when given, at those instruction offsets); returns its fds."""
    fds, btf_fd, finfo = [], 0, 0
    if btf_funcs:
        blob = btf(btf_funcs)
        btf_fd = _bpf(_BTF_LOAD, struct.pack("<QQIII", _addr(blob), 0, len(blob), 0, 0)
                      .ljust(128, b"\0"))
        fds.append(btf_fd)
        finfo = _addr(b"".join(struct.pack("<II", off, 4 + i)
                               for i, off in enumerate(func_offsets)))
    attr = struct.pack("<IIQQIIQII16sIIIIQI", _TRACEPOINT, len(insns) // 8, _addr(insns),
                       _addr(b"GPL\0"), 0, 0, 0, 0, 0, name.encode()[:15], 0, 0, btf_fd,
                       8 if btf_funcs else 0, finfo, len(func_offsets) if btf_funcs else 0)
    fds.append(_bpf(_PROG_LOAD, attr.ljust(128, b"\0")))
    return fds


def _obj_id(fd, info_len, id_offset):
    info = ctypes.create_string_buffer(info_len)
    attr = struct.pack("<IIQ", fd, info_len, ctypes.addressof(info)).ljust(128, b"\0")
    _bpf(15, attr)      # BPF_OBJ_GET_INFO_BY_FD
    return struct.unpack_from("<I", info.raw, id_offset)[0]


def prog_id(fd):
    """The id of the program open as fd (struct bpf_prog_info's id)."""
    return _obj_id(fd, 232, 4)


def btf_id(fd):
    """The id of the BTF open as fd (struct bpf_btf_info's id)."""
    return _obj_id(fd, 32, 12)


def attach_to_sys_enter(prog_fd):
    """Runs the program at each of this process's syscalls (a
    raw_syscalls:sys_enter perf event of its own); returns the event's fd."""
    import fcntl
    with open("/sys/kernel/tracing/events/raw_syscalls/sys_enter/id") as f:
        tp = int(f.read())
    # PERF_TYPE_TRACEPOINT, size 128, config tp, sample_period 1, disabled 0
    attr = ctypes.create_string_buffer(struct.pack("<IIQQ", 2, 128, tp, 1).ljust(128, b"\0"))
    fd = _libc.syscall(298, attr, 0, -1, -1, 0)
    if fd < 0:
        raise OSError(ctypes.get_errno(), os.strerror(ctypes.get_errno()))
    fcntl.ioctl(fd, 0x40042408, prog_fd)    # PERF_EVENT_IOC_SET_BPF
    fcntl.ioctl(fd, 0x2400, 0)              # PERF_EVENT_IOC_ENABLE
    return fd


@contextlib.contextmanager
def some_loaded():
    """Two programs loaded (the second of two functions) while in the
    block; pytest.skip where they cannot be."""
    import pytest
    fds = []
    try:
        fds += load("pcl_some_one")
        fds += load("pcl_some_two", TWO_FUNCS, ["pcl_some_main", "pcl_some_sub"], (0, 3))
    except OSError as e:
        for fd in fds:
            os.close(fd)
        pytest.skip(f"BPF programs cannot be loaded here: {e}")
    try:
        yield
    finally:
        for fd in fds:
            os.close(fd)


def kallsyms_bpf():
    """The "[bpf]" lines of /proc/kallsyms: the programs loaded now."""
    with open("/proc/kallsyms") as f:
        return sorted(line for line in f if line.rstrip().endswith("\t[bpf]"))


def while_programs_stay(*runs, tries=5, settle=10.0):
    """Each of runs called in turn while the system's set of BPF programs
    stays as it was before (other tests load and unload theirs; a program
    closed by a run leaves kallsyms a little later): retried a few times;
    the last try's results."""
    import time
    for _ in range(tries):
        before, steady, outs = kallsyms_bpf(), True, []
        for run in runs:
            outs.append(run())
            end = time.monotonic() + settle
            while kallsyms_bpf() != before and time.monotonic() < end:
                time.sleep(0.05)
            steady = steady and kallsyms_bpf() == before
        if steady:
            break
    return outs


if __name__ == "__main__":
    # bpf_progs.py SECONDS [NAME]: syscalls, each running a long BPF program
    # (NAME, "pcl_busy" by default, 400 instructions), so that samples land
    # in BPF code; "ready" on stdout once it runs
    import sys
    import time
    busy = _insn(0xb7, 0) + _insn(0x07, 0, 0, 0, 1) * 400 + EXIT
    prog = load(sys.argv[2] if len(sys.argv) > 2 else "pcl_busy", busy)[-1]
    attach_to_sys_enter(prog)
    print("ready", flush=True)
    end = time.monotonic() + float(sys.argv[1])
    while time.monotonic() < end:
        for _ in range(1000):
            os.getppid()
