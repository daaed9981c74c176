"""pcl annotate --stdio against perf 6.1 annotate on the same perf.data."""
import os
import re
import subprocess
import tempfile

import pytest

from conftest import PCL, PERF, ROOT, fixture, pcl, perf, unified

CXX_WORK = r"""
#include <cstdio>
#include <ctime>
#include <map>
#include <string>
namespace ns {
template <typename T> struct Acc {
	T v{};
	__attribute__((noinline)) void add(T x) { for (int i = 0; i < 1000; i++) v = v * 3 + x + i; }
};
}
static double cpu_ms() { timespec ts; clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6; }
int main() {
	ns::Acc<long> a; ns::Acc<double> d; std::map<std::string, int> m; int k = 0;
	for (double until = cpu_ms() + 300; cpu_ms() < until; k++) {
		a.add(k); d.add(k * 0.5); m[std::to_string(k % 100)]++;
	}
	printf("%ld %f %zu\n", a.v, d.v, m.size());
}
"""


# Sign- and zero-extending loads of globals, rip-relative: "# 402a <sc>"
# after each, which perf's mov parser turns into the symbol's name for the
# mnemonics perf 6.1 knows as moves
EXTEND_WORK = r"""
#include <stdio.h>
#include <time.h>
volatile signed char sc = -3;
volatile short ss = -7;
volatile int si = -11;
volatile unsigned char uc = 3;
volatile unsigned short us = 7;
__attribute__((noinline)) long widen(long acc)
{
	int i = sc + ss + uc + us;
	long l = (long)sc + (long)ss + (long)si;
	short w = sc;
	return acc * 31 + i + l + w;
}
static double cpu_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}
int main(void)
{
	long acc = 0;
	for (double until = cpu_ms() + 300; cpu_ms() < until;)
		for (int k = 0; k < 100000; k++)
			acc = widen(acc);
	printf("%ld\n", acc);
	return 0;
}
"""

@pytest.fixture(scope="module")
def tmp():
    with tempfile.TemporaryDirectory(prefix="pcl-annotate-") as d:
        yield d


def record(directory, name, workload, *extra):
    path = os.path.join(directory, name)
    r = perf("record", "-q", *extra, "-o", path, "--", *workload)
    assert r.returncode == 0, r.stderr
    return path


@pytest.fixture(scope="module")
def o2_data(tmp):
    """The -O2 fixture: inlined helpers, a jump table, libm."""
    return record(tmp, "o2.data", [fixture("annotate_work"), "300"], "-e", "cpu-clock")


@pytest.fixture(scope="module")
def two_events_data(tmp):
    """Two events with call graphs: one annotation per event, kernel symbols."""
    return record(tmp, "two.data", [fixture("annotate_work"), "200"], "-g", "-e",
                  "cpu-clock,task-clock")


@pytest.fixture(scope="module")
def o1_data(tmp):
    """burner: frame pointers, libc's sort (source paths relative to the unit)."""
    return record(tmp, "o1.data", [fixture("burner"), "300", "cpu"], "-e", "cpu-clock")


INSTRUCTION = re.compile(r"(\x1b\[[0-9;]*m)? +[0-9.]+(\x1b\[m)? ")
# an instruction's " // file:line", with its colour when coloured
SRCLINE = re.compile(r"(\x1b\[[0-9;]*m)? // .*?(\x1b\[m)?$", re.M)


def dangling_srclines_dropped(perf_text, pcl_text):
    """-l: perf 6.1 compares a function's "// file:line" annotations with
    the previous function's last one, a string it has already freed (see
    docs/pcl-annotate.1), until it shows one: mostly the first shows, as
    pcl's always does, but where the heap hands that memory out again perf
    may leave out any of them up to the first it shows.  In each function
    the tests leave out the annotations up to perf's first, on both sides."""
    want, got = perf_text.splitlines(True), pcl_text.splitlines(True)
    dangling = False
    for i, line in enumerate(want):
        if "Source code & Disassembly of" in line:
            dangling = True
        elif dangling and INSTRUCTION.match(line) and i < len(got):
            dangling = " // " not in line
            want[i], got[i] = SRCLINE.sub("", line), SRCLINE.sub("", got[i])
    return "".join(want), "".join(got)


