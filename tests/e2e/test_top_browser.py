"""pcl top's full-screen browser in a pseudo-terminal (tui_screen), on a busy
fixture (tests/fixtures/burner.c) profiled with -p: perf top's title and
column header, the rows refreshed every -d seconds, moving, unfolding call
graphs, the keys top adds to report's browser (z, f), the help, the symbol
filter, annotate, perf.hist.N, and leaving with the terminal restored.
Every wait is on the screen's contents, never on time alone."""
import os
import re
import signal

import pytest

from conftest import PCL
from test_top import burner  # noqa: F401 (fixture)
from tui_screen import Terminal

ROWS, COLS = 40, 160
TITLE = re.compile(r"^Samples: \d+[KMG ] of event 'cpu-clock', 4000 Hz, "
                   r"Event count \(approx\.\): \d+(, Symbol filter: \S+)? "
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


def top(burner, *args, cwd=None):
    """pcl top on the burner, once its rows show."""
    t = Terminal([PCL, "top", "-e", "cpu-clock", "-F", "4000", "-d", "1", "-p", str(burner.pid),
                  *args], rows=ROWS, cols=COLS, cwd=cwd,
                 env={"PERF_CONFIG": "/dev/null", "HOME": "/nonexistent"})
    t.wait_for(lambda text: "leaf_spin" in text and lines(t)[ROWS - 1], frame=True)
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
    assert re.match(r"^Overhead  Shared Object +Symbol$", screen[1]), screen[1]
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
    text = t.wait_for("Toggle zeroing of samples")
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
    t.wait_for(lambda text: ", Symbol filter: leaf_spin" in lines(t)[0])
    t.wait_for(lambda text: [row.split()[-1] for row in entries(t)] == ["leaf_spin"])
    t.send("a")
    t.wait_for(lambda text: lines(t)[1].startswith("leaf_spin ") and "Percent" in text)
    t.send("q")
    t.wait_for(lambda text: lines(t)[1].startswith("Overhead"))
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
    t.wait_for(lambda text: entries(t) and all("[kernel]" in row for row in entries(t)))
    t.send("k")
    t.wait_for(lambda text: ", DSO:" not in lines(t)[0] and "leaf_spin" in text)
    quit_ok(t)


def test_events_menu_and_tab(burner):
    """Several events: perf's menu of events first, TAB to the next one."""
    t = Terminal([PCL, "top", "-e", "cpu-clock", "-e", "task-clock", "-d", "1", "-p",
                  str(burner.pid)], rows=ROWS, cols=COLS,
                 env={"PERF_CONFIG": "/dev/null", "HOME": "/nonexistent"})
    t.wait_for("Available samples")
    t.send("enter")
    t.wait_for(lambda text: " of event 'cpu-clock'," in lines(t)[0] and "leaf_spin" in text)
    t.send("\t")
    t.wait_for(lambda text: " of event 'task-clock'," in lines(t)[0] and "leaf_spin" in text)
    t.send("left")
    t.wait_for("Available samples")
    t.send("q")
    assert t.wait_exit() == 0
    t.close()


def test_thread_zoom(burner):
    t = top(burner)
    t.send("t")
    t.wait_for(lambda text: lines(t)[0].split(" lost:")[0].endswith(", Thread: burner"))
    t.send("t")
    t.wait_for(lambda text: ", Thread:" not in lines(t)[0])
    quit_ok(t)
