"""pcl diff against perf diff 6.1 on the same pairs (and triples) of recordings."""
import os
import subprocess

import pytest

from conftest import ROOT, fixture, pcl, perf, unified


def record(directory, name, workload, extra=()):
    path = str(directory / name)
    r = perf("record", "-q", *extra, "-o", path, "--", *workload)
    assert r.returncode == 0, r.stderr
    return path


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    """Recordings of report_work: plain, with a frame-pointer-less spin,
    spinning only, a rebuild whose functions moved (paired by name),
    two events in both orders, and pcl's own recordings."""
    d = tmp_path_factory.mktemp("diff")
    work = fixture("report_work")
    moved = str(d / "report_work_moved")
    subprocess.run(["cc", "-O1", "-g", "-fno-omit-frame-pointer", "-fno-inline",
                    "-falign-functions=128", "-o", moved,
                    os.path.join(ROOT, "tests", "fixtures", "report_work.c"), "-lpthread", "-lm"],
                   check=True)
    files = {
        "a": record(d, "a.data", [work, "150"]),
        "b": record(d, "b.data", [work, "150", "cut"]),
        "c": record(d, "c.data", [work, "100", "cut-only"]),
        "moved": record(d, "moved.data", [moved, "150"]),
        "g": record(d, "g.data", [work, "120"], ["-g"]),
        "m1": record(d, "m1.data", [work, "100"], ["-e", "cpu-clock", "-e", "task-clock"]),
        "m2": record(d, "m2.data", [work, "100", "cut"], ["-e", "task-clock", "-e", "cpu-clock"]),
        "empty": record(d, "empty.data", ["true"], ["-c", "1000000000"]),
    }
    for name, args in (("p1", ["120"]), ("p2", ["120", "cut"])):
        files[name] = str(d / (name + ".data"))
        r = pcl("record", "-q", "-o", files[name], "--", work, *args)
        assert r.returncode == 0, r.stderr
    return files


CASES = [
    "a b", "b a", "a b c", "a c", "a moved", "moved a", "g b", "m1 m2", "m2 m1", "p1 p2",
    "a p2",
    "-c delta a b", "-c ratio a b", "-c wdiff:2,3 a b", "-c wdiff:1,-1 a c",
    "-c delta-abs a b c", "-c ratio a b c",
    "-p a b", "-F a b", "-F -c ratio a b", "-F -c wdiff:5,7 a b", "-p -F a b c",
    "-o 0 a b", "-o 2 a b c", "-o 2 -c ratio a b c", "-o 0 -c wdiff:1,2 a b",
    "-b a b", "-b -F a c", "-b -c ratio a c",
    "-s sym a b", "-s dso a b", "-s comm,dso a b", "-s pid a b", "-s cpu a b",
    "-s sym a moved", "-s dso,sym -v a moved", "-s dso,sample a b", "-s overhead a b",
    "-d libc.so.6 a b", "-d libc.so.6 --percentage relative -F a b",
    "-d libc.so.6,report_work a b",
    "-S hot_spin,__sin_fma a b", "-S hot_spin a b", "-C report_work a b",
    "-C rw-worker --percentage relative a b",
    "--time 0%-50% a b", "--time 10%/2 a b c", "--cpu 0 a b", "-q a b", "-q a b c",
    "-v a b", "-q m1 m2",
    "empty a", "a empty", "-c ratio empty a", "-c wdiff:3,4 empty a",
    "-t , a b", "-t , empty a", "-t , -c wdiff:1,2 a b", "-t , -c ratio empty a",
    "-t , -F -p a b c", "-t , -v a b", "-t , -s dso,sample a b", "-t ; -q a b",
]


def argv(case, files):
    return [files.get(tok, tok) for tok in case.split()]


@pytest.mark.parametrize("case", CASES)
def test_diff_matches_perf(data, case):
    want = perf("diff", *argv(case, data))
    got = pcl("diff", *argv(case, data))
    assert got.returncode == want.returncode, got.stderr
    assert got.stdout == want.stdout, unified(want.stdout, got.stdout)


def test_default_files(data, tmp_path):
    """Without names: perf.data.old against perf.data; with one, that
    file against perf.data."""
    os.symlink(data["a"], tmp_path / "perf.data.old")
    os.symlink(data["b"], tmp_path / "perf.data")
    for args in ([], [data["c"]]):
        want = perf("diff", *args, cwd=tmp_path)
        got = pcl("diff", *args, cwd=tmp_path)
        assert (got.returncode, got.stdout) == (want.returncode, want.stdout)


@pytest.mark.parametrize("case", [
    "-c foo a b", "-c ratio:1 a b", "-c wdiff:1 a b", "-c wdiff:0,1 a b",
    "--percentage foo a b", "--cycles-hist a b", "-s foo a b", "-s dso,foo a b",
    "-o 3 a b", "nope.data b", "-c cycles a b", "-c cycles --cycles-hist a b", "-t . a b",
])
def test_errors_match_perf(data, case):
    want = perf("diff", *argv(case, data))
    got = pcl("diff", *argv(case, data))
    assert got.returncode == want.returncode
    assert got.stdout == want.stdout
    assert got.stderr.replace("pcl", "perf") == want.stderr
