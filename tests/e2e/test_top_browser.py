"""pcl top's full-screen browser in a pseudo-terminal (tui_screen), on a busy
fixture (tests/fixtures/burner.c) profiled with -p: perf top's title and
column header, the rows refreshed every -d seconds, moving, unfolding call
graphs, the keys top adds to report's browser (z, f), the help, the symbol
filter, annotate, perf.hist.N, and leaving with the terminal restored.
Every wait is on the screen's contents, never on time alone."""
import os
import re
import signal
import subprocess

import pytest

from conftest import PCL, PERF, fixture
from test_top import burner  # noqa: F401 (fixture)
from tui_screen import Terminal

ROWS, COLS = 40, 160
TITLE = re.compile(r"^Samples: \d+[KMG ] of event 'cpu-clock', 4000 Hz, "
                   r"Event count \(approx\.\): \d+ "
                   r"lost: \d+/\d+ drop: \d+/\d+( \[z\])?$")
ENTRY = re.compile(r"^[+\- ]? *\d+\.\d\d% ")


def can_sample():
    try:
        with open("/proc/sys/kernel/perf_event_paranoid") as f:
            return int(f.read()) <= 1 or os.geteuid() == 0
    except OSError:
        return False


pytestmark = pytest.mark.skipif(not can_sample(), reason="sampling needs perf_event_paranoid <= 1")


def lines(t):
    return [line.rstrip() for line in t.screen.display]


def entries(t):
    return [line for line in lines(t)[2:ROWS - 1] if ENTRY.match(line)]


def top(burner, *args, cwd=None, argv0=PCL, events=("-e", "cpu-clock")):
    """pcl top (or perf top) on the burner, once its rows show.  perf's
    frames cannot be told apart (tui_screen): its screens are waited on
    for what they show only."""
    t = Terminal([argv0, "top", *events, "-F", "4000", "-d", "1", "-p", str(burner.pid),
                  *args], rows=ROWS, cols=COLS, cwd=cwd,
                 env={"PERF_CONFIG": "/dev/null", "HOME": "/nonexistent"})
    t.wait_for(lambda text: "leaf_spin" in text and lines(t)[ROWS - 1], frame=argv0 == PCL)
    return t


def quit_ok(t):
    t.send("q")
    assert t.wait_exit() == 0
    t.assert_restored()
    t.close()


def test_title_header_and_rows(burner):
    t = top(burner)
    screen = lines(t)
    assert TITLE.match(screen[0]), screen[0]
    # (the Shared Object column as wide as its names: its header cut)
    assert re.match(r"^Overhead  Shared[ a-zA-Z]* +Symbol$", screen[1]), screen[1]
    rows = entries(t)
    assert rows and all(re.search(r"\[[.k]\] ", row) for row in rows)
    assert any(row.endswith("[.] leaf_spin") for row in rows)
    # largest first, as --stdio sorts them
    pcts = [float(row.split("%")[0].lstrip("+- ")) for row in rows]
    assert pcts == sorted(pcts, reverse=True)
    assert screen[ROWS - 1].startswith("For a higher level overview, try: pcl top")
    quit_ok(t)


def test_rows_refresh(burner):
    """The title's sample count grows at every refresh."""
    t = top(burner)
    first = lines(t)[0]
    t.wait_for(lambda text: text.split("\n")[0].split(" of ")[0] != first.split(" of ")[0])
    quit_ok(t)


def selected_row(t):
    """The row drawn in the cursor's colours (black on yellow)."""
    for y in range(2, ROWS - 1):
        if t.screen.buffer[y][3].bg not in ("default", "black"):
            return y
    return None


def is_graph_line(line):
    """A call graph's line in perf's browser layout: indented, no [.] column."""
    return line.startswith("   ") and not re.search(r"\[[.k]\] ", line)


def frame_name(line):
    """A graph line's last word, the scroll bar in the last column left out."""
    return line[:COLS - 1].split()[-1]


def unfolded_at(t, name):
    """The row of the unfolded entry NAME with its graph's first line below, or None."""
    screen = lines(t)
    return next((y for y in range(2, ROWS - 2) if ENTRY.match(screen[y]) and
                 screen[y].startswith("-") and frame_name(screen[y]) == name and
                 is_graph_line(screen[y + 1])), None)