def same(path, *args, env=None):
    want = perf("annotate", "-i", path, "--stdio", *args)
    got = pcl("annotate", "-i", path, "--stdio", *args, env=env)
    assert got.returncode == want.returncode, got.stderr
    want_out, got_out = want.stdout, got.stdout
    if "-l" in args:
        want_out, got_out = dangling_srclines_dropped(want_out, got_out)
    assert got_out == want_out, unified(want_out, got_out)
    assert got.stderr == want.stderr, unified(want.stderr, got.stderr)
    return got


OPTIONS = [
    [],
    ["--no-source"],
    ["--source"],
    ["-l"],
    ["-l", "--no-source"],
    ["-n"],
    ["--show-total-period"],
    ["--percent-type", "global-period"],
    ["--percent-type", "local-hits"],
    ["--percent-type", "global-hits"],
    ["--asm-raw"],
    ["-M", "intel"],
    ["--asm-raw", "-M", "intel", "--no-source"],
    ["-P"],
    ["--skip-missing"],
]


@pytest.mark.parametrize("args", OPTIONS, ids=lambda a: " ".join(a) or "default")
def test_every_symbol(o2_data, args):
    out = same(o2_data, *args).stdout
    assert "annotate_work for cpu-clock" in out


@pytest.mark.parametrize("args", [[], ["--asm-raw"], ["-l"]],
                         ids=lambda a: " ".join(a) or "default")
def test_libc_and_frame_pointers(o1_data, args):
    same(o1_data, *args)


def test_two_events_and_kernel_message(two_events_data):
    got = same(two_events_data)
    assert "for task-clock" in got.stdout


@pytest.mark.parametrize("args", [["--group"], ["--group", "-n"], ["--percent-limit", "5"],
                                  ["--stdio-color", "always", "-l"],
                                  ["--stdio-color", "always", "--show-total-period"],
                                  ["--stdio-color", "never"], ["--stdio-color", "auto"],
                                  ["--stdio-color", "always", "-n"],
                                  ["--stdio-color", "always", "--percent-type", "global-hits"],
                                  ["--group", "--show-total-period"],
                                  ["--group", "--percent-type", "global-period"],
                                  ["--group", "--percent-type", "local-hits"],
                                  ["--group", "-l"], ["--group", "--no-source", "-n"],
                                  ["--group", "--stdio-color", "always", "-s", "hot_mix"],
                                  ["--skip-missing"], ["--skip-missing", "--group"],
                                  ["-P", "-l"], ["--full-paths", "-l", "--group"]],
                         ids=" ".join)
def test_groups_limits_colours(two_events_data, args):
    same(two_events_data, *args)


@pytest.mark.parametrize("sym", ["hot_mix", "hot_switch", "hot_math", "hot_walk"])
def test_one_symbol(o2_data, sym):
    got = same(o2_data, "-s", sym)
    assert got.stdout.count("Source code & Disassembly") == 1


def test_two_processes(tmp):
    """Symbols sampled by several threads and processes (perf orders by DSO
    and symbol, whatever the comm); a GOT slot named by its relocation."""
    data = record(tmp, "procs.data", ["sh", "-c", "%s 300 & %s 300; wait" % (
        fixture("report_work"), fixture("annotate_work"))], "-g", "-e", "cpu-clock",
        "-c", "100000")
    same(data)
    same(data, "--stdio2")


