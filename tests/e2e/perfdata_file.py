"""The layout of a perf.data file, for the writers of synthesized
recordings (perfdata_lbr.py, perfdata_lockdep.py, perfdata_guest.py,
perfdata_guestdata.py):
the header, each event's ids, the attrs, the records, then the feature
sections and their index."""
import struct

HEADER_SIZE = 104


def write(path, attrs, data, sections):
    """attrs: (attr bytes, ids bytes) of each event, the attrs all of one
    size; data: the records; sections: (feature bit < 64, bytes) in bit
    order."""
    ids = b"".join(i for _, i in attrs)
    attr_sec, pos = b"", HEADER_SIZE
    for attr, i in attrs:
        attr_sec += attr + struct.pack("<QQ", pos, len(i))
        pos += len(i)
    attrs_off = HEADER_SIZE + len(ids)
    data_off = attrs_off + len(attr_sec)
    index, pos, features = b"", data_off + len(data) + 16 * len(sections), 0
    for bit, blob in sections:
        index += struct.pack("<QQ", pos, len(blob))
        pos += len(blob)
        features |= 1 << bit
    header = b"PERFILE2" + struct.pack("<QQ", HEADER_SIZE, len(attrs[0][0]) + 16)
    header += struct.pack("<QQQQQQ", attrs_off, len(attr_sec), data_off, len(data), 0, 0)
    header += struct.pack("<4Q", features, 0, 0, 0)
    with open(path, "wb") as f:
        f.write(header + ids + attr_sec + data + index + b"".join(b for _, b in sections))
