"""pcl kvm against perf kvm 6.1.  Recording here gives the same files under
the same names and attrs (kvm:kvm_entry/kvm_exit exist but never fire on
this machine, so stat recordings and stat live's tables are empty);
report, diff and buildid-list print the same on them; and `kvm stat
report` prints perf's tables byte for byte on recordings given made-up VMX
and SVM exits (perfdata_kvm.py).
perf kvm stat prints everything on stderr."""
import os
import re
import shutil
import subprocess

import pytest

from conftest import PCL, PERF, fixture, pcl, perf, unified
from perfdata_kvm import SVM_EXITS, VMX_EXITS, add_kvm_samples, guest_run

HOST_GUEST = [[], ["--host"], ["--host", "--no-guest"], ["--guest"], ["--no-guest"]]


def no_tip(text):
    return re.sub(r"^# \(Tip: .*\)\n", "", text, flags=re.M)


def same(want, got, strip_tip=False):
    fix = no_tip if strip_tip else (lambda t: t)
    assert got.returncode == want.returncode, got.stderr
    assert fix(got.stdout) == fix(want.stdout), unified(want.stdout, got.stdout)
    assert fix(got.stderr.replace("pcl ", "perf ")) == fix(want.stderr), \
        unified(want.stderr, got.stderr)


@pytest.fixture(scope="module")
def recordings(tmp_path_factory):
    """{tool: dir} with each tool's kvm recordings of the same workloads:
    perf.data.guest.old (stat record), perf.data.guest, .kvm and .host."""
    out = {}
    for name, tool in (("perf", perf), ("pcl", pcl)):
        d = str(tmp_path_factory.mktemp("kvm-" + name))
        for flags, sub in (([], ["stat", "record"]), ([], ["record"]),
                           (["--host"], ["record"]), (["--host", "--no-guest"], ["record"])):
            workload = ["sleep", "0.1"] if sub[0] == "stat" else [fixture("burner"), "100"]
            r = tool("kvm", *flags, *sub, "-q", "--", *workload, cwd=d)
            assert r.returncode == 0, r.stderr
        out[name] = d
    return out


@pytest.mark.parametrize("name", ["perf.data.guest.old", "perf.data.guest", "perf.data.kvm",
                                  "perf.data.host"])
def test_record_names_and_attrs_match_perf(recordings, name):
    assert sorted(os.listdir(recordings["pcl"])) == sorted(os.listdir(recordings["perf"]))
    want = perf("evlist", "-v", "-i", os.path.join(recordings["perf"], name))
    got = perf("evlist", "-v", "-i", os.path.join(recordings["pcl"], name))
    assert want.returncode == got.returncode == 0
    assert got.stdout == want.stdout, unified(want.stdout, got.stdout)


def test_output_option_names_the_file(tmp_path):
    for tool in (perf, pcl):
        r = tool("kvm", "-o", str(tmp_path / (tool.__name__ + ".data")), "stat", "record", "-q",
                 "--", "true", cwd=str(tmp_path))
        assert r.returncode == 0, r.stderr
    want = perf("evlist", "-v", "-i", str(tmp_path / "perf.data"))
    got = perf("evlist", "-v", "-i", str(tmp_path / "pcl.data"))
    assert got.stdout == want.stdout


@pytest.mark.parametrize("tool", ["perf", "pcl"])
@pytest.mark.parametrize("flags", HOST_GUEST, ids=" ".join)
@pytest.mark.parametrize("args", [["report", "--stdio"], ["report", "--stdio", "-s", "dso"],
                                  ["rep", "--stdio", "-i", "perf.data.kvm"],
                                  ["buildid-list"], ["buildid-list", "-i", "perf.data.host"],
                                  ["diff"], ["diff", "perf.data.host", "perf.data.kvm"],
                                  ["diff", "perf.data.kvm"]], ids=" ".join)
def test_wrappers_match_perf(recordings, tool, flags, args):
    d = recordings[tool]
    same(perf("kvm", *flags, *args, cwd=d), pcl("kvm", *flags, *args, cwd=d), strip_tip=True)


