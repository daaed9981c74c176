"""pcl c2c report --stats against perf c2c 6.1, on the memory-sample files
perfdata_mem.py writes (with a NUMA node, which perf c2c needs): the trace
event counts, the shared cache line counts and the details, byte for byte."""
import os

import pytest

import perfdata_mem
from conftest import fixture, pcl, perf, unified

VARIANTS = {
    "plain": {},
    "phys": {"phys": True, "page_size": True, "weight_struct": True},
    "loads": {"stores": False},
    "stores": {"loads": False},
    "maps": {"more_maps": True, "phys": True},
}


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    d = tmp_path_factory.mktemp("c2c")
    out = {}
    for name, kw in VARIANTS.items():
        path = os.path.join(str(d), name + ".data")
        perfdata_mem.write(path, fixture("report_work"), numa=True, **kw)
        out[name] = path
    path = os.path.join(str(d), "nonuma.data")
    perfdata_mem.write(path, fixture("report_work"))
    out["nonuma"] = path
    return out


@pytest.mark.parametrize("variant", sorted(VARIANTS))
@pytest.mark.parametrize("args", [[], ["-d", "lcl"], ["-d", "rmt"], ["-d", "peer"],
                                  ["--stdio", "-d", "tot"]], ids=" ".join)
def test_c2c_report_stats_match_perf(files, variant, args):
    want = perf("c2c", "report", "--stats", *args, "-i", files[variant])
    got = pcl("c2c", "report", "--stats", *args, "-i", files[variant])
    assert got.returncode == want.returncode == 0, got.stderr
    assert got.stdout == want.stdout, unified(want.stdout, got.stdout)


@pytest.mark.parametrize("variant,args", [("nonuma", []), ("plain", ["-d", "foo"])],
                         ids=["no NUMA nodes", "bad display"])
def test_c2c_report_errors_match_perf(files, variant, args):
    want = perf("c2c", "report", "--stats", *args, "-i", files[variant])
    got = pcl("c2c", "report", "--stats", *args, "-i", files[variant])
    assert got.returncode == want.returncode != 0
    assert got.stdout == want.stdout == ""
    assert got.stderr.splitlines()[-1] == want.stderr.splitlines()[-1]


def test_c2c_report_tables_are_not_done(files):
    got = pcl("c2c", "report", "--stdio", "-i", files["plain"])
    assert got.returncode != 0 and "only --stats" in got.stderr


@pytest.mark.skipif(os.path.exists("/sys/bus/event_source/devices/cpu/events/mem-loads"),
                    reason="this machine samples memory accesses")
def test_c2c_record_fails_without_mem_events(tmp_path):
    out = str(tmp_path / "perf.data")
    want = perf("c2c", "record", "-o", out, "--", "true")
    got = pcl("c2c", "record", "-o", out, "--", "true")
    assert got.returncode == want.returncode == 255
    assert got.stderr == want.stderr == "failed: memory events not supported\n"
