"""pcl config and the perfconfig files against perf 6.1, each in its own HOME."""
import os
import re
import subprocess

import pytest

from conftest import fixture, pcl, perf, unified

SEQUENCE = [
    ["-l"], [], ["report.children=false"], ["report.sort_order=dso,sym", "ui.show-headers=true"],
    ["-l"], ["--user", "-l"], ["--system", "-l"], ["report.children"], ["report.nokey"],
    ["foo"], ["report"], ["report.children="], ["--user", "--system", "-l"],
    ["-l", "report.children"], ["report.children=true", "annotate.hide_src_code=1"],
    ["colors.top=red,default"], ["--user", "colors.medium=green,default"], ["-l"],
]


def test_sequence_matches_perf(tmp_path):
    """The same commands in two fresh homes: outputs, statuses and the
    files written are perf's."""
    homes = {}
    for tool in ("perf", "pcl"):
        homes[tool] = tmp_path / tool
        homes[tool].mkdir()
    for args in SEQUENCE:
        runs = {}
        for tool, run in (("perf", perf), ("pcl", pcl)):
            env = dict(os.environ, HOME=str(homes[tool]))
            env.pop("PERF_CONFIG", None)
            runs[tool] = run("config", *args, env=env)
        want, got = runs["perf"], runs["pcl"]
        assert (got.returncode, got.stdout) == (want.returncode, want.stdout), args
        assert got.stderr.replace("pcl", "perf") == want.stderr, args
        files = [h / ".perfconfig" for h in (homes["perf"], homes["pcl"])]
        assert [f.read_text() if f.exists() else None for f in files][0] == \
            (files[1].read_text() if files[1].exists() else None), args


def test_file_syntax_matches_perf(tmp_path):
    """Sections lowercased, subsections kept, quotes, escapes, comments."""
    conf = tmp_path / "perfconfig"
    conf.write_text('[Report]\n  Children = false ; c\n# x\n[annotate "x"]\n\tfoo = "a b"\n'
                    '\tbar = a\\tb # q\n[top]\n\tz = "x;y"  \n')
    env = dict(os.environ, PERF_CONFIG=str(conf))
    want, got = perf("config", "-l", env=env), pcl("config", "-l", env=env)
    assert (got.returncode, got.stdout) == (want.returncode, want.stdout)


@pytest.fixture(scope="module")
def callgraph_data(tmp_path_factory):
    path = str(tmp_path_factory.mktemp("config") / "g.data")
    r = perf("record", "-q", "-g", "-o", path, "--", fixture("report_work"), "120")
    assert r.returncode == 0, r.stderr
    return path


def without_tips(text):
    return "".join(line for line in text.splitlines(True) if "(Tip:" not in line)


@pytest.mark.parametrize("conf", ["sort_order = dso", "sort-order = dso", "children = false",
                                  "children = no", "sort_order = dso,sym\n\tchildren = 0"])
@pytest.mark.parametrize("args", [[], ["--children"], ["--no-children", "-s", "sym"]],
                         ids=lambda a: " ".join(a) or "none")
def test_report_reads_config(tmp_path, callgraph_data, conf, args):
    path = tmp_path / "perfconfig"
    path.write_text("[report]\n\t%s\n" % conf)
    env = dict(os.environ, PERF_CONFIG=str(path))
    want = perf("report", "--stdio", "-i", callgraph_data, *args, env=env)
    got = pcl("report", "--stdio", "-i", callgraph_data, *args, env=env)
    assert got.returncode == want.returncode
    assert without_tips(got.stdout) == without_tips(want.stdout)


def cache_tree(root):
    return sorted(os.path.relpath(os.path.join(d, n), root)
                  for d, dirs, files in os.walk(root) for n in dirs + files)