def cursor_on(t, sign, name):
    """Whether the cursor is on a graph level NAME shown folded ("+ ") or unfolded ("- ")."""
    y = selected_row(t)
    return y is not None and is_graph_line(lines(t)[y]) and \
        lines(t)[y].lstrip().startswith(sign) and frame_name(lines(t)[y]) == name


def refreshed(t):
    """Waits for the next refresh (the title's counts change) drawn whole."""
    before = lines(t)[0]
    t.wait_for(lambda text: lines(t)[0] != before, frame=True)


def test_move_and_unfold(burner):
    t = top(burner, "-g")
    # as perf's, the cursor shows from the first move key on, which moves nothing
    assert selected_row(t) is None
    t.send("down")
    t.wait_for(lambda text: selected_row(t) == 2, frame=True)
    t.send("down")
    t.wait_for(lambda text: selected_row(t) == 3, frame=True)
    t.send("up")
    t.wait_for(lambda text: selected_row(t) == 2, frame=True)
    assert all(row[0] == "+" for row in entries(t)[:3])
    # refreshes may re-sort entries of near-equal children periods (main,
    # outer, ...): the cursor follows its entry and frame, so the tests
    # find them by name and by the cursor, not by row
    entry = frame_name(lines(t)[2])
    t.send("+")
    t.wait_for(lambda text: unfolded_at(t, entry) is not None, frame=True)
    # the unfolded graph, a level unfolded in it and the cursor on that
    # level stay so over the refreshes to come
    t.send("down")
    t.wait_for(lambda text: selected_row(t) is not None and
               is_graph_line(lines(t)[selected_row(t)]), frame=True)

    # the screens read below are whole frames: a refresh drawing the graph
    # over the last one may show it half drawn
    def folded_below(y):
        return next((k - y for k in range(y, ROWS - 1) if is_graph_line(lines(t)[k]) and
                     lines(t)[k].lstrip().startswith("+ ")), None)

    t.wait_for(lambda text: folded_below(selected_row(t)) is not None, frame=True)
    y = selected_row(t)
    name = frame_name(lines(t)[y + folded_below(y)])
    for _ in range(folded_below(y)):
        t.send("down")
    t.wait_for(lambda text: cursor_on(t, "+ ", name), frame=True)
    t.send("+")
    t.wait_for(lambda text: cursor_on(t, "- ", name), frame=True)
    for _ in range(2):
        refreshed(t)
    assert unfolded_at(t, entry) is not None
    assert cursor_on(t, "- ", name)
    t.send("C")
    t.wait_for(lambda text: all(row[0] != "-" for row in entries(t)), frame=True)
    t.send("E")
    t.wait_for(lambda text: all(row[0] != "+" for row in entries(t)), frame=True)
    quit_ok(t)


def test_hierarchy_unfolded_over_refreshes(burner):
    """--hierarchy: top builds its levels again at every refresh; a level
    unfolded stays unfolded, and the cursor on it, as perf's browser keeps
    them."""
    t = Terminal([PCL, "top", "-e", "cpu-clock", "-F", "4000", "-d", "1", "-p", str(burner.pid),
                  "--hierarchy"], rows=ROWS, cols=COLS,
                 env={"PERF_CONFIG": "/dev/null", "HOME": "/nonexistent"})
    t.wait_for(lambda text: "burner" in text and lines(t)[ROWS - 1], frame=True)

    def level_row(name):
        return next((y for y in range(2, ROWS - 2) if ENTRY.match(lines(t)[y]) and
                     lines(t)[y][:COLS - 1].split()[-1] == name), None)

    def unfolded(name):
        y = level_row(name)
        return y is not None and lines(t)[y].startswith("-") and \
            re.match(r"^ {5,}\d+\.\d\d% +\[", lines(t)[y + 1]) is not None

    t.send("down")
    t.wait_for(lambda text: selected_row(t) == 2, frame=True)
    name = lines(t)[2][:COLS - 1].split()[-1]
    t.send("+")
    t.wait_for(lambda text: unfolded(name), frame=True)
    for _ in range(2):
        refreshed(t)
    assert unfolded(name), "\n".join(lines(t))
    assert selected_row(t) == level_row(name)
    quit_ok(t)


