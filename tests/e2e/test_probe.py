"""pcl probe against perf 6.1 on the probe_prog fixture built -O0 -g, -O1 and
-O2 -g: -F, -L and -V byte-equal, the definitions -n -v writes, and real
uprobes added, listed, recorded and deleted.  Every test that adds probes
uses a group of its own and removes it, whatever happens."""
import os
import subprocess
import re
import shutil
import tempfile

import pytest

from conftest import PCL, PERF, fixture, pcl, perf, run, unified

BINARIES = ["probe_prog_O0", "probe_prog", "probe_prog_O2"]
LIBC = "/lib/x86_64-linux-gnu/libc.so.6"
UPROBE_EVENTS = "/sys/kernel/tracing/uprobe_events"


def both(*args):
    """perf's and pcl's run of the same probe command line."""
    return perf("probe", *args), pcl("probe", *args)


def as_pcl(text):
    """perf's text as pcl words it: its hints name pcl."""
    return text.replace("perf probe", "pcl probe").replace("perf tools", "pcl tools") \
        .replace("\tperf record", "\tpcl record")


def assert_same(p, q, stderr=True):
    assert q.stdout == p.stdout, unified(p.stdout, q.stdout)
    if stderr:
        assert q.stderr == as_pcl(p.stderr), unified(as_pcl(p.stderr), q.stderr)
    assert q.returncode == p.returncode, (p.returncode, q.returncode, q.stderr)


@pytest.mark.parametrize("binary", BINARIES)
@pytest.mark.parametrize("filt", [None, "w*|m*", "*", "!*a*&*e*"])
def test_funcs(binary, filt):
    args = ["-x", fixture(binary), "-F"] + ([filt] if filt else [])
    assert_same(*both(*args))


CXX_SOURCE = """
#include <map>
#include <string>
namespace ns { template <class T> struct Acc { T sum = 0; void add(T v); }; }
template <class T> __attribute__((noinline)) void ns::Acc<T>::add(T v) { sum += v; }
int main(int argc, char **argv)
{
    std::map<std::string, int> m;
    ns::Acc<double> d; ns::Acc<long> l;
    for (int i = 0; i < argc; i++) { m[argv[i]]++; d.add(i); l.add(i); }
    return (int)d.sum + (int)l.sum + (int)m.size();
}
"""


@pytest.fixture(scope="module")
def cxx_binary(tmp_path_factory):
    exe = str(tmp_path_factory.mktemp("cxx") / "cxx_probe")
    subprocess.run(["g++", "-O2", "-g", "-x", "c++", "-", "-o", exe], input=CXX_SOURCE,
                   text=True, check=True)
    return exe


@pytest.mark.parametrize("args", [["-F"], ["-F", "--no-demangle"], ["--no-demangle", "-F"],
                                  ["-F", "*Acc*"], ["-F", "*@plt"], ["-F", "--filter", "x"],
                                  ["--funcs", "--demangle"]], ids=" ".join)
def test_funcs_cxx(cxx_binary, args):
    """C++ names demangled (without parameters), PLT entries as
    "name@plt"; an option after -F is no filter; --filter leaves -F's
    list alone, as perf's does."""
    assert_same(*both("-x", cxx_binary, *args))


@pytest.mark.parametrize("filt", ["l*", "n", "!x", "*"])
def test_vars_filter(filt):
    """--filter on -V: the variables whose names pass; none passing is
    perf's "(No matched variables)"."""
    assert_same(*both("-x", fixture("burner"), "-V", "leaf_spin", "--filter", filt))


@pytest.mark.skipif(not os.path.exists(LIBC), reason="no libc.so.6 here")
@pytest.mark.parametrize("filt", [None, "mall*"])
def test_funcs_stripped_library(filt):
    """libc has no .symtab: its symbols come from the build-id debug file
    when installed, else from .dynsym, for both tools."""
    args = ["-x", LIBC, "-F"] + ([filt] if filt else [])
    assert_same(*both(*args))


@pytest.mark.skipif(not os.path.exists(LIBC), reason="no libc.so.6 here")
@pytest.mark.parametrize("func", ["malloc", "free", "fopen", "read", "malloc:2", "malloc:3",
                                  "malloc+4"])
def test_vars_library(func):
    """libc's functions by their symbols' names (malloc is __libc_malloc in
    its debug information), when libc6-dbg is installed; perf's error when
    not."""
    assert_same(*both("-x", LIBC, "-V", func))


@pytest.mark.skipif(not os.path.exists(LIBC), reason="no libc.so.6 here")
def test_lines_library():
    """malloc is found by its symbol; its source is not installed."""
    assert_same(*both("-x", LIBC, "-L", "malloc"))


def test_source_prefix(tmp_path):
    """-s DIR: the source under DIR, leading directories dropped as needed."""
    (tmp_path / "fixtures").mkdir()
    source = os.path.join(os.path.dirname(fixture("probe_prog_O0")), "..", "..", "tests",
                          "fixtures", "probe_prog.c")
    shutil.copy(source, str(tmp_path / "fixtures" / "probe_prog.c"))
    path = fixture("probe_prog_O0")
    for prefix, rng in ((str(tmp_path), "work"), (str(tmp_path), "probe_prog.c:20-22"),
                        ("/nonexistent", "work:1-3")):
        assert_same(*both("-x", path, "-s", prefix, "-L", rng))


@pytest.mark.parametrize("args", [
    "-D helper d", "-- -", "-l x y", "-d x y", "-V helper x", "-F x y", "-L helper x",
    "-D helper -a work x", "-a helper -D work", "-l -d x", "-V helper -L work", "-F -l",
    "--add helper --del x", "--funcs --vars helper", "-a helper -F",
], ids=str)
def test_commands_exclusive(args):
    """-a, -D, -d, -l, -L, -V and -F are commands: one kind a line (a
    second of the same kind adds to it), and words after the options are
    a definition only for -a or none, as perf refuses them."""
    p, q = both("-n", "-x", fixture("probe_prog"), *args.split())
    assert p.returncode == 129
    assert_same(p, q)


