"""pcl script against perf script 6.1 on the same perf.data files: the
default output of every kind of recording, -F field lists, headers, the
raw dump, side events, filters; and clear errors for broken files."""
import collections
import os
import shutil
import subprocess

import pytest

from conftest import PCL, PERF, fixture, pcl, perf, perf_killed_by_addr2line, unified
from perfdata_branches import add_branch_stacks
from perfdata_corpus import normalize_vdso, perf_data  # noqa: F401 (fixture)

ALL = ["fp", "dwarf", "threads", "nocallchain", "syscalls", "sched", "system", "pipe",
       "compressed"]


def assert_same(a, b, what):
    assert a == b, f"{what} differs from perf:\n" + unified(a, b, 6000)


def compare(path, *args, filt=None, check_rc=True):
    """Runs perf script and pcl script with args; asserts equal stdout.
    Differences wholly explained by known symbol-engine gaps xfail."""
    want = perf("script", "-i", path, *args)
    got = pcl("script", "-i", path, *args)
    a, b = want.stdout, got.stdout
    if perf_killed_by_addr2line(want):
        # perf 6.1 dies of SIGPIPE when addr2line cannot read a DSO (a
        # memfd mapping of some other process, in system-wide files):
        # pcl goes on; what perf printed before must match.
        a = a[:a.rfind("\n") + 1]
        b = b[:len(a)]
        check_rc = False
    if filt:
        a, b = filt(a), filt(b)
    assert_same(a, b, f"pcl script {' '.join(args)}")
    if check_rc:
        assert got.returncode == (0 if want.returncode == 0 else 255), got.stderr
    return got


@pytest.mark.parametrize("kind", ALL)
def test_default_output(perf_data, kind):
    compare(perf_data[kind])


FIELD_SETS = [
    ["-F", "comm,pid,tid,cpu,time,event,ip,sym,symoff,dso,period"],
    ["-F", "comm,tid,time,event,ip,sym,dso"],
    ["-F", "comm,pid,tid,time,event,trace"],
    ["-F", "ip,sym,symoff,dso"],
    ["-F", "+pid"],
    ["-F", "-period,-cpu"],
    ["-F", "+addr"],
    ["-F", "period,event", "-G"],
    ["-F", "sw:comm,tid,ip,sym"],
    ["-F", "trace:comm,tid,event,trace"],
    ["-F", "comm,tid,time,ip,sym,srcline"],
]


@pytest.mark.parametrize("kind", ["fp", "syscalls", "sched"])
@pytest.mark.parametrize("fields", FIELD_SETS, ids=lambda f: " ".join(f))
def test_fields(perf_data, kind, fields):
    filt = None
    if kind == "sched" and "srcline" in fields[-1]:
        # perf's own process is in this system-wide file; under load its
        # addr2line gives up on /usr/bin/perf and perf prints "perf[addr]"
        # where the line is known: compare the other processes' samples
        def filt(text):
            return "\n\n".join(b for b in text.split("\n\n")
                               if not b.startswith(("perf ", "perf-exec ")))
    compare(perf_data[kind], *fields, filt=filt)


@pytest.mark.parametrize("args", [
    ["-G"], ["--max-stack", "3"], ["--max-stack", "0"],
    ["--show-task-events"], ["--show-mmap-events"],
    ["--show-task-events", "--show-mmap-events", "-F", "comm,tid,time,event,ip,sym"],
    ["--comms", "burner"], ["--pid", "1,2"], ["--tid", "0"],
    ["-C", "1"], ["-C", "0-1"], ["--time", "0,999999"], ["--time", "10%/2"],
    ["--time", "0%-10%,30%-40%"],
    ["-S", "leaf_spin,leaf_math,spin_work"], ["--dsos", "[kernel.kallsyms],libc.so.6"],
    ["--ns"], ["--reltime"], ["--deltatime"],
    ["-L"], ["-L", "-F", "comm,pid,cpu,time,event"], ["--Latency", "--ns"],
], ids=lambda a: " ".join(a))
@pytest.mark.parametrize("kind", ["fp", "system", "sched"])
def test_options(perf_data, kind, args):
    compare(perf_data[kind], *args)


@pytest.mark.parametrize("kind", ["fp", "sched", "syscalls", "pipe", "compressed"])
@pytest.mark.parametrize("args", [["--header"], ["--header-only", "-I"]],
                         ids=lambda a: " ".join(a))
def test_header(perf_data, kind, args):
    compare(perf_data[kind], *args)


