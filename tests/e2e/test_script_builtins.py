"""pcl script's built-in scripts (-l, record NAME, report NAME, -s NAME)
against perf 6.1 running its own Python and Perl scripts on the same
recordings of tests/fixtures/script_work.c.

Debian's perf lacks Python's audit module, so its syscall scripts print a
warning and syscall numbers: the tests drop the warning and name the
numbers from the kernel headers before comparing.  Two scripts no longer
fit this kernel's tracepoints (wakeup-latency reads the removed `success`
field of sched_wakeup, net_dropmonitor's handler misses kfree_skb's new
`reason`): perf runs copies of them with the handler's arguments fixed."""
import os
import re
import shutil
import tempfile

import pytest

from conftest import PCL, fixture, pcl, perf, run, unified

SCRIPTS = "/usr/lib/perf-core/scripts"
UNISTD = "/usr/include/x86_64-linux-gnu/asm/unistd_64.h"
ROUNDS = 100	# script_work's default


def syscall_names():
    names = {}
    with open(UNISTD) as f:
        for line in f:
            m = re.match(r"#define __NR_(\w+)\s+(\d+)$", line.strip())
            if m:
                names.setdefault(int(m.group(2)), m.group(1))
    return names


def strip_audit_warning(text):
    """perf's Util.py warns (on stdout) that it cannot name syscalls."""
    return re.sub(r"Install the audit-libs-python package.*?  etc\.\n\n", "", text,
                  flags=re.S)


def name_syscalls(text):
    """perf's syscall numbers replaced by names, in its column widths."""
    names = syscall_names()

    def row(m):
        indent, nr, width, rest = m.group(1), int(m.group(2)), len(m.group(3)), m.group(4)
        name = names.get(nr, str(nr))
        return indent + name.ljust(len(m.group(2)) + width) + rest

    out = []
    for line in text.splitlines(True):
        line = re.sub(r"^(  syscall: )(\d+)( *)(\n)$", row, line)
        line = re.sub(r"^(  |)(\d+)( +)(  +\d+\n)$", row, line)
        out.append(line)
    return "".join(out)


def perf_script(path, script, *args, lang="python"):
    r = perf("script", "-i", path, "-s", script if os.path.isabs(script)
             else f"{SCRIPTS}/{lang}/{script}", *args)
    assert r.returncode == 0, r.stderr
    return r.stdout


@pytest.fixture(scope="module")
def rec():
    d = tempfile.mkdtemp(prefix="pcl-scriptbi-")
    work = fixture("script_work")

    def record(name, *events):
        path = os.path.join(d, name + ".data")
        r = perf("record", "-q", "-o", path, *events, "--", work)
        assert r.returncode == 0, r.stderr
        return path

    rw = ["-e", "syscalls:sys_enter_read", "-e", "syscalls:sys_exit_read",
          "-e", "syscalls:sys_enter_write", "-e", "syscalls:sys_exit_write"]
    files = {
        "enter": record("enter", "-e", "raw_syscalls:sys_enter"),
        "exit": record("exit", "-e", "raw_syscalls:sys_exit"),
        "rw": record("rw", *rw),
        "futex": record("futex", "-e", "syscalls:sys_enter_futex",
                        "-e", "syscalls:sys_exit_futex"),
        "drop": record("drop", "-e", "skb:kfree_skb"),
        "dir": d,
    }
    path = os.path.join(d, "wake.data")
    r = perf("record", "-q", "-o", path, "-e", "sched:sched_switch", "-e",
             "sched:sched_wakeup", "--", "sh", "-c", "for i in 1 2 3 4 5; do sleep 0.01; done")
    assert r.returncode == 0, r.stderr
    files["wake"] = path
    yield files
    shutil.rmtree(d, ignore_errors=True)


def report(path, name, *args):
    r = pcl("script", "report", name, *args, "-i", path)
    assert r.returncode == 0, r.stderr
    return r.stdout


def test_list_is_perfs():
    want = perf("script", "-l")
    got = pcl("script", "-l")
    assert got.returncode == 0
    assert got.stdout == want.stdout, unified(want.stdout, got.stdout)


@pytest.mark.parametrize("args", [[], ["script_work"], ["nosuchcomm"]], ids=str)
def test_syscall_counts(rec, args):
    want = name_syscalls(strip_audit_warning(
        perf_script(rec["enter"], "syscall-counts.py", *args)))
    got = report(rec["enter"], "syscall-counts", *args)
    assert got == want, unified(want, got)