def test_missing_binary():
    p, q = both("-x", "/nonexistent/prog", "-a", "work")
    assert_same(p, q)


def test_stripped(tmp_path):
    """A stripped program, its build id gone too (so that no cache can
    stand in for it): perf's messages for -F, -V, -L and -a."""
    stripped = str(tmp_path / "stripped")
    r = run(["strip", "--remove-section=.note.gnu.build-id", "-o", stripped,
             fixture("probe_prog_O0")])
    assert r.returncode == 0, r.stderr
    for args in (["-F"], ["-V", "work"], ["-L", "work"], ["-n", "-a", "work"]):
        assert_same(*both("-x", stripped, *args))


def test_stripped_cached(tmp_path):
    """A stripped copy of a cached program: both tools find its symbols and
    debug information in the build-id cache by its build id."""
    path = fixture("probe_prog_O2")
    assert perf("buildid-cache", "-a", path).returncode == 0
    stripped = str(tmp_path / "stripped")
    assert run(["strip", "-o", stripped, path]).returncode == 0
    for args in (["-F"], ["-V", "work"], ["-n", "-a", "work n"]):
        assert_same(*both("-x", stripped, *args))


def test_max_probes_no_inlines():
    assert_same(*both("-x", fixture("probe_prog_O0"), "--max-probes", "2", "-n", "-a", "work:6"))
    path = fixture("probe_prog_O2")
    for args in (["-n", "-a", "atoi"], ["-V", "atoi"], ["-n", "-a", "*a*"]):
        assert_same(*both("-x", path, "--no-inlines", *args))


def test_definition():
    """-D prints the definitions instead of writing them."""
    path = fixture("probe_prog_O0")
    for defs in (["work n"], ["work%return $retval", "main"], ["work:6 sum"]):
        args = ["-x", path]
        for d in defs:
            args += ["-D", d]
        assert_same(*both(*args))


LINE_RANGES = ["work", "main", "scale", "atoi", "work:2-5", "work:2+3", "probe_prog.c:20-24",
               "probe_prog.c:20", "probe_prog.c", "nosuch", "work@probe_prog.c"]


@pytest.mark.parametrize("binary", BINARIES)
@pytest.mark.parametrize("rng", LINE_RANGES)
def test_lines(binary, rng):
    assert_same(*both("-x", fixture(binary), "-L", rng))


VAR_POINTS = ["work", "main", "scale", "atoi", "take", "main:3", "main:5", "work:5", "work:6", "work%return", "probe_prog.c:22", "work+4",
              "nosuch", "main:8",
              # lines without code: no site (no fallback to the symbol)
              "work:3", "work:4"]


@pytest.mark.parametrize("binary", BINARIES)
@pytest.mark.parametrize("point", VAR_POINTS)
@pytest.mark.parametrize("options", [[], ["--externs"], ["--range"], ["--range", "--externs"]])
def test_vars(binary, point, options):
    assert_same(*both("-x", fixture(binary), "-V", point, *options))


DEFINITIONS = [
    "work", "work+4", "work:5", "myev=work n", "grp:ev=work",
    "work p->x p->name:string vals[2] n:u8 n:x32 nn=n +8(%sp):s16 %di",
    "work $params", "work $vars", "scale v shift r", "work:6 sum i",
    "main pt.name:string pt.y vals[1]", "work i", "work p->z", "work nosuch", "work n:q8",
    "work@probe_prog.c", "work%return $retval", "work $stack", "work:0", "probe_prog.c:21",
    "probe_prog.c:22", "work p.x", "main pt->x", "work n[1]", "work n:string", "main pt",
    "nosuch", "work:3+4", "work%return n",
    "work;sum*", "work;sum", "work;*sum*", "work;counter*", "work;for*", "work;sum+=* sum",
    "take f->a", "take v.b", "take f->c", "take v.c:u8", "take f", "take v",
    "*a*", "w*", "*a* $params", "t*:1", "atoi", "atoi __nptr",
    "work%return $retval:s32", "work%return r=$retval:x32", "work $stack3", "work $comm",
    "work n $retval", "work +0(%sp):u64 x=%ax", "work @counter", "work counter",
    "work counter:x32", "work $argN",
]

# perf -v's lines of its own machinery (files opened, symbol loading,
# parsing traces, the end of a parsing line its opening of README broke)
# that pcl does not print
PERF_ONLY = re.compile(r"^(Open|Looking|Try|symsrc|parsing arg|\d+ arguments|symbol:|.* type is|"
                       r"Found \d+ probe_trace|Probe point found|Matched function|Converting|"
                       r"Searching|Reversed|probe-definition|Symbol .* address|"
                       r"No kprobe blacklist|Problems creating module maps|Parsing probe_events|"
                       r"Group:\S+ Event:|Failed to open cache|Cache open error|user_access)")


def verbose_text(text):
    return "".join(line for line in text.splitlines(True) if not PERF_ONLY.match(line))


@pytest.mark.parametrize("binary", BINARIES)
@pytest.mark.parametrize("definition", DEFINITIONS)
def test_dry_run(binary, definition):
    """-n: the messages and the summary; -n -v: also the definitions written."""
    path = fixture(binary)
    assert_same(*both("-x", path, "-n", "-a", definition))
    p, q = both("-x", path, "-n", "-v", "-a", definition)
    assert q.stderr == as_pcl(p.stderr), unified(as_pcl(p.stderr), q.stderr)
    assert q.returncode == p.returncode


@pytest.mark.parametrize("args", [["-a", "work", "-v"], ["-v", "work", "n"],
                                  ["-a", "work n", "-v", "-a", "main"], ["-D", "work n", "-v"],
                                  ["-v", "-D", "work", "-D", "main"]], ids=" ".join)
