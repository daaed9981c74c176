"""pcl inject -j against perf inject -j 6.1 on the same recording.

The fixture jitdump_gen behaves as a JIT: it writes three functions into
anonymous executable memory, describes them in DIR/jit-PID.dump (with source
lines for jit_alpha and a move of jit_gamma) and maps the dump, so that
perf record -k mono sees the map inject -j looks for.  perf inject -j runs
first and its output is read at once (both write DIR/jitted-PID-N.so, pcl's
replace perf's); then pcl inject -j, whose output perf and pcl read with the
same results.  The tests run with a HOME of their own, for the build-id cache.
"""
import os
import re
import shutil
import subprocess
import time

import pytest

from conftest import fixture, pcl, perf, unified

REPORT_SORTS = [(), ("-s", "srcline"), ("-s", "sym,srcline"), ("-s", "dso,sym")]


def home_env(tmp_path, name):
    home = tmp_path / name
    home.mkdir(exist_ok=True)
    return dict(os.environ, HOME=str(home))


def no_tip(report):
    """perf and pcl end a report with a random tip."""
    return re.sub(r"^# \(Tip: .*\)\n", "", report, flags=re.M)


def readings(tool, data, env):
    """What a reader (perf or pcl) makes of an injected file."""
    out = {}
    for sort in REPORT_SORTS:
        r = tool("report", "--stdio", *sort, "-i", data, env=env)
        assert r.returncode == 0, r.stderr
        out["report " + " ".join(sort)] = no_tip(r.stdout)
    r = tool("annotate", "--stdio", "-i", data, "jit_alpha", env=env)
    assert r.returncode == 0, r.stderr
    out["annotate"] = r.stdout
    out["script"] = tool("script", "-i", data, env=env).stdout
    return out


@pytest.fixture(scope="module")
def injected(tmp_path_factory):
    d = tmp_path_factory.mktemp("jit")
    data = str(d / "f.data")
    # one build-id cache for all, filled by the recording: whether perf finds the
    # vdso there changes its reports
    perf_env = pcl_env = home_env(d, "home")
    r = perf("record", "-q", "-k", "mono", "-o", data, fixture("jitdump_gen"), "400", str(d),
             env=perf_env)
    assert r.returncode == 0, r.stderr
    perf_out, pcl_out = str(d / "perf.inj"), str(d / "pcl.inj")
    r = perf("inject", "-j", "-i", data, "-o", perf_out, env=perf_env)
    assert r.returncode == 0, r.stderr
    want = readings(perf, perf_out, perf_env)
    want["maps"] = perf("script", "--show-mmap-events", "-i", perf_out, env=perf_env).stdout
    want["ids"] = perf("buildid-list", "-i", perf_out, env=perf_env).stdout
    r = pcl("inject", "-j", "-i", data, "-o", pcl_out, env=pcl_env)
    assert r.returncode == 0 and r.stderr == "", r.stderr
    return {"dir": d, "data": data, "want": want, "pcl_out": pcl_out, "env": pcl_env}


@pytest.mark.parametrize("reader", ["perf", "pcl"])
def test_reports_match_perf_inject(injected, reader):
    got = readings(perf if reader == "perf" else pcl, injected["pcl_out"], injected["env"])
    assert "jit_alpha" in got["report "]
    assert "jit_alpha.js:1" in got["report -s srcline"]
    for key, text in got.items():
        assert text == injected["want"][key], key + "\n" + unified(injected["want"][key], text)


def test_maps_match_perf_inject(injected):
    """Field for field, as perf 6.1 writes them; the dump's own map and the
    JIT's anonymous map are gone, jit_gamma is mapped twice (load, move)."""
    got = perf("script", "--show-mmap-events", "-i", injected["pcl_out"],
               env=injected["env"]).stdout
    assert got == injected["want"]["maps"], unified(injected["want"]["maps"], got)
    maps = [line for line in got.splitlines() if "PERF_RECORD_MMAP" in line]
    assert not [m for m in maps if "jit-" in m and ".dump" in m or "//anon" in m]
    assert len([m for m in maps if re.search(r"jitted-\d+-3\.so$", m)]) == 2


def test_build_id_list_matches_perf_inject(injected):
    """perf's images get random build ids: the names are compared."""
    got = perf("buildid-list", "-i", injected["pcl_out"], env=injected["env"]).stdout

    def names(text):
        return [line.split(None, 1)[1] for line in text.splitlines()]
    assert names(got) == names(injected["want"]["ids"]), unified(injected["want"]["ids"], got)
    for i in (1, 2, 3):
        assert re.search(r"^[0-9a-f]{40} .*/jitted-\d+-%d\.so$" % i, got, re.M)
        assert re.search(r"^[0-9a-f]{40} .*/jitted-\d+-%d\.so$" % i,
                         pcl("buildid-list", "-i", injected["pcl_out"]).stdout, re.M)


