"""pcl probe against perf 6.1 on a kernel module given by path (-m
FILE.ko: a relocatable ELF with DWARF, built here as the kernel builds
modules), on inlined functions' scopes, on bitfields (DWARF 4's
DW_AT_bit_offset, DWARF 5's data_bit_offset, gcc and clang) and on -q.
kprobe_events is missing on this kernel: module definitions are compared
with -D, and -n -a shows perf's failure after the same analysis."""
import os
import shutil
import subprocess

import pytest

from conftest import fixture, unified
from test_probe import (as_pcl, assert_same, both, both_in, homes, other_namespace,  # noqa: F401
                        tree, verbose_text)

MODULE_SOURCE = r"""
struct dev {
	int id;
	unsigned flags : 3;
	int mode : 5;
	const char *name;
};
#ifndef NAMELESS
/* what struct module holds at its start: the name at offset 24 */
struct module_stub { char pad[24]; char name[56]; };
__attribute__((section(".gnu.linkonce.this_module"))) struct module_stub __this_module = {
	.name = "pclmod" };
#endif
int mod_count;
static int helper(struct dev *d, int k)
{
	int v = d->id * k;
	mod_count += v;
	return v + d->flags;
}
int mod_open(struct dev *d, int k)
{
	int r = 0;
	for (int i = 0; i < k; i++)
		r += helper(d, i);
	return r;
}
#ifdef PROGRAM
int main(int argc, char **argv)
{
	struct dev d = { argc, 1, 2, "x" };

	return mod_open(&d, argc) + (argv[0] == 0);
}
#endif
"""

KBUILD_FLAGS = ["-O2", "-fno-pic", "-mcmodel=kernel", "-mno-red-zone", "-ffreestanding",
                "-fno-asynchronous-unwind-tables", "-c"]


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """The module as kbuild makes it (DWARF 5 and 4), one without struct
    module, one with an .eh_frame, and the same code as a program."""
    d = tmp_path_factory.mktemp("pclmod")
    (d / "pclmod.c").write_text(MODULE_SOURCE)
    src = str(d / "pclmod.c")
    files = {
        "KO": ["-g"] + KBUILD_FLAGS,
        "KO4": ["-gdwarf-4"] + KBUILD_FLAGS,
        "NAMELESS": ["-g", "-DNAMELESS"] + KBUILD_FLAGS,
        "EHFRAME": ["-g", "-O2", "-c"],
        "PROG": ["-g", "-O2", "-DPROGRAM"],
    }
    paths = {}
    for name, flags in files.items():
        out = str(d / (name.lower() + (".ko" if name != "PROG" else "")))
        subprocess.run(["gcc", *flags, src, "-o", out], check=True)
        paths[name] = out
    return paths


def with_files(args, paths):
    return [paths.get(a, a) for a in args]


MODULE_ARGS = [
    ["-m", "KO", "-F"], ["-m", "KO", "-L", "mod_open"], ["-m", "KO", "-L", "pclmod.c"],
    ["-m", "KO", "-L", "mod_open:3-5"], ["-m", "KO", "-V", "mod_open"],
    ["-m", "KO", "-V", "helper"], ["-m", "KO", "-V", "mod_open:4"],
    ["-m", "KO", "-V", "mod_open:3"], ["-m", "KO", "-V", "mod_open", "--range"],
    ["-m", "KO", "-V", "mod_open", "--externs"], ["-m", "KO", "-V", "nosuch"],
    ["-m", "KO", "-D", "mod_open d->id k"], ["-m", "KO", "-D", "mod_open:4 r i"],
    ["-m", "KO", "-D", "mod_open d->name:string"], ["-m", "KO", "-D", "helper"],
    ["-m", "KO", "-D", "helper d"], ["-m", "KO", "-D", "helper k"],
    ["-m", "KO", "-D", "helper $vars"], ["-m", "KO", "-D", "mod_open:4 $vars"],
    ["-m", "KO", "-D", "mod_open+4"], ["-m", "KO", "-D", "mod_open%return $retval"],
    ["-m", "KO", "-D", "mod_open $params"], ["-m", "KO", "-D", "g:e=mod_open k"],
    ["-m", "KO", "-D", "nosuch"], ["-m", "KO", "-D", "mod_open nosuch"],
    ["-m", "KO", "-D", "pclmod.c:21"], ["-m", "KO", "-D", "mod_open d->flags"],
    ["-m", "KO", "--bootconfig", "-D", "mod_open k", "-D", "helper"],
    ["-m", "KO4", "-D", "mod_open d->flags d->mode"],
    ["-m", "KO4", "-D", "mod_open d->flags:x d->mode:u8 d->mode:string"],
    ["-m", "NAMELESS", "-D", "mod_open d->id"], ["-m", "NAMELESS", "-D", "helper"],
    ["-m", "EHFRAME", "-D", "mod_open"], ["-m", "EHFRAME", "-V", "mod_open"],
    ["-m", "KO", "-n", "-a", "mod_open k"], ["-m", "KO", "-n", "-a", "helper d"],
    ["-m", "KO", "-n", "-a", "nosuch"], ["-m", "KO", "-q", "-n", "-a", "helper d"],
    ["-m", "KO", "-n", "-a", "mod_open k", "-a", "helper d"],
]