def test_buildid_dir_is_the_cache(tmp_path):
    """buildid.dir moves the build-id cache that buildid-cache fills."""
    binary = tmp_path / "bin"
    binary.write_bytes(open(fixture("report_work"), "rb").read())
    trees = {}
    for tool, run in (("perf", perf), ("pcl", pcl)):
        home, cache = tmp_path / (tool + "-home"), tmp_path / (tool + "-cache")
        home.mkdir()
        (home / ".perfconfig").write_text("[buildid]\n\tdir = %s\n" % cache)
        env = dict(os.environ, HOME=str(home))
        for name in ("PERF_CONFIG", "PERF_BUILDID_DIR"):
            env.pop(name, None)
        r = run("buildid-cache", "-a", str(binary), env=env)
        assert r.returncode == 0, r.stderr
        assert not (home / ".debug").exists()
        trees[tool] = cache_tree(cache)
    assert trees["pcl"] == trees["perf"]


@pytest.fixture(scope="module")
def grouping_locale(tmp_path_factory):
    """A locale whose numbers have thousands' separators (this machine
    ships only C and POSIX)."""
    path = tmp_path_factory.mktemp("locale")
    r = subprocess.run(["localedef", "-i", "en_US", "-f", "UTF-8", str(path / "en_US.UTF-8")],
                       capture_output=True)
    if not (path / "en_US.UTF-8").exists():
        pytest.skip("localedef cannot build en_US.UTF-8: %r" % r.stderr)
    return dict(LOCPATH=str(path), LC_ALL="en_US.UTF-8")


@pytest.mark.parametrize("conf", ["true", "false", "0"])
@pytest.mark.parametrize("args", [[], ["-B"], ["--no-big-num"]],
                         ids=lambda a: " ".join(a) or "none")
def test_stat_big_num(tmp_path, grouping_locale, conf, args):
    path = tmp_path / "perfconfig"
    path.write_text("[stat]\n\tbig-num = %s\n" % conf)
    env = dict(os.environ, PERF_CONFIG=str(path), **grouping_locale)
    lines = {}
    for tool, run in (("perf", perf), ("pcl", pcl)):
        r = run("stat", *args, "-e", "syscalls:sys_enter_write", "--", fixture("write1000"),
                env=env)
        assert r.returncode == 0, r.stderr
        lines[tool] = [line for line in r.stderr.splitlines() if "sys_enter_write" in line]
    assert lines["pcl"] == lines["perf"]


@pytest.fixture(scope="module")
def kmem_data(tmp_path_factory):
    path = str(tmp_path_factory.mktemp("kmem") / "k.data")
    r = perf("kmem", "--slab", "--page", "record", "-q", "-o", path, "--",
             fixture("report_work"), "20")
    assert r.returncode == 0, r.stderr
    return path


@pytest.mark.parametrize("conf", ["page", "slab", "bogus"])
@pytest.mark.parametrize("args", [[], ["--slab"], ["--caller", "-s", "bytes", "-l", "5"],
                                  ["-s", "order,hit"], ["--page", "-s", "ptr"]],
                         ids=lambda a: " ".join(a) or "none")
def test_kmem_default(tmp_path, kmem_data, conf, args):
    path = tmp_path / "perfconfig"
    path.write_text("[kmem]\n\tdefault = %s\n" % conf)
    env = dict(os.environ, PERF_CONFIG=str(path))
    want = perf("kmem", "-i", kmem_data, *args, "stat", env=env)
    got = pcl("kmem", "-i", kmem_data, *args, "stat", env=env)
    assert (got.returncode, got.stdout) == (want.returncode, want.stdout)
    assert got.stderr.replace("pcl kmem", "perf kmem") == want.stderr


@pytest.fixture(scope="module")
def report_files(tmp_path_factory):
    """Two ungrouped events, a group, and an event that never fires."""
    d = tmp_path_factory.mktemp("report")
    files = {}
    for name, events in (("two", "task-clock,cpu-clock"), ("group", "{task-clock,cpu-clock}"),
                         ("empty", "task-clock,major-faults")):
        files[name] = str(d / (name + ".data"))
        r = perf("record", "-q", "-e", events, "-o", files[name], "--", fixture("report_work"),
                 "100")
        assert r.returncode == 0, r.stderr
    return files


