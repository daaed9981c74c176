"""pcl data convert against perf data convert 6.1 on the same perf.data files."""
import json
import os
import re
import subprocess

import pytest

from conftest import pcl, perf, unified
from perfdata_corpus import perf_data  # noqa: F401 (fixture)

# not "pipe": perf 6.1 dies of SIGSEGV on it (its header strings are unset); see below
KINDS = ["fp", "dwarf", "threads", "nocallchain", "syscalls", "sched", "system", "compressed"]


def convert_both(tmp_path, data, *args):
    """perf's and pcl's JSON of data, with their runs."""
    want_path, got_path = str(tmp_path / "perf.json"), str(tmp_path / "pcl.json")
    want = perf("data", "convert", "-i", data, "--to-json", want_path, *args)
    got = pcl("data", "convert", "-i", data, "--to-json", got_path, *args)
    return want, got, want_path, got_path


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


@pytest.mark.parametrize("kind", KINDS)
def test_json_matches_perf(perf_data, tmp_path, kind):
    want, got, want_path, got_path = convert_both(tmp_path, perf_data[kind])
    assert got.returncode == want.returncode == 0, got.stderr
    assert read(got_path) == read(want_path), unified(read(want_path), read(got_path))
    json.loads(read(got_path))
    # the same two lines, pcl's name in place of perf's
    assert got.stderr == want.stderr.replace("perf data convert", "pcl data convert") \
        .replace(want_path, got_path)


def test_pipe_file(perf_data, tmp_path):
    """A file in perf's pipe format: valid JSON, the samples the header says nothing of."""
    want, got, want_path, got_path = convert_both(tmp_path, perf_data["pipe"])
    assert got.returncode == 0, got.stderr
    doc = json.loads(read(got_path))
    assert doc["samples"] and all(s["callchain"] for s in doc["samples"])


def test_multi_event(tmp_path):
    data = str(tmp_path / "multi.data")
    rec = perf("record", "-q", "-g", "-o", data, "-e", "cpu-clock,task-clock",
               "-e", "sched:sched_switch", "--", "ls", "-R", "/usr/share/doc")
    assert rec.returncode == 0, rec.stderr
    want, got, want_path, got_path = convert_both(tmp_path, data)
    assert got.returncode == want.returncode == 0, got.stderr
    assert read(got_path) == read(want_path), unified(read(want_path), read(got_path))


def test_clock_data_headers(tmp_path):
    data = str(tmp_path / "clock.data")
    rec = perf("record", "-q", "-k", "mono", "-o", data, "--", "true")
    assert rec.returncode == 0, rec.stderr
    want, got, want_path, got_path = convert_both(tmp_path, data)
    assert got.returncode == want.returncode == 0, got.stderr
    assert read(got_path) == read(want_path)
    assert "clockid" in json.loads(read(got_path))["headers"]


def test_existing_output_needs_force(perf_data, tmp_path):
    out = tmp_path / "out.json"
    out.write_text("old")
    want = perf("data", "convert", "-i", perf_data["nocallchain"], "--to-json", str(out))
    got = pcl("data", "convert", "-i", perf_data["nocallchain"], "--to-json", str(out))
    assert got.returncode == want.returncode == 255
    assert got.stderr == want.stderr
    assert out.read_text() == "old"
    got = pcl("data", "convert", "-f", "-i", perf_data["nocallchain"], "--to-json", str(out))
    assert got.returncode == 0, got.stderr
    json.loads(out.read_text())


def test_tracepoint_fields_only_on_request(perf_data, tmp_path):
    plain, fields = tmp_path / "plain.json", tmp_path / "fields.json"
    assert pcl("data", "convert", "-i", perf_data["sched"], "--to-json", str(plain)) \
        .returncode == 0
    assert pcl("data", "convert", "-i", perf_data["sched"], "--to-json", str(fields),
               "--tracepoint-fields").returncode == 0
    assert "prev_comm" not in json.loads(plain.read_text())["samples"][0]
    samples = json.loads(fields.read_text())["samples"]
    switch = [s for s in samples if "prev_comm" in s]
    assert switch and all("next_pid" in s for s in switch)


def test_no_format_given(perf_data):
    want = perf("data", "convert", "-i", perf_data["fp"])
    got = pcl("data", "convert", "-i", perf_data["fp"])
    assert got.returncode == want.returncode
    assert got.stderr == want.stderr


