"""Writes perf.data files such as `perf mem record` makes on x86, for machines
without memory-sampling PMUs: the events cpu/mem-loads,ldlat=30/P and
cpu/mem-stores/P with IP, TID, TIME, ADDR, ID, CPU, PERIOD, WEIGHT (or
WEIGHT_STRUCT), DATA_SRC, and optionally PHYS_ADDR and DATA_PAGE_SIZE.

One process runs the report_work fixture (PIE): its text and data segments
are mapped, so instruction addresses resolve to functions and data addresses
to its objects (buf.0, fp_*) or to nothing (stack, heap).  The data_src
values walk every field of the PERF_SAMPLE_DATA_SRC layout (op, lvl, snoop,
lock, dtlb, lvl_num, remote, snoopx, blk, hops), alone and combined.
"""
import struct

IP, TID, TIME, ADDR, ID, CPU, PERIOD, CALLCHAIN = 1, 2, 4, 8, 64, 128, 256, 32
WEIGHT, DATA_SRC, IDENTIFIER, BRANCH_STACK = 1 << 14, 1 << 15, 1 << 16, 1 << 11
PHYS_ADDR, DATA_PAGE_SIZE, WEIGHT_STRUCT = 1 << 19, 1 << 22, 1 << 24

MMAP, MMAP2, COMM, SAMPLE, FINISHED_ROUND = 1, 10, 3, 9, 68
HEADER_NRCPUS, HEADER_EVENT_DESC, HEADER_NUMA_TOPOLOGY, HEADER_MEM_TOPOLOGY = 7, 12, 14, 22
HEADER_CPU_PMU_CAPS = 28
MEM_BLOCK = 0x8000000
ATTR_SIZE = 128
BASE = 0x55d0c0de0000
PID = 4242


def data_src(op=0, lvl=0, snoop=0, lock=0, dtlb=0, lvl_num=0, remote=0, snoopx=0, blk=0,
             hops=0):
    return (op | lvl << 5 | snoop << 19 | lock << 24 | dtlb << 26 | lvl_num << 33 |
            remote << 37 | snoopx << 38 | blk << 40 | hops << 43)


# (data_src, weight) pairs: what Intel's loads report, then every bit alone,
# then odd mixtures (several levels at once, remote with hops, no fields).
def _sources():
    out = [
        data_src(op=2, lvl=0x2 | 0x8, snoop=2, lock=1, dtlb=0x2 | 0x8, lvl_num=1),  # L1 hit
        data_src(op=2, lvl=0x2 | 0x10, snoop=1, dtlb=0x2 | 0x8 | 0x10, lvl_num=0xc),  # LFB
        data_src(op=2, lvl=0x2 | 0x20, snoop=2, dtlb=0x4 | 0x20, lvl_num=2),  # L2
        data_src(op=2, lvl=0x2 | 0x40, snoop=4, dtlb=0x2 | 0x10, lvl_num=3),  # L3 snoop hit
        data_src(op=2, lvl=0x2 | 0x40, snoop=16, lock=2, dtlb=0x4 | 0x40),  # HitM, locked
        data_src(op=2, lvl=0x4 | 0x80, snoop=8, dtlb=0x4 | 0x20, lvl_num=0xd),  # RAM miss
        data_src(op=2, lvl=0x2 | 0x100, snoop=4, lvl_num=0xd, remote=1, hops=2),
        data_src(op=2, lvl=0x2 | 0x400, snoop=16, remote=1, lvl_num=0xb, hops=3),
        data_src(op=2, lvl=0x2 | 0x800, snoopx=1, remote=1),
        data_src(op=2, lvl=0x1000, snoop=1, blk=2),
        data_src(op=2, lvl=0x2000, blk=4, lock=1),
        data_src(op=2, lvl=0x2 | 0x8 | 0x20, snoop=2 | 4, dtlb=0x8 | 0x10, blk=2 | 4),
        data_src(op=4, lvl=0x2 | 0x8, dtlb=0x1, lock=1),     # a store that hit L1
        data_src(op=4, lvl=0x4 | 0x8),
        data_src(op=4, lvl=0x1, snoop=1, dtlb=0x1, lock=1, blk=1),
        data_src(op=8, lvl=0x2 | 0x200, lvl_num=0xe, hops=4, remote=1),
        data_src(op=16 | 2, lvl=0x2 | 0x40 | 0x80, lvl_num=4, snoopx=2),
        data_src(op=1, lvl=0x1, snoop=1, dtlb=1, lock=1, blk=1, lvl_num=0xf),
        data_src(lvl_num=5, hops=1),
        data_src(op=2, lvl=0x2, lvl_num=0xa),
        data_src(op=2, lvl=0x4, lvl_num=7, lock=3, blk=6 | 1),
        data_src(op=2, lvl_num=0xc, remote=1),
        data_src(lvl=0x4, lvl_num=9, snoop=16 | 8, snoopx=1 | 2, dtlb=0x7f),
        0,
        (1 << 46) | data_src(op=2, lvl=0x2 | 0x8),    # reserved bits set
    ]
    return out