@pytest.mark.parametrize("kind", ["fp", "syscalls", "sched", "pipe", "compressed", "threads"])
def test_dump_raw_trace(perf_data, kind):
    compare(perf_data[kind], "-D", filt=normalize_vdso)


def test_kallsyms_option(perf_data, tmp_path):
    kallsyms = tmp_path / "kallsyms"
    shutil.copy("/proc/kallsyms", kallsyms)
    compare(perf_data["sched"], "--kallsyms", str(kallsyms))


def test_pipe_from_stdin(perf_data):
    def run_stdin(tool):
        with open(perf_data["pipe"], "rb") as f:
            return subprocess.run([tool, "script", "-i", "-"], stdin=f, capture_output=True,
                                  timeout=120)
    want, got = run_stdin(PERF), run_stdin(PCL)
    assert got.returncode == 0, got.stderr
    assert_same(want.stdout.decode(), got.stdout.decode(), "pcl script -i - < pipe.data")


def test_bad_field_is_usage_error(perf_data):
    r = pcl("script", "-i", perf_data["fp"], "-F", "comm,nosuchfield")
    assert r.returncode == 129
    assert "Invalid field requested." in r.stderr


def test_missing_attribute_is_an_error(perf_data):
    want = perf("script", "-i", perf_data["nocallchain"], "-F", "comm,cpu")
    got = pcl("script", "-i", perf_data["nocallchain"], "-F", "comm,cpu")
    assert got.returncode == 255
    assert got.stderr.strip() == want.stderr.strip()


