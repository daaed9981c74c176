"""pcl data convert --to-pprof and --to-speedscope, checked against perf script on the
same perf.data files: the profiles are decoded here (a protobuf reader of our own for
pprof's profile.proto, json for speedscope) and their stacks folded as perf script's are."""
import collections
import gzip
import json
import os
import re
import shutil
import subprocess

import pytest

from conftest import pcl, perf
from perfdata_corpus import perf_data  # noqa: F401 (fixture)

KINDS = ["fp", "dwarf", "threads", "nocallchain", "syscalls", "sched", "system", "pipe",
         "compressed"]


# ---- perf script, the oracle ------------------------------------------------------------

def script_samples(data, event=None):
    """perf script's samples of data: (pid, tid, comm, period, [symbols leaf first])."""
    fields = "comm,pid,tid,period,event,ip,sym"
    out = perf("script", "-i", data, "-F", fields)
    assert out.returncode == 0, out.stderr
    samples = []
    # an exiting task's last samples may have tid -1
    head = re.compile(r"^(.*?)\s+(-?\d+)/(-?\d+)\s+(\d+)\s+(\S+):\s*(.*)$")
    # perf marks inlined functions after their names; the exports have them as frames
    frame = re.compile(r"^\s+[0-9a-f]+ (.*?)(?: \(inlined\))?$")
    cur = None
    for line in out.stdout.splitlines():
        m = head.match(line)
        if m:
            comm, pid, tid, period, ev, rest = m.groups()
            cur = None
            if event is None or ev == event:
                cur = [int(pid), int(tid), comm.strip(), int(period), []]
                samples.append(cur)
                # a sample without a callchain has its frame on the line
                fm = re.match(r"^[0-9a-f]+ (.*)$", rest.strip())
                if fm:
                    cur[4].append(fm.group(1))
            continue
        m = frame.match(line)
        if m and cur is not None:
            cur[4].append(m.group(1))
    return samples


def first_event(data):
    out = perf("evlist", "-i", data)
    assert out.returncode == 0, out.stderr
    return out.stdout.splitlines()[0].strip()


def folded(samples, key=lambda s: ()):
    """{(key..., 'root;...;leaf'): total period} and the sample count per key."""
    stacks, counts = collections.Counter(), collections.Counter()
    for s in samples:
        stacks[key(s) + (";".join(reversed(s[4])),)] += s[3]
        counts[key(s)] += 1
    return stacks, counts


# ---- profile.proto, decoded without protobuf's library ----------------------------------

def varint(buf, pos):
    value, shift = 0, 0
    while True:
        b = buf[pos]
        pos += 1
        value |= (b & 0x7F) << shift
        shift += 7
        if not b & 0x80:
            return value, pos


def fields(buf):
    """[(field number, value)]: ints for varints, bytes for length-delimited."""
    pos, out = 0, []
    while pos < len(buf):
        tag, pos = varint(buf, pos)
        number, wire = tag >> 3, tag & 7
        if wire == 0:
            value, pos = varint(buf, pos)
        elif wire == 2:
            length, pos = varint(buf, pos)
            value, pos = buf[pos:pos + length], pos + length
        elif wire == 1:
            value, pos = int.from_bytes(buf[pos:pos + 8], "little"), pos + 8
        elif wire == 5:
            value, pos = int.from_bytes(buf[pos:pos + 4], "little"), pos + 4
        else:
            raise AssertionError(f"wire type {wire}")
        out.append((number, value))
    return out


def packed(value):
    if isinstance(value, int):  # an unpacked repeated entry
        return [value]
    pos, out = 0, []
    while pos < len(value):
        v, pos = varint(value, pos)
        out.append(v)
    return out


def message(buf, repeated=(), messages=(), packed_fields=()):
    """A dict of a message's fields: repeated ones as lists."""
    m = {n: [] for n in repeated}
    for number, value in fields(buf):
        if number in packed_fields:
            m.setdefault(number, []).extend(packed(value))
        elif number in repeated:
            m[number].append(value)
        else:
            m[number] = value
    return m


