"""pcl script's side-event options (--show-switch/lost/round/namespace/
cgroup/bpf/text-poke-events), --per-event-dump, --dump-unsorted-raw-trace,
--switch-on/--switch-off and the options perf 6.1 has for data pcl's files
lack (AUX traces, LBR, guests, scripting), against perf script on the same
recordings."""
import os
import shutil
import subprocess
import sys
import tempfile

import pytest

from conftest import PCL, PERF, fixture, pcl, perf
from perfdata_corpus import normalize_vdso, perf_data  # noqa: F401 (fixture)
from test_script import compare

# Loads (and unloads) a two-instruction eBPF socket filter, so that a
# system-wide recording gets PERF_RECORD_KSYMBOL and PERF_RECORD_BPF_EVENT.
LOAD_BPF = r"""
import ctypes, os, struct, time
libc = ctypes.CDLL(None, use_errno=True)
insns = ctypes.create_string_buffer(struct.pack("<BBhiBBhi", 0xb7, 0, 0, 0, 0x95, 0, 0, 0))
lic = ctypes.create_string_buffer(b"GPL")
attr = ctypes.create_string_buffer(128)
struct.pack_into("<IIQQ", attr, 0, 1, 2, ctypes.addressof(insns), ctypes.addressof(lic))
struct.pack_into("16s", attr, 48, b"pcl_test")
fd = libc.syscall(321, 5, attr, 128)
time.sleep(0.1)
if fd >= 0:
    os.close(fd)
time.sleep(0.2)
"""

CPP = r"""
#include <cmath>
namespace ns { struct Foo { template<class T> static double work(T n) {
    double s = 0; for (T i = 0; i < n; i++) s += std::sin((double)i); return s; } }; }
int main() { volatile double r = 0; for (int k = 0; k < 100; k++) r += ns::Foo::work<long>(20000);
    return r > 0; }
"""


def _record(d, name, args, workload):
    path = os.path.join(d, name + ".data")
    subprocess.run([PERF, "record", "-q", "-o", path, *args, "--", *workload],
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True,
                   timeout=120)
    return path


def _count(path, rtype):
    """How many PERF_RECORD_<rtype> records the file has (perf's -D)."""
    out = perf("script", "-i", path, "-D").stdout
    return out.count(f": PERF_RECORD_{rtype}")


@pytest.fixture(scope="module")
def rec():
    d = tempfile.mkdtemp(prefix="pcl-showev-")
    burner, threads = fixture("burner"), fixture("threads")
    files = {
        "switch": _record(d, "switch", ["--switch-events", "-e", "cpu-clock"],
                          [threads, "100", "3"]),
        "switch_a": _record(d, "switch_a", ["-a", "--switch-events", "-e", "cpu-clock"],
                            [burner, "200"]),
        "ns": _record(d, "ns", ["--namespaces"], [burner, "100"]),
        "cgroup": _record(d, "cgroup", ["-a", "--all-cgroups"], [burner, "100"]),
        # a one-page buffer at 50 kHz loses records
        "lost": _record(d, "lost", ["-m", "1", "-F", "50000", "-g"], [threads, "300", "2"]),
        "bpf": _record(d, "bpf", ["-a", "-e", "cpu-clock"], [sys.executable, "-c", LOAD_BPF]),
        "two": _record(d, "two", ["-e", "cpu-clock", "-e", "page-faults"], [burner, "100"]),
    }
    yield files
    if not os.environ.get("PCL_KEEP_CORPUS"):
        shutil.rmtree(d, True)


SHOW = [
    ("switch", ["--show-switch-events"]),
    ("switch_a", ["--show-switch-events"]),
    ("switch_a", ["--show-switch-events", "-C", "1", "-F", "comm,tid,cpu,time,event"]),
    ("switch", ["--show-switch-events", "--show-task-events", "--reltime"]),
    ("ns", ["--show-namespace-events"]),
    ("ns", ["--show-namespace-events", "--show-task-events", "--show-mmap-events"]),
    ("cgroup", ["--show-cgroup-events"]),
    ("lost", ["--show-lost-events"]),
    ("bpf", ["--show-bpf-events"]),
    ("bpf", ["--show-text-poke-events"]),    # perf shows the ksymbols for it too
    ("switch", ["--show-text-poke-events", "--show-bpf-events"]),
    ("switch", ["--show-round-events"]),
    ("lost", ["--show-round-events", "--show-lost-events", "--show-switch-events"]),
    ("cgroup", ["--show-round-events", "--show-cgroup-events", "-C", "0"]),
]