def test_zero_key(burner):
    t = top(burner)
    t.send("z")
    t.wait_for(lambda text: lines(t)[0].endswith(" [z]") and entries(t))
    t.send("z")
    t.wait_for(lambda text: not lines(t)[0].endswith(" [z]"))
    quit_ok(t)


def test_help_lists_top_keys(burner):
    t = top(burner)
    t.send("h")
    # (the box is drawn in pieces: the lines compared all there)
    text = t.wait_for(lambda text: all(key in text for key in (
        "z             Toggle zeroing", "f             Enable/Disable", "/             Filter symbol")))
    # perf top's order: its keys before the symbol filter's, no header key
    assert (text.index("z             Toggle zeroing") < text.index("f             Enable/Disable")
            < text.index("/             Filter symbol"))
    assert "Show header information" not in text
    t.send("x")
    t.wait_for(lambda text: "Toggle zeroing" not in text)
    quit_ok(t)


def test_freeze_with_f(burner):
    t = top(burner)
    t.send("f")
    t.wait_for("Press 'f' again to re-enable the events")
    t.send("f")
    t.wait_for("Press 'f' to disable the events")
    quit_ok(t)


def test_filter_and_annotate(burner):
    t = top(burner)
    t.send("/")
    t.wait_for("Symbol to show")
    t.send("leaf_spin")
    t.send("enter")
    t.wait_for(lambda text: [row.split()[-1] for row in entries(t)] == ["leaf_spin"],
               frame=True)
    # as perf's, the title does not name the filter
    assert TITLE.match(lines(t)[0]), lines(t)[0]
    t.send("a")
    t.wait_for(lambda text: lines(t)[1].startswith("leaf_spin ") and "Percent" in text)
    t.send("q")
    t.wait_for(lambda text: lines(t)[1].startswith("Overhead"))
    quit_ok(t)


def test_columns_as_wide_as_rows(burner, tmp_path):
    """As perf top's browser, the key columns are as wide as the rows
    need (all of them, shown or not), the headers cut to that: "Shared Ob"
    over libm.so.6, an address's 16 columns when a row has no symbol.  (f first: no samples come to change the rows between
    the P dump and the screen.)"""
    t = top(burner, cwd=str(tmp_path))
    t.send("f")
    t.wait_for("Press 'f' again", frame=True)
    t.send("P")
    t.wait_for("perf.hist.0 written!", frame=True)
    header = lines(t)[1]
    with open(tmp_path / "perf.hist.0") as f:
        rows = f.read().splitlines()
    widest = max(len(row.split()[1]) for row in rows)
    # (as perf's, a row without a symbol widens the column to an address's)
    if any(re.search(r"\[[.k]\] 0x[0-9a-f]+$", row) for row in rows):
        widest = max(widest, 16)
    assert header == "Overhead  " + "Shared Object"[:widest].ljust(widest) + "  Symbol"
    quit_ok(t)


@pytest.mark.parametrize("argv0", [PERF, PCL], ids=["perf", "pcl"])
def test_dso_zoom_hides_its_column(burner, argv0):
    """d: the rows of the first entry's DSO without their Shared Object
    column, as perf top's; ESC brings it back."""
    t = top(burner, argv0=argv0)
    t.send("d")
    t.wait_for(lambda text: ", DSO: " in lines(t)[0] and lines(t)[1] == "Overhead  Symbol" and
               entries(t) and all(re.match(r"^ *\d+\.\d\d%  \[[.k]\] ", row)
                                  for row in entries(t)), frame=argv0 == PCL)
    t.send("esc")
    t.wait_for(lambda text: ", DSO: " not in lines(t)[0] and
               lines(t)[1].startswith("Overhead  Shared"), frame=argv0 == PCL)
    quit_ok(t)


def test_print_to_file(burner, tmp_path):
    t = top(burner, cwd=str(tmp_path))
    t.send("P")
    t.wait_for("perf.hist.0 written!")
    with open(tmp_path / "perf.hist.0") as f:
        written = f.read().splitlines()
    assert written and all(ENTRY.match(line) for line in written)
    quit_ok(t)


def test_esc_asks_before_leaving(burner):
    t = top(burner)
    t.send("esc")
    t.wait_for("Do you really want to exit?")
    t.send("enter")
    assert t.wait_exit() == 0
    t.close()