def decode_pprof(path):
    with gzip.open(path, "rb") as f:
        raw = f.read()
    p = message(raw, repeated=(1, 2, 3, 4, 5, 6, 13))
    strings = [s.decode() for s in p[6]]
    assert strings[0] == ""

    def value_type(buf):
        vt = message(buf)
        return strings[vt.get(1, 0)], strings[vt.get(2, 0)]

    functions = {}
    for buf in p[5]:
        f = message(buf)
        functions[f[1]] = {"name": strings[f.get(2, 0)], "system_name": strings[f.get(3, 0)],
                           "file": strings[f.get(4, 0)], "start_line": f.get(5, 0)}
    mappings = {}
    for buf in p[3]:
        mp = message(buf)
        mappings[mp[1]] = {"start": mp.get(2, 0), "limit": mp.get(3, 0),
                           "offset": mp.get(4, 0), "file": strings[mp.get(5, 0)],
                           "build_id": strings[mp.get(6, 0)]}
    locations = {}
    for buf in p[4]:
        loc = message(buf, repeated=(4,))
        lines = [message(line) for line in loc[4]]
        locations[loc[1]] = {"mapping": loc.get(2, 0), "address": loc.get(3, 0),
                             "lines": [(functions[ln[1]], ln.get(2, 0)) for ln in lines]}
    samples = []
    for buf in p[2]:
        s = message(buf, repeated=(3,), packed_fields=(1, 2))
        labels = {}
        for lb in s[3]:
            label = message(lb)
            num = label.get(3, 0)
            num -= (num >> 63) << 64    # int64: two's complement
            labels[strings[label[1]]] = strings[label[2]] if 2 in label else num
        samples.append({"locations": [locations[i] for i in s.get(1, [])],
                        "values": s.get(2, []), "labels": labels})
    return {"sample_types": [value_type(b) for b in p[1]], "samples": samples,
            "mappings": mappings, "locations": locations, "functions": functions,
            "strings": strings, "time_nanos": p.get(9, 0), "duration_nanos": p.get(10, 0),
            "period_type": value_type(p[11]), "period": p.get(12, 0),
            "default_sample_type": strings[p.get(14, 0)]}


def pprof_names(location):
    """A location's function names, innermost first, as perf script's frames."""
    if not location["lines"]:
        return ["[unknown]"]
    return [fn["name"] for fn, _ in location["lines"]]


def pprof_folded(profile, key=lambda s: ()):
    stacks, counts = collections.Counter(), collections.Counter()
    for s in profile["samples"]:
        names = [n for loc in s["locations"] for n in pprof_names(loc)]
        stacks[key(s) + (";".join(reversed(names)),)] += s["values"][1]
        counts[key(s)] += s["values"][0]
    return stacks, counts


def convert(tmp_path, data, option, name):
    out = str(tmp_path / name)
    run = pcl("data", "convert", "-i", data, option, out)
    assert run.returncode == 0, run.stderr
    return out, run


# ---- pprof -------------------------------------------------------------------------------

@pytest.mark.parametrize("kind", KINDS)
def test_pprof_stacks_match_perf_script(perf_data, tmp_path, kind):
    check_pprof(tmp_path, perf_data[kind])


def check_pprof(tmp_path, data):
    event = first_event(data)
    path, run = convert(tmp_path, data, "--to-pprof", "out.pb.gz")
    profile = decode_pprof(path)
    want = script_samples(data, event)
    assert want
    unit = "nanoseconds" if event.startswith(("cpu-clock", "task-clock")) else "count"
    assert profile["sample_types"] == [("samples", "count"), (event, unit)]
    assert profile["period_type"] == (event, unit)
    assert profile["default_sample_type"] == event
    # every stack, by process and thread, with its periods and its number of samples
    by_thread = (lambda s: (s[0], s[1], s[2]))
    want_stacks, want_counts = folded(want, by_thread)
    got_stacks, got_counts = pprof_folded(
        profile, lambda s: (s["labels"]["pid"], s["labels"]["tid"], s["labels"]["comm"]))
    assert got_stacks == want_stacks
    assert got_counts == want_counts
    assert f"({len(want)} samples)" in run.stderr
    # the samples of perf report's own totals
    assert sum(s["values"][1] for s in profile["samples"]) == sum(s[3] for s in want)


def symbol_totals(samples_and_names):
    totals = collections.Counter()
    for names, period in samples_and_names:
        totals[names[0]] += period
    return totals