@pytest.mark.parametrize("kind,args", SHOW, ids=lambda x: x if isinstance(x, str) else " ".join(x))
def test_show_events(rec, kind, args):
    if kind == "lost" and not _count(rec["lost"], "LOST"):
        pytest.skip("the recording lost nothing this time")
    if kind == "bpf" and not _count(rec["bpf"], "KSYMBOL"):
        pytest.skip("no BPF program load was recorded (bpf() refused?)")
    got = compare(rec[kind], *args)
    want = perf("script", "-i", rec[kind], *args)
    assert got.stderr == want.stderr


def test_show_events_are_in_the_output(rec):
    """The options print the records they name (not only match perf)."""
    out = pcl("script", "-i", rec["switch_a"], "--show-switch-events").stdout
    assert "PERF_RECORD_SWITCH_CPU_WIDE OUT" in out and "prev pid/tid:" in out
    out = pcl("script", "-i", rec["ns"], "--show-namespace-events").stdout
    assert "PERF_RECORD_NAMESPACES" in out and "6/cgroup:" in out
    out = pcl("script", "-i", rec["cgroup"], "--show-cgroup-events").stdout
    assert "PERF_RECORD_CGROUP cgroup: " in out
    out = pcl("script", "-i", rec["switch"], "--show-round-events").stdout
    assert "\nPERF_RECORD_FINISHED_ROUND\n" in out


@pytest.mark.parametrize("kind", ["switch", "switch_a", "cgroup", "two", "lost"])
@pytest.mark.parametrize("args", [["--dump-unsorted-raw-trace"], ["-D"],
                                  ["-D", "--show-round-events"],
                                  ["--dump-unsorted-raw-trace", "--show-round-events"]],
                         ids=" ".join)
def test_raw_dumps(rec, kind, args):
    compare(rec[kind], *args, filt=normalize_vdso)


def test_unsorted_dump_of_a_pipe(perf_data):
    compare(perf_data["pipe"], "--dump-unsorted-raw-trace", filt=normalize_vdso)


def _per_event_dump(tool, data, tmp, extra=(), stdin=None):
    """Runs tool with --per-event-dump on a copy of data in its own dir;
    returns (result, {dump file name: contents})."""
    d = tmp / os.path.basename(tool)
    d.mkdir()
    args = ["script", "--per-event-dump", *extra]
    if stdin is None:
        shutil.copy(data, d / "in.data")
        args += ["-i", "in.data"]
        r = subprocess.run([tool, *args], cwd=d, capture_output=True, text=True, timeout=120)
    else:
        with open(data, "rb") as f:
            r = subprocess.run([tool, *args, "-i", "-"], cwd=d, stdin=f, capture_output=True,
                               text=True, timeout=120)
    dumps = {p.name: p.read_bytes() for p in d.iterdir() if p.name.endswith(".dump")}
    return r, dumps


@pytest.mark.parametrize("kind,extra", [("two", []), ("two", ["--show-task-events"]),
                                        ("switch", ["--show-switch-events"]), ("lost", [])],
                         ids=lambda x: x if isinstance(x, str) else " ".join(x))
def test_per_event_dump(rec, tmp_path, kind, extra):
    want, want_files = _per_event_dump(PERF, rec[kind], tmp_path, extra)
    got, got_files = _per_event_dump(PCL, rec[kind], tmp_path, extra)
    assert got.returncode == want.returncode, got.stderr
    assert got.stdout == want.stdout
    assert sorted(got_files) == sorted(want_files)
    for name in want_files:
        assert got_files[name] == want_files[name], name
    assert any(n.startswith("in.data.cpu-clock") for n in got_files)


def test_per_event_dump_of_stdin(perf_data, tmp_path):
    """perf names the files of a pipe input "(null).<event>.dump"."""
    want, want_files = _per_event_dump(PERF, perf_data["pipe"], tmp_path, stdin=True)
    got, got_files = _per_event_dump(PCL, perf_data["pipe"], tmp_path, stdin=True)
    assert got.stdout == want.stdout
    assert got_files == want_files
    assert any(n.startswith("(null).") for n in got_files)