REPORT_KEYS = [
    ("two", "[report]\n\tgroup = true", [[], ["--group"], ["--no-group"]]),
    ("group", "[report]\n\tgroup = false", [[], ["--group"], ["--no-group"]]),
    ("group", "[report]\n\tgroup = true", [[], ["--no-group"]]),
    ("empty", "[report]\n\tskip-empty = false", [[], ["--skip-empty"], ["--stat"]]),
    ("empty", "[report]\n\tskip-empty = true", [["--no-skip-empty"]]),
    ("two", "[report]\n\tpercent-limit = 3", [[], ["--percent-limit", "20"]]),
    ("two", "[report]\n\tpercent-limit = 2.5\n\tchildren = false", [["-s", "sym"]]),
    ("two", "[hist]\n\tpercentage = relative", [["--comm", "report_work"], ["-s", "dso"],
                                                ["--percentage", "absolute", "-d", "libc.so.6"]]),
    ("two", "[hist]\n\tpercentage = absolute", [["--percentage", "relative", "-d", "libc.so.6"],
                                                ["--comm", "report_work"]]),
]


@pytest.mark.parametrize("name,conf,args", [(n, c, a) for n, c, many in REPORT_KEYS
                                            for a in many],
                         ids=lambda v: v.replace("\n\t", " ") if isinstance(v, str) else
                         " ".join(v) if isinstance(v, list) else None)
def test_report_keys(tmp_path, report_files, name, conf, args):
    path = tmp_path / "perfconfig"
    path.write_text(conf + "\n")
    env = dict(os.environ, PERF_CONFIG=str(path))
    want = perf("report", "--stdio", "-i", report_files[name], *args, env=env)
    got = pcl("report", "--stdio", "-i", report_files[name], *args, env=env)
    assert got.returncode == want.returncode
    assert without_tips(got.stdout) == without_tips(want.stdout), \
        unified(want.stdout, got.stdout)


DIFF_CONFS = ["[diff]\n\tcompute = ratio", "[diff]\n\tcompute = wdiff", "[diff]\n\tcompute = bogus",
              "[diff]\n\torder = 1\n\tcompute = delta", "[diff]\n\torder = x",
              "[hist]\n\tpercentage = relative"]


@pytest.mark.parametrize("conf", DIFF_CONFS, ids=lambda c: c.replace("\n\t", " "))
@pytest.mark.parametrize("args", [[], ["-d", "libc.so.6"], ["-c", "delta", "-o", "0"],
                                  ["--percentage", "absolute", "-d", "libc.so.6"]],
                         ids=lambda a: " ".join(a) or "none")
def test_diff_keys(tmp_path, report_files, conf, args):
    path = tmp_path / "perfconfig"
    path.write_text(conf + "\n")
    env = dict(os.environ, PERF_CONFIG=str(path))
    files = (report_files["two"], report_files["group"])
    want = perf("diff", *files, *args, env=env)
    got = pcl("diff", *files, *args, env=env)
    assert (got.returncode, got.stdout) == (want.returncode, want.stdout), \
        unified(want.stdout, got.stdout)
    assert got.stderr == want.stderr


@pytest.fixture(scope="module")
def trace_file(tmp_path_factory):
    path = str(tmp_path_factory.mktemp("trace") / "t.data")
    r = perf("trace", "record", "-q", "-o", path, "--", fixture("trace_args"))
    assert r.returncode == 0, r.stderr
    return path


TRACE_CONFS = ["show_timestamp = false", "show_duration = false", "args_alignment = 40",
               "args_alignment = 0", "no_inherit = true",
               "show_duration = off\n\tshow_timestamp = 0\n\targs_alignment = 100"]


@pytest.mark.parametrize("conf", TRACE_CONFS, ids=lambda c: c.replace("\n\t", " "))
@pytest.mark.parametrize("args", [[], ["-T"], ["--no-syscalls"], ["-S"]],
                         ids=lambda a: " ".join(a) or "none")
