"""`pcl record` against perf 6.1 with BPF programs loaded: the KSYMBOL and
BPF_EVENT records perf synthesizes for each program, where they stand
among the other synthesized records, the header's BPF_PROG_INFO and
BPF_BTF features, the tracking event's attr bits, and samples in BPF code
named as perf names them.

Other processes load and unload programs of their own meanwhile: only the
programs this file loads are compared.  Each is unloaded (its fds closed,
its process killed) when the tests that need it end, so that tests listing
kernel symbols elsewhere do not meet them."""
import os
import re
import signal
import struct
import subprocess
import sys

import pytest

import bpf_progs
from conftest import PCL, PERF, perf, unified, wait_until

HERE = os.path.dirname(os.path.abspath(__file__))
# perf report -D: "[TIME] [CPU] 0xOFFSET [0xSIZE]: PERF_RECORD_TYPE rest"
RECORD = re.compile(r"^(?:\S+ )*0x[0-9a-f]+ \[0x[0-9a-f]+\]: PERF_RECORD_(\w+)(.*)$", re.M)


@pytest.fixture(scope="module")
def loaded():
    """Three programs: one function, two functions without BTF, two with
    BTF names; their ids and their BTF's id."""
    fds, progs = [], []
    try:
        for args in (("pcl_rec_one",), ("pcl_rec_two", bpf_progs.TWO_FUNCS),
                     ("pcl_rec_btf", bpf_progs.TWO_FUNCS, ["pcl_rec_main", "pcl_rec_sub"],
                      (0, 3))):
            got = bpf_progs.load(*args)
            fds += got
            progs.append(bpf_progs.prog_id(got[-1]))
        btf = bpf_progs.btf_id(fds[-2])
    except OSError as e:
        for fd in fds:
            os.close(fd)
        pytest.skip(f"BPF programs cannot be loaded here: {e}")
    yield set(progs), btf
    for fd in fds:
        os.close(fd)


def record_both(tmp, *args, pipe=False):
    """perf's and pcl's recordings of the same command line, one after the
    other (as streams saved to files with pipe)."""
    paths = []
    for tool in (PERF, PCL):
        path = str(tmp / (os.path.basename(tool) + ".data"))
        if pipe:
            with open(path, "wb") as f:
                r = subprocess.run([tool, "record", "-q", "-o", "-", *args], stdout=f,
                                   stderr=subprocess.PIPE, text=True, timeout=120)
        else:
            r = subprocess.run([tool, "record", "-q", "-o", path, *args],
                               capture_output=True, text=True, timeout=120)
        assert r.returncode == 0, r.stderr
        paths.append(path)
    return paths


def dump(path):
    r = perf("report", "-D", "-i", path)
    assert r.returncode == 0, r.stderr
    return r.stdout


def programs(text, ids):
    """Each of our programs' records, in file order: its KSYMBOLs (address,
    length, type, name) and its BPF_EVENT."""
    found, ksyms = [], []
    for kind, rest in RECORD.findall(text):
        if kind == "KSYMBOL":
            ksyms.append(rest)
            continue
        if kind == "BPF_EVENT" and int(re.search(r"id (\d+)", rest).group(1)) in ids:
            found.append((ksyms, rest))
        ksyms = []
    return found


def our_ksymbols(text):
    return [r for k, r in RECORD.findall(text)
            if k == "KSYMBOL" and re.search(r"_pcl_rec_(one|main|sub)$", r)]


def synthesized_order(text):
    """The kinds of records up to FINISHED_INIT (after it, what other
    processes load shows up), repeats merged, tasks left out: where the
    BPF records stand."""
    kinds = []
    for kind, _ in RECORD.findall(text):
        if kind in ("SAMPLE", "FINISHED_ROUND", "FINISHED_INIT"):
            break
        if kind in ("FORK", "COMM", "MMAP2") or (kinds and kinds[-1] == kind):
            continue
        kinds.append(kind)
    return kinds


def header_of_ours(path, ids, btf):
    """Our programs' lines of perf report --header-only (a program's
    sub_prog lines follow it) and our BTF's."""
    r = perf("report", "--header-only", "-i", path)
    assert r.returncode == 0, r.stderr
    lines, mine = [], False
    for line in r.stdout.splitlines():
        m = re.match(r"# bpf_prog_info (\d+):", line)
        if m:
            mine = int(m.group(1)) in ids
        elif not line.startswith("# \tsub_prog"):
            mine = False
        if mine or line == f"# btf info of id {btf}":
            lines.append(line)
    return lines


CASES = {
    "system-wide": ["-a", "--", "sleep", "0.05"],
    "workload": ["--", "true"],
    "user-only": ["-e", "cpu-clock:u", "--", "true"],
    "no-bpf-event": ["--no-bpf-event", "-a", "--", "sleep", "0.05"],
    "tail": ["--tail-synthesize", "--", "true"],
}


