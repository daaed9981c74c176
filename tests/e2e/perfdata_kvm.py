"""Made-up KVM exits for machines whose kvm:kvm_entry/kvm_exit never fire.

add_kvm_samples() takes a `perf kvm stat record` file (its attrs are the
kvm:kvm_entry, kvm_exit, kvm_mmio, kvm_pio and kvm_msr tracepoints, in that
order, and its TRACING_DATA feature holds their formats), appends sample
records carrying raw tracepoint payloads laid out by this kernel's tracefs
format files, and rewrites the CPUID feature so that perf takes the exits
for VMX ("GenuineIntel,...") or SVM ("AuthenticAMD,...") ones.  The
feature sections move behind the new data."""
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


def add_kvm_samples(src, dst, samples, cpuid="GenuineIntel,6,85,7"):
    """samples: (event, time_ns, pid, tid, cpu, {field: value}) tuples, event
    one of KVM_EVENTS; they are written in the order given."""
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
    for event, time, pid, tid, cpu, values in samples:
        config, sample_id = by_event[event]
        raw = _payload(event, config, pid, values)
        raw += b"\0" * (-(len(raw) + 4) % 8)
        body = struct.pack("<QIIQQIIQI", 0xffffffff81000000 + config, pid, tid, time, sample_id,
                           cpu, 0, 1, len(raw)) + raw
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
