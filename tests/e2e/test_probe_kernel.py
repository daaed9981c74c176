"""pcl probe against perf 6.1 on kernel functions placed from kallsyms (no
vmlinux, no kprobe_events here): FUNC+OFF inside, at and past the end of
the function (its size as perf takes it from kallsyms: up to the next
symbol kept, an alias before another at its address having none), globs,
data symbols, addresses inside and outside the text, -q and -v.  -D shows
the definitions; -n -a ends at the missing kprobe_events after the same
checks.  The offsets and addresses are read from this kernel's kallsyms."""
import os
import shutil
import subprocess

import pytest

from conftest import PCL, PERF, run
from test_probe import assert_same, both

pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="kallsyms addresses need root")


def without_cache_note(run):
    """perf -v notes the kallsyms copy in the build-id cache, which other
    tests may add or purge between the two runs: left out of comparisons."""
    keep = "".join(l for l in run.stderr.splitlines(True)
                   if l != "symsrc__init: cannot get elf header.\n")
    return subprocess.CompletedProcess(run.args, run.returncode, run.stdout, keep)


def assert_same_v(p, q):
    assert_same(without_cache_note(p), without_cache_note(q))


def kallsyms():
    """The kernel's own symbols perf keeps (types T W D B), in address
    order, ties in the file's order: (address, type, name)."""
    syms = []
    with open("/proc/kallsyms") as f:
        for line in f:
            parts = line.split()
            if len(parts) == 3 and parts[1] in "TtWwDdBb":
                syms.append((int(parts[0], 16), parts[1], parts[2]))
    return sorted(syms, key=lambda s: s[0])


@pytest.fixture(scope="module")
def ksyms():
    syms = kallsyms()
    by_name = {}
    for i, (addr, _, name) in enumerate(syms):
        by_name.setdefault(name, i)
    return syms, by_name


def size_of(ksyms, name):
    """perf's size of the first symbol called name: to the next one."""
    syms, by_name = ksyms
    i = by_name[name]
    return syms[i + 1][0] - syms[i][0]


def address_of(name):
    with open("/proc/kallsyms") as f:
        for line in f:
            parts = line.split()
            if len(parts) >= 3 and parts[2] == name:
                return int(parts[0], 16)
    pytest.skip("no %s in kallsyms" % name)


@pytest.mark.parametrize("where", ["inside", "last", "end", "past", "far"])
@pytest.mark.parametrize("mode", [["-D"], ["-n", "-a"], ["-q", "-n", "-a"], ["-n", "-v", "-a"]],
                         ids=" ".join)
def test_offsets(ksyms, where, mode):
    """FUNC+OFF: perf refuses an offset beyond the function's size (one at
    its end is taken), before it needs kprobe_events."""
    size = size_of(ksyms, "vfs_read")
    offset = {"inside": 4, "last": size - 1, "end": size, "past": size + 1,
              "far": 100000}[where]
    assert_same_v(*both(*mode, "vfs_read+%d" % offset))
    assert_same_v(*both(*mode, "vfs_read+%#x" % offset))


def test_offsets_several(ksyms):
    """A refused definition stops the others; every function of a name
    (static ones) has its own size."""
    size = size_of(ksyms, "vfs_read")
    assert_same(*both("-D", "vfs_write", "-D", "vfs_read+%d" % (size + 1)))
    syms, by_name = ksyms
    names = {}
    for addr, kind, name in syms:
        if kind in "tT":
            names[name] = names.get(name, 0) + 1
    static = next(n for n, k in sorted(names.items()) if k > 3 and not n.startswith("__pfx"))
    for offset in (0, 16, 100000):
        assert_same(*both("-D", "%s+%d" % (static, offset)))


def test_aliases(ksyms):
    """Of two functions at one address, the first has no size: perf
    refuses any offset into it; the start of the kernel's map (_text and
    its aliases) is out of .text."""
    syms, _ = ksyms
    pair = next((a, b) for a, b in zip(syms, syms[1:])
                if a[0] == b[0] and a[1] in "tT" and b[1] in "tT" and a[0] != syms[0][0])
    for name in (pair[0][2], pair[1][2]):
        for offset in (0, 1):
            assert_same(*both("-D", "%s+%d" % (name, offset)))
    assert_same(*both("-D", "_text"))
    assert_same(*both("-D", "_stext+1"))


