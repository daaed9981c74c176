"""Writes perf.data files such as `perf record --call-graph lbr` makes on
an Intel machine, for machines without LBR: one event cycles:u whose
samples carry IP, TID, TIME, CPU, PERIOD, CALLCHAIN (the user marker and
the ip, as the kernel gives with an LBR call stack) and BRANCH_STACK with
its hardware index (branch_sample_type USER|CALL_STACK|NO_FLAGS|NO_CYCLES|
HW_INDEX).  The header names the machine (arch, cpuid) and, unless told
otherwise, the LBR depth in HEADER_CPU_PMU_CAPS ("branches"), which perf
--stitch-lbr needs.

Each sample is a call stack of the report_work fixture (mapped as its own
text segment): main (or worker, the second thread's) calling recurse,
recurse calling itself `depth - 1` times, then hot_math, where the sample
lands.  The branch stacks come from a model of the hardware's call-stack
LBR, one per thread: a ring of max_lbr entries whose top (the hardware
index) moves up on a call, which overwrites the oldest entry once the ring
is full, and down on a return, which forgets an entry; each sample shows
the entries from the top down, at most max_lbr of them.  So a stack deeper
than the ring is cut, which is what --stitch-lbr mends from the thread's
previous sample.
"""
import struct
import subprocess

import perfdata_file
from perfdata_mem import _record, _string

IP, TID, TIME, CPU, PERIOD, CALLCHAIN, BRANCH_STACK = 1, 2, 4, 128, 256, 32, 2048
BRANCH_USER, BRANCH_CALL_STACK, BRANCH_NO_FLAGS, BRANCH_NO_CYCLES, BRANCH_HW_INDEX = \
    1, 1 << 11, 1 << 14, 1 << 15, 1 << 17
CONTEXT_KERNEL, CONTEXT_USER = (1 << 64) - 128, (1 << 64) - 512
KERNEL_IPS = (0xffffffff81a01230, 0xffffffff81c00080)
MMAP2, COMM, SAMPLE, FINISHED_ROUND = 10, 3, 9, 68
HEADER_ARCH, HEADER_NRCPUS, HEADER_CPUID, HEADER_EVENT_DESC, HEADER_CPU_PMU_CAPS = \
    6, 7, 9, 12, 28
ATTR_SIZE = 128
BASE = 0x55d0c0de0000
PID = 4242
COMMS = ("report_work", "rw-worker")


def symbols(binary):
    """The fixture's function addresses where it is mapped (nm), by name."""
    out = subprocess.run(["nm", binary], capture_output=True, text=True, check=True).stdout
    return {f[2]: BASE + int(f[0], 16) for f in (line.split() for line in out.splitlines())
            if len(f) == 3 and f[1] in "tT"}


def _trailer(tid, time, cpu):
    return struct.pack("<IIQII", PID, tid, time, cpu, 0)


def _attr(sample_type, branch_sample_type):
    # disabled inherit exclude_kernel exclude_hv mmap comm freq enable_on_exec
    # task sample_id_all exclude_guest mmap2 comm_exec
    flags = (1 << 0 | 1 << 1 | 1 << 5 | 1 << 6 | 1 << 8 | 1 << 9 | 1 << 10 | 1 << 12 |
             1 << 13 | 1 << 18 | 1 << 20 | 1 << 23 | 1 << 24)
    a = struct.pack("<IIQQQQQIIQQQ", 0, ATTR_SIZE, 0, 4000, sample_type, 0, flags, 0, 0, 0, 0,
                    branch_sample_type)
    return a.ljust(ATTR_SIZE, b"\0")


class Lbr:
    """One thread's call-stack LBR: a ring, its top, how many entries it
    holds, and the call stack it stands for."""

    def __init__(self, depth):
        self.ring = [None] * depth
        self.top = depth - 1        # the first call goes to entry 0
        self.count = 0
        self.calls = []

    def move_to(self, calls):
        """Returns from the calls not shared with the new stack, then
        makes the new stack's calls."""
        keep = 0
        while keep < min(len(calls), len(self.calls)) and calls[keep] == self.calls[keep]:
            keep += 1
        for _ in range(len(self.calls) - keep):
            self.top = (self.top - 1) % len(self.ring)
            self.count = max(self.count - 1, 0)
        for call in calls[keep:]:
            self.top = (self.top + 1) % len(self.ring)
            self.ring[self.top] = call
            self.count = min(self.count + 1, len(self.ring))
        self.calls = list(calls)

    def stack(self):
        """(hardware index, entries from the top down)."""
        n = len(self.ring)
        return self.top, [self.ring[(self.top - i) % n] for i in range(self.count)]


def call_stack(sym, thread, depth, leaf):
    """The calls (from, to, flags) of a sample of thread 0 or 1 at this
    recursion depth, outermost first, and the sample's ip: in hot_math,
    or with leaf "recurse" in the innermost recurse."""
    outer = sym["main"] + 0x40 if thread == 0 else sym["worker"] + 0x10
    calls = [(outer, sym["recurse"], 0)]
    calls += [(sym["recurse"] + 0x1c, sym["recurse"], 0)] * (depth - 1)
    if leaf == "recurse":
        return calls, sym["recurse"] + 0x10
    calls.append((sym["recurse"] + 0x26, sym["hot_math"], 0))
    return calls, sym["hot_math"] + 0x10