def test_verbose_order(args):
    """perf logs a definition's parsing as it meets its option: a -v after
    it does not count; the words after the options, joined each with a
    space after it, come last."""
    p, q = both("-x", fixture("probe_prog_O0"), "-n", *args)
    assert_same(p, q)


VARS_VERBOSE = [("probe_prog", "work"), ("probe_prog", "nosuch"), ("probe_prog", "counter"),
                ("probe_prog", "work:2"), ("probe_prog_O0", "main"),
                ("probe_prog_O0", "probe_prog.c:22"), ("probe_prog_O0", "work;sum*"),
                ("probe_prog_O2", "take"), ("probe_prog_O2", "work"),
                # a clone's constant parameter (shift): README read, left
                # out with --range after a note with an empty range
                ("probe_prog_O2", "scale"), ("probe_prog_O2", "*a*")]


@pytest.mark.parametrize("binary,point", VARS_VERBOSE)
@pytest.mark.parametrize("extra", [[], ["--range", "--externs"]], ids=["", "range"])
def test_vars_verbose(binary, point, extra):
    """-V -v: the point as parsed, the debug information opened, each site
    found with the variables it lists (site by site, as perf walks them),
    a failure's reason."""
    assert_same(*both("-x", fixture(binary), "-v", "-V", point, *extra))
    assert_same(*both("-x", fixture(binary), "-V", point, "-v", *extra))


@pytest.mark.skipif(not os.path.exists(LIBC), reason="no libc.so.6 here")
@pytest.mark.parametrize("func", ["malloc", "strlen", "fclose", "puts", "getpid", "qsort",
                                  "pthread_create"])
def test_vars_verbose_libc(func):
    """libc's functions known by other names in its debug file, named as
    perf names their sites; -L's lookup of them."""
    assert_same(*both("-x", LIBC, "-v", "-V", func))
    if func != "getpid":	# perf 6.1 crashes on getpid's range, no declared file
        assert_same(*both("-x", LIBC, "-v", "-L", func))


@pytest.mark.parametrize("binary", BINARIES)
@pytest.mark.parametrize("lines", ["work", "work:2-4", "work:2+3", "probe_prog.c:10-12",
                                   "probe_prog.c", "nosuch", "main:3", "work@probe_prog.c",
                                   "counter", "probe_prog.c:20-24"])
def test_lines_verbose(binary, lines):
    """-L -v: the range as parsed (only with -v before -L), the debug
    information opened, the function's range, the source's path, perf's
    second look from the symbol and the failure's reason."""
    assert_same(*both("-x", fixture(binary), "-v", "-L", lines))
    assert_same(*both("-x", fixture(binary), "-L", lines, "-v"))


VERBOSE_DEFINITIONS = [
    ("probe_prog_O0", "work n"), ("probe_prog_O0", "work%return $retval"),
    ("probe_prog_O0", "work:6 sum i"), ("probe_prog_O0", "probe_prog.c:22"),
    ("probe_prog_O0", "work;sum*"), ("probe_prog_O0", "work+4"),
    ("probe_prog_O0", "work@probe_prog.c"), ("probe_prog_O0", "work $params"),
    ("probe_prog_O0", "work $vars"),
    ("probe_prog_O0", "work p->x p->name:string vals[2] n:u8 n:x32 nn=n +8(%sp):s16 %di"),
    ("probe_prog_O0", "main pt.name:string pt.y"), ("probe_prog_O0", "work nosuchvar"),
    ("probe_prog_O0", "nosuch"), ("probe_prog_O0", "work%return n"),
    ("probe_prog_O0", "work:3+4"), ("probe_prog", "work n"), ("probe_prog", "work i"),
    ("probe_prog_O2", "scale v shift r"), ("probe_prog_O2", "*a*"), ("probe_prog_O2", "atoi"),
    ("nodebug", "work+4 %di"), ("nodebug", "work n"), ("nodebug", "work%return $retval"),
    ("stripped", "work"), ("stripped", "work n"), ("copy", "work n"),
    ("probe_prog_O0", "nosuch %di"), ("probe_prog_O0", "_start %di"),
    ("libc", "malloc"), ("libc", "malloc+4"), ("probe_prog_O0", "work n p->x@user vals[1]@user"),
    ("probe_prog_O0", "e" * 64 + "=work"), ("probe_prog_O0", "%return"),
    # several definitions: all parsed, then all found, then all written
    ("probe_prog_O0", ("work n", "main", "work%return $retval")),
    ("probe_prog_O0", ("work", "nosuch")), ("probe_prog_O0", ("work", "work:3+4")),
    ("probe_prog_O0", ("-f", "work", "work")), ("probe_prog_O0", ("w1=work", "w1=main")),
]


@pytest.fixture(scope="module")
def verbose_binaries(tmp_path_factory):
    """The fixtures, a program without debug information, one stripped of
    its symbols and build id, and a copy of a fixture whose build id the
    cache knows by the fixture's path."""
    d = tmp_path_factory.mktemp("verbose")
    source = os.path.join(os.path.dirname(fixture("probe_prog_O0")), "..", "..", "tests",
                          "fixtures", "probe_prog.c")
    paths = {b: fixture(b) for b in BINARIES}
    paths["nodebug"] = str(d / "nodebug")
    assert run(["cc", "-O0", "-o", paths["nodebug"], source]).returncode == 0
    paths["stripped"] = str(d / "stripped")
    assert run(["strip", "--remove-section=.note.gnu.build-id", "-o", paths["stripped"],
                fixture("probe_prog_O0")]).returncode == 0
    paths["libc"] = LIBC
    paths["copy"] = str(d / "copy")
    shutil.copy(fixture("probe_prog_O0"), paths["copy"])
    return paths


@pytest.mark.parametrize("binary,definition", VERBOSE_DEFINITIONS,
                         ids=["%s %s" % (b, d if isinstance(d, str) else " -a ".join(d))
                              for b, d in VERBOSE_DEFINITIONS])