@pytest.mark.parametrize("definition", [
    "vfs_rea*", "vfs_rea* %di", "e=vfs_rea*", "vfs_rea*%return", "vfs_re?d", "nosuch_*",
    "__start_lsm_info", "jiffies"], ids=str)
def test_globs_and_data(definition):
    """A glob places every function it matches (named after each); a data
    symbol matches but is no function: perf fails without a word."""
    assert_same(*both("-D", definition))
    assert_same(*both("--max-probes", "2", "-D", definition))


@pytest.mark.parametrize("where", ["func", "text", "text+1", "etext", "etext+1", "low",
                                   "modules"])
@pytest.mark.parametrize("mode", [["-D"], ["-n", "-a"], ["-n", "-v", "-a"]], ids=" ".join)
def test_addresses(where, mode):
    """-a 0xADDR: taken as it is (event abs_ADDR) inside the kernel's text,
    [_text, _etext] less its start; outside, perf's "out of .text" and then
    its search for a symbol of that name."""
    text, etext = address_of("_text"), address_of("_etext")
    addr = {"func": address_of("vfs_read"), "text": text, "text+1": text + 1, "etext": etext,
            "etext+1": etext + 1, "low": 0x1000, "modules": 0xffffffffc0000000}[where]
    assert_same_v(*both(*mode, "%#x" % addr))


def test_address_forms():
    """Event names, arguments and return probes on an address; the text
    spans the symbols once perf has read them for a function."""
    addr = address_of("vfs_read")
    late = address_of("_etext") + 0x1000
    for definitions in (["ev=%#x %%di x=%%si:u32" % addr], ["%#x%%return" % addr],
                        ["0x%016x" % addr], ["vfs_read", "%#x" % late], ["%#x" % late,
                                                                        "vfs_read"]):
        args = []
        for d in definitions:
            args += ["-D", d]
        assert_same(*both(*args))


@pytest.mark.parametrize("definitions", [
    ["vfs_read", "vfs_write%return", "0xADDR", "do_sys_open+4 %di x=%si:u32"],
    ["vfs_read a=p->x:u32 b->c.d[2] $retval +8(%sp):string n:x64"],
    ["vfs_read x=+8(%sp):string"], ["vfs_read x=@jiffies:u64 $comm +0(+8(%di)):s8"],
    ["vfs_read%return $retval"], ["vfs_read:3"], ["vfs_read n"], ["nosuch%return"],
    ["vfs_rea*%return"], ["__start_lsm_info%return"], ["vfs_read", "1bad=vfs_read"],
    ["0x1000", "vfs_read+100000"]], ids=" ".join)
@pytest.mark.parametrize("mode", [["-v", "-D"], ["-v", "-n", "-a"], ["-v", "--bootconfig", "-D"]],
                         ids=" ".join)
def test_verbose(definitions, mode):
    """-v: perf's log of each definition parsed, then of its machinery as
    it looks for the kernel's image and settles for kallsyms (module maps,
    kprobe blacklist, vmlinux path, modules kallsyms names without a map,
    tracefs' README read once where arguments or a return probe need it,
    kprobe_events opened)."""
    addr = "%#x" % address_of("vfs_read")
    args = []
    for d in definitions:
        args += [mode[-1], d.replace("0xADDR", addr)]
    assert_same_v(*both(*mode[:-1], *args))


@pytest.mark.parametrize("args", [
    ["-D", "vfs_read"], ["-n", "-a", "vfs_read"], ["-q", "-D", "vfs_read"], ["-D", "vfs_read:3"],
    ["-q", "-D", "vfs_read:3"], ["-D", "vfs_read%return"], ["-D", "vfs_read+100000"],
    ["-D", "0xADDR"], ["-D", "e=0xADDR %di"], ["-n", "-a", "0xADDR"], ["-D", "0x1000"],
    ["-D", "0xADDR", "-D", "vfs_read"], ["--bootconfig", "-D", "vfs_read"],
    ["-D", "1bad=vfs_read"], ["-F"], ["-L", "vfs_read"], ["-V", "vfs_read"],
    ["-L", "vfs_read:2"], ["-L", "vfs_read:2", "-v"], ["-V", "vfs_read", "-v"]], ids=" ".join)