def test_trace_keys(tmp_path, trace_file, conf, args):
    path = tmp_path / "perfconfig"
    path.write_text("[trace]\n\t%s\n[core]\n\tproc-map-timeout = 800\n" % conf)
    env = dict(os.environ, PERF_CONFIG=str(path))
    want = perf("trace", "-i", trace_file, *args, env=env)
    got = pcl("trace", "-i", trace_file, *args, env=env)
    assert (got.returncode, got.stdout) == (want.returncode, want.stdout)
    assert got.stderr == want.stderr, unified(want.stderr, got.stderr)


@pytest.mark.parametrize("conf", ["libtraceevent", "libbeauty"])
@pytest.mark.parametrize("args", [[], ["--libtraceevent_print"]],
                         ids=lambda a: " ".join(a) or "none")
def test_trace_tracepoint_beautifiers(tmp_path, conf, args):
    """Live: tracepoint fields printed by libtraceevent or as perf's
    beautifiers (pids and times vary, so digits are compared as N)."""
    path = tmp_path / "perfconfig"
    path.write_text("[trace]\n\ttracepoint_beautifiers = %s\n" % conf)
    env = dict(os.environ, PERF_CONFIG=str(path))
    cmd = ["trace", *args, "-e", "sched:sched_process_exec", "--", "/bin/true"]
    want, got = perf(*cmd, env=env), pcl(*cmd, env=env)
    assert got.returncode == want.returncode == 0, got.stderr
    assert re.sub(r"\d+", "N", got.stderr) == re.sub(r"\d+", "N", want.stderr)


@pytest.mark.parametrize("args", [["-e", "sched:sched_process_exit"], ["-e", "exit_group"]],
                         ids=" ".join)
def test_trace_add_events(tmp_path, args):
    """trace.add_events: traced besides the command line's events, which
    alone decide whether syscalls are traced."""
    path = tmp_path / "perfconfig"
    path.write_text("[trace]\n\tadd_events = sched:sched_process_exec\n")
    env = dict(os.environ, PERF_CONFIG=str(path))
    cmd = ["trace", *args, "--", "/bin/true"]
    want, got = perf(*cmd, env=env), pcl(*cmd, env=env)
    assert got.returncode == want.returncode == 0, got.stderr
    assert re.sub(r"\d+", "N", got.stderr) == re.sub(r"\d+", "N", want.stderr)


def test_buildid_dir_is_read_by_report(tmp_path):
    """A binary gone after recording is found in the buildid.dir cache perf
    record filled (and only there: HOME has no .debug)."""
    binary = tmp_path / "work"
    binary.write_bytes(open(fixture("report_work"), "rb").read())
    binary.chmod(0o755)
    home = tmp_path / "home"
    home.mkdir()
    (home / ".perfconfig").write_text("[buildid]\n\tdir = %s\n" % (tmp_path / "cache"))
    env = dict(os.environ, HOME=str(home))
    for name in ("PERF_CONFIG", "PERF_BUILDID_DIR"):
        env.pop(name, None)
    data = str(tmp_path / "perf.data")
    r = perf("record", "-q", "-o", data, "--", str(binary), "100", env=env)
    assert r.returncode == 0, r.stderr
    binary.unlink()
    args = ("report", "--stdio", "-i", data, "-s", "dso,sym", "--comm", "work")
    want, got = perf(*args, env=env), pcl(*args, env=env)
    assert "hot_spin" in want.stdout
    assert without_tips(got.stdout) == without_tips(want.stdout), unified(want.stdout, got.stdout)
    want, got = perf("buildid-list", "-i", data, env=env), pcl("buildid-list", "-i", data, env=env)
    assert got.stdout == want.stdout


RECORD_CONFS = [
    "[record]\n\tcall-graph = dwarf", "[record]\n\tcall-graph = dwarf,4096",
    "[call-graph]\n\trecord-mode = dwarf\n\tdump-size = 4096",
    "[call-graph]\n\tdump-size = 4096\n\trecord-mode = dwarf,2048",
    "[call-graph]\n\tdump-size = 2048",
    "[call-graph]\n\trecord-mode = dwarf\n[record]\n\tcall-graph = fp",
    "[record]\n\tcall-graph = fp,20",
    "[record]\n\tbuild-id = skip", "[record]\n\tbuild-id = no-cache",
    "[record]\n\tbuild-id = mmap", "[record]\n\tbuild-id = cache",
]