def test_dry_run_verbose(homes, verbose_binaries, binary, definition):
    """-n -v: every line perf prints, in its order, each tool with a
    build-id cache of its own (which the copy's build id is in, by
    another path: perf fails to open its probe cache then)."""
    perf_home, perf_env, pcl_home, pcl_env = homes
    path = verbose_binaries[binary]
    if binary == "copy":
        for env in (perf_env, pcl_env):
            assert perf("buildid-cache", "-a", fixture("probe_prog_O0"), env=env).returncode == 0
    args = ["-x", path, "-n", "-v"]
    for d in [definition] if isinstance(definition, str) else definition:
        args += [d] if d.startswith("-") else ["-a", d]
    p, q = both_in(homes, *args)
    expected = as_pcl(p.stderr).replace(str(perf_home), "HOME")
    assert q.stderr.replace(str(pcl_home), "HOME") == expected, \
        unified(expected, q.stderr.replace(str(pcl_home), "HOME"))
    assert q.returncode == p.returncode


def test_list_nothing():
    for filters in (["pcl_nothing_here:*"], ["nothing_here"]):
        assert_same(*both("-l", *filters))


def test_semantic_errors():
    for definition in ["work:3+4", "work%return n", "1bad=work", "work%foo"]:
        p, q = both("-x", fixture("probe_prog_O0"), "-n", "-a", definition)
        assert q.stderr == as_pcl(p.stderr), unified(as_pcl(p.stderr), q.stderr)
        assert q.returncode == p.returncode


def test_kprobe_events_missing():
    """This kernel has no kprobe_events: perf's words, even for -n."""
    if os.path.exists("/sys/kernel/tracing/kprobe_events"):
        pytest.skip("kprobe_events exists here")
    for args in (["-n", "-a", "do_sys_open"], ["-n", "-v", "-a", "do_sys_open %di"]):
        p, q = both(*args)
        tail = lambda s: [l for l in s.splitlines() if not l.startswith("Opening") and
                          ("kprobe_events" in l or "Error" in l or "CONFIG_KPROBE" in l)]
        assert tail(q.stderr) == tail(p.stderr), (p.stderr, q.stderr)
        assert q.returncode == p.returncode


needs_uprobes = pytest.mark.skipif(os.geteuid() != 0 or not os.path.exists(UPROBE_EVENTS),
                                   reason="needs root and uprobe_events")


@pytest.fixture
def group():
    """A group name no other process uses; its probes go away afterwards."""
    name = "pcltest%d" % os.getpid()
    yield name
    perf("probe", "-q", "-d", name + ":*")
    assert name + "/" not in open(UPROBE_EVENTS).read()


def added_by(tool, group, binary, definitions):
    args = ["-x", binary]
    for d in definitions:
        args += ["-a", "%s:%s" % (group, d)]
    return (pcl if tool == "pcl" else perf)("probe", *args)


@needs_uprobes
@pytest.mark.parametrize("binary", ["probe_prog_O0", "probe_prog_O2"])
def test_add_list_delete(group, binary):
    path = fixture(binary)
    definitions = ["work=work n p->x p->name:string vals[1]", "ret=work%return $retval",
                   "w6=work:6 sum"]
    if binary == "probe_prog_O2":
        definitions[2] = "w6=work:6 i"
    p = added_by("perf", group, path, definitions)
    assert p.returncode == 0, p.stderr
    listed_by_perf = perf("probe", "-l", group + ":*").stdout
    perf_events = open(UPROBE_EVENTS).read()
    perf("probe", "-q", "-d", group + ":*")

    q = added_by("pcl", group, path, definitions)
    assert q.stderr == as_pcl(p.stderr), unified(as_pcl(p.stderr), q.stderr)
    assert q.returncode == 0
    assert open(UPROBE_EVENTS).read() == perf_events
    assert_same(perf("probe", "-l", group + ":*"), pcl("probe", "-l", group + ":*"))
    assert pcl("probe", "-l", group + ":*").stdout == listed_by_perf

    # a second add of the same name is refused, -f makes it work_1
    p, q = perf("probe", "-x", path, "-a", group + ":work=work"), \
        pcl("probe", "-x", path, "-a", group + ":work=work")
    assert q.stderr == as_pcl(p.stderr) and q.returncode == p.returncode == 239
    q = pcl("probe", "-x", path, "-f", "-a", group + ":work=work")
    assert "  %s:work_1 " % group in q.stderr

    # perf names the events it removes on stderr
    d = pcl("probe", "-d", group + ":w*")
    assert d.returncode == 0
    assert d.stdout == ""
    assert d.stderr == "".join("Removed event: %s:%s\n" % (group, e)
                               for e in ["w6", "work", "work_1"])
    d = pcl("probe", "-d", group + ":*")
    assert d.stderr == "Removed event: %s:ret__return\n" % group
    p, q = both("-d", group + ":*")
    assert_same(p, q)


@needs_uprobes
def test_failed_add_leaves_nothing(group):
    """The kernel refuses an argument: perf's words, nothing left behind."""
    path = fixture("probe_prog_O0")
    for args in (["-a"], ["-v", "-a"]):
        p = perf("probe", "-x", path, *args, group + ":w=work:5 %bogus")
        q = pcl("probe", "-x", path, *args, group + ":w=work:5 %bogus")
        assert q.stderr == as_pcl(p.stderr), unified(as_pcl(p.stderr), q.stderr)
        assert q.returncode == p.returncode == 234
        assert group + "/" not in open(UPROBE_EVENTS).read()


def own_events(text, group):
    """-v's log without the events of other groups (other tests' probes,
    which may come and go between perf's run and pcl's)."""
    out = []
    for line in text.splitlines(True):
        m = re.match(r"Parsing probe_events: [pr]:([^/]+)/|Group:(\S+) Event:", line)
        if m and (m.group(1) or m.group(2)) != group:
            continue
        out.append(line)
    return "".join(out)


