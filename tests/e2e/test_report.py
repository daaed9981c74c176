"""pcl report --stdio against perf report --stdio 6.1 on the same files: a
matrix of sort keys, columns, call-graph styles, filters and headers must
print the same lines.  Only perf's random "Tip" line and trailing blank
lines are left out of the comparison (and one bit perf prints from
uninitialized memory, see normalize())."""
import os
import re
import struct
import subprocess
import sys

import pytest

from conftest import PERF, fixture, pcl, perf, perf_killed_by_addr2line, unified
from perfdata_branches import add_branch_stacks
from report_corpus import SYSTEM_COMMS, SYSTEM_WIDE, report_data  # noqa: F401 (fixture)

CALLCHAIN_KINDS = ["fp", "dwarf", "multi", "group", "tracepoints", "sched", "system", "pipe"]
ALL_KINDS = CALLCHAIN_KINDS + ["plain"]


def normalize(text):
    """Drops the Tip line and trailing blank lines.  perf 6.1 also prints
    its "[...]" marker with " (inlined)" when the uninitialized bit of the
    symbol it allocates for it happens to be set; pcl never does."""
    text = re.sub(r"^# \(Tip: .*\)\n", "", text, flags=re.M)
    text = text.replace("[...] (inlined)", "[...]")
    return text.rstrip("\n") + "\n"


def compare(data, kind, *args):
    """perf report and pcl report with args on one file: same stdout."""
    args = list(args)
    if kind in SYSTEM_WIDE:
        # Other processes ran too: look at the workload only.  With
        # --children perf orders equal totals through a comparison that is
        # not transitive, so every entry (theirs included) shapes the order
        # of ours, and any symbol of theirs resolved differently would show
        # up here: compare without it.
        if "--comms" not in args:
            args += ["--comms", SYSTEM_COMMS]
        if "--no-children" not in args and not any("none" in a for a in args):
            args.append("--no-children")
    want = perf("report", "--stdio", "-i", data[kind], *args)
    got = pcl("report", "--stdio", "-i", data[kind], *args)
    if perf_killed_by_addr2line(want):
        # a system-wide file maps DSOs perf's addr2line cannot read (a
        # memfd of some other process): perf died before its table
        pytest.skip("perf 6.1 died of SIGPIPE asking addr2line (%d)" % want.returncode)
    a, b = normalize(want.stdout), normalize(got.stdout)
    if a != b and kind == "dwarf" and sorted(a.splitlines()) == sorted(b.splitlines()):
        # The same lines in another order: perf compares inlined functions
        # by name and other symbols by address, so where the dynamic
        # loader's stacks mix both, its order of equal entries and branches
        # depends on its trees' shapes.  test_inlined_ties_like_perf checks
        # ties with inlined frames strictly, on recordings without them.
        pytest.xfail("order of equal percentages where inlined and plain frames of the "
                     "dynamic loader meet (known deviation)")
    if a != b:
        pytest.fail(f"pcl report {' '.join(args)} on {kind} differs:\n" + unified(a, b),
                    pytrace=False)
    assert got.returncode == want.returncode, got.stderr
    return got



COLUMNS = [
    [], ["--no-children"], ["-n"], ["--show-cpu-utilization"], ["--showcpuutilization"],
    ["-s", "pid"],
    ["-s", "dso,sym"], ["-F", "overhead,sym,comm"], ["-t", ","], ["--group"],
]
MORE_COLUMNS = [
    ["--show-total-period"], ["-s", "comm"], ["-s", "dso"], ["-s", "sym"], ["-s", "symbol"],
    ["-s", "cpu"], ["-s", "sym,comm", "--no-children"], ["-s", "overhead_sys,overhead_us"],
    ["-s", "comm,overhead_sys"], ["-F", "+period"], ["-F", "sample,comm,dso"],
    ["--percent-limit", "5"], ["-t", "|", "-n"], ["-q"], ["--no-group"],
]
GRAPHS = [
    ["-g", "flat"], ["-g", "folded", "--no-children"], ["-g", "fractal"], ["-g", "caller"],
    ["--no-children", "-G"], ["--max-stack", "3"], ["-g", "fractal,0,count"],
]
MORE_GRAPHS = [
    ["-g", "folded"], ["-g", "graph,2"], ["-g", "callee"], ["-G"],
    ["--no-children", "--max-stack", "5"], ["-g", "none"], ["-g", "fractal,0.5,callee"],
    ["-g", "graph,0.5,period"], ["-g", "flat,0.5,callee", "--no-children"],
    ["-g", "graph,1,3"], ["-g", "fractal,10,caller", "--no-children"],
    ["--percent-limit", "10", "--no-children"], ["-s", "parent"],
    ["-s", "sym", "--no-children"], ["-t", ",", "-g", "folded", "--no-children"],
    ["-s", "parent,sym", "-p", "^hot_"], ["-x", "-s", "parent", "-p", "^hot_|^write"],
]


def name(args):
    return " ".join(args) or "default"


@pytest.mark.parametrize("kind", ALL_KINDS)
@pytest.mark.parametrize("args", COLUMNS, ids=name)
def test_columns_and_keys(report_data, kind, args):
    compare(report_data, kind, *args)


@pytest.mark.parametrize("kind", ["fp", "multi", "sched"])
@pytest.mark.parametrize("args", MORE_COLUMNS, ids=name)
def test_more_columns_and_keys(report_data, kind, args):
    compare(report_data, kind, *args)


@pytest.mark.parametrize("kind", CALLCHAIN_KINDS)
@pytest.mark.parametrize("args", GRAPHS, ids=name)
def test_call_graphs(report_data, kind, args):
    compare(report_data, kind, *args)


@pytest.mark.parametrize("kind", ["fp", "group", "dwarf"])
@pytest.mark.parametrize("args", MORE_GRAPHS, ids=name)
def test_more_call_graphs(report_data, kind, args):
    compare(report_data, kind, *args)


@pytest.mark.parametrize("kind", ["fp", "system", "multi", "group"])
@pytest.mark.parametrize("args", [
    ["--comms", "rw-worker"], ["--comms", "rw-worker", "--percentage", "relative"],
    ["--dsos", "libc.so.6"], ["--dsos", "report_work,libm.so.6"],
    ["--dsos", "[kernel.kallsyms]", "--no-children"],
    ["--symbols", "hot_spin,hot_math"], ["--symbols", "hot_spin", "--percentage", "relative"],
    ["--pid", "1"],
], ids=name)
def test_filters(report_data, kind, args):
    compare(report_data, kind, *args)


def first_sample_times(path, n):
    out = perf("script", "-i", path, "-F", "time").stdout.split()
    return [t.rstrip(":") for t in out[:n]]


@pytest.fixture(scope="module")
def inline_ties_data(tmp_path_factory):
    """Three DWARF recordings of the inline_ties fixture.  Recording starts
    20 ms late (-D), after the dynamic loader's work, whose inlined and
    plain frames perf orders by its trees' shapes where they tie."""
    paths = []
    for i in range(3):
        data = str(tmp_path_factory.mktemp("inline") / f"inline{i}.data")
        rec = perf("record", "-q", "-o", data, "-D", "20", "--call-graph", "dwarf,4096", "--",
                   fixture("inline_ties"), "150")
        assert rec.returncode == 0, rec.stderr
        paths.append(data)
    return paths


@pytest.mark.parametrize("args", [[], ["-g", "callee"], ["--no-children"]], ids=name)
def test_inlined_ties_like_perf(inline_ties_data, args):
    """Equal Children on DWARF stacks with an inlined function: perf's
    entry tree, comparing inlined functions by name and others by address,
    at times misses an equal entry and merges the two in its collapse pass,
    where the survivor keeps its own callchain depth (which orders equal
    totals).  The fixture makes that likely, not certain (the unit test
    test_collapse_keeps_depth always hits it): each recording is compared."""
    for data in inline_ties_data:
        compare({"dwarf": data}, "dwarf", *args)


