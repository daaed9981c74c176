"""pcl top --stdio against perf top --stdio: the screen's shape, and what the
options do to the table, on a busy fixture (tests/fixtures/burner.c).

pcl top runs for a few refreshes (-d 1) and is stopped with SIGINT, as a user
stops perf top.  Nothing here depends on timing: the tests wait for screens,
with generous timeouts, and check what every screen shows."""
import os
import pty
import re
import select
import signal
import subprocess
import time

import pytest

from conftest import PCL, PERF, fixture

CLEAR = "\033[H\033[2J\n"
DASHES = "-" * 79  # perf: the terminal's width less one (80 without a terminal)
HEADER = re.compile(
    r"^   PerfTop:\s+\d+ irqs/sec  kernel:\s*\d+\.\d%  exact:\s*\d+\.\d% "
    r"lost: \d+/\d+ drop: \d+/\d+ \[(\d+Hz )?(?P<event>[^\]]+)\],  "
    r"\((?P<target>all|target_pid: \d+|target_tid: \d+|uid: \S+)(?P<cpus>, \d+ CPUs?)?\)$")
ROW = re.compile(r"^ +\d+\.\d\d% ")
BURNER_SYMBOLS = ("leaf_spin", "__sin_fma", "leaf_libc", "leaf_math", "msort_with_tmp.part.0",
                  "cmp_int", "level", "middle", "outer")


def can_sample_system():
    try:
        with open("/proc/sys/kernel/perf_event_paranoid") as f:
            return int(f.read()) <= 0 or os.geteuid() == 0
    except OSError:
        return False


pytestmark = pytest.mark.skipif(not can_sample_system(),
                                reason="system-wide sampling needs perf_event_paranoid <= 0")


@pytest.fixture
def burner():
    """A CPU burner that runs until the test ends."""
    p = subprocess.Popen([fixture("burner"), "600000", "cpu"], stdout=subprocess.DEVNULL)
    yield p
    p.kill()
    p.wait()


def screens_of(text):
    """The screens of perf top --stdio's output: each a list of lines."""
    return [s.split("\n") for s in text.split(CLEAR)[1:]]