STAT_ARGS = [
    [], ["-k", "time"], ["-k", "sample"], ["--vcpu", "0"], ["--vcpu", "1", "-k", "time"],
    ["--vcpu", "2"], ["--vcpu", "9"], ["--vcpu", "-1"],
    ["--event", "vmexit"], ["--event", "mmio"], ["--event", "mmio", "-k", "time"],
    ["--event", "mmio", "--vcpu", "1"], ["--event", "ioport"],
    ["--event", "ioport", "-k", "time", "--vcpu", "0"], ["--event", "msr"],
    ["--event", "msr", "-k", "time"], ["-p", "4242"], ["-p", "4343", "--event", "ioport"],
    ["--pid", "4242,4343", "-k", "time"], ["-p", "1"], ["-f"],
    ["-p", "abc"], ["-p", "1,1"], ["--vcpu", "-2"], ["-k", "foo"], ["--event", "foo"],
    ["-p", "x", "-k", "foo"], ["--vcpu", "-3", "-k", "foo"], ["extra"], ["--bogus"],
]


@pytest.fixture(scope="module")
def exits(recordings, tmp_path_factory):
    """{isa: path}: perf's stat recording with made-up guest runs."""
    d = tmp_path_factory.mktemp("kvm-exits")
    src = os.path.join(recordings["perf"], "perf.data.guest.old")
    out = {}
    for isa, table, cpuid, seed in (("vmx", VMX_EXITS, "GenuineIntel,6,85,7", 1),
                                    ("svm", SVM_EXITS, "AuthenticAMD,25,1,1", 2),
                                    ("hygon", SVM_EXITS, "HygonGenuine,24,0,1", 3),
                                    ("other", VMX_EXITS, "CentaurHauls,7,1,0", 4)):
        out[isa] = str(d / (isa + ".data"))
        add_kvm_samples(src, out[isa], guest_run(table, seed=seed), cpuid=cpuid)
    return out


@pytest.mark.parametrize("isa", ["vmx", "svm", "hygon", "other"])
@pytest.mark.parametrize("args", STAT_ARGS, ids=lambda a: " ".join(a) or "default")
def test_stat_report_on_exits_matches_perf(exits, isa, args):
    path = exits[isa]
    same(perf("kvm", "-i", path, "stat", "report", *args),
         pcl("kvm", "-i", path, "stat", "report", *args))


@pytest.mark.parametrize("tool", ["perf", "pcl"])
@pytest.mark.parametrize("args", STAT_ARGS, ids=lambda a: " ".join(a) or "default")
def test_stat_report_on_recordings_matches_perf(recordings, tool, args):
    """The recordings made here: empty tables."""
    d = recordings[tool]
    shutil.copy(os.path.join(d, "perf.data.guest.old"), os.path.join(d, "stat.data"))
    same(perf("kvm", "-i", "stat.data", "stat", "rep", *args, cwd=d),
         pcl("kvm", "-i", "stat.data", "stat", "rep", *args, cwd=d))


def test_every_exit_code_is_named_as_perf_names_it(recordings, tmp_path):
    """One exit of each code perf's VMX and SVM tables might name."""
    src = os.path.join(recordings["perf"], "perf.data.guest.old")
    codes = list(range(0, 0x100)) + list(range(0x400, 0x405)) + \
        list(range(0x80000000, 0x80000015)) + [0x8000fffd, 0x8000fffe, 0xffffffff]
    samples, t = [], 0
    for i, code in enumerate(codes):
        samples += [("kvm_entry", t, 7, 8, 0, {"vcpu_id": 0}),
                    ("kvm_exit", t + 100, 7, 8, 0, {"exit_reason": code, "vcpu_id": 0}),
                    ("kvm_entry", t + 1100 + i, 7, 8, 0, {"vcpu_id": 0})]
        t += 5000
    for cpuid in ("GenuineIntel,6,85,7", "AuthenticAMD,25,1,1"):
        path = str(tmp_path / "codes.data")
        add_kvm_samples(src, path, samples, cpuid=cpuid)
        for args in ([], ["-k", "time"]):
            same(perf("kvm", "-i", path, "stat", "report", *args),
                 pcl("kvm", "-i", path, "stat", "report", *args))


