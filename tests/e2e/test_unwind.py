"""DWARF unwinding (--call-graph dwarf) against perf 6.1, whose unwinder
(libunwind in Debian's build) pcl reproduces frame for frame: stacks
across DSOs (vdso -> libc -> the fixture, each DSO reported to libdw when
the unwinder first reaches it), stacks beyond the saved copy, through a
signal frame, and in processes a shell exec'd."""
import re

from conftest import fixture, pcl, perf


def test_stacks_through_vdso_and_libc_match_perf(tmp_path):
    data = str(tmp_path / "dwarf.data")
    rec = perf("record", "-q", "-o", data, "--call-graph", "dwarf,4096", "--",
               fixture("clock_loop"), "400", "10")
    assert rec.returncode == 0, rec.stderr
    want = perf("script", "-i", data, "-F", "ip,sym").stdout
    got = pcl("script", "-i", data, "-F", "ip,sym")
    assert got.returncode == 0, got.stderr
    # the workload's stacks are there: through the vdso, down to main
    assert re.search(r"__vdso_clock_gettime\n(.*\n)*?\s+\w+ spin_clock\n\s+\w+ main\n", got.stdout)
    assert got.stdout == want


def test_stack_beyond_the_copy_ends_like_perf(tmp_path):
    """Python's deep interpreter stacks outgrow a 4 KB copy: the return
    address beyond it lies in the [stack] mapping, which perf's unwinder
    reads as 0 and prints as a last frame at -1; a stack copy's last word
    is read the same way."""
    data = str(tmp_path / "deep.data")
    rec = perf("record", "-q", "-o", data, "-F", "2000", "--call-graph", "dwarf,4096", "--",
               "/usr/bin/python3", "-c", "import json\nfor i in range(2000): json.dumps(list(range(300)))")
    assert rec.returncode == 0, rec.stderr
    want = perf("script", "-i", data).stdout
    got = pcl("script", "-i", data)
    assert got.returncode == 0, got.stderr
    assert "ffffffffffffffff [unknown] ([unknown])" in want
    assert got.stdout == want


def test_signal_frames_like_perf(tmp_path):
    """A handler's stack goes through the signal trampoline into the code
    the signal interrupted: perf shows the trampoline's return address
    less 1 and the interrupted address as it is."""
    data = str(tmp_path / "sig.data")
    rec = perf("record", "-q", "-o", data, "-F", "2000", "--call-graph", "dwarf", "--",
               fixture("sigwork"), "200")
    assert rec.returncode == 0, rec.stderr
    want = perf("script", "-i", data).stdout
    got = pcl("script", "-i", data)
    assert got.returncode == 0, got.stderr
    assert re.search(r"on_alarm\+0x\w+ \(.*\)\n.*\n\s+\w+ (churn|main)\+", want)
    assert got.stdout == want


def test_exec_in_a_shell_like_perf(tmp_path):
    """sh -c forks and execs: perf keeps the shell's maps in the children,
    which (when the shell's copy of libc lies lower) hides libc's CFI from
    its unwinder, so it guesses from frame pointers there."""
    data = str(tmp_path / "sh.data")
    rec = perf("record", "-q", "-o", data, "-F", "4000", "--call-graph", "dwarf,8192", "--",
               "sh", "-c", "head -c 4000000 /dev/urandom | gzip -1 | sort -R > /dev/null")
    assert rec.returncode == 0, rec.stderr
    for fields in [[], ["-F", "comm,tid,ip,sym,dso"]]:
        want = perf("script", "-i", data, *fields).stdout
        got = pcl("script", "-i", data, *fields)
        assert got.returncode == 0, got.stderr
        assert got.stdout == want


def test_return_address_in_a_register_like_perf(tmp_path):
    """__libc_vfork keeps its return address in a register across the
    system call (CFI register rule): the stack goes on to its caller."""
    data = str(tmp_path / "vfork.data")
    in_vfork = re.compile(r"vfork.*\n\s+\w+ spawn_one\+")
    # A loaded machine may sample no return from vfork in a short run:
    # record longer until perf's own stacks show one.
    for ms in ("300", "900", "2700", "8000"):
        rec = perf("record", "-q", "-o", data, "-F", "4000", "--call-graph", "dwarf", "--",
                   fixture("vforks"), ms)
        assert rec.returncode == 0, rec.stderr
        want = perf("script", "-i", data).stdout
        if in_vfork.search(want):
            break
    got = pcl("script", "-i", data)
    assert got.returncode == 0, got.stderr
    assert in_vfork.search(got.stdout)
    assert got.stdout == want


def test_register_the_cfi_does_not_mention_like_perf(tmp_path):
    """A frame whose CFA is %rbx-based above a leaf whose CFI never
    mentions %rbx (glibc's lazy binding trampoline has this shape): perf
    keeps %rbx as sampled and goes on to main."""
    data = str(tmp_path / "rbx.data")
    rec = perf("record", "-q", "-o", data, "-F", "2000", "--call-graph", "dwarf", "--",
               fixture("rbx_frame"), "200")
    assert rec.returncode == 0, rec.stderr
    want = perf("script", "-i", data).stdout
    got = pcl("script", "-i", data)
    assert got.returncode == 0, got.stderr
    assert re.search(r"leaf_spin\+0x\w+ \(.*\)\n\s+\w+ rbx_based\+0x\w+ \(.*\)\n\s+\w+ main\+", want)
    assert got.stdout == want