@pytest.mark.parametrize("args", MODULE_ARGS, ids=" ".join)
def test_module_file(built, args):
    """-m FILE.ko: its relocated DWARF, kprobes as MODULE:FUNC+OFF."""
    assert_same(*both(*with_files(args, built)))


@pytest.mark.parametrize("args", [
    ["-V", "helper"], ["-V", "helper", "--externs"], ["-V", "mod_open:4"],
    ["-D", "helper k"], ["-D", "helper r"], ["-D", "helper $vars"], ["-D", "mod_open $vars"],
    ["-D", "mod_open:4 $vars"], ["-D", "helper d->id mod_count"]], ids=" ".join)
def test_inlined_scopes(built, args):
    """An inlined instance sees its own variables, not its caller's."""
    assert_same(*both("-x", built["PROG"], *args))


def compiled(tmp_path, compiler, flags):
    exe = str(tmp_path / "prog")
    source = os.path.join(os.path.dirname(fixture("probe_prog")), "..", "..", "tests",
                          "fixtures", "probe_prog.c")
    subprocess.run([compiler, *flags, source, "-o", exe], check=True)
    return exe


BUILDS = [("gcc", ["-g", "-gdwarf-4", "-O0"]), ("gcc", ["-g", "-gdwarf-4", "-O2"]),
          ("gcc", ["-g", "-O0"]), ("gcc", ["-g", "-O2"]), ("clang", ["-g", "-gdwarf-4", "-O0"]),
          ("clang", ["-g", "-gdwarf-5", "-O0"])]


@pytest.mark.parametrize("build", BUILDS, ids=lambda b: b[0] + " " + " ".join(b[1]))
@pytest.mark.parametrize("definition", ["take f->a f->b v.c", "take f->a:s f->b:x v.a v.b",
                                        "take $params", "take v.c"])
def test_bitfields(tmp_path, build, definition):
    """DWARF 4 bitfields as perf 6.1 fetches them (:bW@O/S); gcc's DWARF 5
    ones (data_bit_offset) refused with perf's words."""
    if not shutil.which(build[0]):
        pytest.skip("no " + build[0])
    exe = compiled(tmp_path, *build)
    assert_same(*both("-x", exe, "-D", definition))
    p, q = both("-x", exe, "-n", "-v", "-a", definition)
    assert verbose_text(q.stderr) == as_pcl(verbose_text(p.stderr)), \
        unified(as_pcl(verbose_text(p.stderr)), verbose_text(q.stderr))
    assert q.returncode == p.returncode


@pytest.mark.parametrize("args", [
    ["-q", "-x", "PROG", "-n", "-a", "nosuch"], ["-q", "-D", "nosuch"],
    ["-q", "-x", "PROG", "-n", "-a", "work nosuch"]], ids=" ".join)