@needs_uprobes
@pytest.mark.parametrize("args", [["-l", "{g}:*"], ["-l", "{g}:m"], ["-d", "{g}:*"],
                                  ["-d", "{g}:w", "-d", "{g}:r*"], ["-d", "{g}:nothing"]],
                         ids=" ".join)
def test_list_delete_verbose(group, args):
    """-v -l and -v -d: the events files opened, every event parsed, the
    debug information opened (once a binary) and the events deleted
    (named first, by name, then each written out), as perf logs them."""
    path = fixture("probe_prog_O0")
    args = [a.format(g=group) for a in args]
    runs = []
    for tool in (perf, pcl):
        r = perf("probe", "-q", "-x", path, "-a", group + ":w=work n", "-a", group + ":m=main",
                 "-a", group + ":r=work%return $retval")
        assert r.returncode == 0, r.stderr
        runs.append(tool("probe", "-v", *args))
        perf("probe", "-q", "-d", group + ":*")
    p, q = runs
    assert q.stdout == p.stdout, unified(p.stdout, q.stdout)
    expected = own_events(as_pcl(p.stderr), group)
    assert own_events(q.stderr, group) == expected, unified(expected, own_events(q.stderr, group))
    assert q.returncode == p.returncode


@needs_uprobes
def test_without_debug_info(group, tmp_path):
    """A program built without -g: symbols only, for -a, -n -v and -l."""
    binary = str(tmp_path / "nodebug")
    source = os.path.join(os.path.dirname(fixture("probe_prog_O0")), "..", "..", "tests",
                          "fixtures", "probe_prog.c")
    assert run(["cc", "-O0", "-o", binary, source]).returncode == 0
    definitions = ["work", "work+4", "work%return $retval", "main %di", "work n"]
    for d in definitions:
        p, q = both("-x", binary, "-n", "-v", "-a", d)
        assert q.stderr == as_pcl(p.stderr), unified(as_pcl(p.stderr), q.stderr)
        assert q.returncode == p.returncode
    args = ["-x", binary]
    for d in ["w=work", "w4=work+4", "r=work%return $retval", "m=main %di"]:
        args += ["-a", group + ":" + d]
    assert perf("probe", "-q", *args).returncode == 0
    assert_same(perf("probe", "-l", group + ":*"), pcl("probe", "-l", group + ":*"))


@needs_uprobes
def test_record_script(group, tmp_path):
    """The arguments recorded are the values the program had: n = 1000 + r,
    p->x = 3, p->name = "pt", vals[1] = 3, and work's sum as $retval."""
    path = fixture("probe_prog_O0")
    q = added_by("pcl", group, path, ["work=work n p->x p->name:string vals[1]",
                                      "ret=work%return $retval"])
    assert q.returncode == 0, q.stderr
    data = str(tmp_path / "pcl.data")
    r = pcl("record", "-q", "-o", data, "-e", group + ":work", "-e", group + ":ret__return",
            "--", path, "2")
    assert r.returncode == 0, r.stderr
    out = pcl("script", "-i", data)
    assert out.returncode == 0, out.stderr
    args = [line.split(": ", 1)[1].split(") ", 1)[1] for line in out.stdout.splitlines()]
    assert args == ['n=1000 x=3 name="pt" vals=3', "arg1=0x1c52",
                    'n=1001 x=3 name="pt" vals=3', "arg1=0x1c57"]
    perf_data = str(tmp_path / "perf.data")
    r = perf("record", "-q", "-o", perf_data, "-e", group + ":work", "--", path, "2")
    assert r.returncode == 0, r.stderr
    p, q = perf("script", "-i", perf_data), pcl("script", "-i", perf_data)
    assert q.stdout == p.stdout, unified(p.stdout, q.stdout)


PYTHON = "/usr/bin/python3.11"
SDT_BINARIES = [PYTHON, "/usr/lib/x86_64-linux-gnu/libstdc++.so.6"]
needs_python = pytest.mark.skipif(not os.path.exists(PYTHON), reason="no python3.11 here")


@pytest.fixture
def caches(tmp_path):
    """perf's and pcl's own build-id caches (perf through a config file)."""
    conf = tmp_path / "perfconfig"
    conf.write_text("[buildid]\n\tdir = %s\n" % (tmp_path / "perf-cache"))
    perf_env = dict(os.environ, PERF_CONFIG=str(conf))
    pcl_env = dict(os.environ, PERF_BUILDID_DIR=str(tmp_path / "pcl-cache"))
    return tmp_path / "perf-cache", perf_env, tmp_path / "pcl-cache", pcl_env


def tree(root):
    """Every path under root with, for probes files, their text."""
    out = {}
    for d, dirs, files in os.walk(root):
        for name in dirs + files:
            path = os.path.join(d, name)
            rel = os.path.relpath(path, root)
            out[rel] = open(path).read() if name == "probes" else os.path.islink(path)
    return out


@needs_python
def test_buildid_cache_sdt(caches):
    """--add writes perf's layout and perf's probes files; list sdt, -l and
    -r read and remove them alike."""
    perf_dir, perf_env, pcl_dir, pcl_env = caches
    files = [f for f in SDT_BINARIES if os.path.exists(f)]
    for f in files:
        p = perf("buildid-cache", "-a", f, env=perf_env)
        q = pcl("buildid-cache", "-a", f, env=pcl_env)
        assert (q.returncode, q.stderr) == (p.returncode, p.stderr)
    assert tree(pcl_dir) == tree(perf_dir)
    p, q = perf("list", "sdt", env=perf_env), pcl("list", "sdt", env=pcl_env)
    assert q.stdout == p.stdout, unified(p.stdout, q.stdout)
    p, q = perf("buildid-cache", "-l", env=perf_env), pcl("buildid-cache", "-l", env=pcl_env)
    assert q.stdout == p.stdout, unified(p.stdout, q.stdout)
    for f in files:
        p = perf("buildid-cache", "-v", "-r", f, env=perf_env)
        q = pcl("buildid-cache", "-v", "-r", f, env=pcl_env)
        assert q.stderr.splitlines()[-1] == p.stderr.splitlines()[-1]
    assert pcl("buildid-cache", "-l", env=pcl_env).stdout == ""


