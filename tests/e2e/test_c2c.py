"""pcl c2c report against perf c2c 6.1, on the memory-sample files
perfdata_mem.py writes (with NUMA nodes, which perf c2c needs): the trace
event counts, the shared cache line counts and the details (--stats), then
the Shared Data Cache Line Table and the Pareto, byte for byte."""
import os
import re

import pytest

import perfdata_mem
from conftest import fixture, pcl, perf, unified

VARIANTS = {
    "plain": {},
    "phys": {"phys": True, "page_size": True, "weight_struct": True},
    "loads": {"stores": False},
    "stores": {"loads": False},
    "maps": {"more_maps": True, "phys": True},
}
# for the tables: two nodes, several processes and threads, long symbols,
# physical addresses in the nodes' memory, call chains
TABLES = {
    "two": {"numa": 2, "more_maps": True, "phys": True},
    "many": {"numa": 2, "more_maps": True, "nr": 1500, "weight_struct": True},
    "long": {"numa": 2, "nr": 400, "long_names": True},
    "memnodes": {"numa": 2, "more_maps": True, "phys": True, "nr": 300, "mem_topology": True},
    "chains": {"numa": 2, "more_maps": True, "phys": True, "nr": 1500, "callchains": True},
}


def kallsyms(names):
    """This kernel's addresses of names (text or data), or None when hidden."""
    found = {}
    with open("/proc/kallsyms") as f:
        for line in f:
            addr, _, name = line.split()[:3]
            if name in names and name not in found:
                found[name] = int(addr, 16)
    if len(found) < len(names) or not all(found.values()):
        return None
    return tuple(found[n] for n in names)


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    d = tmp_path_factory.mktemp("c2c")
    out = {}
    for name, kw in VARIANTS.items():
        path = os.path.join(str(d), name + ".data")
        perfdata_mem.write(path, fixture("report_work"), numa=True, **kw)
        out[name] = path
    for name, kw in TABLES.items():
        path = os.path.join(str(d), name + ".data")
        if kw.get("long_names"):
            kw = dict(kw, long_names=fixture("jit_long_names"))
        perfdata_mem.write(path, fixture("report_work"), **kw)
        out[name] = path
    kernel = kallsyms(["_text", "schedule", "__start_ro_after_init"])
    if kernel:
        path = os.path.join(str(d), "kernel.data")
        perfdata_mem.write(path, fixture("report_work"), numa=2, nr=600, kernel=kernel)
        out["kernel"] = path
    path = os.path.join(str(d), "nonuma.data")
    perfdata_mem.write(path, fixture("report_work"))
    out["nonuma"] = path
    return out


@pytest.mark.parametrize("variant", sorted(VARIANTS))
@pytest.mark.parametrize("args", [[], ["-d", "lcl"], ["-d", "rmt"], ["-d", "peer"],
                                  ["--stdio", "-d", "tot"]], ids=" ".join)
def test_c2c_report_stats_match_perf(files, variant, args):
    want = perf("c2c", "report", "--stats", *args, "-i", files[variant])
    got = pcl("c2c", "report", "--stats", *args, "-i", files[variant])
    assert got.returncode == want.returncode == 0, got.stderr
    assert got.stdout == want.stdout, unified(want.stdout, got.stdout)


@pytest.mark.parametrize("variant,args", [("nonuma", []), ("plain", ["-d", "foo"])],
                         ids=["no NUMA nodes", "bad display"])
def test_c2c_report_errors_match_perf(files, variant, args):
    want = perf("c2c", "report", "--stats", *args, "-i", files[variant])
    got = pcl("c2c", "report", "--stats", *args, "-i", files[variant])
    assert got.returncode == want.returncode != 0
    assert got.stdout == want.stdout == ""
    assert got.stderr.splitlines()[-1] == want.stderr.splitlines()[-1]


def same_as_perf(path, args):
    want = perf("c2c", "report", *args, "-i", path)
    got = pcl("c2c", "report", *args, "-i", path)
    assert got.returncode == want.returncode == 0, got.stderr
    assert got.stdout == want.stdout, unified(want.stdout, got.stdout)


@pytest.mark.parametrize("variant", sorted(VARIANTS) + sorted(TABLES))
@pytest.mark.parametrize("args", [["--stdio"], ["--stdio", "-d", "lcl"], ["--stdio", "-d", "rmt"],
                                  ["--stdio", "-d", "peer"], ["--stdio", "--show-all"]],
                         ids=" ".join)
def test_c2c_report_tables_match_perf(files, variant, args):
    same_as_perf(files[variant], args)


@pytest.mark.parametrize("variant", sorted(TABLES))
@pytest.mark.parametrize("args", [
    ["-N"], ["-NN"], ["-NNN", "-d", "rmt"], ["-N", "-d", "peer"],
    ["-c", "tid"], ["-c", "pid"], ["-c", "dso"], ["-c", "dso,iaddr"],
    ["-c", "tid,pid,iaddr,dso", "--show-all"], ["-c", "pid,tid", "-d", "lcl", "-N"],
    ["-c", "tid,,offset"], ["--no-source"], ["--full-symbols"],
    ["--full-symbols", "-c", "iaddr,tid", "-NN"], ["--no-source", "--show-all", "-d", "peer"],
], ids=" ".join)
def test_c2c_report_options_match_perf(files, variant, args):
    same_as_perf(files[variant], ["--stdio"] + args)