SWITCHES = [
    ["--switch-on", "page-faults"],
    ["--switch-off", "page-faults"],
    ["--switch-on", "page-faults", "--switch-off", "page-faults"],
    ["--switch-on", "page-faults", "--show-on-off-events"],
    ["--show-on-off-events"],
    ["--switch-on", "cpu-clock", "--switch-off", "page-faults"],
    ["--switch-on", "cpu-clock", "--switch-off", "page-faults", "--show-on-off-events"],
]


@pytest.mark.parametrize("args", SWITCHES, ids=" ".join)
def test_switch_on_off(rec, args):
    compare(rec["two"], *args)


@pytest.mark.parametrize("opt", ["--switch-on", "--switch-off"])
def test_switch_event_not_found(rec, opt):
    want = perf("script", "-i", rec["two"], opt, "nosuch")
    got = pcl("script", "-i", rec["two"], opt, "nosuch")
    assert (got.returncode, got.stdout, got.stderr) == (want.returncode, want.stdout,
                                                         want.stderr)
    assert got.returncode == 254 and "switch-" in got.stderr


# Options for data these files lack: perf prints the same as without them.
NO_EFFECT = [
    ["-a"], ["--max-blocks", "3"], ["--itrace=i"], ["--itrace"], ["--addr-range", "3"],
    ["--guestmount", "/tmp"], ["--guestkallsyms", "/proc/kallsyms"], ["--guestmodules", "/tmp"],
    ["--guestvmlinux", "/tmp/x"], ["--guest-code"], ["--dlarg", "x"], ["--demangle"],
    ["--demangle-kernel"], ["--full-source-path"], ["--no-demangle"],
]
# Options with an effect on them.
EFFECT = [
    ["--stop-bt", "main"], ["--stop-bt", "leaf_math,main,__libc_start_call_main"],
    ["--graph-function", "main"],          # no branch flags: no sample is shown
    ["--call-trace"], ["--call-ret-trace"], ["--call-trace=x"], ["-d"],
    ["-k", "/bin/ls"],                     # not the kernel's image: kernel symbols unknown
    ["--debug-mode"], ["--stitch-lbr"],
]


@pytest.mark.parametrize("args", NO_EFFECT + EFFECT, ids=" ".join)
def test_other_data_options(perf_data, args):
    got = compare(perf_data["fp"], *args)
    want = perf("script", "-i", perf_data["fp"], *args)
    assert got.stderr == want.stderr


def test_vmlinux_missing(perf_data):
    want = perf("script", "-i", perf_data["fp"], "-k", "/nonexistent/vmlinux")
    got = pcl("script", "-i", perf_data["fp"], "-k", "/nonexistent/vmlinux")
    assert (got.returncode, got.stdout, got.stderr) == (want.returncode, want.stdout,
                                                         want.stderr)


def test_dlfilter_missing(perf_data):
    want = perf("script", "-i", perf_data["fp"], "--dlfilter", "/nonexistent.so")
    got = pcl("script", "-i", perf_data["fp"], "--dlfilter", "/nonexistent.so")
    assert (got.returncode, got.stderr) == (want.returncode, want.stderr)


@pytest.mark.parametrize("args", [["--script", "perl:x.pl"], ["-s", "x.pl"],
                                  ["--gen-script", "perl"]], ids=" ".join)
def test_perl_is_not_supported(perf_data, tmp_path, args):
    r = subprocess.run([PCL, "script", "-i", perf_data["fp"], *args], cwd=tmp_path,
                       capture_output=True, text=True, timeout=60)
    assert r.returncode in (254, 255)
    assert "no Perl engine" in r.stderr
    assert r.stdout == "" and not list(tmp_path.iterdir())


def test_unknown_script(perf_data):
    want = perf("script", "-i", perf_data["fp"], "no-such-script")
    got = pcl("script", "-i", perf_data["fp"], "no-such-script")
    assert got.returncode == want.returncode == 129
    assert (got.stderr.split(" Usage:")[0].replace("pcl script", "perf script") ==
            want.stderr.split(" Usage:")[0])


def test_xed_pipes_the_output(perf_data):
    if shutil.which("xed"):
        pytest.skip("xed is installed: the output is its disassembly")
    want = perf("script", "-i", perf_data["fp"], "--xed")
    got = pcl("script", "-i", perf_data["fp"], "--xed")
    assert "xed: not found" in got.stderr and got.stderr == want.stderr


