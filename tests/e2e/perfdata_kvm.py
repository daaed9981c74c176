"""Made-up KVM exits for machines whose kvm:kvm_entry/kvm_exit never fire.

add_kvm_samples() takes a `perf kvm stat record` file (its attrs are the
kvm:kvm_entry, kvm_exit, kvm_mmio, kvm_pio and kvm_msr tracepoints, in that
order, and its TRACING_DATA feature holds their formats), appends sample
records carrying raw tracepoint payloads laid out by this kernel's tracefs
format files, and rewrites the CPUID feature so that perf takes the exits
for VMX ("GenuineIntel,...") or SVM ("AuthenticAMD,...") ones.  The
feature sections move behind the new data."""
import random
import re
import struct

SAMPLE = 9
IP, TID, TIME, ADDR, READ, CALLCHAIN, ID, CPU, PERIOD, STREAM_ID, RAW = \
    1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024
IDENTIFIER = 1 << 16
HEADER_CPUID = 9
KVM_EVENTS = ["kvm_entry", "kvm_exit", "kvm_mmio", "kvm_pio", "kvm_msr"]
FORMATS = "/sys/kernel/tracing/events/kvm/%s/format"

_FIELD = re.compile(r"field:(.*?)\s+(\w+)(\[\d*\])?;\s*offset:(\d+);\s*size:(\d+);")


def _layout(event):
    """{field: (offset, size)} and the payload size, from the tracefs format."""
    fields, end = {}, 0
    for m in _FIELD.finditer(open(FORMATS % event).read()):
        off, size = int(m.group(4)), int(m.group(5))
        fields[m.group(2)] = (off, size)
        end = max(end, off + size)
    return fields, end


def _payload(event, type_id, pid, values):
    fields, size = _layout(event)
    raw = bytearray(size)
    struct.pack_into("<H", raw, 0, type_id)
    struct.pack_into("<i", raw, fields["common_pid"][0], pid)
    for name, value in values.items():
        off, width = fields[name]
        raw[off:off + width] = (value & ((1 << 8 * width) - 1)).to_bytes(width, "little")
    return raw


def _string_feature(text):
    body = text.encode() + b"\0"
    body += b"\0" * (-len(body) % 64)
    return struct.pack("<I", len(body)) + body


def _last_time(d, d_off, d_size):
    """The latest time of the kernel records' sample_id_all trailers
    (pid/tid, time, id, cpu)."""
    last, pos = 0, d_off
    while pos < d_off + d_size:
        typ, size = struct.unpack_from("<I2xH", d, pos)
        if typ < 64 and typ != SAMPLE:
            last = max(last, struct.unpack_from("<Q", d, pos + size - 24)[0])
        pos += size
    return last