@needs_python
@pytest.mark.parametrize("marker", ["sdt_python:gc__start", "%sdt_python:gc__done", "%line",
                                    "sdt_python:nosuch"])
def test_sdt_dry_run(caches, marker):
    perf_dir, perf_env, pcl_dir, pcl_env = caches
    perf("buildid-cache", "-a", PYTHON, env=perf_env)
    pcl("buildid-cache", "-a", PYTHON, env=pcl_env)
    p = perf("probe", "-n", "-v", "-a", marker, env=perf_env)
    q = pcl("probe", "-n", "-v", "-a", marker, env=pcl_env)
    assert verbose_text(q.stderr) == as_pcl(verbose_text(p.stderr)), \
        unified(as_pcl(verbose_text(p.stderr)), verbose_text(q.stderr))
    assert q.returncode == p.returncode


SDT_VERBOSE = [["-a", "sdt_python:gc__start", "-a", "sdt_python:gc__done"],
               ["-x", PYTHON, "-a", "%gc__start"], ["-a", "sdt_python:nosuch"],
               ["-a", "%probe_probe_prog:cached", "-a", "%gc__done"]]


@needs_python
@pytest.mark.parametrize("args", SDT_VERBOSE)
def test_sdt_verbose(caches, args):
    """-v on markers and --cache's entries, every line: each cache perf
    loads (build-id order, only -x's with -x) logs its entries as parsed,
    then the uprobes it takes."""
    perf_dir, perf_env, pcl_dir, pcl_env = caches
    prog = fixture("probe_prog")
    for f in [PYTHON, "/usr/lib/x86_64-linux-gnu/libstdc++.so.6"]:
        if os.path.exists(f):
            perf("buildid-cache", "-a", f, env=perf_env)
            pcl("buildid-cache", "-a", f, env=pcl_env)
    for env, tool in ((perf_env, perf), (pcl_env, pcl)):
        r = tool("probe", "--cache", "-n", "-x", prog, "-a", "cached=work n x=p->x", env=env)
        assert r.returncode == 0, r.stderr
    p = perf("probe", "-n", "-v", *args, env=perf_env)
    q = pcl("probe", "-n", "-v", *args, env=pcl_env)
    assert q.stderr == as_pcl(p.stderr), unified(as_pcl(p.stderr), q.stderr)
    assert q.returncode == p.returncode


@needs_python
@needs_uprobes
def test_sdt_semaphore_fires(caches):
    """python's gc__start is guarded by a semaphore: the definition enables
    it, so each gc.collect() (generation 2) shows up."""
    if "sdt_python/" in open(UPROBE_EVENTS).read():
        pytest.skip("another sdt_python probe is defined")
    _, _, _, pcl_env = caches
    pcl("buildid-cache", "-a", PYTHON, env=pcl_env)
    try:
        q = pcl("probe", "-a", "sdt_python:gc__start", env=pcl_env)
        assert q.returncode == 0, q.stderr
        assert "(0x" in open(UPROBE_EVENTS).read().split("sdt_python/gc__start")[1]
        data = str(caches[0].parent / "sdt.data")
        r = pcl("record", "-q", "-o", data, "-e", "sdt_python:gc__start", "--", PYTHON, "-c",
                "import gc\nfor _ in range(3): gc.collect()")
        assert r.returncode == 0, r.stderr
        out = pcl("script", "-i", data).stdout.splitlines()
        assert [l.split()[-1] for l in out[-3:]] == ["arg1=2"] * 3
    finally:
        pcl("probe", "-q", "-d", "sdt_python:*")
    assert "sdt_python/" not in open(UPROBE_EVENTS).read()


@pytest.mark.skipif(os.geteuid() != 0 or not shutil.which("setpriv"),
                    reason="needs root to become nobody")
def test_not_root():
    """As nobody: perf's words about tracefs's permissions."""
    directory = tempfile.mkdtemp(prefix="pcl-probe-")
    try:
        os.chmod(directory, 0o755)
        binary = os.path.join(directory, "prog")
        shutil.copy(fixture("probe_prog_O0"), binary)
        nobody = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
        for args in (["-l"], ["-x", binary, "-a", "work"], ["-x", binary, "-n", "-a", "work"],
                     ["-d", "pcl_nobody:*"]):
            p = run(nobody + [PERF, "probe", *args])
            q = run(nobody + [PCL, "probe", *args])
            assert_same(p, q)
    finally:
        shutil.rmtree(directory)


@needs_uprobes
def test_stat_counts(group):
    """pcl stat counts a probe's hits as perf stat does: once per call."""
    path = fixture("probe_prog_O0")
    assert added_by("pcl", group, path, ["work=work"]).returncode == 0
    counts = []
    for tool in (perf, pcl):
        r = tool("stat", "-x,", "-e", group + ":work", "--", path, "5")
        assert r.returncode == 0, r.stderr
        counts.append([l.split(",")[0] for l in r.stderr.splitlines() if group in l])
    assert counts[0] == counts[1] == [["5"]][0]