@pytest.mark.parametrize("args", [["-s", "parent,sym", "-p", "^outer|^nested"],
                                  ["-x", "-s", "parent", "-p", "^ab_|^finish_task"]], ids=name)
def test_dwarf_parent_like_perf(inline_ties_data, args):
    """perf looks for the parent (-p) among the sampled (kernel) frames
    only, not among the DWARF-unwound user frames."""
    for data in inline_ties_data:
        compare({"dwarf": data}, "dwarf", *args)


@pytest.mark.parametrize("kind", ["fp", "system", "sched"])
def test_time_and_cpu(report_data, kind):
    times = first_sample_times(report_data[kind], 40)
    compare(report_data, kind, "--time", f"{times[10]},{times[30]}")
    compare(report_data, kind, "--time", f"{times[20]},")
    if kind != "fp":		# needs PERF_SAMPLE_CPU (system wide)
        compare(report_data, kind, "-C", "0")
        compare(report_data, kind, "-C", "1", "-s", "cpu,comm")


@pytest.mark.parametrize("kind", ["fp", "tracepoints", "group", "pipe"])
@pytest.mark.parametrize("args", [["--header"], ["--header-only"], ["--header-only", "-I"]],
                         ids=name)
def test_headers(report_data, kind, args):
    compare(report_data, kind, *args)


@pytest.fixture(scope="module")
def bpf_data(tmp_path_factory):
    """A recording made while four BPF programs are loaded: one function,
    two (a bpf-to-bpf call), and each of those with BTF names."""
    import bpf_progs
    fds = []
    try:
        fds += bpf_progs.load("pcl_hdr_one")
        fds += bpf_progs.load("pcl_hdr_two", bpf_progs.TWO_FUNCS)
        fds += bpf_progs.load("pcl_hdr_btf", btf_funcs=["pcl_btf_main"])
        fds += bpf_progs.load("pcl_hdr_btf2", bpf_progs.TWO_FUNCS, ["pcl_main", "pcl_sub"],
                              (0, 3))
        path = str(tmp_path_factory.mktemp("bpf") / "bpf.data")
        r = perf("record", "-q", "-o", path, "--", "true")
        assert r.returncode == 0, r.stderr
    except OSError as e:
        pytest.skip(f"BPF programs cannot be loaded here: {e}")
    finally:
        for fd in fds:
            os.close(fd)
    return path


@pytest.mark.parametrize("args", [["--header-only"], ["--header-only", "-I"]], ids=name)
def test_bpf_programs_in_header(bpf_data, args):
    """The programs loaded as perf recorded, in perf's lines: a lone
    function's name (bpf_prog_TAG_NAME), a line per function of the others
    (_F, or their BTF names), then the BTF ids."""
    want = perf("report", "--stdio", "-i", bpf_data, *args)
    got = pcl("report", "--stdio", "-i", bpf_data, *args)
    assert got.returncode == want.returncode == 0, got.stderr
    assert got.stdout == want.stdout, unified(want.stdout, got.stdout)
    assert re.search(r"^# bpf_prog_info \d+: bpf_prog_[0-9a-f]{16}_pcl_hdr_one addr 0x",
                     got.stdout, re.M)
    assert re.search(r"^# \tsub_prog 1: bpf_prog_[0-9a-f]{16}_F addr", got.stdout, re.M)
    assert re.search(r"^# \tsub_prog 1: bpf_prog_[0-9a-f]{16}_pcl_sub addr", got.stdout, re.M)
    assert re.search(r"^# btf info of id \d+$", got.stdout, re.M)


@pytest.fixture(scope="module")
def bpf_code_data(tmp_path_factory):
    """A recording of a program whose syscalls run a BPF program: samples
    in JIT code that only the KSYMBOL records name."""
    path = str(tmp_path_factory.mktemp("bpfcode") / "bpf.data")
    script = os.path.join(os.path.dirname(__file__), "bpf_progs.py")
    r = perf("record", "-q", "-e", "cpu-clock", "-g", "-o", path, "--",
             sys.executable, script, "1")
    if r.returncode != 0 and "Operation not permitted" in r.stderr:
        pytest.skip("BPF programs cannot be loaded here")
    assert r.returncode == 0, r.stderr
    return path


@pytest.mark.parametrize("args", [["report", "--stdio", "-s", "dso,sym"],
                                  ["report", "--stdio", "--no-children", "-s", "sym", "-g",
                                   "none"],
                                  ["report", "--stdio", "-g", "caller"],
                                  ["script", "-F", "comm,tid,ip,sym,symoff,dso"]],
                         ids=name)
def test_samples_in_bpf_programs(bpf_code_data, args):
    """KSYMBOL records map a BPF program's JIT code: its samples are named
    bpf_prog_TAG_NAME (DSO and symbol), with offsets, as perf names them."""
    want = perf(*args, "-i", bpf_code_data)
    got = pcl(*args, "-i", bpf_code_data)
    assert got.returncode == want.returncode == 0, got.stderr
    assert "bpf_prog_" in want.stdout, "no sample landed in the BPF program"
    a, b = normalize(want.stdout), normalize(got.stdout)
    assert a == b, unified(a, b)
    assert re.search(r"bpf_prog_[0-9a-f]{16}_pcl_busy", got.stdout)


@pytest.mark.parametrize("args", [[], ["-s", "trace,comm"], ["--no-children", "-s", "sym"],
                                  ["--group"], ["-F", "overhead,trace"]],
                         ids=name)
def test_trace_output(report_data, args):
    compare(report_data, "tracepoints", *args)


def test_srcline_of_the_workload(report_data):
    """Source lines resolved in process (libdw), here for the fixture's own
    code whose DWARF is plain."""
    compare(report_data, "fp", "-s", "srcline", "--dsos", "report_work", "--no-children")
    compare(report_data, "fp", "-s", "srcline,sym", "--symbols", "hot_spin,hot_math")
    compare(report_data, "fp", "-g", "srcline", "--no-children", "--max-stack", "4",
            "--dsos", "report_work")


def test_dot_separator_is_refused(report_data):
    """'.' as -t would split every number; pcl looped forever on it, perf
    says so (and exits 0 after two header lines): pcl says it and fails."""
    want = perf("report", "--stdio", "-t", ".", "-i", report_data["plain"])
    got = pcl("report", "--stdio", "-t", ".", "-i", report_data["plain"], timeout=60)
    assert want.stderr.strip() == got.stderr.strip() != ""
    assert got.returncode == 255 and got.stdout == ""


@pytest.mark.parametrize("args", [
    ["-s", "parent"], ["-g"], ["-s", "nosuchkey"], ["-F", "nosuchfield"], ["-b"],
    ["--branch-stack", "--no-children"], ["--hierarchy", "-F", "overhead,sym"],
    ["--time", "1,2"],
], ids=name)
def test_errors_like_perf(report_data, args):
    """Errors perf reports (and its exit status, 0 for these)."""
    want = perf("report", "--stdio", "-i", report_data["plain"], *args)
    got = pcl("report", "--stdio", "-i", report_data["plain"], *args)
    assert got.returncode == want.returncode
    first = [line for line in want.stderr.splitlines() if line.strip()][:2]
    for line in first:
        assert line.replace("perf report", "pcl report") in got.stderr
    assert normalize(got.stdout) == normalize(want.stdout)