def run_top(args, nr_screens=4, timeout=90, argv0=PCL, env=None):
    """Runs `top --stdio ARGS` until it has printed nr_screens screens (the
    first one, empty, comes at once), then sends SIGINT; returns the
    screens (the last one, possibly cut short, left out) and the status."""
    p = subprocess.Popen([argv0, "top", "--stdio", *args], stdin=subprocess.DEVNULL,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    out = b""
    deadline = time.monotonic() + timeout
    while out.count(CLEAR.encode()) <= nr_screens and time.monotonic() < deadline:
        ready, _, _ = select.select([p.stdout], [], [], 1)
        if ready:
            chunk = os.read(p.stdout.fileno(), 65536)
            if not chunk:
                break
            out += chunk
            if len(out) > 1 << 20:	# perf floods without a terminal
                break
    p.send_signal(signal.SIGINT)
    try:
        rest, err = p.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        p.kill()
        rest, err = p.communicate()
    screens = screens_of((out + rest).decode(errors="replace"))
    return screens[:nr_screens], p.returncode, err.decode(errors="replace")


def rows(screen):
    """A screen's table rows (after the header, the dashes and a blank line)."""
    return [line for line in screen[3:] if ROW.match(line)]


def full_screens(screens):
    """The screens past the first (which comes before any sample)."""
    assert len(screens) >= 3, screens
    return screens[1:]


def test_screen_shape_as_perf(burner):
    screens, status, err = run_top(["-e", "cpu-clock", "-d", "1", "-E", "10"])
    assert status == 0, err
    for screen in screens:
        m = HEADER.match(screen[0])
        assert m, screen[0]
        assert m["event"] == "cpu-clock" and m["target"] == "all" and m["cpus"]
        assert screen[1] == DASHES and screen[2] == ""
    assert rows(screens[0]) == []
    assert "[4000Hz cpu-clock]" in screens[0][0]
    # perf's header, taken from its own flood of screens without a terminal
    perf_screens, _, _ = run_top(["-e", "cpu-clock", "-d", "1", "-E", "10"], nr_screens=2,
                                 argv0=PERF)
    assert perf_screens, "perf top printed no screen"
    pm = HEADER.match(perf_screens[0][0])
    assert pm, perf_screens[0][0]
    assert (pm["event"], pm["target"], pm["cpus"]) == (m["event"], m["target"], m["cpus"])
    assert perf_screens[0][1] == DASHES


def test_hottest_symbol_and_entries(burner):
    screens, status, err = run_top(["-e", "cpu-clock", "-d", "1", "-E", "40"])
    assert status == 0, err
    shown = [r for s in full_screens(screens) for r in rows(s)]
    assert any(sym in r for r in shown for sym in BURNER_SYMBOLS), shown
    for s in full_screens(screens):
        assert len(rows(s)) <= 40
        # rows as report's: percent, shared object, [k] or [.], symbol
        for r in rows(s):
            assert re.match(r"^ +\d+\.\d\d%  \S.* \[[k.]\] \S", r), r
            assert len(r) <= 78


def test_entries_limit(burner):
    screens, status, err = run_top(["-e", "cpu-clock", "-d", "1", "-E", "3"])
    assert status == 0, err
    for s in full_screens(screens):
        assert len(rows(s)) <= 3


def test_sort_comm(burner):
    screens, status, err = run_top(["-e", "cpu-clock", "-d", "1", "-s", "comm", "-E", "40"])
    assert status == 0, err
    comms = [r.split("%", 1)[1].strip() for s in full_screens(screens) for r in rows(s)]
    assert "burner" in comms
    assert not any("[k]" in c or "[.]" in c for c in comms)


def test_hide_kernel_and_user(burner):
    screens, status, err = run_top(["-e", "cpu-clock", "-d", "1", "-K", "-E", "40"])
    assert status == 0, err
    shown = [r for s in full_screens(screens) for r in rows(s)]
    assert shown and not any(" [k] " in r for r in shown), shown
    screens, status, err = run_top(["-e", "cpu-clock", "-d", "1", "-U", "-E", "40"])
    assert status == 0, err
    shown = [r for s in full_screens(screens) for r in rows(s)]
    assert not any(" [.] " in r for r in shown), shown


def test_percent_limit(burner):
    screens, status, err = run_top(["-e", "cpu-clock", "-d", "1", "--percent-limit", "5"])
    assert status == 0, err
    for s in full_screens(screens):
        for r in rows(s):
            assert float(r.split("%")[0]) >= 5, r


def test_pid_restricts_to_the_process(burner):
    screens, status, err = run_top(["-e", "cpu-clock", "-d", "1", "-p", str(burner.pid),
                                    "-s", "pid,comm"])
    assert status == 0, err
    for s in screens:
        assert HEADER.match(s[0])["target"] == f"target_pid: {burner.pid}", s[0]
        assert s[0].endswith(f"(target_pid: {burner.pid})")
    shown = [r for s in full_screens(screens) for r in rows(s)]
    assert shown
    for r in shown:
        assert f"{burner.pid}:burner" in r, r


def test_call_graphs_with_children(burner):
    """-g: Children and Self columns, each entry's call graph below it as
    report draws it (perf top -g's screen)."""
    screens, status, err = run_top(["-e", "cpu-clock", "-d", "1", "-g", "-p", str(burner.pid),
                                    "-E", "5"])
    assert status == 0, err
    for s in full_screens(screens):
        table = s[3:]
        shown = [r for r in table if re.match(r"^ +\d+\.\d\d% +\d+\.\d\d%  \S", r)]
        assert 0 < len(shown) <= 5, table
        assert any(line.strip().startswith("---") for line in table), table
    shown = [r for s in full_screens(screens) for r in s[3:]]
    assert any("main" in r for r in shown)


def test_exited_process_keeps_its_symbols():
    """A workload that ends while top runs: its entries age but stay
    resolved (its maps live on after its exit)."""
    p = subprocess.Popen([PCL, "top", "--stdio", "-e", "cpu-clock", "-d", "1", "-E", "80",
                          "-s", "comm,sym"], stdin=subprocess.DEVNULL,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    out = b""

    def read_screens(n, timeout=90):
        nonlocal out
        want = out.count(CLEAR.encode()) + n
        deadline = time.monotonic() + timeout
        while out.count(CLEAR.encode()) < want and time.monotonic() < deadline:
            ready, _, _ = select.select([p.stdout], [], [], 1)
            if ready:
                out += os.read(p.stdout.fileno(), 65536)

    read_screens(1)
    subprocess.run([fixture("burner"), "1500", "cpu"], stdout=subprocess.DEVNULL, timeout=120)
    read_screens(3)
    p.send_signal(signal.SIGINT)
    rest, err = p.communicate(timeout=60)
    assert p.returncode == 0, err
    after_exit = screens_of(out.decode(errors="replace"))[-2]
    burner_rows = [r for r in rows(after_exit) if " burner " in r]
    assert burner_rows, after_exit
    assert any(sym in r for r in burner_rows for sym in BURNER_SYMBOLS), burner_rows


def test_stdin_not_a_terminal_does_not_spin(burner):
    """perf 6.1 takes /dev/null's end of file for a key and floods its key
    menu; pcl leaves stdin alone and prints one screen per refresh."""
    p = subprocess.run([PCL, "top", "--stdio", "-e", "cpu-clock", "-d", "1", "--timeout", "3"],
                       stdin=subprocess.DEVNULL, capture_output=True, timeout=120)
    assert p.returncode == 0, p.stderr
    screens = screens_of(p.stdout.decode(errors="replace"))
    assert not any("Mapped keys" in line for s in screens for line in s)
    # one at the start, one a second for 3 seconds (a loaded machine makes fewer)
    assert 1 <= len(screens) <= 4


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def test_memory_bounded_while_processes_come_and_go():
    """A system-wide run with call graphs while short processes keep
    exec'ing: every new process brings new threads, maps and (with ASLR)
    new stack addresses.  Once the first entries have aged away, what the
    removed entries, decayed stacks and exited tasks held is freed, so the
    resident size stays put between two checkpoints counted in screens (a
    loaded machine makes fewer screens, and fewer samples per screen).
    page-faults with a period of 1 ages a stack away within a few refreshes."""
    load = subprocess.Popen(["sh", "-c", "while :; do /bin/true; sh -c 'exit 0'; done"],
                            stdout=subprocess.DEVNULL)
    p = subprocess.Popen([PCL, "top", "--stdio", "-a", "-g", "-e", "page-faults", "-c", "1",
                          "-d", "1", "-E", "20"], stdin=subprocess.DEVNULL,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    screens, rss = 0, {}
    try:
        deadline = time.monotonic() + 300
        while screens < 40 and time.monotonic() < deadline:
            ready, _, _ = select.select([p.stdout], [], [], 1)
            if ready:
                chunk = os.read(p.stdout.fileno(), 1 << 16)
                if not chunk:
                    break
                screens += chunk.count(CLEAR.encode())
                if screens >= 15 and 15 not in rss:
                    rss[15] = rss_kib(p.pid)
        rss[40] = rss_kib(p.pid)
    finally:
        load.kill()
        load.wait()
        p.send_signal(signal.SIGINT)
        _, err = p.communicate(timeout=60)
    assert p.returncode == 0, err
    assert screens >= 40, f"only {screens} screens"
    # before the fix: about twice as much at the second checkpoint
    assert rss[40] < rss[15] * 1.25, rss


def run_both(args, timeout=60):
    """`top --stdio ARGS` of perf and of pcl, each stopped by SIGINT if it
    still runs after a few seconds (perf waits after some errors); their
    stderr with the command names made alike, and pcl's status."""
    out = []
    for tool in (PERF, PCL):
        p = subprocess.Popen([tool, "top", "--stdio", *args], stdin=subprocess.DEVNULL,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        try:
            _, err = p.communicate(timeout=5)
        except subprocess.TimeoutExpired:
            p.send_signal(signal.SIGINT)
            _, err = p.communicate(timeout=timeout)
        out.append((err.decode(errors="replace").replace("Usage: perf ", "Usage: pcl "),
                    p.returncode))
    return out


@pytest.mark.parametrize("args", [["-k", "/pcl-no-such-vmlinux"], ["-G", "pcl-no-such-cgroup"],
                                  ["-j", "pcl-no-such-filter"], ["-b"], ["-j", "any_call,u"],
                                  ["--stitch-lbr"], ["--stitch-lbr", "-g"]],
                         ids=["vmlinux", "cgroup", "bad-branch-filter", "branch-any",
                              "branch-filter", "stitch-lbr", "stitch-lbr-fp"])
def test_option_errors_as_perf(args):
    """No vmlinux, no such cgroup, a bad branch filter, branch stacks on a
    PMU without them (no LBR here), and --stitch-lbr without LBR call
    graphs: perf's words on stderr."""
    (perf_err, perf_status), (pcl_err, pcl_status) = run_both(["-e", "task-clock", *args])
    first_lines = perf_err.split("\n\n")[0]
    assert pcl_err.startswith(first_lines), (pcl_err, perf_err)
    if (args[0] in ("-k", "-G", "-j") and "no-such" in args[1]) or args[0] == "--stitch-lbr":
        assert pcl_err == perf_err
        assert pcl_status == perf_status
    else:	# perf waits for ^C after that error; pcl stops
        assert pcl_status == 1


def test_comms_filter(burner):
    """--comms: only the named tasks' entries; one name elides the column."""
    screens, status, err = run_top(["-e", "cpu-clock", "-d", "1", "-E", "40", "--comms",
                                    "burner", "-s", "comm,dso,sym"])
    assert status == 0, err
    shown = [r for s in full_screens(screens) for r in rows(s)]
    assert shown
    for r in shown:
        assert "[k]" in r or "[.]" in r
        # the comm column is elided: the DSO comes first
        assert r.split("%", 1)[1].split()[0] in ("burner", "libm.so.6", "libc.so.6",
                                                 "[kernel]", "ld-linux-x86-64.so.2",
                                                 "[vdso]", "[unknown]"), r


def test_dsos_filter(burner):
    """--dsos '[kernel]': only kernel entries, the DSO column elided."""
    screens, status, err = run_top(["-e", "cpu-clock", "-d", "1", "-E", "40", "--dsos",
                                    "[kernel]"])
    assert status == 0, err
    shown = [r for s in full_screens(screens) for r in rows(s)]
    assert shown
    for r in shown:
        assert re.match(r"^ +\d+\.\d\d%  \[k\] \S", r), r


def test_symbols_filter_and_relative_percentage(burner):
    screens, status, err = run_top(["-e", "cpu-clock", "-d", "1", "-E", "40", "--symbols",
                                    "leaf_spin,leaf_math", "--percentage", "relative"])
    assert status == 0, err
    shown = [r for s in full_screens(screens) for r in rows(s)]
    assert shown
    for s in full_screens(screens):
        if rows(s):
            assert abs(sum(float(r.split("%")[0]) for r in rows(s)) - 100) < 0.1
    assert {r.split()[-1] for r in shown} <= {"leaf_spin", "leaf_math"}


def test_group_columns(burner):
    """--group: one overhead column per event, as perf top --group."""
    screens, status, err = run_top(["-e", "task-clock,cpu-clock", "--group", "-d", "1",
                                    "-E", "10"])
    assert status == 0, err
    shown = [r for s in full_screens(screens) for r in rows(s)]
    assert shown
    for r in shown:
        assert re.match(r"^ +\d+\.\d\d% +\d+\.\d\d%  \S.* \[[k.]\] \S", r), r
    assert "[task-clock]" in screens[0][0]


def test_hierarchy(burner):
    """--hierarchy: DSO entries with their symbols indented below."""
    screens, status, err = run_top(["-e", "cpu-clock", "-d", "1", "-E", "30", "--hierarchy"])
    assert status == 0, err
    table = [line for s in full_screens(screens) for line in s[3:] if line.strip()]
    tops = [line for line in table if re.match(r"^ {4}\s*\d+\.\d\d%     \S", line)]
    subs = [line for line in table if re.match(r"^ {8}\s*\d+\.\d\d%     \[[k.]\] \S", line)]
    assert tops and subs, table


def drive_keys(argv, steps, timeout=90, quits=False):
    """Runs argv with a pseudo-terminal for stdin; once its second screen is
    out (its key reader runs), types each step's key and waits for the text
    that shows the key was taken in what it printed since (None: the next
    step's text shows it, keys being read in order); then, unless the last
    key quits, stops it with SIGINT.  Returns stdout, stderr and the status."""
    master, slave = pty.openpty()
    p = subprocess.Popen(argv, stdin=slave, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    os.close(slave)
    out = b""

    def wait(done, what):
        nonlocal out
        deadline = time.monotonic() + timeout
        while not done():
            assert time.monotonic() < deadline, "no %s in:\n%s" % (what, out[-2000:].decode(
                errors="replace"))
            ready, _, _ = select.select([p.stdout], [], [], 0.1)
            if ready:
                chunk = os.read(p.stdout.fileno(), 1 << 16)
                assert chunk, "exited before %s:\n%s" % (what, out[-2000:].decode(
                    errors="replace"))
                out += chunk

    wait(lambda: out.count(CLEAR.encode()) >= 2, "second screen")
    for key, text in steps:
        since = len(out)
        os.write(master, key.encode())
        if text is not None:
            wait(lambda: text.encode() in out[since:], repr(text))
    if not quits:
        p.send_signal(signal.SIGINT)
    rest, err = p.communicate(timeout=60)
    os.close(master)
    return (out + rest).decode(errors="replace"), err.decode(errors="replace"), p.returncode


def menu_of(text):
    i = text.find("\nMapped keys:")
    assert i >= 0, text[-2000:]
    j = text.find("unmapped key to continue: ", i)
    return text[i:j + len("unmapped key to continue: ")]


def test_key_menu_as_perf(burner):
    """An unmapped key on a terminal: perf's "Mapped keys:" menu, the same
    text; a second unmapped key goes back to the table."""
    args = ["top", "--stdio", "-e", "cpu-clock", "-d", "1", "-E", "7", "-z"]
    # the second key is taken once the table's screens come again
    steps = [("x", "unmapped key to continue: "), ("x", CLEAR)]
    pcl_out, _, status = drive_keys([PCL, *args], steps)
    perf_out, _, _ = drive_keys([PERF, *args], steps)
    assert status == 0
    assert menu_of(pcl_out) == menu_of(perf_out)
    assert "(1)\n" in menu_of(pcl_out) and "(7)\n" in menu_of(pcl_out)
    # after the menu, screens again
    assert CLEAR in pcl_out[pcl_out.find("unmapped key to continue"):]


def test_keys_change_settings():
    """d and e prompt for a number (shown in the menu after), K toggles, q
    quits with perf's "exiting." and -D dumps the DSOs' symbols."""
    out, err, status = drive_keys([PCL, "top", "--stdio", "-e", "cpu-clock", "-d", "1", "-D"],
                                  [("d", "Enter display delay: "), ("3\n", None),
                                   ("e", "Enter display entries (lines): "), ("9\n", None),
                                   ("K", None), ("x", "unmapped key to continue: "),
                                   ("q", None)], quits=True)
    assert status == 0, err
    assert "Enter display delay: " in out and "Enter display entries (lines): " in out
    menu = menu_of(out)
    assert "\t[d]     display refresh delay.             \t(3)\n" in menu
    assert "\t[e]     display entries (lines).           \t(9)\n" in menu
    assert "\t[K]     hide kernel symbols.             \t(yes)\n" in menu
    assert out.rstrip().endswith("exiting.")
    assert re.search(r"^dso: \[kernel\] \(\[kernel\.kallsyms\], loaded, ", err, re.M), err[:500]
    assert re.search(r"^ [0-9a-f]+-[0-9a-f]+ [glw] \S", err, re.M)


def test_sym_annotate(burner):
    """--sym-annotate: perf's details view of the symbol instead of the table."""
    screens, status, err = run_top(["-e", "cpu-clock", "-d", "1", "-E", "30", "-p",
                                    str(burner.pid), "--sym-annotate", "leaf_spin"])
    assert status == 0, err
    text = "\n".join(line for s in full_screens(screens) for line in s)
    assert "Showing cpu-clock for leaf_spin\n  Events  Pcnt (>=5%)\n" in text
    assert "Source code & Disassembly of burner for cpu-clock" in text
    assert re.search(r"^ +\d+\.\d\d : +[0-9a-f]+:", text, re.M), text


CHILDREN_ROW = re.compile(r"^ +\d+\.\d\d% +\d+\.\d\d% ")


def perf_top_rows(args, env, want=5, timeout=90):
    """The table rows perf top --stdio prints, read as they come (without a
    terminal it floods its key menu, so run_top's screen count does not
    fit), until want rows were seen."""
    p = subprocess.Popen([PERF, "top", "--stdio", *args], stdin=subprocess.DEVNULL,
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env)
    found, pending = [], b""
    deadline = time.monotonic() + timeout
    while len(found) < want and time.monotonic() < deadline:
        ready, _, _ = select.select([p.stdout], [], [], 1)
        chunk = os.read(p.stdout.fileno(), 65536) if ready else b""
        if ready and not chunk:
            break
        lines = (pending + chunk).split(b"\n")
        pending = lines.pop()
        found += [ln for ln in (x.decode(errors="replace") for x in lines) if ROW.match(ln)]
    p.send_signal(signal.SIGINT)
    try:
        p.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        p.kill()
        p.communicate()
    return found


@pytest.mark.parametrize("conf,children", [("", True), ("[top]\n\tchildren = false\n", False),
                                           ("[top]\n\tchildren = no\n", False)])
def test_top_children_from_config_as_perf(burner, tmp_path, conf, children):
    """top.children: whether -g's table has perf's Children column; the
    command line's --children wins."""
    path = tmp_path / "perfconfig"
    path.write_text(conf)
    env = dict(os.environ, PERF_CONFIG=str(path))
    args = ["-g", "-e", "cpu-clock", "-d", "1", "-E", "5"]
    shown = perf_top_rows(args, env)
    assert shown, "perf top showed no rows"
    assert all(bool(CHILDREN_ROW.match(r)) == children for r in shown), shown
    for extra in ([], ["--children"]):
        screens, status, err = run_top(args + extra, nr_screens=3, env=env)
        shown = [r for s in screens for r in rows(s)]
        assert shown and status == 0, err
        assert all(bool(CHILDREN_ROW.match(r)) == (children or bool(extra)) for r in shown), \
            (extra, shown)


def test_top_wrong_call_graph_config_as_perf(tmp_path):
    path = tmp_path / "perfconfig"
    path.write_text("[top]\n\tcall-graph = bogus\n")
    env = dict(os.environ, PERF_CONFIG=str(path))
    got = subprocess.run([PCL, "top", "--stdio", "-g"], env=env, capture_output=True,
                         text=True, timeout=60)
    want = subprocess.run([PERF, "top", "--stdio", "-g"], env=env, capture_output=True,
                          text=True, timeout=60)
    assert (got.returncode, got.stderr) == (want.returncode, want.stderr)
