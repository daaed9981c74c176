"""Writes perf.data files such as `perf lock record` makes on a kernel with
lockdep (CONFIG_LOCKDEP, CONFIG_LOCK_STAT), which this one lacks: the
tracepoints lock:lock_acquire, lock_acquired, lock_contended and
lock_release, sampled with -R -c 1, and a TRACING_DATA feature carrying
their format text as such a kernel's tracefs gives it.

The samples come from a few threads taking made-up locks (several
instances of one class, names long enough for perf to cut) in every way
lockdep reports them: plain, contended, try and read acquisitions (read
ones nested), and broken sequences (an acquire while holding, acquired
or contended out of turn, a release of a lock being waited for).  One
thread has no COMM.
"""
import random
import struct

import perfdata_file
from perfdata_mem import _record, _string  # the layout every synthesized file shares

IP, TID, TIME, ID, CPU, PERIOD, RAW, IDENTIFIER = 1, 2, 4, 64, 128, 256, 1024, 1 << 16
COMM, SAMPLE, FINISHED_ROUND = 3, 9, 68
HEADER_TRACING_DATA, HEADER_NRCPUS, HEADER_EVENT_DESC = 1, 7, 12
ATTR_SIZE = 128
TRY, READ = 1, 2

_COMMON = ("\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
           "\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
           "\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
           "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n")

# name, ftrace id, sample id, fields after the common ones, print fmt
EVENTS = [
    ("lock_acquire", 1301, 9001,
     "\tfield:unsigned int flags;\toffset:8;\tsize:4;\tsigned:0;\n"
     "\tfield:__data_loc char[] name;\toffset:12;\tsize:4;\tsigned:0;\n"
     "\tfield:void * lockdep_addr;\toffset:16;\tsize:8;\tsigned:0;\n",
     '"%s%s%s", (REC->flags & 1) ? "try " : "", (REC->flags & 2) ? "read " : "", '
     '__get_str(name)'),
]
for _i, _name in enumerate(("lock_acquired", "lock_contended", "lock_release")):
    EVENTS.append((_name, 1302 + _i, 9002 + _i,
                   "\tfield:__data_loc char[] name;\toffset:8;\tsize:4;\tsigned:0;\n"
                   "\tfield:void * lockdep_addr;\toffset:16;\tsize:8;\tsigned:0;\n",
                   '"%p %s", REC->lockdep_addr, __get_str(name)'))

HEADER_PAGE = ("\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
               "\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n"
               "\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
               "\tfield: char data;\toffset:16;\tsize:4080;\tsigned:0;\n")
HEADER_EVENT = ("# compressed entry header\n\ttype_len    :    5 bits\n"
                "\ttime_delta  :   27 bits\n\tarray       :   32 bits\n\n"
                "\tpadding     : type == 29\n\ttime_extend : type == 30\n"
                "\ttime_stamp : type == 31\n\tdata max type_len  == 28\n")


def _format(name, tid, fields, fmt):
    return "name: %s\nID: %d\nformat:\n%s%s\nprint fmt: %s\n" % (name, tid, _COMMON, fields, fmt)


def tracing_data():
    """The TRACING_DATA feature: perf's layout, version 0.6, no kallsyms."""
    out = b"\x17\x08\x44tracing0.6\0" + struct.pack("<BBI", 0, 8, 4096)
    for name, text in (("header_page", HEADER_PAGE), ("header_event", HEADER_EVENT)):
        out += name.encode() + b"\0" + struct.pack("<Q", len(text)) + text.encode()
    out += struct.pack("<I", 0)                 # ftrace events
    out += struct.pack("<I", 1) + b"lock\0" + struct.pack("<I", len(EVENTS))
    for e in EVENTS:
        text = _format(e[0], e[1], e[3], e[4]).encode()
        out += struct.pack("<Q", len(text)) + text
    out += struct.pack("<I", 0) + struct.pack("<I", 0)      # kallsyms, printk
    out += struct.pack("<Q", 0)                 # saved cmdlines
    return out