def test_flamegraph_names_jit_frames(injected):
    got = pcl("flamegraph", "--format", "folded", "-o", "-", "-i", injected["pcl_out"],
              env=injected["env"])
    assert got.returncode == 0, got.stderr
    assert re.search(r"^jitdump_gen;jit_alpha \d+$", got.stdout, re.M), got.stdout


def test_pcl_record_k_mono_then_inject(tmp_path):
    data, out = str(tmp_path / "pcl.data"), str(tmp_path / "pcl.inj")
    r = pcl("record", "-q", "-k", "mono", "-o", data, fixture("jitdump_gen"), "300",
            str(tmp_path))
    assert r.returncode == 0, r.stderr
    r = pcl("inject", "-j", "-i", data, "-o", out, env=home_env(tmp_path, "home"))
    assert r.returncode == 0, r.stderr
    for tool in (perf, pcl):
        report = tool("report", "--stdio", "-i", out).stdout
        for name in ("jit_alpha", "jit_beta", "jit_gamma"):
            assert name in report, report


def test_without_monotonic_clock_is_refused(tmp_path):
    """perf: "jitted code must be sampled with perf record -k 1", exit 255."""
    data = str(tmp_path / "f.data")
    r = perf("record", "-q", "-o", data, fixture("jitdump_gen"), "100", str(tmp_path))
    assert r.returncode == 0, r.stderr
    assert perf("inject", "-j", "-i", data, "-o", str(tmp_path / "perf.inj")).returncode != 0
    got = pcl("inject", "-j", "-i", data, "-o", str(tmp_path / "pcl.inj"),
              env=home_env(tmp_path, "home"))
    assert got.returncode != 0
    assert re.search(r"jit-\d+\.dump: jitted code must be recorded with -k mono", got.stderr)


def test_damaged_dump_keeps_the_records_before_the_damage(tmp_path):
    data = str(tmp_path / "f.data")
    r = perf("record", "-q", "-k", "mono", "-o", data, fixture("jitdump_gen"), "200",
             str(tmp_path))
    assert r.returncode == 0, r.stderr
    dump = next(p for p in os.listdir(tmp_path) if p.endswith(".dump"))
    size = os.path.getsize(tmp_path / dump)
    os.truncate(tmp_path / dump, size - 8)	# half of the closing record
    got = pcl("inject", "-j", "-i", data, "-o", str(tmp_path / "pcl.inj"),
              env=home_env(tmp_path, "home"))
    assert got.returncode == 0, got.stderr
    assert re.search(r"Warning: .*jit-\d+\.dump: offset %#x: truncated record prefix, "
                     r"the rest of the dump is skipped" % (size - 16), got.stderr), got.stderr
    report = pcl("report", "--stdio", "-i", str(tmp_path / "pcl.inj")).stdout
    assert "jit_alpha" in report and "jit_gamma" in report


NODE_WORK = """
function hot(n) { let s = 0; for (let i = 0; i < n; i++) s += i % 7; return s; }
function warm(n) { let s = 0; for (let i = 0; i < n; i++) s += Math.sqrt(i); return s; }
let t = Date.now(), x = 0;
while (Date.now() - t < 600) x += hot(100000) + warm(30000);
"""


@pytest.mark.skipif(not shutil.which("node"), reason="node is not installed")
def test_node_perf_prof_with_callchains(tmp_path):
    """A real JIT: node --perf-prof with call graphs, unwinding info in the
    dump; the reports and scripts of both injected files are equal."""
    (tmp_path / "w.js").write_text(NODE_WORK)
    data = str(tmp_path / "f.data")
    # one build-id cache for all, filled by the recording: whether perf finds the
    # vdso there changes its reports
    env = home_env(tmp_path, "home")
    r = perf("record", "-q", "-g", "-k", "mono", "-o", data, "node", "--perf-prof",
             "--perf-prof-unwinding-info", "--interpreted-frames-native-stack", "w.js",
             cwd=str(tmp_path), env=env)
    assert r.returncode == 0, r.stderr
    r = perf("inject", "-j", "-i", data, "-o", str(tmp_path / "perf.inj"), env=env)
    assert r.returncode == 0, r.stderr
    want = [no_tip(perf("report", "--stdio", "-i", str(tmp_path / "perf.inj"), env=env).stdout),
            perf("script", "-i", str(tmp_path / "perf.inj"), env=env).stdout]
    r = pcl("inject", "-j", "-i", data, "-o", str(tmp_path / "pcl.inj"), env=env)
    assert r.returncode == 0, r.stderr
    assert "JS:*hot" in want[0]
    for tool in (perf, pcl):
        got = [no_tip(tool("report", "--stdio", "-i", str(tmp_path / "pcl.inj"), env=env).stdout),
               tool("script", "-i", str(tmp_path / "pcl.inj"), env=env).stdout]
        assert got[0] == want[0], unified(want[0], got[0])
        assert got[1] == want[1], unified(want[1], got[1])