def test_stdio_on_a_terminal(burner):
    """--stdio keeps perf top --stdio's text on a terminal too."""
    t = Terminal([PCL, "top", "--stdio", "-e", "cpu-clock", "-d", "1", "-p", str(burner.pid)],
                 rows=ROWS, cols=COLS)
    t.wait_for(lambda text: "PerfTop:" in text and "leaf_spin" in text)
    t.send("q")
    assert t.wait_exit() == 0
    t.close()


def test_ctrl_c_restores_the_terminal(burner):
    """^C ends pcl top by its signal, as it ends perf top, the terminal
    given back first."""
    t = top(burner)
    t.send("ctrl-c")
    assert t.wait_exit() == -signal.SIGINT
    t.assert_restored()
    t.close()


def test_enter_menu_unfolds(burner):
    """Enter: perf's menu for the entry, whose Expand item unfolds its call
    graph as '+' does."""
    t = top(burner, "-g")
    t.send("enter")
    text = t.wait_for("callchain (one level, same as '+' hotkey")
    items = [line.strip() for line in text.split("\n") if line.strip()]
    expand = next(i for i, item in enumerate(items) if "callchain (one level" in item)
    for _ in range(expand):
        t.send("down")
    t.send("enter")
    t.wait_for(lambda text: lines(t)[2].startswith("-") and is_graph_line(lines(t)[3]))
    quit_ok(t)


def test_kernel_zoom(burner):
    t = top(burner)
    t.wait_for(lambda text: "[kernel]" in text)
    t.send("k")
    t.wait_for(lambda text: lines(t)[0].split(" lost:")[0].endswith(", DSO: [kernel]"))
    # (the kernel's rows, without their Shared Object column, as perf's)
    t.wait_for(lambda text: lines(t)[1] == "Overhead  Symbol" and entries(t) and
               all("[k] " in row for row in entries(t)), frame=True)
    t.send("k")
    t.wait_for(lambda text: ", DSO:" not in lines(t)[0] and "leaf_spin" in text)
    quit_ok(t)


@pytest.mark.parametrize("argv0", [PERF, PCL], ids=["perf", "pcl"])
def test_events_menu_and_tab(burner, argv0):
    """Several events: perf's menu of events first, with the samples read
    meanwhile (refreshed while it shows); TAB to the next event; the left
    arrow does not leave a browser (had it, Enter would open the event
    under the menu's cursor instead of the options menu); ESC goes back
    to the menu without asking."""
    t = Terminal([argv0, "top", "-e", "cpu-clock", "-e", "task-clock", "-d", "1", "-p",
                  str(burner.pid)], rows=ROWS, cols=COLS,
                 env={"PERF_CONFIG": "/dev/null", "HOME": "/nonexistent"})
    counted = re.compile(r"^[1-9]\d*[KMG]? ?(cpu|task)-clock$")

    def menu_counts(text):
        shown = [line[:COLS - 1].rstrip() for line in lines(t)]
        return shown[0] == "Available samples" and all(counted.match(line) for line in shown[1:3])

    t.wait_for(menu_counts)
    t.send("enter")
    t.wait_for(lambda text: " of event 'cpu-clock'," in lines(t)[0] and "leaf_spin" in text)
    t.send("\t")
    t.wait_for(lambda text: " of event 'task-clock'," in lines(t)[0] and "leaf_spin" in text)
    t.send("left")
    t.send("enter")
    t.wait_for("Zoom into")
    t.send("esc")
    t.wait_for(lambda text: " of event 'task-clock'," in lines(t)[0] and "Zoom into" not in text)
    t.send("esc")
    t.wait_for(menu_counts)
    t.send("q")
    assert t.wait_exit() == 0
    t.close()


def test_thread_zoom(burner):
    t = top(burner, "-s", "comm,dso,sym")
    t.send("t")
    t.wait_for(lambda text: lines(t)[0].split(" lost:")[0].endswith(", Thread: burner"))
    t.send("t")
    t.wait_for(lambda text: ", Thread:" not in lines(t)[0])
    quit_ok(t)