@pytest.mark.parametrize("build", [
    ["g++", "-O2", "-g", "-x", "c++", "-"],
    ["gcc", "-O2", "-g", "-no-pie", os.path.join(ROOT, "tests/fixtures/annotate_work.c"), "-lm"],
    ["clang", "-O2", "-g", os.path.join(ROOT, "tests/fixtures/annotate_work.c"), "-lm"],
], ids=["c++", "no-pie", "clang"])
def test_other_builds(tmp, build):
    """Demangled C++ templates, fixed addresses, clang's DWARF."""
    exe = os.path.join(tmp, build[0] + ("-no-pie" if "-no-pie" in build else ""))
    subprocess.run(build + ["-o", exe], input=CXX_WORK if build[0] == "g++" else None,
                   text=True, check=True)
    data = record(tmp, os.path.basename(exe) + ".data", [exe, "200"], "-e", "cpu-clock")
    for args in ([], ["--asm-raw", "-M", "intel"], ["-l"], ["--stdio2"],
                 ["--stdio2", "--no-demangle"], ["-m", "--ignore-vmlinux", "--demangle-kernel"]):
        same(data, *args)
    # Inlined calls nested with the same range: objdump names the innermost
    # because bfd happens to allocate it last.  pcl must too, whatever its
    # heap: here every block malloc gives bfd comes from a fresh mmap, at a
    # falling address.
    same(data, env=dict(os.environ, GLIBC_TUNABLES="glibc.malloc.mmap_threshold=2048"))


def test_cpu_filter(tmp, o2_data):
    data = record(tmp, "cpu.data", [fixture("annotate_work"), "200"], "--sample-cpu",
                  "-e", "cpu-clock")
    same(data, "-C", "0")
    same(data, "-C", "1")
    same(o2_data, "-C", "0")    # a file without CPUs: perf's message


def test_extending_moves(tmp):
    """perf 6.1 parses movslq, movzbl and movzwl as moves (the operand named
    by objdump's comment) but leaves movsbl, movswl, movsbq and movswq as
    objdump wrote them: libc's mutex lock has a movswl of a global."""
    exe = os.path.join(tmp, "extend")
    subprocess.run(["gcc", "-O2", "-g", "-x", "c", "-", "-o", exe], input=EXTEND_WORK,
                   text=True, check=True)
    data = record(tmp, "extend.data", [exe], "-e", "cpu-clock")
    out = same(data, "--stdio2", "-s", "widen").stdout
    assert "movslq si," in out
    assert re.search(r"movswl 0x[0-9a-f]+\(%rip\),%\w+ +# [0-9a-f]+ <ss>", out), out
    same(data, "-s", "widen")


def shared_object_name(dev_name):
    """The soname a program linked with -lNAME would record (libopcodes'
    carries binutils' version), as the Makefile finds it."""
    path = subprocess.run(["cc", "-print-file-name=" + dev_name], capture_output=True,
                          text=True, check=True).stdout.strip()
    dump = subprocess.run(["objdump", "-p", path], capture_output=True, text=True,
                          check=True).stdout
    return re.search(r"^\s*SONAME\s+(\S+)", dump, re.M).group(1)


def test_no_disassembler(tmp, o1_data):
    """libopcodes is opened on the first disassembly: where it cannot be
    loaded (a file that is no library found first), pcl says why, once,
    and annotates nothing, as perf without objdump."""
    fake = os.path.join(tmp, "no-opcodes")
    os.makedirs(fake, exist_ok=True)
    open(os.path.join(fake, shared_object_name("libopcodes.so")), "w").close()
    got = pcl("annotate", "-i", o1_data, "--stdio",
              env=dict(os.environ, LD_LIBRARY_PATH=fake))
    assert got.returncode == 0, got.stderr
    assert got.stdout == ""
    assert got.stderr.startswith("Error:\nCouldn't annotate ")
    assert got.stderr.count("cannot load libopcodes (the GNU disassembler; Debian package "
                            "libbinutils): " + fake) == 1, got.stderr


def test_pcl_recording(tmp):
    """A file pcl record wrote reads the same in both."""
    path = os.path.join(tmp, "pcl.data")
    r = pcl("record", "-q", "-e", "cpu-clock", "-o", path, "--", fixture("annotate_work"), "200")
    assert r.returncode == 0, r.stderr
    same(path)
    same(path, "--no-source", "-n")
    same(path, "--stdio2")