@pytest.mark.parametrize("args", [
    ["-g", "caller"], ["--header", "-g", "caller"], ["-s", "parent"], ["-b"], ["--mem-mode"],
    ["--stitch-lbr"], ["--branch-history"], ["-b", "-g", "caller"], ["-b", "-s", "parent"],
    ["-g", "caller", "--mem-mode"], ["-b", "--branch-history"], ["-s", "nope"],
    ["--sort=dso,nope"], ["-F", "nope"], ["-s", "sym", "-F", "overhead,nope"],
    ["-g", "nope"], ["-g", "graph,x"], ["--stats", "--tasks"], ["--stats", "--mmaps"],
], ids=name)
def test_complaints_in_perfs_order(report_data, args):
    """What the file lacks or a key perf does not know: perf's words, then
    the options' usage or the header line, in one stream in perf's order
    (the complaint before the header), and perf's exit status."""
    def merged(tool):
        return tool("report", "--stdio", "-i", report_data["plain"], *args,
                    stderr=subprocess.STDOUT)

    want, got = merged(perf), merged(pcl)
    assert got.returncode == want.returncode
    assert normalize(got.stdout.replace("pcl report", "perf report")) == \
        normalize(want.stdout), unified(want.stdout, got.stdout)


def test_help_as_perf():
    """-h: perf's option texts, its sort and field key lists included."""
    want, got = perf("report", "-h"), pcl("report", "-h")
    assert got.returncode == want.returncode
    assert got.stderr.replace("pcl report", "perf report") == want.stderr, \
        unified(want.stderr, got.stderr)


def test_missing_file():
    got = pcl("report", "--stdio", "-i", "/nonexistent/perf.data")
    assert got.returncode == perf("report", "--stdio", "-i", "/nonexistent/perf.data").returncode
    assert "/nonexistent/perf.data" in got.stderr


def test_without_stdio_is_stdio(report_data):
    """No TUI yet: plain `pcl report` prints the --stdio text."""
    a = pcl("report", "-i", report_data["fp"]).stdout
    b = pcl("report", "--stdio", "-i", report_data["fp"]).stdout
    assert a == b and a.startswith("# To display the perf.data header")


def test_tid_sort_key(report_data):
    """`-s tid` (beyond perf 6.1): the pid column, keyed by thread."""
    got = pcl("report", "--stdio", "-i", report_data["fp"], "-s", "tid", "-g", "none")
    assert got.returncode == 0
    assert "Tid:Command" in got.stdout
    rows = [line for line in got.stdout.splitlines() if line and not line.startswith("#")]
    assert any("rw-worker" in r for r in rows) and any("report_work" in r for r in rows)


def test_broken_stacks_hint(report_data, tmp_path):
    """Beyond perf: when most user stacks end outside main/thread start, a
    hint says how to get whole stacks.  A program that cuts the frame
    pointer chain under all its work gets it; the fp recording, where only
    part of the main thread's work is cut, does not (a few broken stacks
    are normal), nor do complete stacks or none at all, nor -q."""
    data = str(tmp_path / "cut.data")
    rec = pcl("record", "-q", "-g", "-o", data, "--", fixture("report_work"), "200", "cut-only")
    assert rec.returncode == 0, rec.stderr
    got = pcl("report", "--stdio", "-i", data)
    m = re.search(r"^(\d+)% of stacks end outside main/thread start: build with "
                  r"-fno-omit-frame-pointer or use --call-graph dwarf$", got.stderr, re.M)
    assert m and int(m.group(1)) > 50, got.stderr
    assert got.stderr.count("of stacks end outside") == 1
    assert "of stacks end outside" not in pcl("report", "--stdio", "-q", "-i", data).stderr
    for kind in ("fp", "multi", "plain"):
        assert "of stacks end outside" not in pcl(
            "report", "--stdio", "-i", report_data[kind]).stderr