@needs_python
def test_buildid_cache_operations(caches):
    """-a (file lists), -l, -r, -p, -u and -P on caches of their own: the
    same messages, statuses and trees as perf's."""
    perf_dir, perf_env, pcl_dir, pcl_env = caches
    prog = fixture("probe_prog_O2")
    other = fixture("probe_prog_O0")
    steps = [["-a", prog], ["-a", "%s,%s" % (PYTHON, other)], ["-l"], ["-v", "-p", prog],
             ["-v", "-p", prog], ["-a", prog], ["-v", "-u", prog], ["-l"],
             ["-v", "-r", "%s,%s" % (prog, "/nonexistent/prog")], ["-v", "-P"], ["-l"],
             ["-a", "/nonexistent/prog"]]
    for args in steps:
        p = perf("buildid-cache", *args, env=perf_env)
        q = pcl("buildid-cache", *args, env=pcl_env)
        perf_err = "".join(l for l in p.stderr.splitlines(True)
                           if not l.startswith("DEBUGINFOD_URLS"))
        assert (q.stdout, q.stderr, q.returncode) == (p.stdout, perf_err, p.returncode), args
    assert tree(pcl_dir) == tree(perf_dir)


def test_list_opts():
    """Every option of perf's, in perf's order."""
    assert pcl("probe", "--list-opts").stdout == perf("probe", "--list-opts").stdout


@pytest.fixture
def homes(tmp_path):
    """perf and pcl each with a HOME of its own, so their ~/.debug caches
    are fresh and the real one stays untouched."""
    env = {k: v for k, v in os.environ.items() if k not in ("PERF_BUILDID_DIR", "PERF_CONFIG")}
    perf_home, pcl_home = tmp_path / "perf-home", tmp_path / "pcl-home"
    perf_home.mkdir()
    pcl_home.mkdir()
    return perf_home, dict(env, HOME=str(perf_home)), pcl_home, dict(env, HOME=str(pcl_home))


def both_in(homes, *args):
    _, perf_env, _, pcl_env = homes
    return perf("probe", *args, env=perf_env), pcl("probe", *args, env=pcl_env)


CACHED = ["work n p->x p->name:string vals[1]", "grp:ev=work%return r=$retval", "myev=scale",
          "work+4 %di"]


@needs_uprobes
def test_cache_add_list_delete(homes):
    """--cache -a (with -n: perf stores it all the same) writes perf's
    probes file; --cache -l lists and --cache -d purges alike, filters on
    GROUP:EVENT or the definition; re-adding a cached definition leaves
    its entry without uprobes, as perf 6.1 does."""
    perf_home, _, pcl_home, _ = homes
    prog = fixture("probe_prog")
    for definition in CACHED + [CACHED[0]]:
        p, q = both_in(homes, "-x", prog, "--cache", "-n", "-a", definition)
        assert (q.stdout, q.stderr, q.returncode) == (p.stdout, as_pcl(p.stderr), p.returncode)
    p, q = both_in(homes, "-x", prog, "--cache", "-n", "-v", "-a", CACHED[2])
    cache_lines = lambda s: [l for l in s.splitlines() if "cache" in l.lower()]
    assert cache_lines(q.stderr) == cache_lines(p.stderr)
    assert tree(pcl_home / ".debug") == tree(perf_home / ".debug")
    for filters in ([], ["grp:*"], ["work*"], ["work*", "probe_probe_prog:myev"], ["none"]):
        args = [x for f in filters for x in ("-l", f)] or ["-l"]
        assert_same(*both_in(homes, "--cache", *args))
    for filters in (["nothing"], ["grp:ev"], ["work*", "*:myev"], ["*"]):
        p, q = both_in(homes, "--cache", *[x for f in filters for x in ("-d", f)])
        assert_same(p, q)
        assert tree(pcl_home / ".debug") == tree(perf_home / ".debug")


def test_cache_list_home():
    """--cache -l on this machine's own ~/.debug (read only): its SDT entries."""
    assert_same(*both("--cache", "-l"))
    assert_same(*both("--cache", "-l", "sdt_*"))


@pytest.mark.parametrize("args", [
    ["-m", "ext4", "-F"], ["-m", "ext4", "-a", "vfs_read", "-n"], ["-m", "ext4", "-L", "foo"],
    ["-m", "ext4", "-V", "foo"], ["-m", "ext4", "-D", "vfs_read"], ["-m", "ext4", "-l", "x*"],
    ["-m", "/nonexistent.ko", "-a", "foo", "-n"], ["-k", "/nonexistent", "-a", "vfs_read", "-n"],
    ["-k", "/nonexistent", "-F"], ["-k", "/nonexistent", "-l"], ["-k", "/nonexistent", "-d", "x"],
    ["--bootconfig", "-l", "x*"], ["-k", "/etc/passwd", "-F"], ["-k", "/etc/passwd", "-L", "f"],
    ["-k", "/tmp", "-V", "vfs_read"], ["-k", "/etc/passwd", "-D", "vfs_read"],
    ["-k", "/tmp", "-a", "vfs_read", "-n"], ["-k", "/etc/passwd", "-l", "x*"]], ids=" ".join)
def test_module_vmlinux(args):
    """No module is loaded here and kprobes are missing: perf's messages."""
    assert_same(*both(*args))


@pytest.mark.parametrize("args", [
    ["-m", "PROG", "-F"], ["-m", "PROG", "-L", "work"], ["-m", "PROG", "-V", "work"],
    ["-m", "ext4", "-x", "PROG", "-F"], ["-x", "PROG", "-m", "ext4", "-F"],
    ["-x", "PROG", "--bootconfig", "-D", "work"], ["-x", "PROG", "--bootconfig", "-F"],
    ["--symfs", "/nonexistent", "-x", "PROG", "-F"], ["--target-ns", "abc", "-x", "PROG", "-F"],
    ["--target-ns", "999999", "-x", "PROG", "-L", "work"], ["-m", "PROG", "-D", "work"],
    ["-m", "PROG", "-D", "work%return"], ["-m", "PROG", "-D", "e=work+4 %di"],
    ["-m", "PROG", "-D", "nosuch"], ["-m", "PROG", "--bootconfig", "-D", "work", "-D", "scale"]],
    ids=" ".join)