def test_quiet_errors(args):
    """-q silences perf's errors as well as its notes."""
    prog = fixture("probe_prog")
    assert_same(*both(*[prog if a == "PROG" else a for a in args]))


@pytest.mark.parametrize("args", [["-a", "work", "-a", "work"], ["-f", "-a", "work", "-a", "work"],
                                  ["-a", "w*k", "-a", "work", "-a", "scale"]], ids=" ".join)
def test_dry_run_names(args):
    """-n: an event name another definition of the run would take is no
    duplicate (perf reads the names from the kernel, where -n put none)."""
    assert_same(*both("-x", fixture("probe_prog"), "-n", *args))


@pytest.mark.parametrize("args", [
    ["-L", "helper"], ["-L", "helper:1"], ["-L", "mod_open"], ["-L", "pclmod.c:16-19"],
    ["-L", "pclmod.c:21-24"], ["-L", "nosuch.c"], ["-L", "nosuch"], ["-L", "mod_open@nosuch.c"],
    ["-L", "mod_open@pclmod.c"], ["-V", "mod_open@nosuch.c"], ["-D", "mod_open@nosuch.c"],
    ["-V", "mod_count"], ["-V", "mod_count:2"], ["-L", "mod_count"], ["-L", "mod_count:3"],
    ["-D", "pclmod.c:21"]], ids=" ".join)
def test_lookups(built, args):
    """What perf finds and says: an inline-only function has no lines of
    its own, a file's range with none fails perf's analysis, a data
    symbol is looked up where it lies in the file."""
    assert_same(*both("-x", built["PROG"], *args))


@pytest.mark.parametrize("args", [["-V", "counter"], ["-L", "counter"]], ids=" ".join)
def test_data_symbol(args):
    assert_same(*both("-x", fixture("probe_prog"), *args))


LIBC = "/lib/x86_64-linux-gnu/libc.so.6"


@pytest.mark.skipif(not os.path.exists(LIBC), reason="no libc.so.6 here")
@pytest.mark.parametrize("args", [
    ["-V", "printf"], ["-V", "abort"], ["-V", "qsort"], ["-V", "calloc", "--externs"],
    ["-V", "abort", "--range"], ["-D", "abort act"], ["-D", "printf format arg"],
    ["-D", "calloc stderr"], ["-D", "qsort $vars"], ["-V", "strlen"], ["-V", "memcpy"],
    ["-L", "strlen"], ["-V", "fclose"], ["-V", "puts"], ["-V", "pthread_create"],
    ["-V", "fclose", "--range"], ["-V", "malloc", "--range"], ["-V", "getpid"]], ids=" ".join)
def test_libc_frames(args):
    """libc's DWARF is its build-id debug file's, whose call frames perf
    reads alone (none there): no variable on the frame base is fetched;
    an external declaration is, by its symbol.  An indirect function
    found by its symbol gets perf's warning; a function split in hot and
    cold parts (fclose) is named as perf names it, by the symbol 0x10000
    below (libdwfl's bias for a shared object, which perf leaves out)."""
    assert_same(*both("-x", LIBC, *args))


@pytest.mark.parametrize("args", [["-n", "-a", "sdt_*:*"], ["-n", "-a", "%sdt_*:*"],
                                  ["-n", "-a", "sdt_python:*"], ["-n", "-a", "%*:gc__*"],
                                  ["-D", "sdt_*:*"], ["-D", "%*:line"]], ids=" ".join)
def test_sdt_glob_order(args):
    """Globbed SDT markers of this machine's ~/.debug (read only), in
    perf's order: binary by binary in build-id order, each binary's in
    its probes file's order."""
    assert_same(*both(*args))


def test_cache_target_ns(homes, other_namespace):
    """--cache with --target-ns: perf caches (and probes) the file as seen
    here, and makes its cache entry before a definition fails."""
    pid, path = other_namespace
    perf_home, _, pcl_home, _ = homes
    for definition in ("leaf_spin", "nosuch", "work", "work n", "work nosuch"):
        p, q = both_in(homes, "--target-ns", str(pid), "-x", path, "--cache", "-n", "-a",
                       definition)
        assert (q.stdout, q.stderr, q.returncode) == (p.stdout, as_pcl(p.stderr), p.returncode)
        assert tree(pcl_home / ".debug") == tree(perf_home / ".debug")