def write(path, binary, samples, max_lbr=8, caps=True, caps_depth=None, arch="x86_64",
          cpuid="GenuineIntel,6,85,7", hw_index=True, kernel=False):
    """samples: (thread 0 or 1, recursion depth[, leaf]) in time order
    (see call_stack()).
    caps=False leaves HEADER_CPU_PMU_CAPS out (perf then knows no LBR
    depth), caps_depth gives it another depth than the ring's (max_lbr);
    hw_index=False records no hardware index.  kernel=True: every third
    sample is in the kernel, its chain two kernel addresses (no kernel
    map: unresolved) before the user marker."""
    sym = symbols(binary)
    st = IP | TID | TIME | CPU | PERIOD | CALLCHAIN | BRANCH_STACK
    bst = BRANCH_USER | BRANCH_CALL_STACK | BRANCH_NO_FLAGS | BRANCH_NO_CYCLES
    if hw_index:
        bst |= BRANCH_HW_INDEX
    t = 1000000000
    recs = []
    for i, comm in enumerate(COMMS):
        body = struct.pack("<II", PID, PID + i) + (comm.encode() + b"\0").ljust(16, b"\0")
        recs.append(_record(COMM, 2, body + _trailer(PID + i, t, 0)))
    # the text segment (file offset 0x1000 at 0x1000)
    name = binary.encode() + b"\0"
    body = struct.pack("<IIQQQIIQQII", PID, PID, BASE + 0x1000, 0x1000, 0x1000, 8, 1, 77, 0,
                       5, 2) + name.ljust((len(name) + 7) // 8 * 8, b"\0")
    recs.append(_record(MMAP2, 2, body + _trailer(PID, t, 0)))
    lbrs = [Lbr(max_lbr), Lbr(max_lbr)]
    for k, (thread, depth, *leaf) in enumerate(samples):
        t += 1000
        lbr = lbrs[thread]
        calls, ip = call_stack(sym, thread, depth, leaf[0] if leaf else "hot_math")
        lbr.move_to(calls)
        hw_idx, entries = lbr.stack()
        assert entries, "sample %d: an empty LBR call stack" % k
        ip += 4 * (k % 3)
        chain, misc = [CONTEXT_USER, ip], 2
        if kernel and k % 3 == 1:
            ip, misc = KERNEL_IPS[0] + 4 * (k % 2), 1
            chain = [CONTEXT_KERNEL, ip, KERNEL_IPS[1]] + chain
        body = struct.pack("<QIIQII", ip, PID, PID + thread, t, k % 2, 0)
        body += struct.pack("<Q", 100000 + k)
        body += struct.pack("<Q%dQ" % len(chain), len(chain), *chain)
        body += struct.pack("<Q", len(entries))
        if hw_index:
            body += struct.pack("<Q", hw_idx)
        body += b"".join(struct.pack("<QQQ", *e) for e in entries)
        recs.append(_record(SAMPLE, misc, body))
    recs.append(_record(FINISHED_ROUND, 0, b""))
    data = b"".join(recs)

    attr = _attr(st, bst)
    sections = [(HEADER_ARCH, _string(arch)), (HEADER_NRCPUS, struct.pack("<II", 2, 2)),
                (HEADER_CPUID, _string(cpuid)),
                (HEADER_EVENT_DESC, struct.pack("<II", 1, ATTR_SIZE) + attr +
                 struct.pack("<I", 0) + _string("cycles:u"))]
    if caps:
        pairs = [("branches", str(caps_depth or max_lbr)), ("max_precise", "3"),
                 ("pmu_name", "skylake")]
        blob = struct.pack("<I", len(pairs))
        for cap, value in pairs:
            blob += _string(cap) + _string(value)
        sections.append((HEADER_CPU_PMU_CAPS, blob))
    perfdata_file.write(path, [(attr, b"")], data, sections)


# Depths growing past the ring and back: the first samples fit, the next
# are cut more and more (each stitched to the one before), then a return
# below the cut (nothing the same where the previous stack had it).
DEEPER = [(0, 3), (0, 6), (0, 9), (0, 12), (0, 15), (0, 18), (0, 14), (0, 5), (0, 11)]
# Stacks the hardware index says nothing of below.  perf's blind spot: a
# stack in recurse 4 calls deep, then one 11 calls deep whose oldest entry
# is that stack's newest, one ring slot above its own newest, which perf
# takes for a whole ring away; then one stitched to it.  Stacks within the
# ring, and a jump deeper by more than the ring from a short stack (the
# last stack ends above this one's oldest entry).  (A return below what
# the ring still holds would leave a sample no entry, which perf reads
# past: the model refuses it.)
UNCUT = [(0, 4, "recurse"), (0, 10), (0, 13), (1, 1), (1, 3), (1, 2, "recurse"), (1, 12)]
# Two threads, each going deeper, their samples interleaved.
INTERLEAVED = [(0, 4), (1, 5), (0, 9), (1, 8), (0, 13), (1, 11), (1, 16), (0, 17), (0, 20),
               (1, 7)]


if __name__ == "__main__":
    import sys
    write(sys.argv[1], sys.argv[2], INTERLEAVED if "two" in sys.argv else DEEPER,
          caps="nocaps" not in sys.argv)
