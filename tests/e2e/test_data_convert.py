"""pcl data convert against perf data convert 6.1 on the same perf.data files."""
import json
import os

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


def test_ctf_is_refused_clearly(perf_data, tmp_path):
    got = pcl("data", "convert", "-i", perf_data["fp"], "--to-ctf", str(tmp_path / "ctf"))
    assert got.returncode != 0
    assert "not supported" in got.stderr
    assert not os.path.exists(tmp_path / "ctf")


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