def test_pipe(tmp):
    """perf record -o - | annotate -i -: the events come as records.  The
    vdso is left out: perf extracts it to a temporary file whose random name
    heads its annotation."""
    path = os.path.join(tmp, "pipe.data")
    with open(path, "w") as out:
        r = perf("record", "-q", "-e", "cpu-clock", "-o", "-", "--",
                 fixture("annotate_work"), "200", stdout=out)
    assert r.returncode == 0, r.stderr
    for layout in ("--stdio", "--stdio2"):
        with open(path) as f:
            want = perf("annotate", "-i", "-", layout, "-d", "annotate_work,libm.so.6", stdin=f)
        with open(path) as f:
            got = pcl("annotate", "-i", "-", layout, "-d", "annotate_work,libm.so.6", stdin=f)
        assert got.returncode == want.returncode, got.stderr
        assert got.stdout == want.stdout, unified(want.stdout, got.stdout)
        assert got.stderr == want.stderr, unified(want.stderr, got.stderr)


def test_dso_filter(o2_data):
    same(o2_data, "-d", "annotate_work")


def test_no_such_symbol(o2_data):
    got = same(o2_data, "-s", "no_such_symbol")
    assert "has no samples" in got.stderr


@pytest.mark.parametrize("args", [["-n", "--show-total-period"], ["--show-total-period", "-n"],
                                  ["--show-total-period", "--show-nr-samples"],
                                  ["-n", "--no-show-total-period"]], ids=" ".join)
def test_exclusive_columns(o2_data, args):
    """Samples and periods are one column: perf refuses the second option."""
    want = perf("annotate", "-i", o2_data, "--stdio", *args)
    got = pcl("annotate", "-i", o2_data, "--stdio", *args)
    assert (got.returncode, got.stdout) == (want.returncode, want.stdout) == (129, "")
    assert got.stderr.replace("pcl annotate", "perf annotate") == want.stderr, \
        unified(want.stderr, got.stderr)


@pytest.mark.parametrize("vmlinux", ["/no/such/vmlinux", "/etc/passwd", "/bin/true"])
def test_vmlinux(two_events_data, vmlinux):
    """-k: a missing file is refused; a file that is not the recorded kernel
    leaves kernel samples without symbols (no annotation, no message)."""
    same(two_events_data, "-k", vmlinux)


def test_vmlinux_checked_first(tmp):
    same(os.path.join(tmp, "no-such.data"), "-k", "/no/such/vmlinux")


STDIO2_OPTIONS = [[], ["--no-source"], ["-n"], ["--show-total-period"],
                  ["--percent-type", "global-hits"], ["--percent-type", "local-hits"], ["-l"],
                  ["-M", "intel"], ["--asm-raw"], ["--stdio-color", "always"], ["-P"],
                  ["--group"], ["--percent-limit", "5"]]


@pytest.mark.parametrize("args", STDIO2_OPTIONS, ids=lambda a: " ".join(a) or "default")
def test_stdio2(o2_data, args):
    """perf's browser lines as text: offsets of jump targets, arrows, the
    operands rewritten (no colours, whatever --stdio-color says)."""
    out = same(o2_data, "--stdio2", *args).stdout
    assert "hot_mix() " in out


@pytest.mark.parametrize("args", [[], ["--group"], ["--group", "-n"],
                                  ["--group", "--show-total-period"], ["-s", "hot_mix"]],
                         ids=lambda a: " ".join(a) or "default")
def test_stdio2_two_events(two_events_data, args):
    """Titles per event and per group; kernel symbols get perf's message."""
    same(two_events_data, "--stdio2", *args)


@pytest.mark.parametrize("args", [[], ["-M", "intel"], ["--group"]],
                         ids=lambda a: " ".join(a) or "default")
def test_stdio2_libc(o1_data, args):
    """libc's jumps out of their function and calls through the PLT."""
    same(o1_data, "--stdio2", *args)


@pytest.mark.parametrize("args", [[], ["-n"], ["--show-total-period"], ["-s", "hot_mix"], ["-l"],
                                  ["--percent-type", "global-hits"], ["--stdio2"],
                                  ["--stdio2", "-n"]],
                         ids=lambda a: " ".join(a) or "default")