def test_other_architectures_keep_numbers(rec, tmp_path):
    """the names are this machine's: a file of another architecture (its
    header says ppc64 here) keeps perf's numbers"""
    with open(rec["exit"], "rb") as f:
        data = f.read()
    assert data.count(b"x86_64\x00") == 1	# the arch feature's string
    path = str(tmp_path / "ppc64.data")
    with open(path, "wb") as f:
        f.write(data.replace(b"x86_64\x00", b"ppc64\x00\x00"))
    want = strip_audit_warning(perf_script(path, "failed-syscalls-by-pid.py"))
    got = report(path, "failed-syscalls-by-pid")
    assert got == want, unified(want, got)
    assert "syscall: 3 " in got


@pytest.mark.parametrize("args", [[], ["script_work"]], ids=str)
def test_syscall_counts_by_pid(rec, args):
    want = name_syscalls(strip_audit_warning(
        perf_script(rec["enter"], "syscall-counts-by-pid.py", *args)))
    got = report(rec["enter"], "syscall-counts-by-pid", *args)
    assert got == want, unified(want, got)
    if not args:
        assert re.search(r"^  write +%d$" % ROUNDS, got, re.M), got


def test_failed_syscalls_by_pid(rec):
    want = name_syscalls(strip_audit_warning(
        perf_script(rec["exit"], "failed-syscalls-by-pid.py")))
    got = report(rec["exit"], "failed-syscalls-by-pid")
    assert got == want, unified(want, got)
    # the workload's own failures, exactly
    assert re.search(r"syscall: close +\n    err = EBADF +%d\n" % ROUNDS, got), got
    assert re.search(r"syscall: openat +\n    err = ENOENT +%d\n" % ROUNDS, got), got
    assert re.search(r"syscall: read +\n    err = EBADF +%d\n" % (ROUNDS // 10), got), got


def test_failed_syscalls_by_pid_filters(rec):
    pid = re.search(r"^script_work \[(\d+)\]$", report(rec["exit"], "failed-syscalls-by-pid"),
                    re.M).group(1)
    for arg in ("script_work", pid, "nosuchcomm"):
        want = name_syscalls(strip_audit_warning(
            perf_script(rec["exit"], "failed-syscalls-by-pid.py", arg)))
        got = pcl("script", "-i", rec["exit"], "-s", "failed-syscalls-by-pid", arg).stdout
        assert got == want, unified(want, got)


@pytest.mark.parametrize("args", [[], ["script_work"], ["nosuchcomm"]], ids=str)
def test_failed_syscalls(rec, args):
    want = perf_script(rec["exit"], "failed-syscalls.pl", *args, lang="perl")
    got = report(rec["exit"], "failed-syscalls", *args)
    assert got == want, unified(want, got)
    if not args:
        # close, openat, read and futex of the loop and the loader's access()
        assert re.search(r"^script_work +%d$" % (2 * ROUNDS + 2 * (ROUNDS // 10) + 1), got,
                         re.M), got


def test_rw_by_pid(rec):
    want = perf_script(rec["rw"], "rw-by-pid.pl", lang="perl")
    got = report(rec["rw"], "rw-by-pid")
    assert got == want, unified(want, got)
    assert re.search(r"^ *\d+  script_work +%d +%d$" % (ROUNDS, 64 * ROUNDS), got, re.M), got
    assert re.search(r"^ *\d+  script_work +-9 +%d$" % (ROUNDS // 10), got, re.M), got


def split_unhandled(text):
    """The text before the unhandled-events table and that table's rows as a
    set (Perl lists them in hash order)."""
    head, sep, tail = text.partition("\nunhandled events:\n")
    return head, set(tail.splitlines())


def test_rw_by_file(rec):
    want = perf_script(rec["rw"], "rw-by-file.pl", "script_work", lang="perl")
    got = report(rec["rw"], "rw-by-file", "script_work")
    assert split_unhandled(got) == split_unhandled(want), unified(want, got)
    assert re.search(r"^ +\d+ +%d +%d$" % (ROUNDS, 64 * ROUNDS), got, re.M), got


def test_rw_by_file_needs_a_comm(rec):
    r = pcl("script", "report", "rw-by-file", "-i", rec["rw"])
    assert r.returncode != 0 and "rw-by-file <comm>" in r.stderr


def test_futex_contention(rec):
    want = strip_audit_warning(perf_script(rec["futex"], "futex-contention.py"))
    got = report(rec["futex"], "futex-contention")
    assert got == want, unified(want, got)
    assert re.search(r"^script_work\[\d+\] lock [0-9a-f]+ contended %d times" % (ROUNDS // 10),
                     got, re.M), got


def fixed_copy(d, src, old, new):
    """A copy of one of perf's scripts with its handler's arguments fixed."""
    with open(src) as f:
        text = f.read()
    assert old in text
    path = os.path.join(d, os.path.basename(src))
    with open(path, "w") as f:
        f.write(text.replace(old, new))
    return path


def test_net_dropmonitor(rec):
    script = fixed_copy(rec["dir"], f"{SCRIPTS}/python/net_dropmonitor.py",
                        "skbaddr, location, protocol):", "skbaddr, location, protocol, *rest):")
    want = strip_audit_warning(perf_script(rec["drop"], script))
    got = report(rec["drop"], "net_dropmonitor")
    assert got == want, unified(want, got)
    counts = [int(line.split()[-1]) for line in got.splitlines()[3:]]
    assert sum(counts) >= ROUNDS // 10, got


def test_wakeup_latency(rec):
    script = fixed_copy(rec["dir"], f"{SCRIPTS}/perl/wakeup-latency.pl",
                        "$comm, $pid, $prio, $success, $target_cpu",
                        "$comm, $pid, $prio, $target_cpu")
    want = perf_script(rec["wake"], script)
    got = report(rec["wake"], "wakeup-latency")
    assert got == want, unified(want, got)
    assert not re.search(r"^total_wakeups: 0$", got, re.M), got


def test_rwtop_last_screen(rec):
    """perf's rwtop prints from a timer of the report's wall clock, and its
    last screen at the end: pcl's last screen is that one."""
    want = perf_script(rec["rw"], "rwtop.pl", lang="perl")
    got = report(rec["rw"], "rwtop")
    assert got.startswith("\x1b[H\x1b[2J\nread counts by pid:\n")
    last = got.rsplit("\x1b[H\x1b[2J", 1)[1]
    assert last == want.rsplit("\x1b[H\x1b[2J", 1)[1], unified(want, got)
    assert re.search(r"^ *\d+  script_work +%d +%d$" % (ROUNDS, 64 * ROUNDS), last, re.M)


def test_sctop_screens(tmp_path):
    """sctop 1 on a recording of ~2.4 s: a screen per second of it that has
    syscalls after it, and the last one; together they count every syscall."""
    path = str(tmp_path / "sc.data")
    r = pcl("script", "record", "sctop", "-q", "-o", path, "--", "sh", "-c",
            "sleep 1.2; sleep 1.2")
    assert r.returncode == 0, r.stderr
    got = report(path, "sctop", "1")
    screens = got.split("\x1b[H\x1b[2J\n")[1:]
    assert len(screens) >= 3, got
    for screen in screens:
        assert screen.startswith("\nsyscall events:\n\n%-40s  %10s\n%-40s  %10s\n" % (
            "event", "count", "-" * 40, "-" * 10)), screen
    total = sum(int(line.split()[-1]) for screen in screens
                for line in screen.splitlines()[5:])
    counts = report(path, "syscall-counts")
    assert total == sum(int(line.split()[-1]) for line in counts.splitlines()[6:])
    assert pcl("script", "report", "sctop", "sh", "1", "-i", path).stdout.count("\x1b") >= 3


@pytest.fixture(scope="module")
def compaction(rec):
    path = os.path.join(rec["dir"], "compaction.data")
    events = []
    for e in ("begin", "end", "migratepages", "isolate_migratepages", "isolate_freepages"):
        events += ["-e", "compaction:mm_compaction_" + e]
    r = perf("record", "-q", "-o", path, *events, "--", "sh", "-c",
             "echo 1 > /proc/sys/vm/compact_memory")
    if r.returncode:
        pytest.skip("cannot compact memory here: " + r.stderr)
    return path


@pytest.mark.parametrize("args", [[], ["-pv", "-u"], ["-p", "-t"], ["-m", "-fs"],
                                  ["-p", "-ms", "sh"], ["-pv", "1-2"], ["-p", "nosuch"]],
                         ids=str)
def test_compaction_times(compaction, args):
    want = perf("script", "-i", compaction, "-s", f"{SCRIPTS}/python/compaction-times.py",
                "--", *args)
    got = pcl("script", "report", "compaction-times", *args, "-i", compaction)
    assert (got.returncode, got.stdout) == (want.returncode, want.stdout), \
        unified(want.stdout, got.stdout)
    assert got.stdout.startswith("total: ")


def test_mem_phys_addr(rec):
    path = os.path.join(rec["dir"], "phys.data")
    r = perf("record", "-q", "-o", path, "--phys-data", "-d", "-e", "page-faults", "-c", "1",
             "--", fixture("script_work"))
    assert r.returncode == 0, r.stderr
    want = perf_script(path, "mem-phys-addr.py")
    got = report(path, "mem-phys-addr")
    assert got == want, unified(want, got)
    assert got.startswith("Event: page-faults\n")


def test_mem_phys_addr_record_needs_the_loads_event():
    if re.search(r"mem_(inst|uops)_retired\.all_loads", perf("list").stdout):
        pytest.skip("this CPU has the loads event")
    r = pcl("script", "record", "mem-phys-addr", "true")
    assert r.returncode != 0
    assert r.stdout == "There is no event to count all retired load instructions/uops.\n"


def test_event_analyzing_sample(tmp_path):
    """perf's script keeps its tables in /dev/shm/perf.db and adds to them
    run after run: it starts from none here."""
    path = str(tmp_path / "cycles.data")
    r = perf("record", "-q", "-o", path, "-F", "2000", "--", "sh", "-c",
             fixture("threads") + "; ls -R /usr/lib >/dev/null")
    assert r.returncode == 0, r.stderr
    if os.path.exists("/dev/shm/perf.db"):
        os.unlink("/dev/shm/perf.db")
    try:
        want = perf_script(path, "event_analyzing_sample.py")
    finally:
        os.unlink("/dev/shm/perf.db")
    got = report(path, "event_analyzing_sample")
    assert got == want, unified(want, got)
    assert "records in gen_events table" in got


@pytest.mark.parametrize("name", ["enter", "exit", "rw", "drop", "wake"])
def test_event_analyzing_sample_dumps_tracepoints(rec, name):
    """tracepoint samples (without callchains) go to the script's
    trace_unhandled: their fields as perf's Python hands them over"""
    if os.path.exists("/dev/shm/perf.db"):
        os.unlink("/dev/shm/perf.db")
    try:
        want = perf_script(rec[name], "event_analyzing_sample.py")
    finally:
        os.unlink("/dev/shm/perf.db")
    got = report(rec[name], "event_analyzing_sample")
    assert got == want, unified(want, got)
    assert "common_callchain=[] common_comm=" in got


NETDEV_EVENTS = ["net:net_dev_xmit", "net:net_dev_queue", "net:netif_receive_skb",
                 "net:netif_rx", "skb:consume_skb", "skb:kfree_skb",
                 "skb:skb_copy_datagram_iovec", "napi:napi_poll", "irq:irq_handler_entry",
                 "irq:irq_handler_exit", "irq:softirq_entry", "irq:softirq_exit",
                 "irq:softirq_raise"]


@pytest.fixture(scope="module")
def netdev(rec):
    """A system-wide recording of the network events over loopback traffic
    (and whatever else the machine sends meanwhile), recorded by pcl."""
    path = os.path.join(rec["dir"], "netdev.data")
    r = pcl("script", "record", "netdev-times", "-q", "-a", "-o", path, "--", "sh", "-c",
            fixture("script_work") + "; " + fixture("script_work") + "; sleep 0.3")
    assert r.returncode == 0, r.stderr
    evlist = [e for e in events(path) if e != "dummy:HG"]	# the side-band event of -a
    assert evlist == NETDEV_EVENTS, evlist
    # perf's handlers of kfree_skb and consume_skb miss these fields: fixed copy
    script = fixed_copy(rec["dir"], f"{SCRIPTS}/python/netdev-times.py",
                        "skbaddr, protocol, location):", "skbaddr, protocol, location, *rest):")
    with open(script) as f:
        text = f.read()
    with open(script, "w") as f:
        f.write(text.replace("callchain, skbaddr):", "callchain, skbaddr, *rest):"))
    return path, script


@pytest.mark.parametrize("args", [[], ["rx"], ["tx", "debug"], ["dev=lo"], ["dev=nosuch"]],
                         ids=str)
def test_netdev_times(netdev, args):
    path, script = netdev
    want = strip_audit_warning(perf_script(path, script, *args))
    got = report(path, "netdev-times", *args)
    assert got == want, unified(want, got)


def test_sched_migration_page(tmp_path):
    """perf's script needs wxPython; pcl writes the runqueues as an SVG page."""
    import xml.etree.ElementTree as ET
    path, page = str(tmp_path / "sm.data"), str(tmp_path / "sm.html")
    r = pcl("script", "record", "sched-migration", "-q", "-a", "-o", path, "--",
            fixture("threads"), "2", "100")
    assert r.returncode == 0, r.stderr
    assert [e for e in events(path) if e != "dummy:HG"] == [
        "sched:sched_wakeup", "sched:sched_wakeup_new", "sched:sched_switch",
        "sched:sched_migrate_task"]
    r = pcl("script", "report", "sched-migration", page, "-i", path)
    assert r.returncode == 0, r.stderr
    assert "wrote " + page in r.stderr
    with open(page) as f:
        html = f.read()
    svg = ET.fromstring(html[html.index("<svg"):html.index("</svg>") + 6])
    ns = "{http://www.w3.org/2000/svg}"
    labels = [t.text for t in svg.iter(ns + "text")]
    assert labels and labels[0] == "CPU 0"
    titles = [t.text for t in svg.iter(ns + "title")]
    assert titles and all(t.startswith("CPU: ") and "\nLoad = " in t for t in titles)
    # the workload's threads were queued somewhere
    assert any(re.search(r"^threads:\d+ $", t, re.M) for t in titles)


@pytest.mark.parametrize("opts", [["-C", "0"], ["-C", "1"], ["-c", "script_work"],
                                  ["-c", "nosuch"], ["--time", "0,"]], ids=" ".join)
def test_perf_script_filters(rec, opts):
    """pcl script's sample filters apply to the built-ins as perf's to its scripts."""
    want = name_syscalls(strip_audit_warning(
        perf_script(rec["exit"], "failed-syscalls-by-pid.py", *opts)))
    got = report(rec["exit"], "failed-syscalls-by-pid", *opts)
    assert got == want, unified(want, got)


def test_s_and_report_agree(rec):
    a = pcl("script", "-i", rec["enter"], "-s", "syscall-counts", "script_work")
    b = pcl("script", "report", "syscall-counts", "script_work", "-i", rec["enter"])
    assert a.returncode == b.returncode == 0
    assert a.stdout == b.stdout


def events(path):
    """The events perf's evlist finds in the file."""
    return [line for line in perf("evlist", "-i", path).stdout.splitlines()
            if not line.startswith("#")]


def test_record_uses_perfs_events(rec, tmp_path):
    """pcl script record NAME records what perf's NAME-record does: perf's
    script reads pcl's file and agrees with pcl's report of it."""
    path = str(tmp_path / "pcl.data")
    r = pcl("script", "record", "failed-syscalls-by-pid", "-q", "-o", path, "--",
            fixture("script_work"))
    assert r.returncode == 0, r.stderr
    assert events(path) == ["raw_syscalls:sys_exit"]
    want = name_syscalls(strip_audit_warning(perf_script(path, "failed-syscalls-by-pid.py")))
    got = report(path, "failed-syscalls-by-pid")
    assert got == want, unified(want, got)


RECORDED = ["rwtop", "rw-by-pid", "wakeup-latency", "failed-syscalls", "rw-by-file",
            "sched-migration", "export-to-sqlite", "net_dropmonitor", "sctop",
            "compaction-times", "syscall-counts-by-pid", "syscall-counts", "futex-contention",
            "flamegraph", "failed-syscalls-by-pid", "event_analyzing_sample", "stackcollapse",
            "netdev-times", "export-to-postgresql"]


@pytest.mark.parametrize("name", RECORDED)
def test_record_as_perfs_record_script(name, tmp_path):
    """pcl script record NAME and perf script record NAME record the same
    events with the same attributes (up to what differs between any two
    recordings: ids, the file's own sizes)."""
    mine, theirs = str(tmp_path / "pcl.data"), str(tmp_path / "perf.data")
    r = pcl("script", "record", name, "-q", "-o", mine, "true")
    assert r.returncode == 0, r.stderr
    r = perf("script", "record", name, "-q", "-o", theirs, "true")
    assert r.returncode == 0, r.stderr

    def attrs(path):
        out = perf("evlist", "-v", "-i", path).stdout
        return [re.sub(r", id: \{[^}]*\}", "", line) for line in out.splitlines()
                if not line.startswith("#")]
    assert attrs(mine) == attrs(theirs)


def test_record_rw_by_pid_events(tmp_path):
    path = str(tmp_path / "pcl.data")
    r = pcl("script", "record", "rw-by-pid", "-q", "-o", path, "--", "true")
    assert r.returncode == 0, r.stderr
    assert events(path) == [
        "syscalls:sys_enter_read", "syscalls:sys_exit_read", "syscalls:sys_enter_write",
        "syscalls:sys_exit_write"]


def test_intel_pt_record_needs_the_event():
    r = pcl("script", "record", "intel-pt-events", "true")
    assert r.returncode != 0
    assert r.stdout.startswith("Options must include the Intel PT event")


@pytest.mark.parametrize("name,first", [
    ("intel-pt-events", "Intel PT Branch Trace, Power Events, Event Trace and PTWRITE\n"),
    ("powerpc-hcalls", "hcall                            count   min(ns)   max(ns)   avg(ns)\n")])
def test_data_that_cannot_exist(rec, name, first):
    r = pcl("script", "report", name, "-i", rec["enter"])
    assert r.returncode == 0
    assert r.stdout.startswith(first)
    assert name in r.stderr


@pytest.fixture(scope="module")
def callgraphs(rec):
    """-g and --call-graph dwarf recordings of a fixture with deep stacks."""
    paths = {}
    for mode in ("fp", "dwarf"):
        path = os.path.join(rec["dir"], mode + ".data")
        r = perf("record", "-q", "--call-graph", mode, "-F", "500", "-o", path, "--",
                 fixture("burner"))
        assert r.returncode == 0, r.stderr
        paths[mode] = path
    return paths


@pytest.mark.parametrize("mode", ["fp", "dwarf"])
@pytest.mark.parametrize("args", [[], ["--kernel"], ["--include-pid", "--include-tid"],
                                  ["--no-comm"], ["--tidy-java"]], ids=str)
def test_stackcollapse(callgraphs, mode, args):
    path = callgraphs[mode]
    want = perf("script", "-i", path, "-s", f"{SCRIPTS}/python/stackcollapse.py", "--", *args)
    assert want.returncode == 0, want.stderr
    got = report(path, "stackcollapse", *args)
    assert got == want.stdout, unified(want.stdout, got)
    assert re.search(r";main;", got) or "--no-comm" in args


def test_stackcollapse_of_tracepoints_and_plain_samples(rec):
    """tracepoints have a handler of their own (none here): nothing;
    samples without callchains: the comm alone"""
    assert report(rec["enter"], "stackcollapse") == ""
    want = perf("script", "-i", rec["enter"], "-s", f"{SCRIPTS}/python/stackcollapse.py")
    assert want.stdout == ""


def test_stackcollapse_refuses_ids_without_comm(rec):
    r = pcl("script", "report", "stackcollapse", "--include-tid", "--no-comm", "-i",
            rec["enter"])
    assert r.returncode != 0


def test_record_and_report_at_once():
    """perf's `perf script NAME command`: NAME's record piped into its report."""
    r = pcl("script", "failed-syscalls-by-pid", fixture("script_work"))
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("Press control+C to stop and show the summary\n\nsyscall errors:")
    assert re.search(r"syscall: close +\n    err = EBADF +%d\n" % ROUNDS, r.stdout), r.stdout
    r = pcl("script", "rw-by-file", "script_work", fixture("script_work"))
    assert r.returncode == 0, r.stderr
    assert re.search(r"^ +\d+ +%d +%d$" % (ROUNDS, 64 * ROUNDS), r.stdout, re.M), r.stdout


def test_record_and_report_needs_a_command():
    r = pcl("script", "syscall-counts")
    assert r.returncode == 129 and "command" in r.stderr
    r = pcl("script", "rw-by-file")
    assert r.returncode == 129 and "requires options" in r.stderr


def test_flamegraph_writes_flamegraph_html(rec, tmp_path):
    """as perf's flamegraph script, by default into flamegraph.html"""
    r = run([PCL, "script", "report", "flamegraph", "-i", rec["enter"]], cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    with open(tmp_path / "flamegraph.html") as f:
        assert f.read().startswith("<!DOCTYPE html>")
    r = run([PCL, "script", "report", "flamegraph", "-f", "json", "-i", rec["enter"]],
            cwd=tmp_path)
    assert r.returncode != 0 and "json" in r.stderr


def test_unknown_script():
    want = perf("script", "report", "no-such-script")
    got = pcl("script", "report", "no-such-script")
    assert got.returncode == want.returncode == 255
    assert got.stderr == want.stderr.replace("'perf script -l'", "'pcl script -l'")
    # perf's record message prints bytes of memory after its text: pcl's is whole
    got = pcl("script", "record", "no-such-script")
    assert (got.returncode, got.stderr) == (255, "Please specify a valid record script(see "
                                            "'pcl script -l' for listing)\n")