@pytest.mark.parametrize("verbose", [[], ["-v"]], ids=["", "-v"])
def test_module_not_loaded(args, verbose):
    """-m NAME: no module is loaded here.  perf takes an address in the
    kernel's text as the module's ("ext4:0xADDR"), finds no module for the
    debug information a line needs, and no map for a symbol."""
    addr = "%#x" % address_of("vfs_read")
    assert_same_v(*both("-m", "ext4", *verbose, *[a.replace("0xADDR", addr) for a in args]))


@pytest.fixture(scope="module")
def ko_files(tmp_path_factory):
    """A text file named like a module, and an ELF file without debug
    information (ls, stripped) named so."""
    d = tmp_path_factory.mktemp("ko")
    text = d / "text.ko"
    text.write_text("not an ELF file\n")
    elf = d / "nodebug.ko"
    shutil.copy("/bin/ls", elf)
    return {"TEXT": str(text), "NODEBUG": str(elf)}


MODULE_FILE_DEFINITIONS = [
    ["-m", "TEXT", "-D", "foo"], ["-m", "TEXT", "-n", "-a", "foo"], ["-m", "TEXT", "-D", "foo:3"],
    ["-m", "TEXT", "-D", "0xADDR"], ["-m", "NODEBUG", "-D", "nosuch"],
    ["-m", "NODEBUG", "-D", "foo:3"], ["-m", "NODEBUG", "-q", "-D", "foo:3"],
    ["-m", "NODEBUG", "-D", "0x1000"]]


@pytest.mark.parametrize("args", MODULE_FILE_DEFINITIONS + [
    ["-m", "TEXT", "-F"], ["-m", "TEXT", "-L", "foo"], ["-m", "TEXT", "-V", "foo"],
    ["-m", "NODEBUG", "-L", "foo"], ["-x", "NODEBUG", "-L", "foo"], ["-x", "TEXT", "-D", "foo"],
    ["-x", "TEXT", "-F"], ["-x", "TEXT", "-n", "-a", "foo"]], ids=" ".join)
def test_module_files(ko_files, args):
    """-m PATH of a file that is no module: perf's words for a file it
    finds no symbols in, or no debug information (a ".ko" wants the
    kernel's CONFIG_DEBUG_INFO), and an address in the kernel's text taken
    as the file's ("PATH:0xADDR")."""
    addr = "%#x" % address_of("vfs_read")
    assert_same(*both(*[ko_files.get(a, a).replace("0xADDR", addr) for a in args]))


@pytest.mark.parametrize("args", MODULE_FILE_DEFINITIONS, ids=" ".join)
def test_module_files_verbose(ko_files, args):
    """-v on definitions of such a file: also the probe cache perf could
    not open and the symbols it could not read."""
    addr = "%#x" % address_of("vfs_read")
    assert_same_v(*both("-v", *[ko_files.get(a, a).replace("0xADDR", addr) for a in args]))


@pytest.mark.parametrize("args", [
    ["-D", "vfs_read"], ["-D", "vfs_read+4"], ["-D", "0xADDR"], ["-D", "0x1000"],
    ["-n", "-a", "vfs_read"], ["-D", "vfs_read%return"], ["-D", "vfs_rea*"],
    ["-m", "ext4", "-D", "0x1000"]], ids=" ".join)
def test_hidden_addresses(args):
    """As nobody kallsyms hides its addresses: perf's kernel map then spans
    every address (any 0xADDR is taken) and a function finds perf's words
    about kptr_restrict."""
    nobody = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
    addr = "%#x" % address_of("vfs_read")
    args = [a.replace("0xADDR", addr) for a in args]
    assert_same(run(nobody + [PERF, "probe", *args]), run(nobody + [PCL, "probe", *args]))