def record_under(tool, conf_path, home, args, data):
    """What a recording made under a perfconfig shows: status, messages,
    perf evlist -v, whether it has build ids and whether the cache got any."""
    home.mkdir()
    env = dict(os.environ, PERF_CONFIG=str(conf_path), HOME=str(home))
    r = tool("record", "-q", *args, "-e", "task-clock", "-c", "1000000", "-o", str(data),
             fixture("burner"), env=env)
    plain = dict(os.environ, PERF_CONFIG="/dev/null")
    shown = [r.returncode, r.stderr.replace("pcl", "perf")]
    if r.returncode == 0:
        shown.append(perf("evlist", "-v", "-i", str(data), env=plain).stdout)
        shown.append(bool(perf("buildid-list", "-i", str(data), env=plain).stdout))
        shown.append(any("build-id" in d for d, _, _ in os.walk(home)))
    return shown


@pytest.mark.parametrize("conf", RECORD_CONFS, ids=lambda c: c.replace("\n\t", " "))
@pytest.mark.parametrize("args", [[], ["-g"], ["--call-graph", "fp"], ["--call-graph", "dwarf"]],
                         ids=lambda a: " ".join(a) or "none")
def test_record_reads_config(tmp_path, conf, args):
    """record.call-graph and call-graph.record-mode/dump-size choose what -g
    records (perf reads call-graph.* first, in file order, then record.*),
    --call-graph overrides them; record.build-id skips build ids, the
    cache, or puts them in the MMAP2 records."""
    path = tmp_path / "perfconfig"
    path.write_text(conf + "\n")
    want = record_under(perf, path, tmp_path / "hp", args, tmp_path / "p.data")
    got = record_under(pcl, path, tmp_path / "hg", args, tmp_path / "g.data")
    assert got == want


@pytest.mark.parametrize("conf", ["[record]\n\tbuild-id = bogus", "[record]\n\tcall-graph = x",
                                  "[call-graph]\n\trecord-mode = x",
                                  "[call-graph]\n\tdump-size = x",
                                  "[call-graph]\n\torder = x",
                                  "[call-graph]\n\tprint-type = x"])
def test_record_refuses_wrong_config_as_perf(tmp_path, conf):
    path = tmp_path / "perfconfig"
    path.write_text(conf + "\n")
    want = record_under(perf, path, tmp_path / "hp", [], tmp_path / "p.data")
    got = record_under(pcl, path, tmp_path / "hg", [], tmp_path / "g.data")
    assert got == want and want[0] == 255


CALLGRAPH_DISPLAY_CONFS = ["print-type = flat", "print-type = folded", "order = caller",
                           "sort-key = address", "threshold = 5", "print-limit = 2",
                           "print-type = flat\n\tthreshold = 10\n\torder = caller",
                           "print-type = bogus", "order = x", "sort-key = x", "threshold = x",
                           "print-limit = x"]


@pytest.mark.parametrize("conf", CALLGRAPH_DISPLAY_CONFS, ids=lambda c: c.replace("\n\t", " "))
@pytest.mark.parametrize("args", [[], ["-g", "caller"], ["--no-children"]],
                         ids=lambda a: " ".join(a) or "none")
def test_report_reads_callgraph_display_keys(tmp_path, callgraph_data, conf, args):
    """call-graph.print-type, order, sort-key, threshold, print-limit: report's
    call graphs as perf's under the same keys; -g overrides them; a wrong
    value stops with perf's message."""
    path = tmp_path / "perfconfig"
    path.write_text("[call-graph]\n\t%s\n" % conf)
    env = dict(os.environ, PERF_CONFIG=str(path))
    want = perf("report", "--stdio", "-i", callgraph_data, *args, env=env)
    got = pcl("report", "--stdio", "-i", callgraph_data, *args, env=env)
    assert got.returncode == want.returncode
    assert got.stderr == want.stderr
    assert without_tips(got.stdout) == without_tips(want.stdout), \
        unified(without_tips(want.stdout), without_tips(got.stdout))