def test_truncated_file_reads_whole_records(perf_data, tmp_path):
    src = perf_data["fp"]
    cut = tmp_path / "cut.data"
    data = open(src, "rb").read()
    cut.write_bytes(data[: len(data) // 2 + 5])
    r = pcl("script", "-i", str(cut))
    assert r.returncode == 0, r.stderr
    assert "Warning:" in r.stderr and "offset 0x" in r.stderr
    full = pcl("script", "-i", src).stdout
    # every sample read from the first half is one of the whole file's
    # (the order near the cut may differ: the queue is flushed early there)
    part_blocks = [b for b in r.stdout.split("\n\n") if b.strip()]
    full_blocks = collections.Counter(b for b in full.split("\n\n") if b.strip())
    assert len(part_blocks) > 10
    missing = collections.Counter(part_blocks) - full_blocks
    # near the cut the queue is flushed before the maps and the exec COMM
    # that a later round would have delivered first: such a sample may keep
    # [unknown] frames and the pre-exec name the whole file resolves, but
    # its sample line past the name is the same
    def head(block):
        return block.split("\n", 1)[0].split(None, 1)[1]

    full_heads = {head(b) for b in full_blocks}
    missing = [b for b in missing if "[unknown]" not in b or head(b) not in full_heads]
    assert not missing, "samples not in the full output:\n" + "\n\n".join(missing[:3])


def test_killed_recording_is_read(perf_data, tmp_path):
    data = bytearray(open(perf_data["nocallchain"], "rb").read())
    data[48:56] = bytes(8)          # header data.size = 0, as a killed perf leaves it
    killed = tmp_path / "killed.data"
    killed.write_bytes(bytes(data))
    r = pcl("script", "-i", str(killed))
    assert r.returncode == 0
    assert "data size in the header is 0" in r.stderr
    assert len(r.stdout.splitlines()) >= len(pcl("script", "-i", perf_data["nocallchain"])
                                             .stdout.splitlines())


@pytest.mark.parametrize("damage", [(b'"prev_comm', b'(prev_comm'),
                                    (b"field:char prev_comm", b"fiXld:char prev_comm")],
                         ids=["print-fmt", "field"])
def test_damaged_event_format_is_said(tmp_path, damage):
    """A tracepoint format the library cannot parse: its samples print
    [FAILED TO PARSE] with their raw fields, and the library's error goes
    to stderr, as with perf."""
    path = tmp_path / "tp.data"
    r = perf("record", "-q", "-e", "sched:sched_switch", "-o", str(path), "--", "sleep", "0.1")
    assert r.returncode == 0, r.stderr
    data = path.read_bytes()
    fmt = data.find(b"name: sched_switch")
    at = data.find(damage[0], fmt)
    assert fmt > 0 and at > 0
    path.write_bytes(data[:at] + damage[1] + data[at + len(damage[0]):])
    a, b = perf("script", "-i", str(path)), pcl("script", "-i", str(path))
    assert a.returncode == b.returncode == 0
    assert b.stdout == a.stdout and "[FAILED TO PARSE]" in b.stdout
    assert "Error: expected" in a.stderr
    assert "Error: expected" in b.stderr


def test_garbage_file_is_a_clear_error(tmp_path):
    junk = tmp_path / "junk.data"
    junk.write_bytes(os.urandom(4096))
    r = pcl("script", "-i", str(junk))
    assert r.returncode == 255
    assert "bad magic at offset 0" in r.stderr
    assert r.stdout == ""


def test_corrupt_record_names_the_offset(perf_data, tmp_path):
    data = bytearray(open(perf_data["nocallchain"], "rb").read())
    data_offset = int.from_bytes(data[40:48], "little")
    data[data_offset + 6:data_offset + 8] = (3).to_bytes(2, "little")  # size 3
    bad = tmp_path / "bad.data"
    bad.write_bytes(bytes(data))
    r = pcl("script", "-i", str(bad))
    assert r.returncode == 255
    assert f"record at offset {data_offset:#x} has an invalid size 3" in r.stderr


def test_missing_file():
    r = pcl("script", "-i", "/nonexistent/perf.data")
    assert r.returncode == 255
    assert "No such file or directory" in r.stderr


# ---- fields that read more than the sample: misc, tod, insn, srccode ----

@pytest.fixture(scope="module")
def field_data(tmp_path_factory):
    """report_work (debug info, readable source) recorded plainly, with
    callchains, with CLOCK_DATA (-k), and with a tracepoint: {kind: path}."""
    d = tmp_path_factory.mktemp("fields")
    work = [fixture("report_work"), "150", "cut"]
    files = {}
    for name, args in [("plain", []), ("fp", ["-g"]), ("mono", ["-k", "CLOCK_MONOTONIC"]),
                       ("realtime", ["-g", "-k", "realtime"]),
                       ("mixed", ["-g", "-e", "cpu-clock", "-e", "sched:sched_switch"])]:
        files[name] = str(d / (name + ".data"))
        subprocess.run([PERF, "record", "-q", "-o", files[name], *args, "--", *work],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True,
                       timeout=120)
    return files


def compare_all(path, *args, stdin=None):
    """perf and pcl agree on stdout, stderr and exit code.  Of a usage
    error only the message before the (tool-specific) usage text counts."""
    def run_tool(tool):
        if stdin:
            with open(stdin, "rb") as f:
                r = subprocess.run([tool, "script", "-i", "-", *args], stdin=f,
                                   capture_output=True, timeout=120)
        else:
            r = subprocess.run([tool, "script", "-i", path, *args], capture_output=True,
                               timeout=120)
        err = r.stderr.decode()
        if r.returncode == 129:
            err = err.split("\n Usage:")[0]
        return r.stdout.decode(), err, r.returncode
    want, got = run_tool(PERF), run_tool(PCL)
    assert_same(want[0], got[0], f"pcl script {' '.join(args)}")
    assert (got[1], got[2]) == (want[1], want[2])


NEW_FIELDS = [
    ["-F", "comm,tid,misc,ip,sym"],
    ["-F", "+misc"],
    ["-F", "comm,tid,ip,sym,dso,insn,insnlen", "-G"],
    ["-F", "+insn,+insnlen"],
    ["-F", "comm,tid,ip,sym,srccode"],
    ["-F", "comm,tid,ip,sym,srccode", "-G"],
    ["-F", "+srccode,+insn,+misc"],
    ["-F", "comm,tid,time,misc,event", "--show-task-events", "--show-mmap-events"],
    # nothing to show without branch stacks, AUX data or guests
    ["-F", "+brstack,+brstacksym,+brstackoff,+ipc,+metric,+synth,+callindent"],
    ["-F", "+machine_pid,+vcpu"],
]


@pytest.mark.parametrize("kind", ["plain", "fp"])
@pytest.mark.parametrize("fields", NEW_FIELDS, ids=lambda f: " ".join(f))
def test_more_fields(field_data, kind, fields):
    compare_all(field_data[kind], *fields)


def test_srccode_per_thread(perf_data):
    # a line is left out when it repeats the thread's last one, not the last printed
    compare(perf_data["threads"], "-F", "comm,tid,ip,sym,srccode", "-G")


def test_insn_system_wide(perf_data):
    # many DSOs and instruction sets (AVX-512 string functions of libc)
    compare(perf_data["system"], "-F", "+misc,+insn,+insnlen", "-G")


@pytest.fixture(scope="module")
def switch_data(tmp_path_factory):
    """Context switches (--switch-events) of one workload and system-wide."""
    d = tmp_path_factory.mktemp("switch")
    files = {}
    for name, args, work in [("task", [], [fixture("report_work"), "100"]),
                             ("system", ["-a"], ["sleep", "0.1"])]:
        files[name] = str(d / (name + ".data"))
        subprocess.run([PERF, "record", "-q", "--switch-events", "-o", files[name], *args,
                        "--", *work], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                       check=True, timeout=120)
    return files


@pytest.mark.parametrize("args", [
    [], ["-F", "comm,tid,cpu,time,misc,event"], ["-F", "misc", "-G"], ["-C", "1"],
], ids=lambda a: " ".join(a) or "default")
@pytest.mark.parametrize("kind", ["task", "system"])
def test_switch_events(switch_data, kind, args):
    # misc shows S (switch out) and p (preempted) here
    compare(switch_data[kind], "--show-switch-events", *args)


@pytest.mark.parametrize("args", [
    ["-F", "+tod"], ["-F", "comm,tid,tod,ip,sym", "--ns"], ["-F", "tod,time,misc", "-G"],
    ["-F", "tod,comm,tid,event", "--show-task-events"],
], ids=lambda a: " ".join(a))
@pytest.mark.parametrize("kind", ["mono", "realtime"])
def test_tod(field_data, kind, args):
    compare_all(field_data[kind], *args)


@pytest.mark.parametrize("fields", ["+tod", "tod,ip", "sw:tod"])
@pytest.mark.parametrize("kind", ["plain", "mixed"])
def test_tod_needs_clock_data(field_data, kind, fields):
    # perf skips the check when tracepoints with callchains keep their
    # default fields: then "sw:tod" prints "disabled"
    compare_all(field_data[kind], "-F", fields)


@pytest.mark.parametrize("field", ["brstackinsn", "brstackinsnlen"])
def test_brstackinsn_needs_branch_stacks(field_data, field):
    compare_all(field_data["fp"], "-F", "ip,sym," + field)


@pytest.mark.parametrize("field", [
    "weight", "data_src", "phys_addr", "uregs", "iregs", "code_page_size", "data_page_size",
    "ins_lat", "addr", "cpu", "brstackinsn"])
@pytest.mark.parametrize("pipe", [False, True], ids=["file", "pipe"])
def test_missing_sample_bits(perf_data, field, pipe):
    if pipe:
        compare_all(None, "-F", "comm,ip," + field, stdin=perf_data["pipe"])
    else:
        compare_all(perf_data["nocallchain"], "-F", "comm,ip," + field)


@pytest.mark.parametrize("fields", [
    ["cgroup"], ["retire_lat"], ["dsoff"], ["bogus"], ["comm,bogus"],
    ["bpf-output"], ["+bpf-output"], ["trace:bpf-output"], ["raw:bpf-output"],
    ["synth:bpf-output"], ["hw:trace"], ["raw:ip", "-F", "raw:sym"],
    ["ip,sym", "-F", "comm,ip"], ["symoff"], ["-sym"], ["bogus:ip"], [""], ["hw:"],
], ids=lambda f: " ".join(f))
def test_field_list_messages(perf_data, fields):
    compare_all(perf_data["fp"], "-F", *fields)


@pytest.fixture(scope="module")
def branch_data(field_data, tmp_path_factory):
    """Recordings given made-up branch stacks (perfdata_branches.py): no
    branch-recording hardware is needed to check how they print."""
    d = tmp_path_factory.mktemp("branches")
    files = {k: str(d / (k + ".data")) for k in ("fp", "every_type", "real_fp", "real")}
    add_branch_stacks(field_data["fp"], files["fp"])
    add_branch_stacks(field_data["plain"], files["every_type"], every_type=True)
    add_branch_stacks(field_data["fp"], files["real_fp"], boundaries=True)
    add_branch_stacks(field_data["realtime"], files["real"], boundaries=True)
    return files


@pytest.mark.parametrize("fields", [
    "+brstack", "comm,tid,ip,sym,brstack,dso", "ip,sym,dso,brstacksym", "brstacksym",
    "ip,brstackoff,dso", "brstackoff", "brstack,brstacksym,brstackoff",
])
@pytest.mark.parametrize("kind", ["fp", "every_type"])
def test_branch_stacks(branch_data, kind, fields):
    compare_all(branch_data[kind], "-F", fields)


@pytest.mark.parametrize("fields", [
    "ip,sym,brstackinsn", "ip,sym,brstackinsnlen", "+brstackinsn,+insnlen",
    "comm,tid,ip,sym,brstackinsn,srccode",
])
@pytest.mark.parametrize("kind", ["real_fp", "real"])
def test_brstackinsn(branch_data, kind, fields):
    # blocks between earlier sampled ips: real code, decoded from instruction starts
    compare_all(branch_data[kind], "-F", fields)