def test_pprof_self_periods_per_symbol(perf_data, tmp_path):
    """The leaf of each sample: perf report's self column, symbol by symbol."""
    data = perf_data["fp"]
    path, _ = convert(tmp_path, data, "--to-pprof", "out.pb.gz")
    profile = decode_pprof(path)
    got = symbol_totals(([n for loc in s["locations"] for n in pprof_names(loc)],
                         s["values"][1]) for s in profile["samples"])
    want = symbol_totals((s[4], s[3]) for s in script_samples(data))
    assert got == want
    report = perf("report", "-i", data, "--stdio", "--no-children", "-g", "none",
                  "-F", "period,sym", "-q")
    assert report.returncode == 0, report.stderr
    from_report = collections.Counter()
    for line in report.stdout.splitlines():
        m = re.match(r"^\s*(\d+)\s+\[.\]\s+(.*?)\s*$", line)
        if m:
            from_report[m.group(2)] += int(m.group(1))
    assert from_report and got == from_report


def test_pprof_tables(perf_data, tmp_path):
    data = perf_data["dwarf"]
    path, _ = convert(tmp_path, data, "--to-pprof", "out.pb.gz")
    profile = decode_pprof(path)
    locations, mappings = profile["locations"], profile["mappings"]
    # ids are 1..n and every reference resolves
    assert sorted(locations) == list(range(1, len(locations) + 1))
    assert sorted(mappings) == list(range(1, len(mappings) + 1))
    assert sorted(profile["functions"]) == list(range(1, len(profile["functions"]) + 1))
    for loc in locations.values():
        if loc["mapping"]:
            mp = mappings[loc["mapping"]]
            assert mp["start"] <= loc["address"] < mp["limit"], (loc, mp)
    burner = [m for m in mappings.values() if m["file"].endswith("/burner")]
    assert burner and all(re.fullmatch(r"[0-9a-f]{40}", m["build_id"]) for m in burner)
    # pprof names the profile after the first mapping: the sampled program's
    assert next(iter(mappings.values()))["file"].endswith("/burner")
    # the fixture's functions carry their source file and lines
    outer = [f for f in profile["functions"].values() if f["name"] == "outer"]
    assert outer and outer[0]["file"].endswith("burner.c") and outer[0]["start_line"] > 0
    lines = [ln for loc in locations.values() for fn, ln in loc["lines"]
             if fn["name"] == "leaf_math"]
    assert lines and all(ln > 0 for ln in lines)
    assert profile["duration_nanos"] > 0 and profile["time_nanos"] > 10**18
    assert profile["period"] > 0


def test_pprof_lines_match_perf_srcline(perf_data, tmp_path):
    """Each location's innermost line is the one perf script -F srcline prints."""
    data = perf_data["dwarf"]
    path, _ = convert(tmp_path, data, "--to-pprof", "out.pb.gz")
    profile = decode_pprof(path)
    out = perf("script", "-i", data, "-F", "ip,sym,srcline")
    assert out.returncode == 0, out.stderr
    want = set()
    lines = out.stdout.splitlines()
    for i, line in enumerate(lines[:-1]):
        m = re.match(r"^\s+[0-9a-f]+ (\S+)$", line)
        src = re.match(r"^\s+(\S+\.c):(\d+)$", lines[i + 1])
        if m and src and src.group(1) == "burner.c":
            want.add((m.group(1), int(src.group(2))))
    got = set()
    for loc in profile["locations"].values():
        for fn, ln in loc["lines"]:
            if os.path.basename(fn["file"]) == "burner.c":
                got.add((fn["name"], ln))
    assert want and want <= got, sorted(want - got)


# profile.proto's messages as protoc reads them (field numbers and types of pprof's schema)
PROFILE_PROTO = """
syntax = "proto3";
package perftools.profiles;
message Profile {
  repeated ValueType sample_type = 1; repeated Sample sample = 2; repeated Mapping mapping = 3;
  repeated Location location = 4; repeated Function function = 5;
  repeated string string_table = 6; int64 drop_frames = 7; int64 keep_frames = 8;
  int64 time_nanos = 9; int64 duration_nanos = 10; ValueType period_type = 11;
  int64 period = 12; repeated int64 comment = 13; int64 default_sample_type = 14;
}
message ValueType { int64 type = 1; int64 unit = 2; }
message Sample {
  repeated uint64 location_id = 1; repeated int64 value = 2; repeated Label label = 3;
}
message Label { int64 key = 1; int64 str = 2; int64 num = 3; int64 num_unit = 4; }
message Mapping {
  uint64 id = 1; uint64 memory_start = 2; uint64 memory_limit = 3; uint64 file_offset = 4;
  int64 filename = 5; int64 build_id = 6; bool has_functions = 7; bool has_filenames = 8;
  bool has_line_numbers = 9; bool has_inline_frames = 10;
}
message Location {
  uint64 id = 1; uint64 mapping_id = 2; uint64 address = 3; repeated Line line = 4;
  bool is_folded = 5;
}
message Line { uint64 function_id = 1; int64 line = 2; }
message Function {
  uint64 id = 1; int64 name = 2; int64 system_name = 3; int64 filename = 4; int64 start_line = 5;
}
"""