@pytest.mark.parametrize("args", [
    ["-g"], ["-g", "caller"], ["-g", "fractal"], ["-g", "flat"], ["-g", "folded"],
    ["-g", "graph,10"], ["-g", "address"], ["-g", "callee,period"], ["-g", "count"],
    ["-g", "srcline"], ["-g", "none"], ["--no-call-graph"], ["-c", "tid", "-d", "rmt", "-N"],
], ids=" ".join)
def test_c2c_report_call_graphs_match_perf(files, args):
    """Samples with call chains get perf's graphs under their Pareto rows,
    whatever threshold -g gives."""
    same_as_perf(files["chains"], ["--stdio"] + args)


@pytest.mark.parametrize("args", [[], ["-c", "tid,dso", "-N"], ["--full-symbols", "-d", "peer"]],
                         ids=" ".join)
def test_c2c_report_without_stdio_prints_to_a_pipe(files, args):
    """perf's TUI gives way to stdio (with the TUI's Pareto columns) when the
    output is not a terminal."""
    same_as_perf(files["long"], args)


@pytest.mark.parametrize("variant", ["two", "long"])
@pytest.mark.parametrize("args", [[], ["-c", "dso,tid"], ["--full-symbols", "-N"]], ids=" ".join)
def test_c2c_verbose_report_matches_perf(files, variant, args):
    """c2c -v: symbols with their address and origin, objects by path."""
    want = perf("c2c", "-v", "report", "--stdio", *args, "-i", files[variant])
    got = pcl("c2c", "-v", "report", "--stdio", *args, "-i", files[variant])
    assert got.returncode == want.returncode == 0, got.stderr
    assert got.stdout == want.stdout, unified(want.stdout, got.stdout)


@pytest.mark.parametrize("args", [[], ["-c", "tid"], ["--show-all", "-d", "rmt"], ["-c", "dso"],
                                  ["-v"]], ids=" ".join)
def test_c2c_report_kernel_samples_match_perf(files, args):
    """Kernel lines and [k] symbols from this machine's kallsyms."""
    if "kernel" not in files:
        pytest.skip("/proc/kallsyms hides its addresses")
    same_as_perf(files["kernel"], ["--stdio"] + args)


def test_c2c_report_stats_name_the_grouping(files):
    same_as_perf(files["two"], ["--stats", "-c", "tid,dso"])


def test_c2c_report_stitch_lbr_without_lbr_warns(files):
    want = perf("c2c", "report", "--stdio", "--stitch-lbr", "-i", files["chains"])
    got = pcl("c2c", "report", "--stdio", "--stitch-lbr", "-i", files["chains"])
    assert got.returncode == want.returncode == 0, got.stderr
    assert got.stdout == want.stdout, unified(want.stdout, got.stdout)
    warning = "Can't find LBR callchain. Switch off --stitch-lbr.\n"
    assert warning in got.stderr and warning in want.stderr


def test_c2c_report_bad_call_graph_is_a_usage_error(files):
    want = perf("c2c", "report", "--stdio", "-g", "bogus", "-i", files["chains"])
    got = pcl("c2c", "report", "--stdio", "-g", "bogus", "-i", files["chains"])
    assert got.returncode == want.returncode == 129
    assert got.stdout == want.stdout == ""


def test_c2c_report_unknown_coalesce_key(files):
    want = perf("c2c", "report", "--stdio", "-c", "tid,foo", "-i", files["two"])
    got = pcl("c2c", "report", "--stdio", "-c", "tid,foo", "-i", files["two"])
    assert got.returncode == want.returncode == 255
    assert got.stdout == want.stdout == ""
    assert "unrecognized sort token: foo\n" in got.stderr
    assert "unrecognized sort token: foo\n" in want.stderr


@pytest.mark.skipif(os.path.exists("/sys/bus/event_source/devices/cpu/events/mem-loads"),
                    reason="this machine samples memory accesses")
def test_c2c_record_fails_without_mem_events(tmp_path):
    out = str(tmp_path / "perf.data")
    want = perf("c2c", "record", "-o", out, "--", "true")
    got = pcl("c2c", "record", "-o", out, "--", "true")
    assert got.returncode == want.returncode == 255
    assert got.stderr == want.stderr == "failed: memory events not supported\n"


# ---- LBR call stacks (perf record --call-graph lbr) -------------------------
# No LBR here: perfdata_branches.py gives the "chains" samples branch stacks,
# LBR call stacks built from their user chains, or plain ANY stacks.