@pytest.mark.parametrize("option", ["--all", "--tod"])
def test_ctf_only_options_refused_for_json(perf_data, tmp_path, option):
    args = ["data", "convert", option, "-i", perf_data["fp"], "--to-json"]
    want = perf(*args, str(tmp_path / "perf.json"))
    got = pcl(*args, str(tmp_path / "pcl.json"))
    assert got.returncode == want.returncode == 255
    assert got.stderr == want.stderr


def test_non_ascii_comm_stays_valid_json(tmp_path):
    """perf 6.1 writes each byte >= 0x80 as \\uffffffXX (invalid JSON); pcl
    keeps the UTF-8 bytes, and escapes the quote as perf does."""
    prog = tmp_path / 'tr"\u00e9'
    with open("/usr/bin/true", "rb") as src:
        prog.write_bytes(src.read())
    prog.chmod(0o755)
    data = str(tmp_path / "utf8.data")
    rec = perf("record", "-q", "-o", data, "--", str(prog))
    assert rec.returncode == 0, rec.stderr
    want, got, want_path, got_path = convert_both(tmp_path, data)
    assert got.returncode == want.returncode == 0, got.stderr
    assert '"comm": "tr\\"\\uffffffc3\\uffffffa9"' in read(want_path)
    comms = {s["comm"] for s in json.loads(read(got_path))["samples"]}
    assert 'tr"\u00e9' in comms
    assert read(got_path).replace("\u00e9", "\\uffffffc3\\uffffffa9") == read(want_path)


def test_missing_input(tmp_path):
    missing = str(tmp_path / "missing.data")
    want = perf("data", "convert", "-i", missing, "--to-json", str(tmp_path / "perf.json"))
    got = pcl("data", "convert", "-i", missing, "--to-json", str(tmp_path / "pcl.json"))
    assert got.returncode == want.returncode == 255
    assert got.stderr == want.stderr


def test_pcl_recorded_file(tmp_path):
    data = str(tmp_path / "pcl.data")
    rec = pcl("record", "-q", "-g", "-e", "cpu-clock,sched:sched_switch", "-o", data,
              "--", "ls", "-R", "/usr/share/doc")
    assert rec.returncode == 0, rec.stderr
    want, got, want_path, got_path = convert_both(tmp_path, data)
    assert got.returncode == want.returncode == 0, got.stderr
    assert read(got_path) == read(want_path), unified(read(want_path), read(got_path))


# --to-ctf: both traces read back with babeltrace, whose text must be the same


def babeltrace(trace_dir):
    out = subprocess.run(["babeltrace", trace_dir], capture_output=True, text=True,
                         errors="replace", check=False)
    assert out.returncode == 0, out.stderr
    return out.stdout


def metadata(trace_dir):
    """The trace's TSDL, its random UUIDs left out."""
    return re.sub(r'uuid = "[0-9a-f-]+";', "uuid;", read(os.path.join(trace_dir, "metadata")))


def ctf_both(tmp_path, data, *args):
    want_dir, got_dir = str(tmp_path / "perf-ctf"), str(tmp_path / "pcl-ctf")
    want = perf("data", "convert", "-i", data, "--to-ctf", want_dir, *args)
    got = pcl("data", "convert", "-i", data, "--to-ctf", got_dir, *args)
    return want, got, want_dir, got_dir


def assert_same_trace(tmp_path, data, *args):
    want, got, want_dir, got_dir = ctf_both(tmp_path, data, *args)
    assert got.returncode == want.returncode == 0, got.stderr
    assert got.stderr == want.stderr.replace("perf data convert", "pcl data convert") \
        .replace(want_dir, got_dir)
    want_text, got_text = babeltrace(want_dir), babeltrace(got_dir)
    assert want_text
    assert got_text == want_text, unified(want_text, got_text)
    assert metadata(got_dir) == metadata(want_dir)
    assert sorted(os.listdir(got_dir)) == sorted(os.listdir(want_dir))
    # the streams too, once perf's trace UUID (in every packet header) is pcl's
    want_uuid, got_uuid = trace_uuid(want_dir), trace_uuid(got_dir)
    for name in os.listdir(want_dir):
        if name.startswith("perf_stream_"):
            with open(os.path.join(want_dir, name), "rb") as f:
                want_bytes = f.read().replace(want_uuid, got_uuid)
            with open(os.path.join(got_dir, name), "rb") as f:
                assert f.read() == want_bytes, name
    return got_text