@pytest.mark.skipif(not shutil.which("protoc"), reason="protoc (protobuf-compiler) not installed")
@pytest.mark.parametrize("kind", ["dwarf", "system"])
def test_pprof_decodes_with_protoc(perf_data, tmp_path, kind):
    """protobuf's own parser reads the file by pprof's schema, with no unknown fields."""
    path, _ = convert(tmp_path, perf_data[kind], "--to-pprof", "out.pb.gz")
    (tmp_path / "profile.proto").write_text(PROFILE_PROTO)
    with gzip.open(path, "rb") as f:
        raw = f.read()
    out = subprocess.run(["protoc", "-I", str(tmp_path), "--decode=perftools.profiles.Profile",
                          "profile.proto"], input=raw, capture_output=True, timeout=120,
                         check=False)
    assert out.returncode == 0, out.stderr
    text = out.stdout.decode()
    assert not re.search(r"^\s*\d+[:{ ]", text, re.M), "fields outside pprof's schema"
    ours = decode_pprof(path)
    top = re.findall(r"^(\w+)", text, re.M)
    assert top.count("sample") == len(ours["samples"])
    assert top.count("location") == len(ours["locations"])
    assert top.count("function") == len(ours["functions"])
    assert top.count("mapping") == len(ours["mappings"])
    assert top.count("string_table") == len(ours["strings"])
    values = [int(v) for v in re.findall(r"^  value: (\d+)$", text, re.M)]
    assert sum(values[1::2]) == sum(s["values"][1] for s in ours["samples"])


def test_pprof_first_event_only(tmp_path):
    data = str(tmp_path / "multi.data")
    rec = perf("record", "-q", "-g", "-o", data, "-e", "cpu-clock,task-clock",
               "--", "ls", "-R", "/usr/share/doc")
    assert rec.returncode == 0, rec.stderr
    path, run = convert(tmp_path, data, "--to-pprof", "out.pb.gz")
    profile = decode_pprof(path)
    assert profile["sample_types"][1][0] == "cpu-clock"
    want = script_samples(data, "cpu-clock")
    assert sum(s["values"][0] for s in profile["samples"]) == len(want)
    skipped = len(script_samples(data, "task-clock"))
    assert f"cpu-clock samples only, {skipped} samples of other events left out" in run.stderr


def test_pprof_existing_output_needs_force(perf_data, tmp_path):
    out = tmp_path / "out.pb.gz"
    out.write_text("old")
    got = pcl("data", "convert", "-i", perf_data["fp"], "--to-pprof", str(out))
    assert got.returncode == 255
    assert "Use --force" in got.stderr and out.read_text() == "old"
    got = pcl("data", "convert", "-f", "-i", perf_data["fp"], "--to-pprof", str(out))
    assert got.returncode == 0, got.stderr
    assert decode_pprof(str(out))["samples"]


# ---- speedscope --------------------------------------------------------------------------

SPEEDSCOPE_UNITS = {"none", "nanoseconds", "microseconds", "milliseconds", "seconds", "bytes"}