def test_tsc_timestamps_as_perf(tmp_path):
    """A dump stamped with TSC ticks is converted with the recording's
    TIME_CONV; where the kernel offers none (this VM), both refuse it."""
    data = str(tmp_path / "f.data")
    env = home_env(tmp_path, "home")
    r = perf("record", "-q", "-o", data, fixture("jitdump_gen"), "200", str(tmp_path), "tsc",
             env=env)
    assert r.returncode == 0, r.stderr
    outs = {"perf": str(tmp_path / "perf.inj"), "pcl": str(tmp_path / "pcl.inj")}
    maps = {}
    for name, tool in (("perf", perf), ("pcl", pcl)):
        r = tool("inject", "-j", "-i", data, "-o", outs[name], env=env)
        if r.returncode:
            assert "no timestamp conversion" in r.stderr or "no TIME_CONV" in r.stderr, r.stderr
            maps[name] = None
            continue
        maps[name] = perf("script", "--show-mmap-events", "-i", outs[name], env=env).stdout
    assert maps["pcl"] == maps["perf"], unified(maps["perf"] or "", maps["pcl"] or "")


def readings_of(path, env):
    """perf's report by dso,sym and the images' maps (their inodes left out)."""
    report = perf("report", "--stdio", "-s", "dso,sym", "-i", path, env=env).stdout
    maps = perf("script", "--show-mmap-events", "-i", path, env=env).stdout
    maps = re.sub(r" [0-9a-f]+:[0-9a-f]+ \d+ \d+\]", "]", maps)
    return no_tip(report), [m for m in maps.splitlines()
                            if "PERF_RECORD_MMAP" in m and "jitted" in m]


@pytest.mark.skipif(os.geteuid() != 0 or not shutil.which("unshare"),
                    reason="a PID namespace needs root and unshare")
def test_jit_in_a_pid_namespace_as_perf(tmp_path):
    """A JIT in a PID namespace names its dump by its own pid (jit-1.dump).  While
    the process lives, perf (and pcl) see that pid in its /proc NStgid: the images
    are named by the dump's pid and mapped into the process the recording knows.
    perf's and pcl's outputs then read the same."""
    env = home_env(tmp_path, "home")
    gen = subprocess.Popen(["unshare", "--pid", "--fork", fixture("jitdump_gen"), "60000",
                            str(tmp_path)])
    try:
        child, deadline = None, time.monotonic() + 60
        while not child and time.monotonic() < deadline:
            kids = subprocess.run(["pgrep", "-P", str(gen.pid)], stdout=subprocess.PIPE,
                                  text=True).stdout.split()
            if kids and (tmp_path / "jit-1.dump").exists():
                child = kids[0]
            else:
                time.sleep(0.1)
        assert child, "the namespaced JIT did not start"
        data = str(tmp_path / "ns.data")
        r = perf("record", "-q", "-k", "mono", "-e", "task-clock", "-p", child, "-o", data,
                 "--", "sleep", "1", env=env)
        assert r.returncode == 0, r.stderr
        # perf's output is read before pcl writes its images over perf's
        shown = {}
        for tool, name in ((perf, "perf"), (pcl, "pcl")):
            out = str(tmp_path / (name + ".inj"))
            r = tool("inject", "-j", "-i", data, "-o", out, env=env)
            assert r.returncode == 0, r.stderr
            assert gen.poll() is None, "the JIT ended before the injections"
            shown[name] = readings_of(out, env)
    finally:
        gen.kill()
        gen.wait()
    want, got = shown["perf"], shown["pcl"]
    assert re.search(r"jitted-1-1\.so +\[\.\] jit_alpha", want[0]), want[0]
    assert all(" %s/%s: " % (child, child) in m for m in want[1]), want[1]
    assert got == want
