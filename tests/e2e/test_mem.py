"""pcl mem and report --mem-mode against perf 6.1.  This machine has no
memory-sampling PMU, so the files are written by perfdata_mem.py the way
perf mem record writes them (loads and stores, with or without physical
addresses, page sizes and WEIGHT_STRUCT), with data sources covering every
field of PERF_SAMPLE_DATA_SRC; both tools read the same files."""
import os
import re

import pytest

import perfdata_mem
from conftest import fixture, pcl, perf, unified
from perfdata_corpus import perf_data  # noqa: F401 (a fixture)
from test_c2c import kallsyms

VARIANTS = {
    "plain": {},
    "phys": {"phys": True, "page_size": True, "weight_struct": True},
    "loads": {"stores": False},
    "stores": {"loads": False, "phys": True},
    "maps": {"more_maps": True, "phys": True},   # a heap, a shared file, two processes
}


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    d = tmp_path_factory.mktemp("mem")
    out = {}
    for name, kw in VARIANTS.items():
        path = os.path.join(str(d), name + ".data")
        perfdata_mem.write(path, fixture("report_work"), **kw)
        out[name] = path
    return out


def without_tip(text):
    return re.sub(r"^# \(Tip: .*\)\n", "", text, flags=re.M)


def same(files, variant, args):
    want = perf(*args, "-i", files[variant])
    got = pcl(*args, "-i", files[variant])
    assert got.returncode == want.returncode, got.stderr
    assert without_tip(got.stdout) == without_tip(want.stdout), \
        unified(want.stdout, got.stdout)
    return got


MEM_REPORT = [
    [], ["-t", "store"], ["-t", "load"], ["-t", "load,store"], ["-p"], ["--data-page-size"],
    ["-p", "--data-page-size"], ["-t", "store", "-p", "--data-page-size"],
    ["-s", "mem,snoop"], ["--sort", "tlb,locked,blocked"], ["-U"], ["-v"],
    ["--sort", "mem", "-t", "store"], ["-p", "-s", "snoop"], ["-F", "overhead,mem"], ["-q"],
    ["--percent-limit", "2"], ["-T"], ["--header-only"],
]


@pytest.mark.parametrize("variant", sorted(VARIANTS))
@pytest.mark.parametrize("args", MEM_REPORT, ids=" ".join)
def test_mem_report_matches_perf(files, variant, args):
    same(files, variant, ["mem", "report", "--stdio", *args])


def test_mem_options_before_report(files):
    same(files, "plain", ["mem", "-t", "store", "report", "--stdio"])
    same(files, "phys", ["mem", "-p", "--data-page-size", "report", "--stdio"])


MEM_MODE = [
    [], ["-s", "mem"], ["-s", "snoop"], ["-s", "tlb"], ["-s", "locked"], ["-s", "blocked"],
    ["-s", "mem,snoop,tlb,locked,blocked"], ["-s", "symbol_daddr,dso_daddr"],
    ["-s", "phys_daddr"], ["-s", "data_page_size"], ["-s", "phys_daddr,data_page_size,mem"],
    ["-s", "local_ins_lat,mem"], ["-s", "local_ins_lat,sym"], ["-s", "local_weight,mem"],
    ["-s", "weight"], ["-s", "ins_lat"], ["-s", "weight,mem,sym"], ["-s", "ins_lat,mem,sym"],
    ["-s", "local_ins_lat,ins_lat,weight,mem"],
    ["-s", "dso_daddr,mem", "-n"], ["-F", "overhead,mem,sym,snoop"],
    ["-s", "mem,tlb,locked", "-t", ","], ["-s", "p_stage_cyc,mem"],
    ["--sort=mem,sym,dso,symbol_daddr,dso_daddr,tlb,locked"],
    ["-s", "dcacheline"], ["-s", "dcacheline,pid"], ["-s", "mem,dcacheline,sym"],
    ["-s", "mem,snoop,dcacheline", "-n"], ["-s", "symbol_daddr,dcacheline", "-v"],
    ["-s", "symbol_iaddr"], ["-s", "symbol_iaddr,symbol_daddr", "-v"],
    ["-s", "sym,symbol_iaddr,mem", "-n"], ["-F", "overhead,symbol_iaddr,dso"],
]


@pytest.mark.parametrize("variant", sorted(VARIANTS))
@pytest.mark.parametrize("args", MEM_MODE, ids=" ".join)
def test_report_mem_mode_matches_perf(files, variant, args):
    same(files, variant, ["report", "--mem-mode", "--stdio", *args])


RAW = [[], ["-x", ","], ["-p"], ["--data-page-size", "-p", "-x", ";"], ["-U"], ["-U", "-x", ":"],
       ["-C", "1"], ["-C", "0,2", "-x", ","], ["-C", "7"], ["-C", "x"]]


@pytest.mark.parametrize("variant", sorted(VARIANTS))
@pytest.mark.parametrize("args", RAW, ids=" ".join)
def test_mem_report_dump_raw_matches_perf(files, variant, args):
    same(files, variant, ["mem", "report", "-D", *args])