def test_target_options(args):
    """-m with a file reads it as -x does and -D names its kprobes
    "PATH:FUNC+OFF"; the last of -x and -m counts; --bootconfig refuses
    uprobe definitions only."""
    prog = fixture("probe_prog")
    assert_same(*both(*[prog if a == "PROG" else a for a in args]))


@needs_uprobes
@pytest.mark.parametrize("args", [["--bootconfig", "-a", "work"], ["--target-ns", "SELF", "-a",
                                                                   "work"]], ids=" ".join)
def test_target_options_add(args):
    prog = fixture("probe_prog")
    args = [str(os.getpid()) if a == "SELF" else a for a in args]
    assert_same(*both("-x", prog, "-n", *args))


def test_symfs(tmp_path):
    """--symfs roots the file -F reads (not -a's): another binary there."""
    prog = fixture("probe_prog")
    root = tmp_path / "symfs"
    shadow = root / prog.lstrip("/")
    shadow.parent.mkdir(parents=True)
    shutil.copy(fixture("burner"), shadow)
    assert_same(*both("--symfs", str(root), "-x", prog, "-F"))
    assert_same(*both("--symfs", str(root), "-x", prog, "-L", "work"))


@pytest.fixture
def other_namespace(tmp_path):
    """A process in a mount namespace of its own where tmp_path/dir/prog
    is burner, while here it is probe_prog."""
    d = tmp_path / "dir"
    d.mkdir()
    shutil.copy(fixture("probe_prog"), d / "prog")
    script = "mount -t tmpfs none %s && cp %s %s/prog && echo ready && exec sleep 600" % (
        d, fixture("burner"), d)
    proc = subprocess.Popen(["unshare", "-m", "--propagation", "private", "sh", "-c", script],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    if proc.stdout.readline().strip() != "ready":
        proc.wait()
        pytest.skip("cannot make a mount namespace here")
    yield proc.pid, str(d / "prog")
    proc.kill()
    proc.wait()


@pytest.mark.parametrize("args", [["-F"], ["-L", "leaf_spin"], ["-V", "leaf_spin"]],
                         ids=" ".join)
def test_target_ns(other_namespace, args):
    """--target-ns reads -x's file in the namespace of the pid, as perf."""
    pid, path = other_namespace
    p, q = both("--target-ns", str(pid), "-x", path, *args)
    assert "leaf_spin" in p.stdout
    assert_same(p, q)


@needs_uprobes
def test_target_ns_add(other_namespace):
    pid, path = other_namespace
    p, q = both("--target-ns", str(pid), "-x", path, "-n", "-v", "-a", "leaf_spin")
    assert q.stderr == as_pcl(p.stderr), unified(as_pcl(p.stderr), q.stderr)
    assert q.returncode == p.returncode


@pytest.mark.skipif(os.geteuid() != 0, reason="kallsyms addresses need root")
@pytest.mark.parametrize("args", [
    ["-D", "vfs_read"], ["-D", "vfs_read%return"], ["-D", "vfs_read+4"],
    ["-D", "vfs_read x=%di:u32"], ["-D", "grp:myev=vfs_read", "-D", "vfs_write"],
    ["-D", "vfs_read", "-D", "vfs_read"], ["--bootconfig", "-D", "vfs_read", "-D", "vfs_read"],
    ["--bootconfig", "-D", "vfs_read+4 %di", "-D", "vfs_write%return $retval"],
    ["--bootconfig", "-D", "grp:e=vfs_read"], ["-q", "--bootconfig", "-D", "grp:e=vfs_read"],
    ["-D", "nosuchfunc_xyz"], ["--bootconfig", "-D", "vfs_read", "-D", "nosuchfunc_xyz"],
    ["-D", "vfs_read:3"], ["-D", "vfs_read n"], ["-D", "vfs_read+4%return"]], ids=" ".join)
def test_kprobe_definitions(args):
    """-D of kernel functions from kallsyms ("_text+N"), and --bootconfig's
    format of them, without kprobe_events: perf's lines."""
    assert_same(*both(*args))


@needs_uprobes
def test_cache_use(homes):
    """-a/-D %[GROUP:]EVENT takes a definition --cache stored (a return
    probe renamed once more "__return", as perf 6.1 does); the same event
    twice in one run is no duplicate."""
    prog = fixture("probe_prog")
    for definition in CACHED:
        both_in(homes, "-x", prog, "--cache", "-n", "-a", definition)
    for args in (["-n", "-a", "%probe_probe_prog:myev"], ["-n", "-a", "%myev"],
                 ["-x", prog, "-n", "-a", "%myev"], ["-n", "-a", "%probe_probe_prog:*"],
                 ["-n", "-a", "%grp:ev"], ["-n", "-a", "%*"], ["-D", "%*"],
                 ["-D", "%myev", "-D", "%myev"], ["-n", "-a", "%myev", "-a", "%myev"],
                 ["-n", "-a", "%nosuch:ev"]):
        assert_same(*both_in(homes, *args))
    p, q = both_in(homes, "-n", "-v", "-a", "%grp:ev")
    assert verbose_text(q.stderr) == as_pcl(verbose_text(p.stderr)), \
        unified(as_pcl(verbose_text(p.stderr)), verbose_text(q.stderr))


def test_help_as_perf():
    """-h: perf's options in perf's layout (-F and -l take their optional
    argument as a separate word, shown as perf shows it)."""
    want, got = both("-h")
    assert got.returncode == want.returncode
    assert got.stderr.replace("pcl probe", "perf probe") == want.stderr, \
        unified(want.stderr, got.stderr)


@pytest.mark.parametrize("args", [["-x", "/bin/ls", "-l"], ["-l", "-x", "/bin/ls"],
                                  ["-x", "/bin/ls", "-l", "probe_ls:*"],
                                  ["-x", "/nonexistent", "-l"]])
def test_list_with_exec_refused(args):
    """--list takes no -x: perf names the pair and shows both options'
    usage, after the check that the binary exists."""
    assert_same(*both(*args))