def test_damaged_files(report_data, tmp_path):
    """A cut file reports what it holds (with a warning); garbage is a
    clear error, never a crash."""
    data = open(report_data["fp"], "rb").read()
    # where the records are: on a loaded machine the workload gets few
    # samples, and half the file can end in the feature sections after them
    start, size = struct.unpack_from("<QQ", data, 0x28)
    cut = tmp_path / "cut.data"
    cut.write_bytes(data[:start + size // 2])
    got = pcl("report", "--stdio", "-i", str(cut))
    assert got.returncode == 0
    assert "Warning:" in got.stderr and "# Samples:" in got.stdout
    junk = tmp_path / "junk.data"
    junk.write_bytes(bytes(range(256)) * 4)
    got = pcl("report", "--stdio", "-i", str(junk))
    assert got.returncode == 255 and "junk.data" in got.stderr
    bad = tmp_path / "bad.data"
    garbage, junk_len = start + size // 3, min(4000, size // 4)
    bad.write_bytes(data[:garbage] + b"\xff" * junk_len + data[garbage + junk_len:])
    got = pcl("report", "--stdio", "-i", str(bad))
    assert got.returncode in (0, 1)	# a signal would be negative
    if got.returncode:
        assert "bad.data" in got.stderr


def report_on_terminal(path, env_extra, stderr_tty=True):
    """pcl report with stderr on a pseudo-terminal (stdout a pipe): returns
    (stdout, everything written to the terminal)."""
    import os
    import pty
    import subprocess
    from conftest import PCL
    master, slave = pty.openpty()
    env = dict(os.environ, **env_extra)
    proc = subprocess.Popen([PCL, "report", "--stdio", "-i", path], env=env,
                            stdout=subprocess.PIPE, stdin=subprocess.DEVNULL,
                            stderr=slave if stderr_tty else subprocess.PIPE)
    os.close(slave)
    out, err = proc.communicate(timeout=120)
    seen = b""
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:		# EIO: the child's end is closed
            break
        if not chunk:
            break
        seen += chunk
    os.close(master)
    assert proc.returncode == 0
    return out.decode(), (seen if stderr_tty else err).decode(errors="replace")


def test_progress_on_terminal(report_data):
    """The progress line shows on a terminal once processing takes longer
    than a threshold (1 s; PCL_PROGRESS_AFTER_MS lowers it for the test),
    and is erased before the report; never on a pipe, never on fast runs."""
    path = report_data["system"]
    out, tty = report_on_terminal(path, {"PCL_PROGRESS_AFTER_MS": "0"})
    assert re.search(r"\rProcessing events\.\.\. +\d+%", tty), repr(tty[:200])
    assert "\r\x1b[K" in tty.split("Processing events")[-1]	# erased at the end
    assert "Processing" not in out and out.startswith("# To display")
    # runs shorter than the threshold: nothing (a huge threshold, so that a
    # loaded machine cannot make this run slow enough)
    _, tty = report_on_terminal(path, {"PCL_PROGRESS_AFTER_MS": "600000"})
    assert "Processing" not in tty
    # stderr not a terminal: never
    _, err = report_on_terminal(path, {"PCL_PROGRESS_AFTER_MS": "0"}, stderr_tty=False)
    assert "Processing" not in err


@pytest.mark.parametrize("kind", ["fp", "multi", "sched", "system", "pipe", "tracepoints"])
@pytest.mark.parametrize("args", [["--stats"], ["--tasks"], ["--mmaps"], ["-D", "--stats"],
                                  ["-D", "--tasks"], ["-D", "--mmaps"]], ids=name)
def test_stats_and_tasks(report_data, kind, args):
    """Record counts by type and per event; the tree of threads by fork
    (--mmaps: with each one's maps, where a FORK perf synthesized copies
    no parent maps).  With -D, every record's dump first, ": unhandled!"
    where perf's counting tool has no handler (--stats reads unsorted).
    (A pipe's -D is left out: perf names its vDSO after a temporary file.)"""
    if kind == "pipe" and "-D" in args:
        pytest.skip("perf names a pipe's vDSO after a random temporary file")
    want = perf("report", "--stdio", "-i", report_data[kind], *args)
    got = pcl("report", "--stdio", "-i", report_data[kind], *args)
    assert got.stdout.strip(), got.stderr
    assert got.stdout == want.stdout, unified(want.stdout, got.stdout)
    assert got.returncode == want.returncode


def test_hide_unresolved(report_data):
    """-U drops samples without a symbol and such frames from stacks; perf's
    own (stripped) binary gives unresolved ones in the system-wide file."""
    for args in (["-U", "--comms", "perf"], ["-U", "--comms", "perf", "-g", "caller"],
                 ["-U", "-s", "dso,sym"]):
        compare(report_data, "system", *args, "--no-children")
    compare(report_data, "fp", "-U")


@pytest.mark.parametrize("args", [["-s", "trace"], ["-s", "trace,comm", "--no-children"]],
                         ids=name)
def test_raw_trace(report_data, args):
    """--raw-trace: the fields as name=value, perf 6.1's number formats."""
    compare(report_data, "tracepoints", "--raw-trace", *args)
    compare(report_data, "sched", "--raw-trace", *args)


@pytest.mark.parametrize("kind", ["fp", "system"])
@pytest.mark.parametrize("slices", ["10%/2", "0%-10%", "50%", "10%/1,10%/3", "0%-10%,30%-40%",
                                    "25%/4", "100%/1"])
def test_time_percent_slices(report_data, kind, slices):
    """--time in percent of the recording (its first to last sample)."""
    compare(report_data, kind, "--time", slices)


@pytest.mark.parametrize("args", [["--time", "5%-x"], ["--time", "bad%"], ["--time", "abc"],
                                  ["-C", "0"]], ids=name)
def test_filter_errors_exit_like_perf(report_data, args):
    want = perf("report", "--stdio", "-i", report_data["fp"], *args)
    got = pcl("report", "--stdio", "-i", report_data["fp"], *args)
    assert (got.returncode, got.stdout) == (want.returncode, want.stdout)
    assert want.stderr.strip().splitlines()[-1] in got.stderr


MORE_KEYS = [
    ["-s", "symbol_size,sym"], ["-s", "dso_size,sym"], ["-s", "dso_size"], ["-s", "socket,comm"],
    ["-s", "socket,cpu"], ["-s", "time"], ["-s", "time,comm", "-g", "none"],
    ["-s", "weight,sym"], ["-s", "local_weight"], ["-F", "overhead,time,sym"],
    ["-s", "srcfile", "--dsos", "report_work"], ["-s", "srcfile,sym", "--dsos", "report_work"],
    ["-s", "addr"], ["-s", "addr,sym", "-g", "none"], ["-s", "transaction,sym"],
    ["-s", "code_page_size,comm"], ["-F", "overhead,addr,transaction,code_page_size"],
    ["-F", "overhead,p_stage_cyc,local_p_stage_cyc,sym"], ["-s", "sym,ipc_null"],
    ["-F", "overhead,ipc_null,sym"],
]


@pytest.mark.parametrize("kind", ["fp", "multi", "system"])
@pytest.mark.parametrize("children", [[], ["--no-children"]], ids=["children", "self"])
@pytest.mark.parametrize("args", MORE_KEYS, ids=name)
def test_more_sort_keys(report_data, kind, children, args):
    """symbol_size, dso_size, socket, time (100 ms slots), weight,
    local_weight (0 without PERF_SAMPLE_WEIGHT), srcfile, addr (a --children
    caller's address shifted twice, as perf), transaction and code_page_size
    (blank, N/A without them), the -F only columns ipc_null and p_stage_cyc."""
    compare(report_data, kind, *args, *children)


def compare_with_refusal(path, *args):
    """Same stdout and rc; where perf prints no table, the same complaint."""
    want = perf("report", "--stdio", "-i", path, *args)
    got = pcl("report", "--stdio", "-i", path, *args)
    a, b = normalize(want.stdout), normalize(got.stdout)
    if a != b:
        pytest.fail(f"pcl report {' '.join(args)} differs:\n" + unified(a, b), pytrace=False)
    assert got.returncode == want.returncode, got.stderr
    if not want.stdout:
        assert got.stderr == want.stderr.replace("perf report", "pcl report")


# perf 6.1's -s help, in its order
PERF_SORT_KEYS = """pid comm dso symbol parent cpu socket srcline srcfile local_weight weight
    transaction trace symbol_size dso_size cgroup cgroup_id ipc_null time code_page_size
    local_ins_lat ins_lat local_p_stage_cyc p_stage_cyc addr dso_from dso_to symbol_from
    symbol_to mispredict abort in_tx cycles srcline_from srcline_to ipc_lbr addr_from addr_to
    symbol_daddr dso_daddr locked tlb mem snoop dcacheline symbol_iaddr phys_daddr
    data_page_size blocked""".split()


@pytest.mark.parametrize("kind", ["plain", "fp", "tracepoints"])
@pytest.mark.parametrize("key", PERF_SORT_KEYS)
def test_every_perf_sort_key(report_data, kind, key):
    """Each key perf's -s help names: the same table, or the same refusal
    (an ipc key's -s help with rc 0, a branch or memory key "Invalid")."""
    compare_with_refusal(report_data[kind], "-s", key)


@pytest.fixture(scope="module")
def code_page_file(tmp_path_factory):
    """A -g recording with PERF_SAMPLE_CODE_PAGE_SIZE (4K and 2M pages)."""
    path = str(tmp_path_factory.mktemp("code-page") / "code-page.data")
    perf("record", "-q", "--code-page-size", "-g", "-o", path, "--",
         fixture("report_work"), "200")
    return path


@pytest.mark.parametrize("args", [
    ["-s", "code_page_size"], ["-s", "code_page_size,sym"], ["-s", "sym,code_page_size"],
    ["-s", "code_page_size", "--no-children"], ["-F", "overhead,code_page_size,dso"],
    ["--hierarchy", "-s", "code_page_size,dso", "-g", "none"], ["-s", "code_page_size,addr"],
], ids=name)
def test_code_page_size_key(code_page_file, args):
    """Values differ between samples: with --children perf counts a frame
    once per sample whatever the sample's page size."""
    compare_with_refusal(code_page_file, *args)


@pytest.fixture(scope="module")
def branch_file(report_data, tmp_path_factory):
    """The plain recording with made-up branch stacks (perfdata_branches.py),
    but no HEADER_BRANCH_STACK feature: perf stays out of branch mode."""
    path = str(tmp_path_factory.mktemp("branches") / "branches.data")
    add_branch_stacks(report_data["plain"], path)
    return path


@pytest.mark.parametrize("args", [
    [], ["-s", "sym,ipc_null"], ["-s", "ipc_lbr"], ["-F", "overhead,ipc_lbr"],
    ["-F", "overhead,ipc_null,sym"], ["-s", "addr,sym"], ["-s", "transaction"],
    ["-s", "dso_from"], ["-s", "symbol_from,symbol_to"], ["-s", "mispredict"],
    ["--no-children", "-s", "in_tx"],
], ids=name)
def test_sort_keys_on_branch_stacks(branch_file, args):
    """Samples with branch stacks outside branch mode: the branch keys are
    perf's "Invalid" ones, ipc_null shows its dashes."""
    compare_with_refusal(branch_file, *args)


@pytest.fixture(scope="module")
def branch_mode_files(report_data, tmp_path_factory):
    """Branch mode's inputs (perfdata_branches.py, cross=True): branches
    between the functions sampled, with every flag and a few cycle counts.
    "feature" and "chains" carry HEADER_BRANCH_STACK, as perf record -b
    writes it, which makes branch mode the default; "bare" lacks it.
    "near" has the short backward branches of the default synthesis, some
    into addresses no symbol covers."""
    d = tmp_path_factory.mktemp("branch-mode")
    out = {k: str(d / (k + ".data")) for k in ("feature", "bare", "chains", "near")}
    add_branch_stacks(report_data["plain"], out["near"], feature=True)
    add_branch_stacks(report_data["plain"], out["feature"], cross=True, feature=True)
    add_branch_stacks(report_data["plain"], out["bare"], cross=True)
    add_branch_stacks(report_data["fp"], out["chains"], cross=True, feature=True)
    return out


# No -s naming a symbol key: perf then adds ipc_lbr, whose numbers come
# from its annotation (uninitialized ones, or a crash, on these files)
BRANCH_MODE_ARGS = [
    [], ["-b"], ["--no-branch-stack"], ["-s", "dso_from,dso_to"], ["-s", "mispredict"],
    ["-s", "mispredict,sym"], ["-s", "in_tx,abort"], ["-s", "abort,in_tx,mispredict,cycles"],
    ["-s", "cycles"], ["-s", "dso,sym"], ["-s", "cpu,mispredict"], ["-s", "pid,dso_from"],
    ["-F", "overhead,symbol_from,symbol_to"], ["-F", "overhead,sample,period,dso_from"],
    ["-F", "overhead,dso_to,cycles,mispredict"], ["-n"], ["--show-total-period"], ["-q"],
    ["-t", ","], ["--percent-limit", "2"], ["--comms", "report_work"], ["--dsos", "libc.so.6"],
    ["-U"], ["--hierarchy"], ["-s", "comm,dso_to,sym,in_tx", "-n"], ["-v", "-s", "dso_from"],
    ["-b", "--mem-mode"], ["-s", "addr_from"], ["-s", "addr_from,addr_to", "-n"],
    ["-F", "overhead,srcline_to"], ["-s", "srcline_from,srcline_to"],
    ["-s", "dso,addr_to,srcline_from"], ["-s", "srcline,srcline_to", "-t", ","],
    ["-s", "local_weight"], ["-s", "weight,dso_to"], ["-s", "time,mispredict"], ["-s", "addr"],
    ["-s", "srcfile,in_tx"], ["-s", "dso_size"], ["-s", "parent"],
]


@pytest.mark.parametrize("args", BRANCH_MODE_ARGS, ids=name)
@pytest.mark.parametrize("kind", ["feature", "chains", "near"])
def test_branch_mode(branch_mode_files, kind, args):
    """An entry per branch (period 1), branch keys and perf's branch type
    statistics after the table."""
    compare_with_refusal(branch_mode_files[kind], *args)


@pytest.mark.parametrize("args", [
    [], ["-b"], ["-b", "-s", "mispredict,cycles"], ["-b", "-F", "overhead,dso_from,dso_to"],
], ids=name)
def test_branch_mode_asked_for(branch_mode_files, args):
    """Without HEADER_BRANCH_STACK perf shows samples unless -b."""
    compare_with_refusal(branch_mode_files["bare"], *args)


def compare_piped(path, tmp_path, *args, ties=False):
    """perf and pcl report reading path as perf inject pipes it.  ties:
    the same lines in another order are a known deviation (below)."""
    piped = tmp_path / "piped.data"
    with open(piped, "wb") as out:
        r = subprocess.run([PERF, "inject", "-i", path, "-o", "-"],
                           stdout=out, stderr=subprocess.DEVNULL, timeout=120)
    assert r.returncode == 0
    with open(piped) as f:
        want = perf("report", "--stdio", "-i", "-", *args, stdin=f)
    with open(piped) as f:
        got = pcl("report", "--stdio", "-i", "-", *args, stdin=f)
    a, b = normalize(want.stdout), normalize(got.stdout)
    def frames(text):  # the lines without the graph's drawing, in any order
        return sorted(line.lstrip(" |-") for line in text.splitlines())

    if a != b and ties and frames(a) == frames(b):
        # Read from a pipe, perf sometimes puts a kernel frame before a
        # user frame of the same total under one parent where pcl puts it
        # after (perf orders such siblings by its DSOs' addresses)
        pytest.xfail("order of equal kernel and user siblings from a pipe (known deviation)")
    if a != b:
        pytest.fail(f"pcl report {' '.join(args)} differs:\n" + unified(a, b), pytrace=False)
    assert got.returncode == want.returncode, got.stderr


@pytest.mark.parametrize("args", [[], ["-b"], ["-b", "-s", "dso_to,abort"]], ids=name)
def test_branch_mode_from_a_pipe(branch_mode_files, tmp_path, args):
    """A pipe tells its features only as it goes: perf decides on branch
    mode before, from -b alone."""
    compare_piped(branch_mode_files["feature"], tmp_path, *args)


@pytest.fixture(scope="module")
def history_files(report_data, tmp_path_factory):
    """--branch-history's inputs (perfdata_branches.py): call chains with
    branches between the functions sampled ("chains"; "cross" without
    HEADER_BRANCH_STACK, so without perf's notes on the branches), short
    branches some of which repeat ("near"), every branch type ("every"),
    LBR call stacks ("lbr") and branches without call chains
    ("nochain")."""
    d = tmp_path_factory.mktemp("branch-history")
    out = {k: str(d / (k + ".data"))
           for k in ("chains", "cross", "near", "every", "lbr", "nochain")}
    add_branch_stacks(report_data["fp"], out["chains"], cross=True, feature=True)
    add_branch_stacks(report_data["fp"], out["cross"], cross=True)
    add_branch_stacks(report_data["fp"], out["near"], feature=True)
    add_branch_stacks(report_data["fp"], out["every"], every_type=True, feature=True)
    add_branch_stacks(report_data["fp"], out["lbr"], call_stack=True, feature=True)
    add_branch_stacks(report_data["plain"], out["nochain"], cross=True, feature=True)
    return out


HISTORY_ARGS = [
    [], ["--no-children"], ["-G"], ["--no-children", "-G"], ["-g", "caller"],
    ["-g", "callee"], ["-s", "sym"], ["--no-children", "-s", "sym"], ["-g", "fractal"],
    ["-g", "flat", "--no-children"], ["-g", "folded"], ["--max-stack", "3"],
    ["-n", "--no-children", "-g", "callee,0.1"], ["-g", "function,callee"],
    ["--stitch-lbr"], ["-b", "--no-children"], ["--hierarchy"],
    ["-s", "parent,sym", "-p", "^hot_"], ["--ignore-callees", "recurse", "--no-children"],
    ["-U", "--percent-limit", "5"],
]


@pytest.mark.parametrize("args", HISTORY_ARGS, ids=name)
@pytest.mark.parametrize("kind", ["chains", "cross", "near", "every", "lbr", "nochain"])
def test_branch_history(history_files, kind, args):
    """The branches before each call chain (loops folded), call-graph
    nodes by address, and on files recorded with -b perf's notes on the
    branches each frame stands for ("(cycles:5 iter:1 avg_cycles:6)",
    "(COND_BWD UNCOND predicted:50.0% abort:12.5%)", "(calltrace)")."""
    compare_with_refusal(history_files[kind], "--branch-history", *args)


def test_branch_history_from_a_pipe(history_files, tmp_path):
    """Read from a pipe, the file's features come too late for the notes."""
    compare_piped(history_files["chains"], tmp_path, "--branch-history", ties=True)


@pytest.mark.parametrize("kind", ["fp", "system", "dwarf"])
@pytest.mark.parametrize("args", [
    ["--no-children", "-g", "callee", "--ignore-callees", "recurse"],
    ["--ignore-callees", "recurse"], ["--ignore-callees", "^hot_", "-g", "caller"],
    ["--ignore-callees", "do_syscall_64", "--no-children", "--show-cpu-utilization"],
], ids=name)
def test_ignore_callees(report_data, kind, args):
    """A matching frame starts the stack and takes the sample, as perf does
    (for the kernel's callchain only: not in DWARF-unwound user stacks)."""
    if kind == "dwarf" and "--no-children" not in args:
        pytest.skip("ties among --children entries of DWARF stacks order differently")
    compare(report_data, kind, *args)


@pytest.mark.parametrize("kind", ["fp", "multi", "plain"])
@pytest.mark.parametrize("args", [["-v"], ["-v", "--no-children"], ["-v", "-s", "dso,sym"]],
                         ids=name)
def test_verbose_addresses(report_data, kind, args):
    """-v: DSO paths, and each symbol's address and where its symbols came
    from (k kallsyms, B/D build-id cache ...).  Only C programs here: perf -v
    demangles C++ names with their parameters."""
    compare(report_data, kind, *args)



HIERARCHY = [
    [], ["--no-children"], ["-n", "-g", "none"], ["-s", "dso,sym"], ["-s", "dso,symbol", "-g", "none"],
    ["-s", "{comm,dso},sym", "-g", "none"], ["--percent-limit", "5"], ["-g", "folded"], ["-G"],
    ["-s", "comm,dso", "--percent-limit", "99", "-g", "none"], ["-t", ",", "-n", "-g", "none"],
    ["--comms", "rw-worker", "-g", "none"], ["-s", "dso,sym", "--comms", "rw-worker"],
    ["--dsos", "libc.so.6", "--percentage", "relative"], ["--show-cpu-utilization", "-s", "pid,sym"],
    ["-s", "dso_size,symbol_size", "-g", "none"], ["-U", "-s", "parent,sym", "-p", "^hot_"],
    ["-s", "comm,addr", "-g", "none"], ["-s", "transaction,code_page_size,dso", "-g", "none"],
]


@pytest.mark.parametrize("kind", ["fp", "group", "system", "tracepoints", "pipe", "multi"])
@pytest.mark.parametrize("args", HIERARCHY, ids=name)
def test_hierarchy(report_data, kind, args):
    """--hierarchy: entries nested by sort key level (braces put keys on
    one level), filters decided level by level, "no entry >= x%" where the
    limit hides every child.  perf's pipe mode has no levels: "no samples"."""
    compare(report_data, kind, "--hierarchy", *args)


@pytest.mark.parametrize("kind", ["fp", "group", "system"])
@pytest.mark.parametrize("args", [
    ["-w", "10,20,30"], ["-w", "5,5,5,5", "--no-children", "-g", "none"],
    ["-w", "0,3,abc,12", "--no-children", "-n"], ["-w", "3,3,3,3,3,3", "-t", ","],
    ["-w", "1,1,1,1,1", "-v"], ["-w", "2,2,2,2", "--hierarchy"],
], ids=name)
def test_column_widths(report_data, kind, args):
    """-w: the columns' widths in order (0 or a word: perf's own); keys
    cut to them, a symbol narrower than "[.] " shown whole, and with -t
    the line cut at the columns' total (perf's line buffer)."""
    compare(report_data, kind, *args)


@pytest.mark.parametrize("kind", ["fp", "multi", "system"])
@pytest.mark.parametrize("args", [
    ["--symbol-filter", "hot"], ["--symbol-filter", "hot", "-s", "sym"],
    ["--symbol-filter", "o", "--no-children", "-s", "comm,sym", "--percentage", "relative"],
    ["--symbol-filter", "hot", "--hierarchy"], ["--socket-filter", "0", "-g", "none"],
    ["--socket-filter", "1", "-s", "socket,comm"], ["--socket-filter", "0", "--hierarchy"],
    ["--ns", "-s", "time", "-g", "none"], ["--ns", "-s", "time,sym"],
    ["--time-quantum", "10ms", "-s", "time", "-g", "none"],
    ["--time-quantum", "2500000", "-s", "time,comm", "--no-children"],
    ["--time-quantum", "10us", "--ns", "-s", "time", "-g", "none"],
], ids=name)
def test_ui_filters_and_time(report_data, kind, args):
    """--symbol-filter (first event only, and only where perf's collapse
    pass runs: a comm or srcline key), --socket-filter ("# Processor
    Socket" line; no socket without PERF_SAMPLE_CPU), --ns, --time-quantum."""
    compare(report_data, kind, *args)


@pytest.mark.parametrize("quantum", ["0", "abc", "5x"])
def test_time_quantum_errors(report_data, quantum):
    want = perf("report", "--stdio", "-i", report_data["fp"], "--time-quantum", quantum)
    got = pcl("report", "--stdio", "-i", report_data["fp"], "--time-quantum", quantum)
    assert (got.returncode, got.stdout) == (want.returncode, want.stdout)
    assert got.stderr == want.stderr.replace("perf report", "pcl report")


@pytest.fixture(scope="module")
def extra_data(tmp_path_factory):
    """An event without samples next to one with (--skip-empty) and a
    `perf record -s` file with PERF_RECORD_READ values by thread (-T)."""
    d = tmp_path_factory.mktemp("extra")
    files = {"empty": str(d / "empty.data"), "stat": str(d / "stat.data")}
    for kind, args in (("empty", ["-e", "cpu-clock", "-e", "syscalls:sys_enter_fchmodat"]),
                       ("stat", ["-s", "-e", "cpu-clock", "-e", "task-clock"])):
        rec = perf("record", "-q", "-o", files[kind], *args, "--", fixture("report_work"), "50")
        assert rec.returncode == 0, rec.stderr
    return files


@pytest.mark.parametrize("args", [
    [], ["--no-skip-empty"], ["--skip-empty"], ["--stats"], ["--stats", "--no-skip-empty"],
    ["--group", "--no-skip-empty"], ["--no-skip-empty", "--hierarchy"],
], ids=name)
def test_skip_empty(extra_data, args):
    """Events without samples are left out (perf 6.1's default);
    --no-skip-empty shows them, and every record type in --stats."""
    compare(extra_data, "empty", "-g", "none", *args)


@pytest.mark.parametrize("kind", ["stat", "empty"])
@pytest.mark.parametrize("args", [["-T"], ["-T", "--pretty", "raw"], ["-T", "--pretty", "x"],
                                  ["-T", "-q"]], ids=name)
def test_thread_counters(extra_data, kind, args):
    """-T: the READ records' counter values summed by thread after the
    report (--pretty raw: perf 6.1's one-line form)."""
    compare(extra_data, kind, "-g", "none", *args)


@pytest.mark.parametrize("args", [
    ["-s", "srcline", "--dsos", "report_work", "-g", "none"],
    ["-s", "srcline,sym", "--symbols", "hot_spin,hot_math"],
    ["-s", "srcfile", "--dsos", "report_work"],
    ["-g", "srcline", "--no-children", "--max-stack", "4", "--dsos", "report_work"],
], ids=name)
def test_full_source_path(report_data, args):
    """--full-source-path: source files by their whole path, relative ones
    joined to the unit's compilation directory as addr2line does."""
    compare(report_data, "fp", "--full-source-path", *args)


CXX_SOURCE = r"""
#include <cmath>
volatile double sink;
namespace ns { template <typename T> struct Foo {
    __attribute__((noinline)) T work(T n) {
        T s = 0;
        for (T i = 0; i < n; i++) { sink = std::sin((double)i + sink); s += (T)sink; }
        return s; } }; }
int main() { ns::Foo<long> f; long t = 0; for (int k = 0; k < 100; k++) t += f.work(100000);
             return (int)(t & 1); }
"""


@pytest.fixture(scope="module")
def cxx_data(tmp_path_factory):
    import shutil
    if not shutil.which("g++"):
        pytest.skip("no C++ compiler")
    d = tmp_path_factory.mktemp("cxx")
    (d / "cxx.cc").write_text(CXX_SOURCE)
    from conftest import run
    assert run(["g++", "-O1", "-g", "-fno-omit-frame-pointer", "-o", str(d / "cxx"),
                str(d / "cxx.cc")]).returncode == 0
    data = str(d / "cxx.data")
    assert perf("record", "-q", "-g", "-o", data, str(d / "cxx")).returncode == 0
    return {"cxx": data}


@pytest.mark.parametrize("args", [[], ["--no-demangle"], ["--demangle"], ["--demangle-kernel"],
                                  ["--no-demangle", "-g", "caller"]], ids=name)
def test_demangle(cxx_data, args):
    """C++ names demangled as perf shows them (no parameters), or kept as
    the symbol table spells them with --no-demangle; samples in the lone
    PLT stub go to _init as perf has them (it synthesizes no sin@plt)."""
    compare(cxx_data, "cxx", "-s", "dso,sym", *args)


@pytest.mark.parametrize("kind", ["fp", "tracepoints", "group", "system", "dwarf"])
def test_dump_raw_trace(report_data, kind):
    """-D: every record's raw dump (perf script -D's renderer) with the
    sample's thread and DSO, ": unhandled!" where perf report has no use
    for a record, then the --stats counts instead of the report.  (A pipe
    is left out: perf names its vDSO after a random temporary file.)"""
    want = perf("report", "--stdio", "-D", "-i", report_data[kind])
    got = pcl("report", "--stdio", "-D", "-i", report_data[kind])
    assert got.returncode == want.returncode
    assert got.stdout == want.stdout, unified(want.stdout, got.stdout)


@pytest.mark.parametrize("kind,args", [
    ("group", ["--group-sort-idx", "1"]), ("group", ["--group-sort-idx", "1", "--no-children"]),
    ("group", ["--group-sort-idx", "5", "--no-children"]),
    ("group", ["--group-sort-idx", "-1", "--no-children", "-s", "sym"]),
    ("group", ["--group-sort-idx", "1", "--no-group"]), ("group", ["--group-sort-idx", "1", "--hierarchy"]),
    ("multi", ["--group-sort-idx", "1", "--group", "--no-children", "-n"]),
    ("multi", ["--group-sort-idx", "1"]), ("fp", ["--group-sort-idx", "1", "--group"]),
], ids=lambda v: v if isinstance(v, str) else name(v))
def test_group_sort_idx(report_data, kind, args):
    """--group-sort-idx N: a group's member N sorts first, then the other
    members (not the leader); an index outside the group sorts by the
    leader alone; files without (forced) groups are refused."""
    compare(report_data, kind, "-g", "none", *args)


@pytest.mark.parametrize("kind", ["fp", "group"])
@pytest.mark.parametrize("args", [
    ["--stdio-color", "always"], ["--stdio-color"], ["--stdio-color", "never"],
    ["--stdio-color", "bogus"], ["--stdio-color", "always", "-g", "flat"],
    ["--stdio-color", "always", "-g", "folded", "-t", ","], ["--stdio-color", "always", "-n",
                                                             "--show-cpu-utilization"],
    ["--stdio-color", "always", "--hierarchy"],
], ids=name)
def test_stdio_color(report_data, kind, args):
    """--stdio-color: perf's red (from 5%) and green (above 0.5%)
    percentages, in columns (not with -t) and call graphs; "auto" only on
    a terminal."""
    want = perf("report", "--stdio", "-i", report_data[kind], *args)
    compare(report_data, kind, *args)
    assert want.stderr.startswith("bad config") == ("bogus" in args)


@pytest.mark.parametrize("kind,args", [
    ("multi", ["--switch-on", "task-clock"]), ("multi", ["--switch-off", "task-clock"]),
    ("multi", ["--switch-on", "task-clock", "--show-on-off-events"]),
    ("multi", ["--switch-on", "cpu-clock", "--switch-off", "task-clock"]),
    ("tracepoints", ["--switch-on", "syscalls:sys_enter_read", "--switch-off",
                     "syscalls:sys_enter_write", "--show-on-off-events"]),
    ("multi", ["--switch-on", "nosuch"]), ("fp", ["--switch-off", "cpu-clock"]),
    ("pipe", ["--switch-on", "cpu-clock:ppp"]),
], ids=lambda v: v if isinstance(v, str) else name(v))
def test_switch_on_off(report_data, kind, args):
    """--switch-on/--switch-off: perf's evswitch, samples dropped until an
    "on" event's sample (and after an "off" one's); unknown names refused
    (a pipe's events are not known yet)."""
    got = compare(report_data, kind, "--no-children", "-s", "comm", *args)
    if "nosuch" in args or "cpu-clock" in args and kind == "fp":
        assert "event not found" in got.stderr


@pytest.mark.parametrize("kind,args", [
    ("fp", ["--disable-order"]), ("system", ["--disable-order"]), ("fp", ["--samples", "10"]),
    ("fp", ["--prefix", "/x", "--prefix-strip", "2"]), ("fp", ["--prefix-strip", "2"]),
    ("fp", ["--objdump", "/bin/true", "--asm-raw", "-M", "intel", "--source"]),
    ("fp", ["--no-source", "--disassembler-style", "att"]),
    ("fp", ["--percent-type", "hits-global"]), ("fp", ["--percent-type", "local"]),
    ("fp", ["--show-ref-call-graph", "--ignore-vmlinux", "-m", "--total-cycles"]),
    ("fp", ["--itrace"]), ("fp", ["--itrace=i100us"]), ("fp", ["--itrace=zzz"]),
    ("fp", ["--stitch-lbr"]), ("fp", ["--mem-mode"]), ("plain", ["--mem-mode"]),
    ("plain", ["--mem-mode", "-b"]), ("plain", ["--branch-history"]),
], ids=lambda v: v if isinstance(v, str) else name(v))
def test_accepted_options(report_data, kind, args):
    """Options of perf's annotate, hardware tracing, LBR and memory modes:
    accepted with perf's checks and messages where these files (no AUX,
    LBR or data source samples) make them change nothing or fail."""
    want = perf("report", "--stdio", "-i", report_data[kind], *args)
    got = compare(report_data, kind, *args)
    for line in want.stderr.splitlines()[:3]:
        assert line.replace("perf report", "pcl report") in got.stderr


DATA_FRAME = r"""
#include <stdlib.h>
const char table_blob[256] = { 1 };	/* .rodata: in the text segment below */
static long fake[2];
/* spins with a frame pointer to a made-up frame whose return address lies
 * inside table_blob: frame-pointer callchains get a frame in a data object */
__attribute__((noinline)) void spin_fake(long n)
{
	fake[0] = 0;
	fake[1] = (long)&table_blob[7];
	__asm__ volatile("push %%rbp\n\tmov %1, %%rbp\n1: dec %0\n\tjnz 1b\n\tpop %%rbp"
			 : "+r"(n) : "r"(fake) : "memory", "cc");
}
int main(int argc, char **argv)
{
	for (int i = 0; i < 10; i++)
		spin_fake(20000000);
	return 0;
}
"""


@pytest.mark.parametrize("args", [[], ["--no-children"], ["-s", "sym"], ["-g", "caller"]],
                         ids=name)
def test_data_object_frames(tmp_path_factory, args):
    """A frame in a data object (STT_OBJECT) is named name+0xoffset in the
    Symbol column, as perf does."""
    d = tmp_path_factory.getbasetemp() / "dataframe"
    data = d / "o.data"
    if not data.exists():
        d.mkdir(exist_ok=True)
        (d / "f.c").write_text(DATA_FRAME)
        subprocess.run(["gcc", "-O1", "-fno-omit-frame-pointer", "-Wl,-z,noseparate-code",
                        "-o", str(d / "f"), str(d / "f.c")], check=True)
        r = perf("record", "-q", "-g", "-o", str(data), "--", str(d / "f"))
        assert r.returncode == 0, r.stderr
    want = perf("report", "--stdio", "-i", str(data), *args)
    got = pcl("report", "--stdio", "-i", str(data), *args)
    assert normalize(got.stdout) == normalize(want.stdout), \
        unified(normalize(want.stdout), normalize(got.stdout))
    if not args:
        assert "table_blob+0x7" in got.stdout


def without_hint(text):
    return "".join(l for l in text.splitlines(True) if "of stacks end outside" not in l)


@pytest.mark.parametrize("kind", ["fp", "plain", "multi", "tracepoints", "system", "pipe"])
def test_end_of_run_warnings_like_perf(report_data, kind):
    """What report says on stderr after reading (lost chunks and samples,
    unknown records...) is perf's; -q silences it."""
    path = report_data[kind]
    for q in ([], ["-q"]):
        a = perf("report", "--stdio", *q, "-i", path)
        b = pcl("report", "--stdio", *q, "-i", path)
        assert without_hint(b.stderr) == a.stderr


def test_lost_samples_warning_like_perf(tmp_path):
    """A recording that lost samples (one-page rings, every CPU, -F max):
    perf warns of the lost chunks and the share of samples lost."""
    data = str(tmp_path / "lost.data")
    for _ in range(3):
        rec = perf("record", "-q", "-a", "-g", "-F", "max", "-m", "1", "-o", data, "--",
                   "dd", "if=/dev/zero", "of=/dev/null", "bs=512", "count=100000")
        assert rec.returncode == 0, rec.stderr
        a = perf("report", "--stdio", "-i", data)
        if "lost" in a.stderr:
            break
    else:
        pytest.skip("no samples were lost in three tries")
    b = pcl("report", "--stdio", "-i", data)
    assert without_hint(b.stderr) == a.stderr
    assert "Check IO/CPU overload!" in b.stderr or "samples and lost" in b.stderr


@pytest.mark.parametrize("args", [[], ["-s", "dso"], ["-s", "dso,sym", "--no-children"],
                                  ["-v", "-s", "dso"], ["-g", "none", "-s", "sym"]])
def test_jit_map_dso_is_named_like_perf(tmp_path, args):
    """Code a JIT describes in /tmp/perf-PID.map: perf names that DSO
    "[JIT] tid PID" in report (script keeps the file's path)."""
    data = str(tmp_path / "jit.data")
    rec = perf("record", "-q", "-g", "-o", data, "--", fixture("jit_map"), "150")
    assert rec.returncode == 0, rec.stderr
    pids = set(re.findall(r"perf-(\d+)\.map", perf("script", "-i", data).stdout))
    try:
        a = perf("report", "--stdio", *args, "-i", data)
        b = pcl("report", "--stdio", *args, "-i", data)
        assert ("[JIT] tid" in b.stdout) == ("-v" not in args and "sym" not in args), b.stdout
        assert normalize(b.stdout) == normalize(a.stdout), \
            unified(normalize(a.stdout), normalize(b.stdout))
        assert pcl("script", "-i", data).stdout == perf("script", "-i", data).stdout
    finally:
        for pid in pids:
            if os.path.exists(f"/tmp/perf-{pid}.map"):
                os.unlink(f"/tmp/perf-{pid}.map")


@pytest.fixture(scope="module")
def long_names_data(tmp_path_factory):
    """perf record -g of code whose symbols' names are 1100 to 4300
    characters long (C functions and JIT code perf knows no lines of);
    the JIT's map is kept while the tests read the file."""
    data = str(tmp_path_factory.mktemp("longnames") / "l.data")
    rec = perf("record", "-q", "-g", "-o", data, "--", fixture("jit_long_names"), "150")
    assert rec.returncode == 0, rec.stderr
    dsos = perf("script", "-i", data, "-F", "ip,dso").stdout
    pids = set(re.findall(r"perf-(\d+)\.map", dsos))
    yield data
    for pid in pids:
        if os.path.exists(f"/tmp/perf-{pid}.map"):
            os.unlink(f"/tmp/perf-{pid}.map")


# With the JIT's map present, perf 6.1 sometimes fails to find the line
# of a rare sample in the C functions (which pcl finds): the srcline runs
# look at entries of 1% and more only.
@pytest.mark.parametrize("args", [["-s", "sym"], ["-s", "srcline", "--percent-limit", "1"],
                                  ["-s", "sym,srcline", "--percent-limit", "1"],
                                  ["-g", "caller"], ["--no-children"], ["-g", "folded"],
                                  ["--hierarchy"], ["-s", "dso,sym", "--hierarchy", "-g", "none"],
                                  ["-s", "srcline", "-g", "caller,0.5,callee,address",
                                   "--percent-limit", "1"]],
                         ids=name)
def test_long_symbol_names_like_perf(long_names_data, args):
    """Names and "name+offset" source lines longer than 4096 characters
    are printed whole in rows, in columns as wide as the longest (C++
    templates): four names alike in their first 1100 characters stay four
    entries.  perf cuts headers and call-graph frames at 1023 characters."""
    want = perf("report", "--stdio", "-i", long_names_data, *args)
    got = pcl("report", "--stdio", "-i", long_names_data, *args)
    assert normalize(got.stdout) == normalize(want.stdout), \
        unified(normalize(want.stdout), normalize(got.stdout), limit=4000)
    assert "y" * 4300 + "_e" in got.stdout


def test_long_symbol_names_in_script_like_perf(long_names_data):
    """script -F ip,sym,srcline names long symbols whole, as perf does."""
    want = perf("script", "-i", long_names_data, "-F", "ip,sym,srcline")
    got = pcl("script", "-i", long_names_data, "-F", "ip,sym,srcline")
    assert got.stdout == want.stdout
    assert "y" * 4300 + "_e" in got.stdout


def test_stats_count_lost_samples_per_event(tmp_path):
    """--stats lists what each event lost (the LOST_SAMPLES records' counts)
    under its samples, and an event that only lost some still shows."""
    path = str(tmp_path / "lost.data")
    r = perf("record", "-q", "-a", "-g", "-m", "1", "-e", "sched:sched_switch",
             "-e", "sched:sched_wakeup", "-o", path, "--", fixture("pingpong"), "20000")
    assert r.returncode == 0, r.stderr
    want = perf("report", "--stats", "-i", path)
    if not re.search(r"stats:\n(.*\n)*? +LOST_SAMPLES events:", want.stdout):
        pytest.skip("the one-page rings lost nothing this time")
    got = pcl("report", "--stats", "-i", path)
    assert got.stdout == want.stdout, unified(want.stdout, got.stdout)


def stale_parent_recording(path):
    """A FORK naming as parent a tid that a thread of another pid held
    (its EXIT lost, or its tid reused), twice: perf forgets that thread and
    says so in its -D dump."""
    import perfdata_file
    sample_type = 1 | 2 | 4 | 256       # IP, TID, TIME, PERIOD

    def rec(typ, body, pid, tid, time):
        body += struct.pack("<IIQ", pid, tid, time)     # sample_id_all trailer
        return struct.pack("<IHH", typ, 0, 8 + len(body)) + body

    def task(typ, pid, ppid, tid, ptid, time):
        return rec(typ, struct.pack("<IIIIQ", pid, ppid, tid, ptid, time), pid, tid, time)

    data = rec(3, struct.pack("<II", 100, 101) + b"old\0\0\0\0\0", 100, 101, 1000)
    data += task(7, 300, 101, 300, 101, 2000)
    data += rec(3, struct.pack("<II", 300, 300) + b"new\0\0\0\0\0", 300, 300, 2500)
    data += task(4, 300, 300, 300, 300, 2600)
    data += task(7, 401, 400, 402, 101, 3000)
    data += struct.pack("<IHHQIIQQ", 9, 2, 40, 0x1000, 300, 300, 3500, 1)
    attr = struct.pack("<IIQQQQQIIQQ", 1, 128, 0, 1, sample_type, 0, 1 << 18,
                       0, 0, 0, 0).ljust(128, b"\0")
    perfdata_file.write(path, [(attr, b"")], data, [])


@pytest.mark.parametrize("args", [["report", "-D"], ["report", "-D", "--tasks"],
                                  ["report", "-D", "--stats"], ["annotate", "-D"],
                                  ["script", "-D"]], ids=name)
def test_dump_stale_parent(tmp_path, args):
    """-D: "removing erroneous parent thread PID/TID" after such a FORK's
    line, where perf's tool handles FORKs (not --stats)."""
    path = str(tmp_path / "stale.data")
    stale_parent_recording(path)
    want = perf(*args, "-i", path)
    got = pcl(*args, "-i", path)
    assert got.returncode == want.returncode
    assert got.stdout == want.stdout, unified(want.stdout, got.stdout)
    assert ("removing erroneous parent thread 101/101\n" in got.stdout) == \
        ("--stats" not in args)