@pytest.fixture(scope="module")
def lbr_files(files, tmp_path_factory):
    import perfdata_branches
    d = tmp_path_factory.mktemp("lbr")
    out = {"callstack": str(d / "callstack.data"), "any": str(d / "any.data"),
           "nochain": str(d / "nochain.data")}
    perfdata_branches.add_branch_stacks(files["chains"], out["callstack"], call_stack=True)
    perfdata_branches.add_branch_stacks(files["chains"], out["any"])
    perfdata_branches.add_branch_stacks(files["two"], out["nochain"])
    return out


def lbr_warning(text):
    return "Can't find LBR callchain. Switch off --stitch-lbr.\n" in text


@pytest.mark.parametrize("kind", ["callstack", "any", "nochain"])
@pytest.mark.parametrize("args", [[], ["--stitch-lbr"], ["-g", "caller"],
                                  ["--stitch-lbr", "-g", "callee,0.5,2"],
                                  ["--stitch-lbr", "-c", "tid,iaddr"]], ids=" ".join)
def test_c2c_lbr_call_stacks_match_perf(lbr_files, kind, args):
    """An LBR call stack is the chain's user part (where the last branch
    went, then where each came from); --stitch-lbr stitches nothing when the
    file gives no LBR depth, and warns only without branch stacks."""
    want = perf("c2c", "report", "--stdio", *args, "-i", lbr_files[kind])
    got = pcl("c2c", "report", "--stdio", *args, "-i", lbr_files[kind])
    assert got.returncode == want.returncode == 0, got.stderr
    assert got.stdout == want.stdout, unified(want.stdout, got.stdout)
    assert lbr_warning(got.stderr) == lbr_warning(want.stderr)


@pytest.fixture(scope="module")
def stitch_file(tmp_path_factory):
    """The "chains" samples with LBR call stacks of a 4-entry ring, recursing
    deeper than it, and the depth in the file: what --stitch-lbr mends."""
    path = str(tmp_path_factory.mktemp("stitch") / "lbr.data")
    perfdata_mem.write(path, fixture("report_work"), lbr=4, **TABLES["chains"])
    return path


@pytest.mark.parametrize("args", [[], ["--stitch-lbr"], ["--stitch-lbr", "-g", "caller"],
                                  ["--stitch-lbr", "-g", "callee,0.5,2"],
                                  ["--stitch-lbr", "-c", "tid,iaddr"]], ids=" ".join)
def test_c2c_stitch_lbr_matches_perf(stitch_file, args):
    """Stacks cut at the LBR depth get what the thread's earlier stacks
    held below them, as in perf (which stitches here: the graphs differ
    from those without the option)."""
    same_as_perf(stitch_file, ["--stdio"] + args)
    if args:
        plain = perf("c2c", "report", "--stdio", "-i", stitch_file).stdout
        assert perf("c2c", "report", "--stdio", *args, "-i", stitch_file).stdout != plain


def test_c2c_lbr_call_stacks_are_used(files, lbr_files):
    fp = perf("c2c", "report", "--stdio", "-i", files["chains"]).stdout
    assert perf("c2c", "report", "--stdio", "-i", lbr_files["callstack"]).stdout != fp


@pytest.mark.parametrize("kind", ["callstack", "any", "nochain"])
@pytest.mark.parametrize("args", [[], ["-g", "none"], ["-g", "none", "--no-children"],
                                  ["--no-children", "-g", "caller"], ["--hierarchy"],
                                  ["-G"]], ids=" ".join)
def test_report_lbr_call_stacks_match_perf(lbr_files, kind, args):
    """perf report --no-branch-stack on the same files: the chains from the
    LBR call stacks, and the --stitch-lbr warning only where perf has no
    LBR chain mode (no chains shown, no branch stacks)."""
    cmd = ["report", "--stdio", "--no-branch-stack", "--stitch-lbr", *args, "-i",
           lbr_files[kind]]
    want, got = perf(*cmd), pcl(*cmd)
    assert got.returncode == want.returncode == 0, got.stderr
    strip = re.compile(r"^# \(Tip: .*\)\n", re.M)
    assert strip.sub("", got.stdout) == strip.sub("", want.stdout), \
        unified(want.stdout, got.stdout)
    assert lbr_warning(got.stderr) == lbr_warning(want.stderr)


@pytest.mark.parametrize("kind", ["callstack", "any", "nochain"])
@pytest.mark.parametrize("args", [["-F", "comm,tid,ip,sym"], ["-F", "ip,sym", "-G"]],
                         ids=" ".join)
def test_script_lbr_call_stacks_match_perf(lbr_files, kind, args):
    """perf script on the same files: LBR chains, and --stitch-lbr's
    warning only without branch stacks."""
    cmd = ["script", *args, "--stitch-lbr", "-i", lbr_files[kind]]
    want, got = perf(*cmd), pcl(*cmd)
    assert got.returncode == want.returncode == 0, got.stderr
    assert got.stdout == want.stdout, unified(want.stdout, got.stdout)
    assert lbr_warning(got.stderr) == lbr_warning(want.stderr)