def trace_uuid(trace_dir):
    """The trace's UUID (the first in its metadata) as the packets hold it."""
    found = re.search(r'uuid = "([0-9a-f-]+)";', read(os.path.join(trace_dir, "metadata")))
    return bytes.fromhex(found.group(1).replace("-", ""))


@pytest.mark.parametrize("kind", KINDS)
def test_ctf_matches_perf(perf_data, tmp_path, kind):
    assert_same_trace(tmp_path, perf_data[kind])


@pytest.mark.parametrize("kind", ["fp", "sched", "system"])
def test_ctf_all_records_match_perf(perf_data, tmp_path, kind):
    text = assert_same_trace(tmp_path, perf_data[kind], "--all")
    assert "perf_comm: " in text and "perf_mmap" in text


def test_ctf_multi_cpu_streams(perf_data, tmp_path):
    """A stream per CPU that has samples (on a quiet machine an idle CPU
    may have none)."""
    text = assert_same_trace(tmp_path, perf_data["system"])
    cpus = set(re.findall(r"\{ cpu_id = (\d+) \}", text))
    r = perf("script", "-F", "cpu", "-i", perf_data["system"])
    assert r.returncode == 0, r.stderr
    assert cpus == {str(int(c.strip(" []"))) for c in r.stdout.split()}
    streams = [n for n in os.listdir(tmp_path / "pcl-ctf") if n.startswith("perf_stream_")]
    assert len(streams) == len(cpus), streams


def test_ctf_tracepoint_strings(tmp_path):
    """__data_loc strings (exec's filename), char arrays (comms), signed fields."""
    data = str(tmp_path / "tp.data")
    rec = perf("record", "-q", "-o", data, "-e", "sched:sched_process_exec",
               "-e", "sched:sched_process_fork", "-e", "sched:sched_switch",
               "--", "sh", "-c", "ls / >/dev/null; /bin/true")
    assert rec.returncode == 0, rec.stderr
    text = assert_same_trace(tmp_path, data, "--all")
    assert 'filename = "/bin/true"' in text and "prev_comm = " in text


@pytest.mark.parametrize("args", [
    # perf_id from IDENTIFIER, no perf_period, two event classes
    ["--sample-identifier", "-e", "cpu-clock,task-clock", "-c", "100000"],
    # perf_data_src; WEIGHT_STRUCT is not converted, ADDR neither
    ["-d", "-W", "--sample-cpu", "-g", "-e", "cpu-clock"],
], ids=["identifier", "data-src"])
def test_ctf_sample_fields(tmp_path, args):
    data = str(tmp_path / "fields.data")
    rec = perf("record", "-q", "-o", data, *args, "--", "ls", "-R", "/usr/share/doc")
    assert rec.returncode == 0, rec.stderr
    assert_same_trace(tmp_path, data, "--all")


def test_ctf_tracepoint_types(tmp_path):
    """Unsigned longs and pointers in hex (kmalloc), 8-byte ints of syscalls,
    a field named like a CTF keyword (ipi_send_cpu's callsite, "_callsite")."""
    events = ["kmem:kmalloc", "syscalls:sys_enter_openat"]
    if os.path.exists("/sys/kernel/tracing/events/ipi/ipi_send_cpu"):
        events.append("ipi:ipi_send_cpu")
    data = str(tmp_path / "types.data")
    rec = perf("record", "-q", "-o", data, "-e", ",".join(events),
               "--", "ls", "-R", "/usr/share/doc")
    assert rec.returncode == 0, rec.stderr
    text = assert_same_trace(tmp_path, data)
    assert "ptr = 0x" in text and "filename = 0x" in text


def test_ctf_tod(tmp_path):
    data = str(tmp_path / "clock.data")
    rec = perf("record", "-q", "-k", "mono", "-o", data, "--", "true")
    assert rec.returncode == 0, rec.stderr
    assert_same_trace(tmp_path, data, "--tod")


def test_ctf_non_ascii_comm(tmp_path):
    """Bytes that are not printable are written as \\xNN, as perf escapes
    them; perf 6.1 then fails to flush its stream (a trace babeltrace cannot
    read, exit 255), pcl's trace reads back whole."""
    prog = tmp_path / "tr\u00e9"
    with open("/usr/bin/true", "rb") as src:
        prog.write_bytes(src.read())
    prog.chmod(0o755)
    data = str(tmp_path / "utf8.data")
    rec = perf("record", "-q", "-o", data, "--", str(prog))
    assert rec.returncode == 0, rec.stderr
    assert_same_trace(tmp_path, data)
    want = perf("data", "convert", "-i", data, "--to-ctf", str(tmp_path / "perf-all"), "--all")
    assert want.returncode == 255 and "flush failed" in want.stderr
    got = pcl("data", "convert", "-i", data, "--to-ctf", str(tmp_path / "pcl-all"), "--all")
    assert got.returncode == 0, got.stderr
    text = babeltrace(str(tmp_path / "pcl-all"))
    assert 'comm = "tr\\xc3\\xa9"' in text and "cpu-clock" in text