def test_stat_report_without_a_recording(tmp_path, recordings):
    d = str(tmp_path)
    same(perf("kvm", "stat", "report", cwd=d), pcl("kvm", "stat", "report", cwd=d))
    plain = os.path.join(recordings["perf"], "perf.data.host")
    same(perf("kvm", "-i", plain, "stat", "report"), pcl("kvm", "-i", plain, "stat", "report"))


@pytest.mark.parametrize("args", [[], ["foo"], ["--host"], ["-h"], ["stat", "report", "-h"]],
                         ids=lambda a: " ".join(a) or "none")
def test_usage_matches_perf(tmp_path, args):
    want = perf("kvm", *args, cwd=str(tmp_path))
    got = pcl("kvm", *args, cwd=str(tmp_path))
    assert got.returncode == want.returncode
    assert got.stderr.replace("pcl ", "perf ") == want.stderr, unified(want.stderr, got.stderr)


@pytest.mark.parametrize("flags", HOST_GUEST, ids=" ".join)
@pytest.mark.parametrize("events", [[], ["-d"], ["-e", "task-clock,cpu-clock:u"]], ids=" ".join)
def test_stat_alias_names_events_as_perf(flags, events):
    """kvm stat with a command is perf stat counting guests: the default
    events get perf's :G / :HG names."""
    names = []
    for tool in (perf, pcl):
        r = tool("kvm", *flags, "stat", *events, "-x,", "true")
        assert r.returncode == 0, r.stderr
        names.append([line.split(",")[2] for line in r.stderr.splitlines() if "," in line])
    assert names[1] == names[0]


def first_live_table(tool_path, args):
    """stat live's first table on stderr (perf's run never stops on SIGINT
    here, so both are killed), the time of day masked."""
    r = subprocess.run(["timeout", "-s", "KILL", "4", tool_path, "kvm", "stat", "live", *args],
                       capture_output=True, text=True)
    text = re.sub(r"^\d\d:\d\d:\d\d\.\d{6}", "TIME", r.stderr, flags=re.M)
    end = text.find("Total events handled time")
    assert end > 0, text
    return text[:text.index("\n\n", end) + 2]


@pytest.mark.parametrize("args", [[], ["-d", "1", "--event", "ioport", "-k", "time"],
                                  ["-p", "1", "--vcpu", "0", "--event", "mmio"],
                                  ["-a", "--event", "msr", "-m", "64"]], ids=" ".join)
def test_stat_live_table_matches_perf(args):
    assert first_live_table(PCL, args) == first_live_table(PERF, args)


@pytest.mark.parametrize("args", [["-k", "foo"], ["--vcpu", "-2"], ["--event", "foo"],
                                  ["extra"], ["--bogus"]], ids=" ".join)
def test_stat_live_errors_match_perf(args):
    same(perf("kvm", "stat", "live", *args), pcl("kvm", "stat", "live", *args))