@pytest.mark.parametrize("argv0", [PERF, PCL], ids=["perf", "pcl"])
def test_no_thread_zoom_without_its_keys(burner, argv0):
    """Without a pid or comm sort key (top's dso,sym) 't' zooms into
    nothing and Enter's menu offers no thread, as perf's: had 't'
    zoomed, the title would name the thread before the menu shows."""
    t = top(burner, argv0=argv0)
    t.send("t")
    t.send("\r")
    def menu():
        # (without the scroll bar's column)
        return [line[:COLS - 1].rstrip() for line in lines(t)]

    t.wait_for(lambda text: "Exit" in menu() and "Browse map details" in menu())
    assert not any(" thread" in line for line in menu()[1:ROWS - 1])
    t.send("esc")
    t.wait_for(lambda text: "Samples:" in lines(t)[0])
    assert ", Thread:" not in lines(t)[0]
    quit_ok(t)


def row_of(t, pattern):
    """The first entry row matching pattern (a regex), or None."""
    return next((row for row in entries(t) if re.search(pattern, row)), None)


@pytest.mark.parametrize("argv0", [PERF, PCL], ids=["perf", "pcl"])
def test_verbose_rows(burner, argv0):
    """V: the rows as -v prints them from the next refresh on (the DSO's
    path, the address and the symbols' origin), as perf top's; a fourth
    V gives the plain rows back.  Run on perf top too: the screens'
    shapes are what both show."""
    path = re.escape(os.path.realpath(fixture("burner")))
    verbose = rf"^ +\d+\.\d\d%  {path} +0x[0-9a-f]+ +d \[\.\] leaf_spin$"
    t = top(burner, argv0=argv0)
    t.send("V")
    t.wait_for(lambda text: row_of(t, verbose) and
               re.match(r"^Overhead  Shared Object {2,}Symbol$", lines(t)[1]) and
               lines(t)[1].index("Symbol") == row_of(t, verbose).index("0x"),
               frame=argv0 == PCL)
    for _ in range(3):
        t.send("V")
    t.wait_for(lambda text: row_of(t, r"^ +\d+\.\d\d%  burner +\[\.\] leaf_spin$") and
               not row_of(t, r" 0x[0-9a-f]+ "), frame=argv0 == PCL)
    quit_ok(t)


@pytest.fixture
def clock_loop():
    """A process reading the clock through the vdso until the test ends."""
    p = subprocess.Popen([fixture("clock_loop"), "600000"])
    yield p
    p.kill()
    p.wait()


@pytest.mark.parametrize("argv0", [PERF, PCL], ids=["perf", "pcl"])
def test_verbose_vdso_row(clock_loop, argv0):
    """V on a live vdso: as perf top, the [vdso] row names the copy of the
    running vdso its symbols were read from, /tmp/perf-vdso.so-XXXXXX,
    with the origin d (a file by its path); pcl removes the copy when it
    leaves."""
    vdso = r"^ +\d+\.\d\d%  (/tmp/perf-vdso\.so-\w{6}) +0x[0-9a-f]+ +d \[\.\] __vdso_clock_gettime$"
    t = Terminal([argv0, "top", "-e", "cpu-clock", "-F", "4000", "-d", "1", "-p",
                  str(clock_loop.pid)], rows=ROWS, cols=COLS,
                 env={"PERF_CONFIG": "/dev/null", "HOME": "/nonexistent"})
    t.wait_for(lambda text: "__vdso_clock_gettime" in text, frame=argv0 == PCL)
    t.send("V")
    t.wait_for(lambda text: row_of(t, vdso), frame=argv0 == PCL)
    copy = re.match(vdso, row_of(t, vdso)).group(1)
    quit_ok(t)
    if argv0 == PCL:
        assert not os.path.exists(copy)


GROUPS = [["-e", "cpu-clock,task-clock", "--group"], ["-e", "{cpu-clock,task-clock}"]]