def test_ctf_overwrites_existing_dir(perf_data, tmp_path):
    """perf 6.1 asks for no -f to write into an existing directory."""
    os.mkdir(tmp_path / "perf-ctf")
    os.mkdir(tmp_path / "pcl-ctf")
    assert_same_trace(tmp_path, perf_data["nocallchain"])


def ctf_errors_match(tmp_path, data, *args, want_dir=None, got_dir=None):
    want_dir = want_dir or str(tmp_path / "perf-ctf")
    got_dir = got_dir or str(tmp_path / "pcl-ctf")
    want = perf("data", "convert", "-i", data, "--to-ctf", want_dir, *args)
    got = pcl("data", "convert", "-i", data, "--to-ctf", got_dir, *args)
    assert got.returncode == want.returncode == 255
    assert got.stderr == want.stderr.replace(want_dir, got_dir)


def test_ctf_without_babeltrace(perf_data, tmp_path):
    """libbabeltrace-ctf is opened when a conversion starts: where it cannot
    be loaded (a file that is no library found first), pcl says why."""
    fake = tmp_path / "no-babeltrace"
    fake.mkdir()
    (fake / "libbabeltrace-ctf.so.1").write_bytes(b"")
    got = pcl("data", "convert", "-i", perf_data["nocallchain"], "--to-ctf",
              str(tmp_path / "pcl-ctf"), env=dict(os.environ, LD_LIBRARY_PATH=str(fake)))
    assert got.returncode == 255
    assert got.stderr.startswith("cannot load libbabeltrace-ctf (the CTF writer; Debian "
                                 "package libbabeltrace1): %s/" % fake), got.stderr


def test_ctf_missing_input(tmp_path):
    ctf_errors_match(tmp_path, str(tmp_path / "missing.data"))


def test_ctf_bad_input(tmp_path):
    bad = tmp_path / "bad.data"
    bad.write_bytes(b"not a perf.data file, " * 20)
    ctf_errors_match(tmp_path, str(bad))


def test_ctf_tod_needs_clock_data(perf_data, tmp_path):
    ctf_errors_match(tmp_path, perf_data["nocallchain"], "--tod")


def test_ctf_pipe_file(perf_data, tmp_path):
    """perf 6.1 cannot convert a pipe-format file to CTF (its env is unknown
    when it sets the trace up, "Error during conversion setup."); pcl sets up
    at the first event, when the header records have come: each sample of
    perf script is there, with its time, thread and call chain."""
    want = perf("data", "convert", "-i", perf_data["pipe"], "--to-ctf",
                str(tmp_path / "perf-ctf"))
    assert want.returncode == 255 and "Error during conversion setup." in want.stderr
    got_dir = str(tmp_path / "pcl-ctf")
    got = pcl("data", "convert", "-i", perf_data["pipe"], "--to-ctf", got_dir, "--all")
    assert got.returncode == 0, got.stderr
    out = subprocess.run(["babeltrace", "--clock-cycles", got_dir], capture_output=True,
                         text=True, check=True).stdout
    samples = re.findall(r"^\[0*(\d+)\] \S+ ([^:]+:?[^:]*): \{ cpu_id = \d+ \}, "
                         r"\{ perf_ip = \w+, perf_tid = (\d+), .*perf_callchain = ", out, re.M)
    script = perf("script", "-i", perf_data["pipe"], "-F", "tid,time", "--ns", "-G").stdout
    want_samples = re.findall(r"^\s*(\d+)\s+(\d+)\.(\d+):", script, re.M)
    assert want_samples
    assert sorted((int(t), tid) for t, _, tid in samples) == \
        sorted((int(sec + ns), tid) for tid, sec, ns in want_samples)
    assert "perf_comm: " in out
    assert 'host = "' in read(os.path.join(got_dir, "metadata"))


def test_ctf_unwritable_dir(perf_data, tmp_path):
    ctf_errors_match(tmp_path, perf_data["nocallchain"], want_dir="/proc/perf-ctf",
                     got_dir="/proc/perf-ctf")