def test_stat_live_stops_on_sigint_with_a_last_table():
    r = subprocess.run(["timeout", "--preserve-status", "-s", "INT", "1.5", PCL, "kvm", "stat",
                        "live", "-d", "30"], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert r.stderr.endswith("Total Samples:0, Total events handled time:0.00us.\n\n")
    assert r.stderr.count("Analyze events for all VMs, all VCPUs:") == 1


def top_headers(argv0, flags, nr_screens=1):
    """The first lines of `kvm FLAGS top --stdio -d 1` screens, stopped by
    SIGINT after nr_screens of them (perf redraws without end when its
    input is not a terminal, so only the first screen, which comes before
    any sample, is the same every time)."""
    import select
    import signal
    import time
    p = subprocess.Popen([argv0, "kvm", *flags, "top", "--stdio", "-d", "1"],
                         stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    out, deadline = b"", time.monotonic() + 60
    while out.count(b"\x1b[H\x1b[2J") <= nr_screens and time.monotonic() < deadline:
        if select.select([p.stdout], [], [], 1)[0]:
            chunk = os.read(p.stdout.fileno(), 65536)
            if not chunk:
                break
            out += chunk
            if len(out) > 1 << 20:
                break
    p.send_signal(signal.SIGINT)
    rest, _ = p.communicate(timeout=60)
    screens = (out + rest).decode(errors="replace").split("\x1b[H\x1b[2J")[1:nr_screens + 1]
    return [s.split("\n")[1] for s in screens], p.returncode


@pytest.mark.parametrize("flags", [[], ["--guest"], ["--host"], ["--host", "--no-guest"]],
                         ids=lambda f: " ".join(f) or "default")
def test_top_header_matches_perf(flags):
    """kvm top is top on the guests' events: perf's header with each side's
    share (-nan without samples) and cpu-clock:pppG; --host --no-guest is
    plain top's header."""
    want, want_rc = top_headers(PERF, flags)
    got, got_rc = top_headers(PCL, flags)
    assert got_rc == want_rc
    assert len(want) == 1 and got == want


def test_top_usage_matches_perf():
    want, got = perf("kvm", "top", "--bogus"), pcl("kvm", "top", "--bogus")
    assert got.returncode == want.returncode
    assert got.stderr.splitlines()[:3] == [s.replace("perf", "pcl")
                                           for s in want.stderr.splitlines()[:3]]


# ---- guests' samples: perf's default guest machine --------------------------
# No guest runs here: perfdata_guest.py writes what perf kvm record would
# of running ones (guest kernel and user samples, the guest kernel's map).

@pytest.fixture(scope="module")
def guest_files(tmp_path_factory):
    import perfdata_guest
    d = tmp_path_factory.mktemp("guest")
    perfdata_guest.write(str(d / "perf.data.guest"))
    perfdata_guest.write(str(d / "other.data"), nr=90, seed=3)
    (d / "kallsyms").write_text(perfdata_guest.KALLSYMS)
    (d / "mount" / "4242" / "proc").mkdir(parents=True)
    (d / "mount" / "4242" / "proc" / "kallsyms").write_text(perfdata_guest.KALLSYMS)
    return str(d)


GUEST_SYMBOLS = [[], ["--guestkallsyms", "kallsyms"],
                 ["--guestvmlinux", "/nonexistent", "--guestkallsyms", "kallsyms"],
                 ["--guestmount", "mount", "--guestmodules", "/nonexistent"]]
GUEST_ARGS = [["report", "--stdio"], ["report", "--stdio", "-s", "dso,sym"],
              ["report", "--stdio", "-s", "comm,pid"], ["report", "--stdio", "-n", "-s", "cpu,sym"],
              ["buildid-list"], ["diff", "perf.data.guest", "other.data"],
              ["diff", "other.data", "perf.data.guest"]]


@pytest.mark.parametrize("flags", HOST_GUEST, ids=lambda f: " ".join(f) or "default")
@pytest.mark.parametrize("symbols", GUEST_SYMBOLS, ids=lambda f: " ".join(f) or "nosyms")
@pytest.mark.parametrize("args", GUEST_ARGS, ids=" ".join)
def test_guest_samples_match_perf(guest_files, flags, symbols, args):
    """Guest kernel samples in "[guest.kernel.kallsyms]" ([g]), named from
    --guestkallsyms (the map shrunk to its symbols), guest user ones [u],
    the vCPU threads nameless in the guest's machine; all of it host-side
    ([H], filtered) with --host --no-guest."""
    d, where = guest_files, ["-i", "perf.data.guest"]
    same(perf("kvm", *flags, *symbols, *where, *args, cwd=d),
         pcl("kvm", *flags, *symbols, *where, *args, cwd=d), strip_tip=True)


@pytest.mark.parametrize("symbols", GUEST_SYMBOLS[:2], ids=lambda f: " ".join(f) or "nosyms")
def test_guest_symbol_origin_matches_perf(guest_files, symbols):
    """-v: the symbols' origin, g for a guest's kallsyms, ! without one."""
    args = ["kvm", *symbols, "report", "--stdio", "-v", "-s", "sym,dso"]
    want, got = perf(*args, cwd=guest_files), pcl(*args, cwd=guest_files)
    assert got.returncode == want.returncode == 0
    assert no_tip(got.stdout) == no_tip(want.stdout), unified(want.stdout, got.stdout)


def test_guest_samples_were_resolved(guest_files):
    r = perf("kvm", "--guestkallsyms", "kallsyms", "report", "--stdio", cwd=guest_files)
    assert "[g] start_kernel" in r.stdout and "[u] 0x" in r.stdout


# ---- --guest-code: the guest's code is the hypervisor process's own ---------

@pytest.fixture(scope="module")
def guest_code_files(tmp_path_factory):
    import perfdata_guest
    d = tmp_path_factory.mktemp("guest-code")
    perfdata_guest.write(str(d / "perf.data.guest"), guest_code=fixture("annotate_work"))
    perfdata_guest.write(str(d / "unnamed.data"), guest_code=fixture("annotate_work"),
                         unnamed=True)
    return str(d)


GUEST_CODE_ARGS = [
    ["kvm", "--guest-code", "-i", "perf.data.guest", "report", "--stdio"],
    ["kvm", "--guest-code", "--guest", "-i", "perf.data.guest", "report", "--stdio", "-s",
     "pid,comm"],
    ["kvm", "--guest-code", "-i", "perf.data.guest", "report", "--stdio", "-s", "dso,sym"],
    ["kvm", "--guest-code", "-i", "perf.data.guest", "report", "--stdio", "-s", "sym",
     "--no-children", "-n"],
    ["kvm", "--guest-code", "--host", "-i", "perf.data.guest", "report", "--stdio"],
    ["kvm", "--guest-code", "-i", "perf.data.guest", "report", "--stdio", "--comms",
     "[guest/4242]"],
    ["script", "--guest-code", "-i", "perf.data.guest"],
    ["script", "--guest-code", "-i", "perf.data.guest", "-F", "comm,pid,tid,ip,sym,symoff,dso"],
    ["script", "-i", "perf.data.guest"],
    ["script", "-i", "perf.data.guest", "-F", "comm,tid,cpu,ip,sym"],
]


@pytest.mark.parametrize("args", GUEST_CODE_ARGS, ids=" ".join)
def test_guest_code_matches_perf(guest_code_files, args):
    """--guest-code: a guest machine per QEMU process, its samples all in
    one thread "[guest/PID]" whose maps are the process's own (the guest
    user sample at 0x401234 lands in the binary it maps there), no guest
    kernel symbols.  Without it script shows only the host's samples."""
    got, want = pcl(*args, cwd=guest_code_files), perf(*args, cwd=guest_code_files)
    same(want, got, strip_tip=True)


def test_guest_code_resolves_the_hypervisors_binary(guest_code_files):
    r = pcl("script", "--guest-code", "-i", "perf.data.guest", "-F", "comm,ip,sym,dso",
            cwd=guest_code_files)
    assert r.returncode == 0, r.stderr
    assert re.search(r"\[guest/4242\] +401234 \S+ \(.*annotate_work\)", r.stdout), r.stdout
    assert "[guest/5353]" in r.stdout


@pytest.mark.parametrize("args", [["script", "--guest-code", "-i", "unnamed.data"],
                                  ["kvm", "--guest-code", "-i", "unnamed.data", "report",
                                   "--stdio"]], ids=" ".join)
def test_guest_code_of_an_unknown_process_fails(guest_code_files, args):
    """A guest sample of a process the file never named: perf stops at
    it, with what it printed so far ("problem processing 9 event" in
    script, "failed to process sample" in report); pcl too, naming the
    process.  perf kvm report then exits 0, pcl 1."""
    got, want = pcl(*args, cwd=guest_code_files), perf(*args, cwd=guest_code_files)
    assert got.stdout == want.stdout, unified(want.stdout, got.stdout)
    assert ("problem processing 9 event" if args[0] == "script" else
            "failed to process sample") in want.stderr
    assert "failed to process sample" in got.stderr and "process 6000" in got.stderr
    assert got.returncode == (want.returncode if args[0] == "script" else 1)


def test_folding_leaves_guests_out(guest_code_files):
    """collapse/flamegraph fold what perf script prints: the host's
    samples only (their periods by comm, the stacks one frame deep)."""
    got = pcl("collapse", "-i", "perf.data.guest", cwd=guest_code_files)
    want = perf("script", "-i", "perf.data.guest", "-F", "comm,period", cwd=guest_code_files)
    assert got.returncode == want.returncode == 0, got.stderr
    periods = {}
    for line in want.stdout.splitlines():
        comm, period = line.rsplit(None, 1)
        key = comm.strip().replace(" ", "_")
        periods[key] = periods.get(key, 0) + int(period)
    folded = {line.split(";")[0]: int(line.rsplit(" ", 1)[1]) for line in got.stdout.splitlines()}
    assert folded == periods and len(periods) == 2


def guest_maps(path):
    """The guest kernel MMAP records of a recording, as perf dumps them."""
    r = perf("script", "-D", "-i", path)
    return [re.sub(r"^\d+ 0x[0-9a-f]+ ", "", line) for line in r.stdout.splitlines()
            if re.search(r"PERF_RECORD_MMAP \d+/0: .*(\[guest\.kernel|x \[\w+\]$)", line)]


@pytest.mark.parametrize("flags", [["--guestkallsyms", "kallsyms"], ["--guestmount", "mount"],
                                   ["--guestkallsyms", "kallsyms", "--guestmount", "mount"],
                                   ["--guestkallsyms", "kallsyms", "--guestmodules", "modules"],
                                   ["--guestkallsyms", "kallsyms", "--guestmodules", "/none"],
                                   ["--host", "--guestkallsyms", "kallsyms"],
                                   ["--host", "--no-guest", "--guestkallsyms", "kallsyms"]],
                         ids=" ".join)
def test_record_guest_kernel_maps_match_perf(guest_files, tmp_path, flags):
    """kvm record gives each guest machine perf knows of its module maps,
    by address, and its kernel map (up to the next module without _etext):
    the default guest's from --guestkallsyms and --guestmodules, one per
    PID directory of --guestmount (named after _text, or _stext without)."""
    mount = os.path.join(guest_files, "mount")
    modules = "bar 8192 1 foo_mod, Live 0xffffffffc0100000 (O)\nfoo_mod 16384 0 - Live " \
              "0xffffffffc0001000\n"
    for path in (os.path.join(guest_files, "modules"),
                 os.path.join(mount, "4242", "proc", "modules")):
        with open(path, "w") as f:
            f.write(modules)
    os.makedirs(os.path.join(mount, "77", "proc"), exist_ok=True)
    os.makedirs(os.path.join(mount, "notapid"), exist_ok=True)
    with open(os.path.join(mount, "77", "proc", "kallsyms"), "w") as f:
        f.write("ffffffff82000000 T _stext\nffffffff82100000 T _etext\n")
    flags = [os.path.join(guest_files, f) if f in ("kallsyms", "mount", "modules") else f
             for f in flags]
    out = {}
    for name, tool in (("perf", perf), ("pcl", pcl)):
        path = str(tmp_path / (name + ".data"))
        r = tool("kvm", *flags, "record", "-q", "-o", path, "--", "true")
        assert r.returncode == 0, r.stderr
        out[name] = guest_maps(path)
    assert out["pcl"] == out["perf"]
    assert bool(out["perf"]) == ("--no-guest" not in flags)