def _attr(config, sample_type):
    flags = 1 << 1 | 1 << 18 | 1 << 23     # inherit, sample_id_all, comm_exec
    return struct.pack("<IIQQQQQIIQQ", 2, ATTR_SIZE, config, 1, sample_type, 0, flags,
                       0, 0, 0, 0).ljust(ATTR_SIZE, b"\0")


ST = IDENTIFIER | IP | TID | TIME | ID | CPU | PERIOD | RAW


def _trailer(pid, tid, time, sid, cpu):
    return struct.pack("<IIQQIIQ", pid, tid, time, sid, cpu, 0, sid)


def _payload(event, pid, name, addr, flags):
    """The raw tracepoint record: common fields, then the event's."""
    ftrace_id = next(e[1] for e in EVENTS if e[0] == event)
    raw = bytearray(24)
    struct.pack_into("<HBBi", raw, 0, ftrace_id, 0, 0, pid)
    if event == "lock_acquire":
        struct.pack_into("<I", raw, 8, flags)
        loc = 12
    else:
        loc = 8
    struct.pack_into("<Q", raw, 16, addr)
    text = name.encode() + b"\0"
    struct.pack_into("<I", raw, loc, len(raw) | len(text) << 16)
    raw += text
    raw += b"\0" * (-(len(raw) + 4) % 8)
    return bytes(raw)


# lock classes and their instances (addresses); one name is 20 characters
# long and others longer, which perf cuts
LOCKS = [
    ("&mm->mmap_lock", [0xffff888102a2a960, 0xffff888145d7a960, 0xffff888109ea0660]),
    ("&rq->__lock", [0xffff88813bc2c8c0, 0xffff88813bcac8c0]),
    ("&sb->s_type->i_mutex_key#7", [0xffff8881057e0a18]),
    ("rcu_read_lock", [0xffffffff830f3100]),
    ("&p->pi_lock", [0xffff888100c60b28, 0xffff888100c61b28]),
    ("tasklist_lock", [0xffffffff83005040]),
    ("&(&zone->lock)->rlock", [0xffff88883ffd5d00]),
    ("sb_writers#4", [0xffff888103f2c418]),
]
THREADS = [(4242, 4242, "lockstress"), (4242, 4243, "lockstress"), (4242, 4244, "worker"),
           (5150, 5150, "kworker/0:1"), (5151, 5151, None)]


def _sequences(rng, rounds):
    """Per thread, a list of (event, lock name, address, flags, delay)."""
    out = {}
    instances = [(name, addr) for name, addrs in LOCKS for addr in addrs]
    for _, tid, _ in THREADS:
        seq = []
        for _ in range(rounds):
            name, addr = rng.choice(instances)
            kind = rng.choice(("plain", "plain", "contended", "contended", "contended", "try",
                               "read", "read2", "broken"))

            def d():
                return rng.choice((rng.randrange(50, 900), rng.randrange(900, 90000),
                                   rng.randrange(1000000, 4000000)))
            if kind == "plain":
                seq += [("lock_acquire", name, addr, 0, d()), ("lock_acquired", name, addr, 0, d()),
                        ("lock_release", name, addr, 0, d())]
            elif kind == "contended":
                seq += [("lock_acquire", name, addr, 0, d()),
                        ("lock_contended", name, addr, 0, d()),
                        ("lock_acquired", name, addr, 0, d()), ("lock_release", name, addr, 0, d())]
            elif kind == "try":
                seq += [("lock_acquire", name, addr, TRY, d()),
                        ("lock_release", name, addr, 0, d())]
            elif kind == "read":
                seq += [("lock_acquire", name, addr, READ, d()),
                        ("lock_release", name, addr, 0, d())]
            elif kind == "read2":
                seq += [("lock_acquire", name, addr, READ, d()),
                        ("lock_acquire", name, addr, READ | TRY, d()),
                        ("lock_release", name, addr, 0, d()), ("lock_release", name, addr, 0, d())]
            else:
                seq += rng.choice((
                    [("lock_acquire", name, addr, 0, d()), ("lock_acquire", name, addr, 0, d())],
                    [("lock_acquired", name, addr, 0, d())],
                    [("lock_contended", name, addr, 0, d())],
                    [("lock_acquire", name, addr, 0, d()), ("lock_release", name, addr, 0, d())],
                    [("lock_acquire", name, addr, 0, d()), ("lock_contended", name, addr, 0, d()),
                     ("lock_contended", name, addr, 0, d())],
                    [("lock_acquire", name, addr, READ, d()), ("lock_acquire", name, addr, 0, d())],
                    [("lock_acquire", name, addr, 0, d()), ("lock_acquired", name, addr, 0, d()),
                     ("lock_acquired", name, addr, 0, d())],
                    [("lock_release", name, addr, 0, d())],
                ))
        out[tid] = seq
    return out