def add_kvm_samples(src, dst, samples, cpuid="GenuineIntel,6,85,7"):
    """samples: (event, time_ns, pid, tid, cpu, {field: value}) tuples, event
    one of KVM_EVENTS, time counted from the recording's last record; they
    are written in the order given."""
    d = bytearray(open(src, "rb").read())
    attr_size, = struct.unpack_from("<Q", d, 16)
    a_off, a_size, d_off, d_size = struct.unpack_from("<QQQQ", d, 24)
    features = struct.unpack_from("<4Q", d, 72)
    by_event, types = {}, set()
    for k, o in enumerate(range(a_off, a_off + a_size, attr_size)):
        (config,), (st,) = struct.unpack_from("<Q", d, o + 8), struct.unpack_from("<Q", d, o + 24)
        ids_off, ids_size = struct.unpack_from("<QQ", d, o + attr_size - 16)
        first_id, = struct.unpack_from("<Q", d, ids_off) if ids_size else (0,)
        by_event[KVM_EVENTS[k]] = (config, first_id)
        types.add(st)
    assert len(types) == 1
    st = types.pop()
    assert st == IP | TID | TIME | ID | CPU | PERIOD | RAW, hex(st)
    data = bytearray(d[d_off:d_off + d_size])
    base = _last_time(d, d_off, d_size) + 1000
    for event, time, pid, tid, cpu, values in samples:
        config, sample_id = by_event[event]
        raw = _payload(event, config, pid, values)
        raw += b"\0" * (-(len(raw) + 4) % 8)
        body = struct.pack("<QIIQQIIQI", 0xffffffff81000000 + config, pid, tid, base + time,
                           sample_id, cpu, 0, 1, len(raw)) + raw
        data += struct.pack("<IHH", SAMPLE, 1, 8 + len(body)) + body
    nfeat = sum(bin(f).count("1") for f in features)
    table = [struct.unpack_from("<QQ", d, d_off + d_size + 16 * i) for i in range(nfeat)]
    bits = [b for b in range(256) if features[b // 64] >> (b % 64) & 1]
    out = d[:d_off] + data
    blob_start = len(out) + 16 * nfeat
    blobs = bytearray()
    for bit, (off, size) in zip(bits, table):
        blob = _string_feature(cpuid) if bit == HEADER_CPUID else d[off:off + size]
        out += struct.pack("<QQ", blob_start + len(blobs), len(blob))
        blobs += blob
    out += blobs
    struct.pack_into("<Q", out, 48, len(data))
    open(dst, "wb").write(out)


# (exit reason, weight, what follows the exit) for each instruction set;
# some codes have no name in perf's tables.
VMX_EXITS = [(1, 30, None), (12, 20, None), (30, 15, "pio"), (49, 12, "mmio"), (31, 6, "msr"),
             (32, 6, "msr"), (10, 5, None), (48, 5, None), (44, 3, None), (7, 2, None),
             (43, 1, None), (77, 1, None), (66, 1, None)]
SVM_EXITS = [(0x60, 30, None), (0x78, 20, None), (0x7b, 15, "pio"), (0x400, 12, "mmio"),
             (0x7c, 12, "msr"), (0x72, 5, None), (0x402, 3, None), (0x80000010, 2, None),
             (0x4e, 2, None), (0xa6, 1, None), (0x8c, 1, None)]
MMIO_GPAS = [0xfee00000, 0xfec00000, 0xfed00000, 0xfebf1000, 0xffffffffff000, 0]
PORTS = [0x70, 0x71, 0x3f8, 0xcf8, 0xcfc, 0x60, 0x1f0]
MSRS = [0x6e0, 0x830, 0x838, 0x10, 0xc0000080, 0x1b]


def guest_run(exits, seed=1, vms=((4242, 3), (4343, 2)), rounds=60):
    """The samples of vCPU threads running guests: per VM (pid, nr_vcpus),
    each vCPU thread enters, exits for a reason drawn from exits, meets the
    MMIO, port or MSR access the reason calls for, and enters again.  A
    few threads exit before their first entry (perf ignores those), and one
    thread's accesses come without the exit before them."""
    rng = random.Random(seed)
    reasons = [r for r, w, _ in exits for _ in range(w)]
    follow = {r: f for r, _, f in exits}
    out = []
    for pid, nr_vcpus in vms:
        for vcpu in range(nr_vcpus):
            tid, cpu = pid + 1 + vcpu, (pid + vcpu) % 2
            t = rng.randrange(1000, 50000)

            def emit(event, fields, dt):
                nonlocal t
                t += dt
                out.append((t, len(out), (event, t, pid, tid, cpu, fields)))

            if vcpu == 1:
                emit("kvm_exit", {"exit_reason": reasons[0], "isa": 1, "vcpu_id": vcpu}, 100)
            emit("kvm_entry", {"vcpu_id": vcpu}, 100)
            for _ in range(rounds):
                reason = rng.choice(reasons)
                emit("kvm_exit", {"exit_reason": reason, "isa": 1, "vcpu_id": vcpu,
                                  "guest_rip": 0xffffffff81000000 + rng.randrange(1 << 20)},
                     rng.randrange(2000, 400000))
                kind = follow[reason]
                if kind == "pio":
                    emit("kvm_pio", {"rw": rng.randrange(2), "port": rng.choice(PORTS),
                                     "size": 1, "count": 1, "val": 0}, rng.randrange(100, 3000))
                elif kind == "mmio":
                    emit("kvm_mmio", {"type": rng.choice((0, 1, 2, 2)), "len": 4,
                                      "gpa": rng.choice(MMIO_GPAS), "val": 0},
                         rng.randrange(100, 3000))
                elif kind == "msr":
                    emit("kvm_msr", {"write": rng.randrange(2), "ecx": rng.choice(MSRS),
                                     "data": 0}, rng.randrange(100, 3000))
                took = rng.choice((rng.randrange(300, 5000), rng.randrange(300, 90000)))
                emit("kvm_entry", {"vcpu_id": vcpu}, took)
            if vcpu == 2:      # accesses without their exit, then an entry
                emit("kvm_pio", {"rw": 1, "port": 0x80, "size": 1, "count": 1, "val": 0}, 500)
                emit("kvm_mmio", {"type": 1, "len": 4, "gpa": 0xfee000b0, "val": 0}, 500)
                emit("kvm_entry", {"vcpu_id": vcpu}, 700)
    return [s for _, _, s in sorted(out)]