@pytest.mark.parametrize("case", CASES)
def test_bpf_records_and_header_as_perf(tmp_path, loaded, case):
    """The same KSYMBOL/BPF_EVENT records for our programs, in perf's
    place, the same header lines (none for the programs with
    --no-bpf-event, whose KSYMBOLs stay), the same attrs."""
    ids, btf = loaded
    theirs, ours = record_both(tmp_path, *CASES[case])
    want, got = dump(theirs), dump(ours)
    if case == "no-bpf-event":
        assert "PERF_RECORD_BPF_EVENT" not in got
        assert len(our_ksymbols(want)) == 3
    else:
        assert len(programs(want, ids)) == 3
        assert programs(got, ids) == programs(want, ids)
    assert our_ksymbols(got) == our_ksymbols(want)
    if case != "tail":
        assert synthesized_order(got) == synthesized_order(want)
        assert "KSYMBOL" in synthesized_order(got)
    head = header_of_ours(theirs, ids, btf)
    assert len(head) == (1 if case == "no-bpf-event" else 8), head
    assert header_of_ours(ours, ids, btf) == head
    ev = [perf("evlist", "-v", "-i", p).stdout for p in (theirs, ours)]
    assert ev[1] == ev[0], unified(ev[0], ev[1])


def test_pipe_bpf_records_as_perf(tmp_path, loaded):
    """A stream carries the records too; its features go out before perf
    reads the programs, so they list none, in perf's stream as in pcl's."""
    ids, btf = loaded
    theirs, ours = record_both(tmp_path, "-a", "--", "sleep", "0.05", pipe=True)
    want, got = dump(theirs), dump(ours)
    assert len(programs(want, ids)) == 3
    assert programs(got, ids) == programs(want, ids)
    assert synthesized_order(got) == synthesized_order(want)
    assert header_of_ours(ours, ids, btf) == header_of_ours(theirs, ids, btf) == []


def start_busy(name):
    """A process whose system calls run a long BPF program named name,
    once it runs."""
    p = subprocess.Popen([sys.executable, os.path.join(HERE, "bpf_progs.py"), "120", name],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = p.stdout.readline()
    if line != "ready\n":
        err = p.stderr.read()
        p.wait()
        if "Operation not permitted" in err:
            pytest.skip("BPF programs cannot be loaded here")
        pytest.fail(err)
    return p


def stop(p):
    p.kill()
    p.wait()
    p.stdout.close()
    p.stderr.close()


def bpf_lines(text):
    return [line for line in text.splitlines() if "bpf_prog_" in line]


def test_samples_in_a_program_loaded_before_recording(tmp_path):
    """Only the synthesized KSYMBOL maps a program loaded before the
    recording: perf and pcl name its samples from pcl's file as perf does
    from its own."""
    busy = start_busy("pcl_rec_busy")
    try:
        theirs, ours = record_both(tmp_path, "-a", "-e", "cpu-clock", "--", "sleep", "1")
    finally:
        stop(busy)
    args = ["report", "--stdio", "-s", "dso,sym"]
    want = perf(*args, "-i", theirs).stdout
    assert re.search(r"bpf_prog_[0-9a-f]{16}_pcl_rec_busy", want), "no sample in BPF code"
    got = perf(*args, "-i", ours)
    assert got.returncode == 0, got.stderr
    assert re.search(r"\[k\] bpf_prog_[0-9a-f]{16}_pcl_rec_busy", got.stdout)
    mine = subprocess.run([PCL, *args, "-i", ours], capture_output=True, text=True)
    assert mine.returncode == 0, mine.stderr
    assert bpf_lines(mine.stdout) == bpf_lines(got.stdout)


def finished_init_written(path):
    """FINISHED_INIT (the end of the synthesized records) is in the file
    being written: the records after the header, walked as they stand."""
    try:
        with open(path, "rb") as f:
            data = f.read()
        pos = struct.unpack_from("<Q", data, 40)[0]
    except (OSError, struct.error):
        return False
    while pos + 8 <= len(data):
        kind, _, size = struct.unpack_from("<IHH", data, pos)
        if kind == 68:
            return True
        if size < 8:
            return False
        pos += size
    return False


def describe_live(text):
    """A header's lines of pcl_rec_live, its id and address left out."""
    return [re.sub(r"\d+: (\w+) addr 0x[0-9a-f]+", r"N: \1 addr A", line)
            for line in text.splitlines() if "_pcl_rec_live" in line]


def test_program_loaded_while_recording_in_header(tmp_path):
    """A program loaded after the synthesized records, still loaded at the
    end: its KSYMBOL comes from the kernel, and the header describes it
    (perf's side-band thread reads it as its BPF_EVENT arrives)."""
    heads = []
    for tool in (PERF, PCL):
        path = str(tmp_path / (os.path.basename(tool) + ".data"))
        rec = subprocess.Popen([tool, "record", "-q", "-a", "-e", "cpu-clock", "-o", path],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        busy = None
        try:
            wait_until(lambda: finished_init_written(path), "the synthesized records")
            busy = start_busy("pcl_rec_live")
            rec.send_signal(signal.SIGINT)
            assert rec.wait(timeout=120) in (0, 130, -signal.SIGINT), rec.stderr.read()
        finally:
            if rec.poll() is None:
                rec.kill()
                rec.wait()
            rec.stderr.close()
            if busy:
                stop(busy)
        text = dump(path)
        kinds = [k for k, r in RECORD.findall(text)
                 if k == "FINISHED_INIT" or r.endswith("_pcl_rec_live")]
        assert kinds[:2] == ["FINISHED_INIT", "KSYMBOL"], kinds
        r = perf("report", "--header-only", "-i", path)
        heads.append(describe_live(r.stdout))
    assert len(heads[0]) == 1, heads
    assert heads[1] == heads[0]