@pytest.mark.parametrize("kind", ["syscalls", "fp"])
def test_full_source_path(perf_data, kind):
    a = compare(perf_data[kind], "-F", "comm,tid,time,ip,sym,srcline").stdout
    b = compare(perf_data[kind], "-F", "comm,tid,time,ip,sym,srcline",
                "--full-source-path").stdout
    # the same lines, with the directories
    assert a != b and len(a.splitlines()) == len(b.splitlines())
    for x, y in zip(a.splitlines(), b.splitlines()):
        assert x == y or (y.endswith("/" + x.strip()) and "/" in y)


@pytest.fixture(scope="module")
def cpp_data(tmp_path_factory):
    if not shutil.which("g++"):
        pytest.skip("no g++")
    d = tmp_path_factory.mktemp("cpp")
    (d / "work.cc").write_text(CPP)
    subprocess.run(["g++", "-O0", "-g", "-fno-omit-frame-pointer", "-o", str(d / "work"),
                    str(d / "work.cc")], check=True)
    return _record(str(d), "cpp", ["-g"], [str(d / "work")])


@pytest.mark.parametrize("args", [[], ["--no-demangle"], ["--no-demangle", "-G"]], ids=" ".join)
def test_demangle(cpp_data, args):
    out = compare(cpp_data, *args).stdout
    assert ("_ZN2ns3Foo4workIlEEdT_" in out) == ("--no-demangle" in args)


def _with_text_pokes(src, dst, addr):
    """Copies a pipe-mode perf.data and appends two TEXT_POKE records (no
    kernel here makes them without Intel PT), each with the sample_id_all
    trailer of the file's EXIT record."""
    import struct
    data = open(src, "rb").read()
    pos, sample_type, trailer = 16, None, None
    while pos + 8 <= len(data):
        rtype, _, size = struct.unpack_from("<IHH", data, pos)
        if rtype == 64 and sample_type is None:        # HEADER_ATTR: attr.sample_type
            sample_type = struct.unpack_from("<Q", data, pos + 8 + 24)[0]
        if rtype == 4:                                 # EXIT
            # TID, TIME, ID, STREAM_ID, CPU, IDENTIFIER go in the trailer
            n = 8 * sum(1 for bit in (1, 2, 6, 9, 7, 16) if sample_type & (1 << bit))
            trailer = data[pos + size - n:pos + size]
        pos += size
    assert trailer is not None

    def poke(old, new):
        body = struct.pack("<QHH", addr, len(old), len(new)) + bytes(old) + bytes(new)
        body += bytes(-(8 + len(body)) % 8)
        return struct.pack("<IHH", 20, 1, 8 + len(body) + len(trailer)) + body + trailer
    with open(dst, "wb") as f:
        f.write(data + poke([0x0f, 0x1f, 0x44, 0, 0], [0xe8, 1, 2, 3, 4]) +
                poke(list(range(20)), []))


@pytest.mark.parametrize("args", [["--show-text-poke-events"], ["-D"],
                                  ["--dump-unsorted-raw-trace", "--show-text-poke-events"],
                                  []], ids=" ".join)
def test_text_poke(perf_data, tmp_path, args):
    addr = None
    with open("/proc/kallsyms") as f:
        for line in f:
            a, t, name = line.split()[:3]
            if name == "schedule" and t in "tT":
                addr = int(a, 16) + 4
    if not addr:
        pytest.skip("no kernel symbol addresses in /proc/kallsyms")
    path = tmp_path / "poke.data"
    _with_text_pokes(perf_data["pipe"], path, addr)
    out = compare(str(path), *args, filt=normalize_vdso).stdout
    assert ("schedule+0x4 old len 5 new len 5" in out) == bool(args)


def test_symbols_by_address(perf_data):
    """-S takes hex addresses: samples at exactly that ip, or within
    --addr-range bytes from it (a symbol's start address no longer names
    the whole symbol)."""
    path = perf_data["fp"]
    ips = perf("script", "-i", path, "-G", "-F", "ip").stdout.split()
    top = max(set(ips), key=ips.count)
    for args in (["-S", "0x" + top], ["-S", top], ["-S", "0x%x" % (int(top, 16) - 2)],
                 ["-S", "0x%x" % (int(top, 16) - 2), "--addr-range", "3"],
                 ["-S", "leaf_math,0x" + top], ["-S", "0x" + top, "--addr-range", "64"]):
        out = compare(path, "-G", "-F", "ip,sym,symoff", *args).stdout
        if args[1].endswith(top) or "--addr-range" in args:
            assert out.count(top) == ips.count(top)
        elif "%x" % (int(top, 16) - 2) not in ips:     # not a sampled ip: nothing
            assert out == ""