def test_cache_failed_add(homes):
    prog = fixture("probe_prog")
    perf_home, _, pcl_home, _ = homes
    for definition in ("nosuch", "work nosuch", "work"):
        p, q = both_in(homes, "-x", prog, "--cache", "-n", "-a", definition)
        assert (q.stdout, q.stderr, q.returncode) == (p.stdout, as_pcl(p.stderr), p.returncode)
        assert tree(pcl_home / ".debug") == tree(perf_home / ".debug")


@pytest.mark.parametrize("args", [
    ["-n", "-a", "mod_open"], ["-n", "-a", "mod_open k"], ["-n", "-a", "helper d"],
    ["-n", "-a", "nosuch"], ["-n", "-a", "mod_open+4"], ["-n", "-a", "mod_open%return"],
    ["-n", "-a", "mod_open:4 r i"], ["-n", "-a", "mod_count"], ["-n", "-a", "mod_open nosuch"],
    ["-D", "mod_open"], ["-D", "helper d"], ["-D", "nosuch"], ["-D", "mod_count"],
    ["-D", "pclmod.c:21"]], ids=" ".join)
def test_module_verbose(built, args):
    """-v on a module file: perf's notes and debug lines that matter (no
    build id, the analysis' failures) and its reason for a failure."""
    p, q = both("-m", built["KO"], "-v", *args)
    assert verbose_text(q.stderr) == as_pcl(verbose_text(p.stderr)), \
        unified(as_pcl(verbose_text(p.stderr)), verbose_text(q.stderr))
    assert (q.stdout, q.returncode) == (p.stdout, p.returncode)


@pytest.mark.parametrize("args", [
    ["-n", "-a", "mod_open"], ["-n", "-a", "mod_open k"], ["-n", "-a", "nosuch"],
    ["-n", "-a", "mod_open%return"], ["-D", "mod_open"], ["-D", "nosuch"], ["-D", "mod_count"],
    ["-D", "pclmod.c:21"], ["-D", "mod_open k", "-D", "helper"], ["-D", "mod_open%return"],
    ["-D", "mod_open%return $retval"], ["-D", "nosuch%return"], ["-D", "mod_count%return"],
    ["-n", "-a", "helper%return"], ["-V", "mod_open"], ["-V", "mod_count"], ["-V", "nosuch"],
    ["-V", "mod_open:4", "--range"], ["-V", "pclmod.c:21"], ["-L", "mod_open"],
    ["-L", "mod_open:3-5"], ["-L", "pclmod.c:16-19"], ["-L", "mod_count"], ["-L", "nosuch"]],
    ids=" ".join)
def test_module_verbose_lines(built, args):
    """-v on a module file, every line: the debug information opened and
    searched, the sites found, a data symbol's offset in the file; a
    return probe placed by its symbol alone, as perf places it."""
    assert_same(*both("-m", built["KO"], "-v", *args))


MODULE_DATA = r"""
int pad_a = 5;
int pad_b = 7;
int second_var = 9;
static int zz[8];
int use(int k) { zz[k & 7]++; return pad_a + pad_b + second_var + k; }
"""


@pytest.mark.parametrize("args", [["-V", "second_var"], ["-V", "pad_b"], ["-V", "zz"],
                                  ["-L", "pad_b"], ["-V", "pad_a", "--externs"],
                                  ["-D", "pad_b"], ["-n", "-a", "zz"]], ids=" ".join)
def test_module_data_symbols(tmp_path, args):
    """A module's symbol of data is where perf's map puts it (libdwfl's
    base, its section's offset in the file, its value): no code there."""
    (tmp_path / "m.c").write_text(MODULE_DATA)
    ko = str(tmp_path / "m.ko")
    subprocess.run(["gcc", "-g", *KBUILD_FLAGS, str(tmp_path / "m.c"), "-o", ko], check=True)
    assert_same(*both("-m", ko, *args))
