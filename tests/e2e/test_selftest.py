"""pcl test: numbered self-tests in perf test's layout, side by side with perf test 6.1.
Both write everything on stderr."""
import re

from conftest import pcl, perf

TOP = re.compile(r"^ *(\d+): (.*?) *:(?: (Ok|FAILED!|Skip(?: \(.+\))?))?$")
SUB = re.compile(r"^ *(\d+)\.(\d+): (.*?) *: (Ok|FAILED!|Skip(?: \(.+\))?)$")


def test_list_in_perfs_layout():
    mine, theirs = pcl("test", "list"), perf("test", "list")
    assert mine.returncode == theirs.returncode == 0
    layout = re.compile(r"^ *\d+(:\d+)?: \S.*$")
    for text in (mine.stderr, theirs.stderr):
        assert all(layout.match(l) for l in text.splitlines())
    numbers = [int(l.split(":")[0]) for l in mine.stderr.splitlines() if re.match(r"^ *\d+: ", l)]
    assert numbers == list(range(1, len(numbers) + 1))
    assert mine.stderr.startswith("  1: ")


def test_all_tests_pass_or_skip_with_a_reason():
    r = pcl("test", timeout=300)
    assert r.returncode == 0
    lines = r.stderr.splitlines()
    assert len(lines) == len(pcl("test", "list").stderr.splitlines())
    assert "FAILED!" not in r.stderr, r.stderr
    # one colon column for every line, as perf aligns them
    columns = {len(re.match(r"^(.*):(?: (?:Ok|FAILED!|Skip.*))?$", l).group(1)) for l in lines}
    assert len(columns) == 1, r.stderr
    for line in lines:
        assert TOP.match(line) or SUB.match(line), line


def test_numbers_and_fragments_select_as_perf():
    by_number, by_words = pcl("test", "3"), pcl("test", "openat")
    assert by_number.stderr == by_words.stderr
    assert re.fullmatch(r"  3: Detect openat syscall event +: (Ok|Skip.*)\n", by_number.stderr)
    # perf numbers its own openat test 2 and selects it by the same words
    assert re.fullmatch(r"  2: Detect openat syscall event +: (Ok|Skip.*)\n",
                        perf("test", "2").stderr)
    assert pcl("test", "list", "openat").stderr == "  3: Detect openat syscall event\n"
    assert pcl("test", "999").stderr == perf("test", "999").stderr == ""


def test_sub_tests_numbered_as_perf():
    mine, theirs = pcl("test", "mmap"), perf("test", "4")
    for text in (mine.stderr, theirs.stderr):
        lines = text.splitlines()
        assert re.fullmatch(r"  4: mmap interface tests +:", lines[0])
        assert all(re.match(r"  4\.\d: ", l) for l in lines[1:]) and len(lines) > 2
        assert re.match(r"  4\.1: Read samples using the mmap interface +: Ok", lines[1])


def test_skip_by_user_as_perf():
    mine, theirs = pcl("test", "-s", "3", "3"), perf("test", "-s", "2", "2")
    assert mine.returncode == theirs.returncode == 0
    assert mine.stderr.endswith(": Skip (user override)\n")
    assert theirs.stderr.endswith(": Skip (user override)\n")


def test_verbose_and_dont_fork():
    v = pcl("test", "-v", "lookup")
    assert "--- start ---" in v.stderr and "---- end ----" in v.stderr
    assert "is selftest_noploop in" in v.stderr
    assert v.stderr.endswith("---- end ----\nSymbol lookup in the pcl binary: Ok\n")
    assert v.stdout == pcl("test", "list").stdout == ""
    assert pcl("test", "-F", "1", "2").stderr == pcl("test", "1", "2").stderr


def test_usage_and_unknown_workload_as_perf():
    mine, theirs = pcl("test", "-h"), perf("test", "-h")
    assert mine.returncode == theirs.returncode == 129
    assert mine.stderr == theirs.stderr.replace("perf", "pcl")
    mine, theirs = pcl("test", "-w", "nosuch"), perf("test", "-w", "nosuch")
    assert mine.returncode == theirs.returncode == 255
    assert mine.stderr == theirs.stderr == "No workload found: nosuch\n"


def test_noploop_workload():
    r = pcl("test", "-w", "noploop", "0.05")
    assert r.returncode == 0 and r.stdout == r.stderr == ""