def write(path, seed=1, rounds=60, broken=True):
    """Writes the file.  broken=False leaves out the broken sequences (perf
    then prints no debugging footer)."""
    rng = random.Random(seed)
    t0 = 5000000000
    recs = []
    sid0 = EVENTS[0][2]
    for pid, tid, comm in THREADS:
        if comm:
            body = struct.pack("<II", pid, tid) + (comm.encode() + b"\0").ljust(16, b"\0")
            recs.append(_record(COMM, 0, body + _trailer(pid, tid, t0, sid0, 0)))
    seqs = _sequences(rng, rounds)
    if not broken:
        for tid in seqs:
            seqs[tid] = _drop_broken(seqs[tid])
    timeline = []
    for k, (pid, tid, _) in enumerate(THREADS):
        t = t0 + 100 + 37 * k
        for event, name, addr, flags, delay in seqs[tid]:
            t += delay
            timeline.append((t, tid, pid, k % 4, event, name, addr, flags))
    timeline.sort()
    samples = []
    for t, tid, pid, cpu, event, name, addr, flags in timeline:
        sid = next(e[2] for e in EVENTS if e[0] == event)
        raw = _payload(event, pid, name, addr, flags)
        body = struct.pack("<QQIIQQIIQI", sid, 0xffffffff81123450 + 16 * (sid % 8), pid, tid, t,
                           sid, cpu, 0, 1, len(raw)) + raw
        samples.append(_record(SAMPLE, 1, body))
    for i in range(0, len(samples), 200):
        recs += samples[i:i + 200]
        recs.append(_record(FINISHED_ROUND, 0, b""))
    data = b"".join(recs)
    attrs = [_attr(e[1], ST) for e in EVENTS]
    desc = struct.pack("<II", len(EVENTS), ATTR_SIZE)
    for a, e in zip(attrs, EVENTS):
        desc += a + struct.pack("<I", 1) + _string("lock:" + e[0]) + struct.pack("<Q", e[2])
    sections = [(HEADER_TRACING_DATA, tracing_data()),
                (HEADER_NRCPUS, struct.pack("<II", 4, 4)), (HEADER_EVENT_DESC, desc)]
    perfdata_file.write(path, [(a, struct.pack("<Q", e[2])) for a, e in zip(attrs, EVENTS)],
                        data, sections)


def _drop_broken(seq):
    """The sequence with every lock's events kept only while they follow
    lockdep's order (acquire, [contended], acquired, release; reads nest)."""
    state, out = {}, []
    for ev in seq:
        event, _, addr, flags, _ = ev
        s = state.get(addr, "free")
        ok = ((event == "lock_acquire" and (s == "free" or (s.startswith("read") and flags & READ)))
              or (event == "lock_contended" and s == "acquiring")
              or (event == "lock_acquired" and s in ("acquiring", "contended"))
              or (event == "lock_release" and (s == "held" or s.startswith("read"))))
        if not ok:
            continue
        out.append(ev)
        if event == "lock_acquire":
            if s.startswith("read"):
                state[addr] = "read%d" % (int(s[4:]) + 1)
            else:
                state[addr] = "read1" if flags else "acquiring"
        elif event == "lock_contended":
            state[addr] = "contended"
        elif event == "lock_acquired":
            state[addr] = "held"
        elif s.startswith("read") and int(s[4:]) > 1:
            state[addr] = "read%d" % (int(s[4:]) - 1)
        else:
            state[addr] = "free"
    return out


if __name__ == "__main__":
    import sys
    write(sys.argv[1], broken="clean" not in sys.argv)