def test_recorded_group(tmp, args):
    """A file that recorded a group shows it side by side without --group
    (perf 6.1 aborts on --no-group there: not compared)."""
    data = os.path.join(tmp, "group.data")
    if not os.path.exists(data):
        record(tmp, "group.data", [fixture("annotate_work"), "200"], "-e",
               "{cpu-clock,task-clock}")
    out = same(data, *args).stdout
    assert "anon group { cpu-clock, task-clock }" in out


def on_terminal(argv):
    """stdout of argv written to a pseudo-terminal (no pager)."""
    master, slave = os.openpty()
    env = dict(os.environ, PAGER="cat", PERF_PAGER="cat")
    proc = subprocess.Popen(argv, stdout=slave, stderr=subprocess.DEVNULL, env=env)
    os.close(slave)
    chunks = []
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:     # EIO: the terminal's last writer is gone
            break
        if not chunk:
            break
        chunks.append(chunk)
    os.close(master)
    assert proc.wait() == 0
    return b"".join(chunks)


@pytest.mark.parametrize("args", [[], ["--stdio-color", "auto"], ["--stdio-color", "never"]],
                         ids=lambda a: " ".join(a) or "default")
def test_colours_on_terminal(o2_data, args):
    """On a terminal (auto, the default) perf colours the percentages."""
    argv = ["annotate", "-i", o2_data, "--stdio", "-s", "hot_mix", *args]
    want, got = on_terminal([PERF, *argv]), on_terminal([PCL, *argv])
    assert got == want
    assert (b"\x1b[" in got) == (args != ["--stdio-color", "never"])


def test_help_options():
    """-h lists perf 6.1's options (those pcl takes), with its words."""
    want = perf("annotate", "-h").stderr
    got = pcl("annotate", "-h").stderr.replace("pcl annotate", "perf annotate")
    for line in got.splitlines():
        assert line in want.splitlines(), line
    for opt in re.findall(r"^ +(-\w, --[\w-]+|--[\w-]+)", want, re.M):
        assert opt in got, opt


@pytest.mark.parametrize("args", [["-D"], ["-D", "--stdio"], ["-D", "-s", "hot_mix"],
                                  ["--itrace=zz"], ["--itrace=i100us", "-s", "hot_mix"]],
                         ids=lambda a: " ".join(a))
def test_dump_raw_trace_and_itrace(o2_data, two_events_data, args):
    """-D: report's dump of every record (CGROUP left to a stub), then the
    count of every record type, empty ones too, and no annotation; --itrace
    is checked as perf checks it (nothing to decode without AUX data)."""
    for path in (o2_data, two_events_data):
        want = perf("annotate", "-i", path, *args)
        got = pcl("annotate", "-i", path, *args)
        assert got.returncode == want.returncode
        assert got.stdout == want.stdout, unified(want.stdout, got.stdout)
        assert got.stderr.replace("pcl annotate", "perf annotate") == want.stderr


def test_source_prefix(tmp):
    """--prefix/--prefix-strip: objdump's relocated source files, read
    from a changed copy (and none when the copy is missing)."""
    src_dir, copy_dir = os.path.join(tmp, "src"), os.path.join(tmp, "moved")
    os.makedirs(src_dir, exist_ok=True)
    os.makedirs(copy_dir, exist_ok=True)
    with open(os.path.join(ROOT, "tests/fixtures/annotate_work.c")) as f:
        text = f.read()
    source = os.path.join(src_dir, "annotate_work.c")
    with open(source, "w") as f:
        f.write(text)
    with open(os.path.join(copy_dir, "annotate_work.c"), "w") as f:
        f.write("".join("MOVED " + line for line in text.splitlines(True)))
    exe = os.path.join(tmp, "prefix_work")
    subprocess.run(["gcc", "-O2", "-g", source, "-o", exe, "-lm"], check=True)
    data = record(tmp, "prefix.data", [exe, "100"], "-e", "cpu-clock")
    strip = str(source.count("/") - 1)
    got = same(data, "-s", "hot_mix", "--prefix", copy_dir, "--prefix-strip", strip)
    assert "MOVED" in got.stdout
    same(data, "-s", "hot_mix", "--prefix", os.path.join(tmp, "none"), "--prefix-strip", strip)
    same(data, "--prefix-strip", strip)     # perf's message without --prefix