@pytest.mark.parametrize("variant", ["plain", "phys"])
def test_report_weight_keys_match_perf(files, variant):
    same(files, variant, ["report", "--stdio", "-s", "weight,local_weight,ins_lat"])


@pytest.mark.parametrize("args", [["mem", "report", "--stdio"], ["mem", "report", "-D"],
                                  ["report", "--mem-mode", "--stdio", "-s", "dcacheline,mem"]],
                         ids=" ".join)
def test_mem_report_of_a_pipe_matches_perf(files, tmp_path, args):
    pipe = str(tmp_path / "maps.pipe")
    with open(pipe, "wb") as out:
        assert perf("inject", "-i", files["maps"], "-o", "-", stdout=out, text=False).returncode == 0
    with open(pipe, "rb") as inp:
        want = perf(*args, "-i", "-", stdin=inp)
    with open(pipe, "rb") as inp:
        got = pcl(*args, "-i", "-", stdin=inp)
    assert got.returncode == want.returncode, got.stderr
    assert without_tip(got.stdout) == without_tip(want.stdout), unified(want.stdout, got.stdout)


def test_memory_keys_need_mem_mode(files):
    want = perf("report", "--stdio", "-s", "mem", "-i", files["plain"])
    got = pcl("report", "--stdio", "-s", "mem", "-i", files["plain"])
    assert got.returncode == want.returncode   # 0: perf's, after the usage
    assert "Invalid --sort key: `mem'" in got.stderr


def test_mem_mode_needs_data_src(perf_data):
    want = perf("report", "--stdio", "--mem-mode", "-i", perf_data["fp"])
    got = pcl("report", "--stdio", "--mem-mode", "-i", perf_data["fp"])
    assert got.returncode == want.returncode   # 0, as perf's
    assert "Selected --mem-mode but no mem data" in got.stderr


@pytest.mark.parametrize("args", [["mem"], ["mem", "rep"], ["mem", "foo"],
                                  ["mem", "-t", "foo", "report"],
                                  ["mem", "report", "-t", "load,bar"], ["mem", "-h"],
                                  ["mem", "record", "-h"], ["mem", "report", "--stdio", "-h"]],
                         ids=" ".join)
def test_mem_usage_errors_match_perf(tmp_path, args):
    # no perf.data here: "mem rep" fails to open it
    want, got = perf(*args, cwd=str(tmp_path)), pcl(*args, cwd=str(tmp_path))
    assert got.returncode == want.returncode
    assert got.stderr.replace("pcl mem", "perf mem") == want.stderr
    assert got.stdout.replace("pcl mem", "perf mem") == want.stdout


def has_mem_events():
    return os.path.exists("/sys/bus/event_source/devices/cpu/events/mem-loads")


@pytest.mark.skipif(has_mem_events(), reason="this machine samples memory accesses")
@pytest.mark.parametrize("args", [["--", "true"], ["-e", "list"], ["-t", "store", "true"],
                                  ["--ldlat", "50", "true"]], ids=" ".join)
def test_mem_record_fails_without_mem_events(tmp_path, args):
    out = str(tmp_path / "perf.data")
    want = perf("mem", "record", "-o", out, *args)
    got = pcl("mem", "record", "-o", out, *args)
    assert got.returncode == want.returncode == 255
    assert got.stderr == want.stderr == "failed: memory events not supported\n"
    assert not os.path.exists(out)


@pytest.fixture(scope="module")
def kernel_files(files, tmp_path_factory):
    """No kernel map (files["plain"]), a kernel placed by its _text, and
    one without _text's address (a kptr_restrict recording)."""
    out = {"none": files["plain"]}
    kernel = kallsyms(["_text", "schedule", "__start_ro_after_init"])
    if kernel:
        d = tmp_path_factory.mktemp("kernel-maps")
        for name, placed in (("placed", True), ("unplaced", False)):
            out[name] = os.path.join(str(d), name + ".data")
            perfdata_mem.write(out[name], fixture("report_work"), kernel=kernel,
                               kernel_placed=placed)
    return out


@pytest.mark.parametrize("kind", ["none", "placed", "unplaced"])
@pytest.mark.parametrize("args", [
    ["report", "--stdio"], ["report", "--stdio", "--mem-mode"], ["report", "-D"],
    ["report", "--stdio", "-q"], ["report", "--stdio", "--stats"], ["report", "--stdio", "--tasks"],
    ["mem", "report", "--stdio"]], ids=" ".join)
def test_kernel_maps_warning_matches_perf(kernel_files, kind, args):
    """perf report's "Kernel address maps ... were restricted" warning:
    for a file without the kernel's map or whose kernel samples have no
    _text to be placed by, not under -q, --stats or --tasks."""
    if kind not in kernel_files:
        pytest.skip("/proc/kallsyms hides the kernel's addresses")
    want = perf(*args, "-i", kernel_files[kind])
    got = pcl(*args, "-i", kernel_files[kind])
    assert got.returncode == want.returncode
    assert got.stderr == want.stderr, unified(want.stderr, got.stderr)