@pytest.fixture(scope="module")
def dlfilter_so(tmp_path_factory):
    if not os.path.exists("/usr/include/perf/perf_dlfilter.h"):
        pytest.skip("no <perf/perf_dlfilter.h>")
    d = tmp_path_factory.mktemp("dlfilter")
    src = os.path.join(os.path.dirname(__file__), "..", "fixtures", "dlfilter", "test-filter.c")
    subprocess.run(["gcc", "-shared", "-fPIC", "-O1", "-o", str(d / "test-filter.so"), src],
                   check=True)
    return str(d / "test-filter.so")


DLFILTER_ARGS = [
    ["--dlarg", "leaf_spin", "--dlarg", "leaf_math"],
    ["--dlarg", "spin_work", "--comms", "burner"],
    ["--dlarg", "leaf_spin", "--time", "10%-60%", "-F", "comm,tid,time,ip,sym"],
    ["--dlarg", "leaf_spin", "--switch-on", "page-faults", "--show-on-off-events"],
    ["-C", "0"],                 # the file has no CPU: an error after the filter loaded
    ["--header"],
    ["--header-only"],
]


@pytest.mark.parametrize("kind", ["fp", "two", "switch"])
@pytest.mark.parametrize("args", DLFILTER_ARGS, ids=" ".join)
def test_dlfilter(perf_data, rec, dlfilter_so, kind, args):
    path = perf_data["fp"] if kind == "fp" else rec[kind]
    if "--switch-on" in args and kind != "two":
        pytest.skip("page-faults only in 'two'")
    got = compare(path, "--dlfilter", dlfilter_so, *args)
    want = perf("script", "-i", path, "--dlfilter", dlfilter_so, *args)
    assert got.stderr == want.stderr
    if "--header-only" not in args and "-C" not in args:     # started once the file checks
        assert got.stdout.startswith("start: ") or "# ========" in got.stdout
    assert got.stdout.endswith("stop\n")


PERF_DLFILTERS = "/usr/lib/perf-core/dlfilters"


def test_perf_dlfilter_by_name(perf_data):
    """perf's own objects, by bare name as perf finds them."""
    if not os.path.exists(os.path.join(PERF_DLFILTERS, "dlfilter-show-cycles.so")):
        pytest.skip("perf's dlfilters are not installed")
    out = compare(perf_data["fp"], "--dlfilter", "dlfilter-show-cycles.so").stdout
    assert out.startswith("         0 ")


def test_list_dlfilters(dlfilter_so, tmp_path):
    shutil.copy(dlfilter_so, tmp_path / "mine.so")
    want = subprocess.run([PERF, "script", "--list-dlfilters"], cwd=tmp_path,
                          capture_output=True, text=True)
    got = subprocess.run([PCL, "script", "--list-dlfilters"], cwd=tmp_path,
                         capture_output=True, text=True)
    assert (got.returncode, got.stdout) == (want.returncode, want.stdout)
    assert "mine.so" in got.stdout and "keeps samples in the symbols" in got.stdout


def test_throttle_records_in_raw_dumps(tmp_path):
    """A 2 us cpu-clock period system wide gets throttled: perf script -D
    prints nothing after PERF_RECORD_THROTTLE/UNTHROTTLE, perf report -D
    its stub's ': unhandled!'."""
    data = str(tmp_path / "throttle.data")
    r = perf("record", "-q", "-a", "-c", "2000", "-e", "cpu-clock", "-o", data, "--",
             "sh", "-c", "ls -lR /usr/share >/dev/null 2>&1 & sleep 0.5")
    assert r.returncode == 0, r.stderr
    for cmd in ("script", "report"):
        want = perf(cmd, "-D", "-i", data)
        got = pcl(cmd, "-D", "-i", data)
        assert got.stdout == want.stdout, cmd
    if "PERF_RECORD_THROTTLE" not in want.stdout:
        pytest.skip("the kernel did not throttle this recording")
