"""pcl probe against perf 6.1 on malformed and edge-case probe definitions
(-n: nothing is written to tracefs) and on perf's fallback to the symbol
table for functions without debug information: the same messages, the
same definitions under -v, the same exit codes."""
import os

import pytest

from conftest import fixture, run, unified
from test_probe import as_pcl, assert_same, both, verbose_text

# Definitions perf refuses, or reads otherwise than it looks: lines and
# offsets as strtoul reads them (base 0, empty or 0 is none), SDT names,
# event names (C names, 63 characters at most), argument names and
# member chains, casts.
SPECS = [
    "", "func:", "work:", "work+", "@", "work;", "work arg=", "work arg:", "a=b=c",
    "%return+4", "work n:u7", "work n:string", "work p:string", "work%return+4", "work@",
    "+4", "%return", "work:1:2", "work+1+2", "work@a@b", "work n=", "work n:", "work n::u8",
    "work p->", "work p.", "work vals[", "work vals[x]", "work vals[1", "work vals[]",
    "work vals[0x1]", "work $foo", "work $foo.x", "work n:s65", "work n:u128", "work n:symbol",
    "work:0x3", "work:-1", "work: 3", "work+4:0", "work:0+4", "work:0;x", "work+0;x",
    "work+0%return", "work:3x", "work+0x", "sdt_a:b+4", "sdt_a:b;x", "%a=b", "x:1bad=work",
    "a:b:c=work", "g-x:e=work", ":e=work", "g:=work", "=work", "e" * 63 + "=work",
    "e" * 64 + "=work", "e" * 55 + "=work%return", "e" * 56 + "=work%return",
    "g" * 90 + ":e=work", "work 1n=n", "work =n", "work +8(%sp)=x", "work x=+8(%sp)",
    "work a=b=c", "work n:u8:u16", "work vals[-1]", "work p->.x", "work p..x", "work p-x",
    "work p->x-y", "work p->name.a-b", "work vals[1]-x",
    # absolute addresses: written as given, named abs_ADDR; any need of
    # debug information makes them a function name again
    "0x1149", "0x1149+4", "0x1149%return", "0x1149 n", "0x1149 %di", "e=0x1149", "0x0", "0x",
    "0x1149:3", "0x1149;x", "0x1149@a.c", "0x11zz", "0x1149 $vars",
    # "@user": the dereferences read user memory ("+uOFF(")
    "work p->x@user", "work p->name:string@user", "work n@user", "work pp=p->x@user",
    "work %di@user", "work p->x@usr", "main pt.name:string@user", "work vals[1]@user",
    "main pt.y@user", "main vals[1]@user", "work p->name@user", "take v.c@user",
    "main pt.y:u8@user",
]


@pytest.mark.parametrize("binary", ["probe_prog_O0", "probe_prog_O2"])
@pytest.mark.parametrize("definition", SPECS)
def test_spec_errors(binary, definition):
    """perf's semantic errors (with its usage), its later failures and its
    exit codes; with -v the definitions it would write."""
    path = fixture(binary)
    assert_same(*both("-x", path, "-n", "-a", definition))
    p, q = both("-x", path, "-n", "-v", "-a", definition)
    assert q.returncode == p.returncode
    # an argument refused among its fields: perf's debug line stops where
    # it stopped, its semantic error following on that line
    assert q.stderr == as_pcl(p.stderr), unified(as_pcl(p.stderr), q.stderr)


@pytest.mark.parametrize("args", [["-d", "pcl_nosuch_group_xyz:nosuch"], ["-d", "nosuch_event_xyz"],
                                  ["-d", "pcl_nosuch_group_xyz:*"], ["-V", ""],
                                  ["-V", "work:1:2"], ["-V", "%return+4"]], ids=" ".join)
def test_other_errors(args):
    """-d of an event that does not exist, -V of a malformed point."""
    assert_same(*both("-x", fixture("probe_prog_O0"), *args) if args[0] == "-V"
                else both(*args))


FALLBACK = ["work", "work+4", "work%return", "work+4 %di", "work%return $retval", "work:3",
            "work;sum", "nosuch", "nosuch %di", "nosuch%return", "counter", "counter%return",
            "work+119", "work+120", "work+121", "work+100000", "work+-4", "work:0x3", "work:-1",
            "_init", "_start", "_start+4", "_start%return", "_start:2", "_start;x", "_start %di",
            "frame_dummy", "work@probe_prog.c", "work n", "main+0"]


@pytest.fixture(scope="module")
def copies(tmp_path_factory):
    """probe_prog -O0 -g as built, without its debug information and
    without its build id (no cache can stand in for either)."""
    d = tmp_path_factory.mktemp("fallback")
    out = {}
    for name, flags in (("full", ["--remove-section=.note.gnu.build-id"]),
                        ("nodebug", ["--strip-debug", "--remove-section=.note.gnu.build-id"])):
        path = str(d / name)
        r = run(["objcopy", *flags, fixture("probe_prog_O0"), path])
        assert r.returncode == 0, r.stderr
        out[name] = path
    return out


@pytest.mark.parametrize("copy", ["full", "nodebug"])
@pytest.mark.parametrize("definition", FALLBACK)
def test_symbol_fallback(copies, copy, definition):
    """FUNC, FUNC+OFF and FUNC%return from the symbol table where the
    debug information has nothing (or is gone): perf's second look by the
    symbol's address, its offset checks and its words for a symbol of
    data or none at all."""
    path = copies[copy]
    assert_same(*both("-x", path, "-n", "-a", definition))
    p, q = both("-x", path, "-n", "-v", "-a", definition)
    assert verbose_text(q.stderr) == as_pcl(verbose_text(p.stderr)), \
        unified(as_pcl(verbose_text(p.stderr)), verbose_text(q.stderr))
    assert q.returncode == p.returncode


