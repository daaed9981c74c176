"""Gives the samples of a perf.data file made-up branch stacks, for the
brstack fields on machines without branch-recording hardware: the attrs
get BRANCH_STACK (branch_sample_type ANY) and each sample a stack of
0 to 4 entries (or 18 covering every branch type) near its ip, with every
flag set somewhere.  With boundaries=True the entries are the thread's
earlier sampled ips instead (instruction starts: brstackinsn decodes real
code from them, not the middle of instructions).  With call_stack=True
they are LBR call stacks (branch_sample_type USER|CALL_STACK, as perf
record --call-graph lbr sets) built from the sample's user call chain.
Samples may carry IP, TID, TIME, ADDR, ID, STREAM_ID, CPU, PERIOD and
CALLCHAIN; the feature sections move behind the new data.  With cross=True
each entry jumps from one of the thread's earlier sampled ips (another
function, often) to the sample's ip or just before it, with every flag
and a few distinct cycle counts.  feature=True adds HEADER_BRANCH_STACK,
the feature perf record -b writes, which puts perf report in branch mode
by default."""
import struct

SAMPLE = 9
IP, TID, TIME, ADDR, READ, CALLCHAIN, ID, CPU, PERIOD, STREAM_ID, RAW = \
    1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024
BRANCH_STACK, IDENTIFIER = 2048, 1 << 16
BRANCH_USER, BRANCH_ANY, BRANCH_CALL_STACK = 1, 8, 1 << 11
CONTEXT_USER = (1 << 64) - 512


def _entries(ip, n, every_type):
    out = struct.pack("<Q", n)
    for i in range(n):
        frm, to = (ip - 2 * i, ip - 3 * i - 1) if every_type else (ip - 0x10 * i, ip - 0x30 * i - 5)
        flags = (1 if i % 3 == 0 else 2 if i % 3 == 1 else 0)   # mispredicted / predicted
        flags |= (4 if i % 4 == 2 else 0) | (8 if i % 5 == 3 else 0)   # in_tx, abort
        flags |= (i * 7 & 0xffff) << 4                            # cycles
        flags |= (i % 16) << 20                                   # type (15: see new_type)
        if every_type:
            flags |= (i % 4) << 24 | ((i // 2 + 2) % 16) << 26 | (i % 8) << 30
        out += struct.pack("<QQQ", frm, to, flags)
    return out


def _boundary_entries(history):
    ips = sorted(set(history[-4:]), reverse=True)
    out = struct.pack("<Q", len(ips))
    for i, ip in enumerate(ips):
        flags = (1 if i % 2 else 2) | (i * 5 & 0xffff) << 4 | (i % 3) << 20
        out += struct.pack("<QQQ", ip, ip, flags)
    return out


def _cross_entries(ip, history, k):
    froms = history[-1 - k % 4:] if history else [ip - 0x40]
    out = struct.pack("<Q", len(froms))
    for i, frm in enumerate(reversed(froms)):
        j = i + k
        flags = (1 if j % 3 == 0 else 2 if j % 3 == 1 else 0)   # mispredicted / predicted
        flags |= (4 if j % 7 == 2 else 0) | (8 if j % 11 == 3 else 0)   # in_tx, abort
        flags |= (j % 5 * 3 & 0xffff) << 4                        # cycles: 0 to 12
        flags |= (j % 3) << 20                                    # type
        out += struct.pack("<QQQ", frm, ip - 4 * (i % 2), flags)
    return out


def _call_stack(chain):
    """An LBR call stack from the chain's user part: the branch into the
    sample's function, then the calls from each caller (one entry at
    least, as the stack of a sample in main)."""
    user = chain[chain.index(CONTEXT_USER) + 1:] if CONTEXT_USER in chain else chain
    calls = [(user[i + 1], user[i] - 0x20 * (i + 1)) for i in range(len(user) - 1)]
    calls = calls or [(user[0] - 0x10, user[0])]
    return struct.pack("<Q", len(calls)) + b"".join(
        struct.pack("<QQQ", frm, to, 0) for frm, to in calls)


HEADER_BRANCH_STACK = 15


def add_branch_stacks(src, dst, every_type=False, boundaries=False, call_stack=False,
                      cross=False, feature=False):
    d = bytearray(open(src, "rb").read())
    attr_size, = struct.unpack_from("<Q", d, 16)
    a_off, a_size, d_off, d_size = struct.unpack_from("<QQQQ", d, 24)
    features = struct.unpack_from("<4Q", d, 72)
    types = set()
    for o in range(a_off, a_off + a_size, attr_size):
        st, = struct.unpack_from("<Q", d, o + 24)
        struct.pack_into("<Q", d, o + 24, st | BRANCH_STACK)
        struct.pack_into("<Q", d, o + 72, BRANCH_USER | BRANCH_CALL_STACK if call_stack
                         else BRANCH_ANY)
        types.add(st)
    assert len(types) == 1 and not types & {READ, RAW}
    st = types.pop()
    assert not st & (READ | RAW)
    data, pos, k, history = bytearray(), d_off, 0, {}
    while pos < d_off + d_size:
        typ, size = struct.unpack_from("<I2xH", d, pos)
        rec = d[pos:pos + size]
        if typ == SAMPLE:
            p, ip = 8 + (8 if st & IDENTIFIER else 0), 0
            if st & IP:
                ip, = struct.unpack_from("<Q", rec, p)
                p += 8
            tid = struct.unpack_from("<I", rec, p + 4)[0] if st & TID else 0
            p += 8 * sum(1 for bit in (TID, TIME, ADDR, ID, STREAM_ID, CPU, PERIOD) if st & bit)
            chain = [ip]
            if st & CALLCHAIN:
                nr, = struct.unpack_from("<Q", rec, p)
                chain = list(struct.unpack_from("<%dQ" % nr, rec, p + 8))
                p += 8 + 8 * nr
            k += 1
            if call_stack:
                stack = _call_stack(chain)
            elif cross:
                seen = history.setdefault(tid, [])
                stack = _cross_entries(ip, seen, k)
                seen.append(ip)
            elif boundaries:
                seen = history.setdefault(tid, [])
                stack = _boundary_entries(seen)
                seen.append(ip)
            else:
                stack = _entries(ip, 18 if every_type else k % 5, every_type)
            rec = rec[:p] + stack + rec[p:]
            struct.pack_into("<H", rec, 6, len(rec))
        data += rec
        pos += size
    nfeat = sum(bin(f).count("1") for f in features)
    table = [struct.unpack_from("<QQ", d, d_off + d_size + 16 * i) for i in range(nfeat)]
    bits = [b for b in range(256) if features[b // 64] >> (b % 64) & 1]
    if feature and HEADER_BRANCH_STACK not in bits:
        # an empty section, as perf writes it, in its place by bit
        at = sum(1 for b in bits if b < HEADER_BRANCH_STACK)
        table.insert(at, (0, 0))
        nfeat += 1
        struct.pack_into("<Q", d, 72, features[0] | 1 << HEADER_BRANCH_STACK)
    out = d[:d_off] + data
    blob_start = len(out) + 16 * nfeat
    blobs = bytearray()
    for off, size in table:
        out += struct.pack("<QQ", blob_start + len(blobs), size)
        blobs += d[off:off + size]
    out += blobs
    struct.pack_into("<Q", out, 48, len(data))
    open(dst, "wb").write(out)