def check_speedscope_shape(doc):
    """The parts of speedscope's file-format-schema.json pcl writes, checked by hand."""
    assert doc["$schema"] == "https://www.speedscope.app/file-format-schema.json"
    assert isinstance(doc["exporter"], str) and isinstance(doc["name"], str)
    frames = doc["shared"]["frames"]
    for f in frames:
        assert set(f) <= {"name", "file", "line", "col"} and isinstance(f["name"], str)
        assert isinstance(f.get("file", ""), str) and f.get("file", "x")
        assert isinstance(f.get("line", 1), int) and f.get("line", 1) > 0
    assert len({(f["name"], f.get("file")) for f in frames}) == len(frames)
    profiles = doc["profiles"]
    assert 0 <= doc["activeProfileIndex"] < len(profiles)
    for p in profiles:
        assert set(p) == {"type", "name", "unit", "startValue", "endValue", "samples",
                          "weights"}
        assert p["type"] == "sampled" and p["unit"] in SPEEDSCOPE_UNITS
        assert len(p["samples"]) == len(p["weights"])
        assert all(isinstance(w, int) and w >= 0 for w in p["weights"])
        assert p["startValue"] == 0 and p["endValue"] == sum(p["weights"])
        for stack in p["samples"]:
            # empty when perf drops a sample's chain (an invalid context marker)
            assert all(isinstance(i, int) and 0 <= i < len(frames) for i in stack)


def dedup(sequence):
    """Runs of one stack merged, their weights summed, as pcl writes them."""
    out = []
    for stack, weight in sequence:
        if out and out[-1][0] == stack:
            out[-1][1] += weight
        else:
            out.append([stack, weight])
    return out


@pytest.mark.parametrize("kind", KINDS)
def test_speedscope_matches_perf_script(perf_data, tmp_path, kind):
    check_speedscope(tmp_path, perf_data[kind])


def check_speedscope(tmp_path, data):
    event = first_event(data)
    path, run = convert(tmp_path, data, "--to-speedscope", "out.json")
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    check_speedscope_shape(doc)
    frames = doc["shared"]["frames"]
    unit = "nanoseconds" if event.startswith(("cpu-clock", "task-clock")) else "none"
    # each thread's stacks in time order, root first, weighted by their periods
    want, last_comm = collections.defaultdict(list), {}
    for pid, tid, comm, period, names in script_samples(data, event):
        want[(pid, tid)].append((tuple(reversed(names)), period))
        last_comm[(pid, tid)] = comm
    got = collections.defaultdict(list)
    for p in doc["profiles"]:
        assert p["unit"] == unit
        comm, tid = p["name"].rsplit(" ", 1)
        stacks = [(tuple(frames[i]["name"] for i in s), w)
                  for s, w in zip(p["samples"], p["weights"])]
        matches = [k for k in want if k[1] == int(tid) and last_comm[k] == comm]
        assert matches, p["name"]
        got[int(tid)].append(stacks)
    for tid, profiles in got.items():
        expect = [dedup(v) for k, v in want.items() if k[1] == tid]
        assert sorted(dedup(s) for s in profiles) == sorted(expect)
    assert f"({sum(len(v) for v in want.values())} samples)" in run.stderr


def test_speedscope_frames_carry_sources(perf_data, tmp_path):
    path, _ = convert(tmp_path, perf_data["dwarf"], "--to-speedscope", "out.json")
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    outer = [f for f in doc["shared"]["frames"] if f["name"] == "outer"]
    assert len(outer) == 1 and outer[0]["file"].endswith("burner.c") and outer[0]["line"] > 0
    burner = [p for p in doc["profiles"] if p["name"].startswith("burner ")]
    assert burner and doc["profiles"][doc["activeProfileIndex"]] in burner


def test_speedscope_one_profile_per_thread(perf_data, tmp_path):
    path, _ = convert(tmp_path, perf_data["threads"], "--to-speedscope", "out.json")
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    tids = {int(p["name"].rsplit(" ", 1)[1]) for p in doc["profiles"]}
    want = {s[1] for s in script_samples(perf_data["threads"], first_event(perf_data["threads"]))}
    assert len(tids) == len(doc["profiles"]) and tids == want and len(tids) > 1


def test_one_format_at_a_time(perf_data, tmp_path):
    got = pcl("data", "convert", "-i", perf_data["fp"], "--to-pprof", str(tmp_path / "a"),
              "--to-speedscope", str(tmp_path / "b"))
    assert got.returncode == 255 and "give one of" in got.stderr
    assert not os.path.exists(tmp_path / "a") and not os.path.exists(tmp_path / "b")


def test_pcl_recorded_file(tmp_path):
    """pcl's own recordings export as perf script reads them."""
    data = str(tmp_path / "pcl.data")
    rec = pcl("record", "-q", "-g", "-o", data, "--", "ls", "-R", "/usr/share/doc")
    assert rec.returncode == 0, rec.stderr
    check_pprof(tmp_path, data)
    check_speedscope(tmp_path, data)