@pytest.mark.parametrize("argv0", [PERF, PCL], ids=["perf", "pcl"])
def test_several_groups(burner, argv0):
    """Several {...} groups: perf's menu of events names each by its
    group's name ("anon group"), Enter browses one with its members'
    columns, TAB the next event: the group's member, shown alone, then
    the next group."""
    t = Terminal([argv0, "top", "-e", "{cpu-clock,task-clock},{page-faults,cs}", "-d", "1",
                  "-p", str(burner.pid)], rows=ROWS, cols=COLS,
                 env={"PERF_CONFIG": "/dev/null", "HOME": "/nonexistent"})
    menu = re.compile(r"^\d+[KMG]? ?anon group$")

    def menu_shown(text):
        shown = [line[:COLS - 1].rstrip() for line in lines(t)]
        return shown[0] == "Available samples" and all(menu.match(line) for line in shown[1:3])

    t.wait_for(menu_shown)
    for key, group in (("enter", "cpu-clock, task-clock"), ("\t", None),
                       ("\t", "page-faults, cs")):
        t.send(key)
        if group is None:
            t.wait_for(lambda text: " of event 'task-clock', " in lines(t)[0] and
                       lines(t)[1].startswith("Overhead  S") and
                       re.match(r"^ *\d+\.\d\d%  \S", lines(t)[2]))
            continue
        title = f" of events 'anon group {{ {group} }}', "
        t.wait_for(lambda text: title in lines(t)[0] and
                   re.match(r"^ +Overhead  S", lines(t)[1]) and
                   re.match(r"^ +\d+\.\d\d% +\d+\.\d\d%  \S", lines(t)[2]))
    quit_ok(t)


@pytest.mark.parametrize("argv0", [PERF, PCL], ids=["perf", "pcl"])
@pytest.mark.parametrize("events", GROUPS, ids=["group", "braces"])
def test_group_sort_keys(burner, argv0, events):
    """A group (--group, or {a,b}) shows as one, titled perf's way; a
    digit sorts its entries by that member, which perf top does by
    opening its browser again with its samples zeroed from then on (the
    title's [z]); a digit past the members: perf's message."""
    t = top(burner, argv0=argv0, events=events)
    frame = argv0 == PCL
    assert " of events 'anon group { cpu-clock, task-clock }', 4000 Hz," in lines(t)[0]
    assert not lines(t)[0].endswith(" [z]")
    t.send("2")
    t.wait_for("Max event group index to sort is 1 (index from 0 to 1)", frame=frame)
    t.send("1")
    t.wait_for(lambda text: lines(t)[0].endswith(" [z]") and entries(t), frame=frame)
    if argv0 == PCL:
        # from the refresh on, the second member's column orders the rows
        refreshed(t)
        seconds = [float(row.split("%")[1]) for row in entries(t)]
        assert seconds == sorted(seconds, reverse=True)
    quit_ok(t)


def test_digit_without_group(burner):
    t = top(burner)
    t.send("1")
    t.wait_for("Sort by index only available with group events!")
    quit_ok(t)


@pytest.mark.parametrize("argv0", [PERF, PCL], ids=["perf", "pcl"])
def test_filtered_percentages(burner, argv0):
    """F, zoomed into a DSO: the entries' percentages of the DSO's samples
    (they add up to 100%) instead of all's, and back, as perf top's."""
    frame = argv0 == PCL

    def total():
        return sum(float(row.split("%")[0].lstrip("+- ")) for row in entries(t))

    t = top(burner, argv0=argv0)
    # the first entry's DSO (libm's or the burner's, each near half the samples)
    t.send("d")
    t.wait_for(lambda text: ", DSO: " in lines(t)[0] and entries(t) and total() < 90,
               frame=frame)
    t.send("F")
    t.wait_for(lambda text: entries(t) and abs(total() - 100) < 0.5, frame=frame)
    t.send("F")
    t.wait_for(lambda text: entries(t) and total() < 90, frame=frame)
    quit_ok(t)


@pytest.mark.parametrize("argv0", [PERF, PCL], ids=["perf", "pcl"])
def test_sym_annotate_keeps_the_rows(burner, argv0):
    """--sym-annotate: perf top's browser shows its rows as without it (the
    option's annotation is --stdio's, below the table); so does pcl's."""
    t = top(burner, "--sym-annotate=leaf_spin", argv0=argv0)
    t.wait_for(lambda text: lines(t)[1].startswith("Overhead  Shared Ob") and
               row_of(t, r"\[\.\] leaf_spin$") and row_of(t, r"\[\.\] leaf_math$"),
               frame=argv0 == PCL)
    assert "Percent" not in t.text()
    quit_ok(t)