LIBC = "/lib/x86_64-linux-gnu/libc.so.6"


@pytest.mark.parametrize("definition", ["malloc", "malloc+4", "free", "printf", "malloc:2",
                                        "malloc;x", "nosuch_fn", "calloc n"])
def test_symbol_alternative_libc(definition):
    """libc's malloc is __libc_malloc in its debug information: perf finds
    it by its symbol's address and names the event after the symbol."""
    if not os.path.exists(LIBC):
        pytest.skip("no libc.so.6 here")
    assert_same(*both("-x", LIBC, "-n", "-a", definition))
    p, q = both("-x", LIBC, "-n", "-v", "-a", definition)
    assert verbose_text(q.stderr) == as_pcl(verbose_text(p.stderr)), \
        unified(as_pcl(verbose_text(p.stderr)), verbose_text(q.stderr))
    assert q.returncode == p.returncode


@pytest.mark.parametrize("name", ["my-prog.x", "l" * 57, "l" * 58])
def test_group_from_binary(tmp_path, name):
    """The group is probe_ and the binary's name up to its first character
    no C name has; 64 characters or more is perf's failure to make it."""
    path = str(tmp_path / name)
    r = run(["cp", fixture("probe_prog_O0"), path])
    assert r.returncode == 0, r.stderr
    for args in (["-n", "-a", "work"], ["-n", "-a", "g:e=work"], ["-n", "-a", "0x1149"]):
        assert_same(*both("-x", path, *args))
        p, q = both("-x", path, "-v", *args)
        assert verbose_text(q.stderr) == as_pcl(verbose_text(p.stderr)), \
            unified(as_pcl(verbose_text(p.stderr)), verbose_text(q.stderr))


@pytest.mark.skipif(not os.path.exists(LIBC), reason="no libc.so.6 here")
@pytest.mark.parametrize("func", ["abort", "malloc", "fclose", "qsort", "free", "pthread_create"])
@pytest.mark.parametrize("options", [["--externs"], ["--externs", "--range"]], ids=" ".join)
def test_vars_externs_libc(func, options):
    """-V --externs (with --range: [EXT]) lists what perf lists: whatever
    is marked external (declarations too), variables at a fixed address
    without looking for their symbols, and the file's constants."""
    assert_same(*both("-x", LIBC, "-V", func, *options))


@pytest.mark.parametrize("binary,args", [
    ("burner", ["-V", "completed.0"]), ("report_work", ["-V", "buf.0"]),
    ("report_work", ["-L", "completed.0"]), ("report_work", ["-n", "-a", "buf.0"]),
    ("inline_ties", ["-V", "aa_side_10"]), ("inline_ties", ["-V", "aa_side_10", "--range"]),
    ("inline_ties", ["-V", "aa_side_10", "--externs", "--range"])], ids=str)
def test_vars_places(binary, args):
    """A symbol of .bss is placed through its loadable segment, as perf
    places it; a variable in a register no fetch names (xmm0) is listed
    by -V all the same."""
    assert_same(*both("-x", fixture(binary), *args))


@pytest.mark.skipif(os.geteuid() != 0 or os.path.exists("/sys/kernel/tracing/kprobe_events"),
                    reason="needs root and a kernel without kprobe_events")
@pytest.mark.parametrize("definition", ["nosuch_xyz", "vfs_read:3", "do_sys_open",
                                        "do_sys_open %di", "vfs_read n", "g:e=vfs_read",
                                        "vfs_read%return $retval", "work;x"])
def test_kprobe_order(definition):
    """perf makes a kernel definition (from kallsyms) before it opens
    kprobe_events: an unknown function or a line without the kernel's
    debug information fails first, with perf's words."""
    assert_same(*both("-n", "-a", definition))


@pytest.mark.skipif(os.geteuid() != 0, reason="needs root for kallsyms' addresses")
@pytest.mark.parametrize("args", [["-x", "probe_prog_O2", "-n", "-a", "*a*"],
                                  ["-x", "probe_prog_O2", "-n", "-v", "-a", "*a*"],
                                  ["-x", "probe_prog_O0", "-n", "-a", "work"],
                                  ["-D", "do_nano*"], ["-D", "vfs_*"]], ids=" ".join)
def test_max_probes_zero(args):
    """--max-probes 0 is perf's "not given": the default of 128 sites."""
    args = [fixture(a) if a.startswith("probe_prog") else a for a in args]
    assert_same(*both("--max-probes", "0", *args))
    assert_same(*both("--max-probes=0", *args))


@pytest.mark.parametrize("args", [["-D", "work"], ["-D", "work%return"], ["-D", "work n"],
                                  ["-D", "work p->x"], ["-D", "0x1139"], ["-V", "work"],
                                  ["-V", "work:3"]], ids=" ".join)
@pytest.mark.parametrize("verbose", [[], ["-v"]], ids=["", "-v"])
def test_max_probes_negative(args, verbose):
    """perf makes room for --max-probes sites before it searches: a
    negative count fails there (-ENOMEM, after its notes of the search);
    an address needs no room."""
    p, q = both(*verbose, "-x", fixture("probe_prog"), "--max-probes", "-1", *args)
    assert p.returncode == (0 if args[1] == "0x1139" else 244)
    assert_same(p, q)