def _attr(config, config1, sample_type, name_period, freq=False, branch_sample_type=0):
    flags = (1 << 0 | 1 << 1 | 1 << 8 | 1 << 9 | 1 << 12 | 1 << 13 | 1 << 17 | 1 << 18 |
             1 << 23 | 1 << 24 | 3 << 15)
    if freq:
        flags |= 1 << 10
    a = struct.pack("<IIQQQQQIIQQQ", 4, ATTR_SIZE, config, name_period, sample_type, 0, flags,
                    0, 0, config1, 0, branch_sample_type)
    return a.ljust(ATTR_SIZE, b"\0")


def _id_trailer(st, pid, tid, time, sid, cpu):
    out = b""
    out += struct.pack("<II", pid, tid)
    out += struct.pack("<Q", time)
    out += struct.pack("<Q", sid)
    out += struct.pack("<II", cpu, 0)
    out += struct.pack("<Q", sid)     # IDENTIFIER last in sample_id
    return out


def _record(typ, misc, body):
    return struct.pack("<IHH", typ, misc, 8 + len(body)) + body


def _string(s):
    b = s.encode() + b"\0"
    b = b.ljust((len(b) + 63) // 64 * 64, b"\0")
    return struct.pack("<I", len(b)) + b


HEAP, SHM, LONG = 0x55d0c1000000, 0x7f0000200000, 0x55d0c2001000


def write(path, binary, stores=True, loads=True, phys=False, page_size=False,
          weight_struct=False, nr=None, more_maps=False, numa=False, long_names=None,
          mem_topology=False, callchains=False, kernel=None, kernel_placed=True, lbr=None):
    """Writes the file; returns nothing.  binary: the report_work fixture.
    more_maps: a heap (anonymous) and a shared file mapping too, and a
    second process, for the data cache lines perf tells apart by them.
    numa: a NUMA topology, which perf c2c report needs: True for one node
    with all 4 CPUs, 2 for two nodes of 2 CPUs each.  long_names: the
    jit_long_names fixture, mapped too, for IPs in its very long symbols.
    mem_topology: which node each memory block is on (blocks 52 and 53 on
    nodes 0 and 1, with two nodes), and physical addresses in either.
    callchains: user call chains of two or three frames.
    kernel: (the kernel's _text, a function, a data object) as this
    machine's /proc/kallsyms has them: a kernel text map, and every fifth
    sample in the kernel, in the function, touching the object.
    kernel_placed=False: the map's pgoff is 0, as perf record writes it
    where kptr_restrict hides _text.
    lbr=N (with callchains): the user chains are LBR call stacks instead,
    as record --call-graph lbr gives them, from an N-entry ring per thread
    with hardware indexes (perfdata_lbr.Lbr): each thread's samples in
    recurse depths going up and down, and N in the CPU PMU capabilities
    (the LBR depth --stitch-lbr needs)."""
    st = IDENTIFIER | IP | TID | TIME | ADDR | ID | CPU | PERIOD | DATA_SRC
    st |= WEIGHT_STRUCT if weight_struct else WEIGHT
    if phys:
        st |= PHYS_ADDR
    if callchains:
        st |= CALLCHAIN
    if callchains and lbr:
        import perfdata_lbr     # (it imports this module)
        st |= BRANCH_STACK
        sym, rings = perfdata_lbr.symbols(binary), {}
    if page_size:
        st |= DATA_PAGE_SIZE
    events = []
    if loads:
        events.append(("cpu/mem-loads,ldlat=30/P", 0x1cd, 30, 101))
    if stores:
        events.append(("cpu/mem-stores/P", 0x82d0, 0, 202))
    sid0 = events[0][3]
    t0 = 1000000000
    recs = []
    comm = struct.pack("<II", PID, PID) + b"report_work\0".ljust(16, b"\0")
    recs.append(_record(COMM, 0x2000 | 2, comm + _id_trailer(st, PID, PID, t0, sid0, 0)))
    maps = [(PID, BASE + 0x1000, 0x1000, 0x1000, 8, 77, 5, 2, binary),
            (PID, BASE + 0x3000, 0x6000, 0x2000, 8, 77, 3, 2, binary)]
    if more_maps:
        recs.append(_record(COMM, 2, struct.pack("<II", PID + 100, PID + 100) +
                            b"other\0".ljust(16, b"\0") +
                            _id_trailer(st, PID + 100, PID + 100, t0, sid0, 0)))
        for pid in (PID, PID + 100):
            maps += [(pid, BASE + 0x1000, 0x1000, 0x1000, 8, 77, 5, 2, binary),
                     (pid, HEAP, 0x21000, 0, 0, 0, 3, 2, "[heap]"),
                     (pid, SHM, 0x10000, 0, 0, 99, 3, 1, "/dev/shm/pcl-mem-test")]
    if long_names:
        maps.append((PID, LONG, 0x1000, 0x1000, 8, 78, 5, 2, long_names))
    if kernel:      # the kernel's text, as perf record synthesizes it
        body = struct.pack("<IIQQQ", 0xffffffff, 0, kernel[0], (1 << 64) - 1 - kernel[0],
                           kernel[0] if kernel_placed else 0)
        recs.append(_record(MMAP, 1, body + b"[kernel.kallsyms]_text\0".ljust(24, b"\0") +
                            _id_trailer(st, 0xffffffff, 0, t0, sid0, 0)))
    for pid, start, length, pgoff, maj, ino, prot, flags, name in maps:
        body = struct.pack("<IIQQQIIQQII", pid, pid, start, length, pgoff, maj, 1 if maj else 0,
                           ino, 0, prot, flags) + (name.encode() + b"\0").ljust(
                               (len(name) + 8) // 8 * 8, b"\0")
        recs.append(_record(MMAP2, 2, body + _id_trailer(st, pid, pid, t0, sid0, 0)))
    # instruction addresses: in hot_mem, hot_math, main, and one unmapped
    ips = [BASE + 0x1293 + 4, BASE + 0x12a0, BASE + 0x1228 + 8, BASE + 0x1450, 0x7ffff7a01234]
    if long_names:      # its inner_* and outer_* functions
        ips += [LONG + 0x25c + 4, LONG + 0x27e + 2]
    # data addresses: buf.0 (lines apart), fp_clock, fp_sin, stack, heap, null
    daddrs = [BASE + 0x40a0, BASE + 0x40a0 + 0x48, BASE + 0x40a0 + 0x1000 + 8, BASE + 0x4048,
              BASE + 0x4060, 0x7ffd12345670, 0x55d0c1000040, 0, BASE + 0x8800]
    if more_maps:
        daddrs += [HEAP + 0x80, HEAP + 0x10c8, SHM + 0x40, SHM + 0x7f]
    sources = _sources()
    n = nr or len(sources) * 6
    t = t0 + 1000
    for k in range(n):
        name, _, _, sid = events[k % len(events)]
        j = k // len(events)      # the event's own sample number
        src = sources[(j * 7 + k) % len(sources)]
        ip = ips[(j * 3 + k // 5) % len(ips)] if long_names else ips[(j * 3) % len(ips)]
        addr = daddrs[(j * 5 + j // 7) % len(daddrs)]
        weight = [30, 31, 57, 212, 0, 1, 30, 480][(j * 3 + j // 8) % 8]
        pid = PID + 100 if more_maps and k % 3 == 1 else PID
        tid = pid if k % 4 else pid + 1
        cpu = k % 3
        misc = 2        # user
        if kernel and k % 5 == 2:
            misc, ip, addr = 1, kernel[1] + 0x10 * (k % 3), kernel[2] + 8 * (k % 17)
        body = struct.pack("<QQIIQQQII", sid, ip, pid, tid, t, addr, sid, cpu, 0)
        body += struct.pack("<Q", 1 if k % 5 else 10007)          # period
        if callchains and lbr:     # recursing deeper and back, by thread
            ring = rings.setdefault(tid, perfdata_lbr.Lbr(lbr))
            depth = 1 + (len(ring.calls) + 3) % 13
            ring.move_to(perfdata_lbr.call_stack(sym, tid % 2, depth, "hot_math")[0])
            hw_idx, entries = ring.stack()
            chain = [0xfffffffffffffe00, ip]
            body += struct.pack("<Q", len(chain)) + b"".join(struct.pack("<Q", a) for a in chain)
            body += struct.pack("<QQ", len(entries), hw_idx)
            body += b"".join(struct.pack("<QQQ", *e) for e in entries)
        elif callchains:      # the IP, called from main (now and then by way of worker)
            chain = [0xfffffffffffffe00, ip, BASE + 0x1440 + 4 * (k % 3)]
            if k % 4 == 1:
                chain.insert(2, BASE + 0x1310)
            body += struct.pack("<Q", len(chain)) + b"".join(struct.pack("<Q", a) for a in chain)
        if weight_struct:
            body += struct.pack("<IHH", weight, (k * 13) % 90, 0)
        else:
            body += struct.pack("<Q", weight)
        body += struct.pack("<Q", src)
        if phys and mem_topology:   # block 52 or 53, now and then a new page
            page = MEM_BLOCK * (52 + ((addr >> 6) % 3 == 0)) + 0x1000 * ((k // 7) % 3)
            body += struct.pack("<Q", (page + (addr & 0xfff)) if addr and k % 11 else 0)
        elif phys:
            body += struct.pack("<Q", (0x1a2b3c000 + (addr & 0xfff)) if addr else 0)
        if page_size:
            body += struct.pack("<Q", [4096, 2 << 20, 0, 1 << 30][k % 4])
        recs.append(_record(SAMPLE, misc, body))
        t += 977
    recs.append(_record(FINISHED_ROUND, 0, b""))
    data = b"".join(recs)
    # event_desc: attr, ids, name per event
    ids = {}
    desc = struct.pack("<II", len(events), ATTR_SIZE)
    attrs = b""
    for name, config, config1, sid in events:
        a = _attr(config, config1, st, 4000, freq=True,
                  branch_sample_type=(1 | 1 << 11 | 1 << 14 | 1 << 15 | 1 << 17) if lbr else 0)
        attrs += a
        desc += a + struct.pack("<I", 1) + _string(name) + struct.pack("<Q", sid)
        ids[sid] = None
    hdr_size = 104
    attr_entry = ATTR_SIZE + 16
    ids_off = hdr_size
    ids_blob = b"".join(struct.pack("<Q", e[3]) for e in events)
    attrs_off = ids_off + len(ids_blob)
    attr_sec = b""
    for i, (name, config, config1, sid) in enumerate(events):
        attr_sec += attrs[i * ATTR_SIZE:(i + 1) * ATTR_SIZE] + struct.pack("<QQ", ids_off + 8 * i, 8)
    data_off = attrs_off + len(attr_sec)
    feat_off = data_off + len(data)
    sections = [(HEADER_NRCPUS, struct.pack("<II", 4, 4))]      # available, online
    sections.append((HEADER_EVENT_DESC, desc))
    if numa:    # each node: its memory (total, free) and cpus
        cpus = ["0-3"] if numa is True else ["0-1", "2-3"]
        topo = struct.pack("<I", len(cpus))
        for node, cpu_list in enumerate(cpus):
            topo += struct.pack("<IQQ", node, 16 << 20, 8 << 20) + _string(cpu_list)
        sections.append((HEADER_NUMA_TOPOLOGY, topo))
    if mem_topology:    # version, block size, nodes: node, blocks, bitmap
        topo = struct.pack("<QQQ", 1, MEM_BLOCK, 2)
        for node in (0, 1):
            topo += struct.pack("<QQQQ", node, 64, 64, 1 << (52 + node))
        sections.append((HEADER_MEM_TOPOLOGY, topo))
    if lbr:     # after the topologies: sections go in bit order
        sections.append((HEADER_CPU_PMU_CAPS, struct.pack("<I", 1) + _string("branches") +
                         _string(str(lbr))))
    feat_index, pos = b"", feat_off + 16 * len(sections)
    features = [0, 0, 0, 0]
    for bit, blob in sections:
        feat_index += struct.pack("<QQ", pos, len(blob))
        pos += len(blob)
        features[0] |= 1 << bit
    header = b"PERFILE2" + struct.pack("<QQ", hdr_size, attr_entry)
    header += struct.pack("<QQQQQQ", attrs_off, len(attr_sec), data_off, len(data), 0, 0)
    header += struct.pack("<4Q", *features)
    assert len(header) == hdr_size
    with open(path, "wb") as f:
        f.write(header + ids_blob + attr_sec + data + feat_index +
                b"".join(blob for _, blob in sections))


if __name__ == "__main__":
    import sys
    write(sys.argv[1], sys.argv[2], phys="phys" in sys.argv, page_size="page" in sys.argv,
          weight_struct="struct" in sys.argv, stores="nostores" not in sys.argv,
          more_maps="maps" in sys.argv, numa="numa" in sys.argv)
