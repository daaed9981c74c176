"""pcl report's histogram browser in a pseudo-terminal (tui_screen), against
report --stdio (pcl's and perf's) and perf report's own browser on the same
recordings: the first screen, unfolded call graphs, zooms, the symbol
filter, the menu of events, perf.hist.N, and leaving with the terminal
restored.  Every wait is on the screen's contents, never on time."""
import os
import re
import termios

import pytest

from conftest import PCL, PERF, fixture, pcl, perf, unified
from perfdata_branches import add_branch_stacks
from tui_screen import Terminal

ROWS, COLS = 40, 160
ANSI = re.compile(r"\x1b\[[0-9;]*m")
ENTRY = re.compile(r"^[+\- ] +\d+\.\d+%")
# perf's scroll bar in the last column
SCROLLBAR = "\u25c6\u2592"


# The browsers run without the user's config, in a home of their own
# whose build-id cache the recordings fill (perf names [vdso] symbols only
# from there; pcl could also read the running one).
BROWSER_ENV = {"PERF_CONFIG": "/dev/null", "HOME": "/nonexistent"}


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    d = tmp_path_factory.mktemp("browsers")
    BROWSER_ENV["HOME"] = str(d)
    work = fixture("report_work")
    files = {}
    for name, args, workload in (("g", ["-g", "-e", "cpu-clock"], [work, "300"]),
                                 ("two", ["-e", "cpu-clock", "-e", "task-clock"],
                                  [work, "200"]),
                                 ("groups", ["-e", "{cpu-clock,task-clock},{page-faults,cs}"],
                                  [work, "200"])):
        path = str(d / (name + ".data"))
        r = perf("record", "-q", *args, "-o", path, "--", *workload,
                 env=dict(os.environ, HOME=BROWSER_ENV["HOME"]))
        assert r.returncode == 0, r.stderr
        files[name] = path
    return files


def browse(argv0, path, *args, cwd=None):
    t = Terminal([argv0, "report", "-i", path, *args], rows=ROWS, cols=COLS, cwd=cwd,
                 env=BROWSER_ENV)
    # the bottom line is drawn last: the whole first screen is there
    t.wait_for(lambda text: "Samples:" in text and screen_lines(t)[ROWS - 1])
    return t


def screen_lines(t):
    """The screen's lines, without trailing blanks and perf's scroll bar."""
    return [line.rstrip().rstrip(SCROLLBAR).rstrip() for line in t.screen.display]


def entry_rows(t):
    """The entry rows shown between the header and the status line."""
    return [line for line in screen_lines(t)[2:ROWS - 1] if ENTRY.match(line)]


def stdio(*args, tool=pcl):
    r = tool("report", "--stdio", *args, env=dict(os.environ, **BROWSER_ENV))
    assert r.returncode == 0, r.stderr
    return ANSI.sub("", r.stdout).splitlines()


def stdio_entries(lines):
    """--stdio's entry rows as the browser shows them: without the two
    blanks the browser gives its fold sign."""
    return [line[2:].rstrip() for line in lines if re.match(r"^ +\d+\.\d+%", line)]


def samples_line(lines, event=0):
    """perf's browser title from --stdio's two Samples lines (of the
    event-th event)."""
    samples = [line[2:] for line in lines if line.startswith("# Samples:")]
    counts = [line[2:] for line in lines if line.startswith("# Event count")]
    return f"{samples[event]}, {counts[event]}"


def quit_ok(t):
    t.send("q")
    assert t.wait_exit() == 0
    t.close()


def test_first_screen_as_stdio(data):
    t = browse(PCL, data["g"])
    want = stdio("-i", data["g"])
    rows = entry_rows(t)
    assert len(rows) == min(ROWS - 3, len(stdio_entries(want)))
    assert [row[2:] for row in rows] == stdio_entries(want)[:len(rows)]
    assert stdio_entries(want)[:len(rows)] == stdio_entries(stdio("-i", data["g"], tool=perf))[
        :len(rows)]
    assert screen_lines(t)[0] == samples_line(want)
    # entries with a call graph above the threshold fold: "+", the others not
    assert rows[0].startswith("+ ")
    quit_ok(t)


def without_vdso(lines):
    """Screen lines but those of [vdso] and blank ones: perf resolves vdso
    addresses in one interface and not the other, run by run, so its
    browser and its --stdio can show different [vdso] rows."""
    return [line for line in lines if line and "[vdso]" not in line]


def perf_screen(t):
    """perf's title, header and rows without its last drawn row, which
    may still be half written (perf draws the screen top down after its
    bottom line; its rows are compared, its bottom line is not)."""
    lines = screen_lines(t)[:ROWS - 1]
    while lines and not lines[-1]:
        lines.pop()
    return lines[:-1]


@pytest.mark.parametrize("args", [[], ["-g", "none"]], ids=["graph", "flat"])
def test_screen_equals_perfs_browser(data, args):
    """perf report's own browser on the same file: title, header and rows
    (the bottom line holds a random tip in both), with call graphs and
    without (-g none: no fold signs)."""
    theirs_stdio = without_vdso(stdio_entries(stdio("-i", data["g"], *args, tool=perf)))
    theirs = browse(PERF, data["g"], *args)
    # perf draws its bottom line first
    theirs.wait_for(lambda text: len(without_vdso(entry_rows(theirs))) >= min(
        ROWS - 8, len(theirs_stdio)))
    want = without_vdso(perf_screen(theirs))
    theirs.send("q")
    theirs.wait_exit()
    theirs.close()
    t = browse(PCL, data["g"], *args)
    got = without_vdso(screen_lines(t)[:ROWS - 1])
    # a [vdso] row fewer on one screen lets one more row in at its bottom
    shown = min(len(got), len(want))
    assert shown >= min(ROWS - 8, len(theirs_stdio))
    assert got[:shown] == want[:shown]
    quit_ok(t)


def wait_lines(t, want, timeout=60):
    """Waits until the screen but its status line shows want, or fails
    with the difference (t perf's browser, want pcl's screen): perf's
    frames have no end to wait for, and a row read as soon as it matches
    some pattern may still be half drawn."""
    try:
        t.wait_for(lambda text: screen_lines(t)[:ROWS - 1] == want, timeout=timeout)
    except AssertionError:
        # (perf's screen as the text a diff calls perf's, want as pcl's)
        raise AssertionError(unified("\n".join(screen_lines(t)[:ROWS - 1]) + "\n",
                                     "\n".join(want) + "\n"))


def test_hierarchy_as_perfs_browser(data):
    """--hierarchy: the top level folded, then one unfolded, as perf's
    browser shows them (pcl's whole frames, then perf's screen until it
    shows the same)."""
    t = browse(PCL, data["g"], "--hierarchy")
    t.wait_for(lambda text: ENTRY.match(screen_lines(t)[3]), frame=True)
    first = screen_lines(t)[:ROWS - 1]
    t.send("+")
    # the other top-level entry, drawn after the level unfolded
    t.wait_for(lambda text: screen_lines(t)[2].startswith("- ") and
               screen_lines(t)[3].startswith("   ") and
               any(line.startswith("+ ") for line in screen_lines(t)[4:ROWS - 1]), frame=True)
    unfolded = screen_lines(t)[:ROWS - 1]
    quit_ok(t)
    theirs = browse(PERF, data["g"], "--hierarchy")
    wait_lines(theirs, first)
    theirs.send("+")
    wait_lines(theirs, unfolded)
    quit_ok(theirs)


def keys_then_dump(argv0, path, keys, cwd, *args):
    """The perf.hist.0 dump after keys sent to a browser on the report_work
    process's entries (no [vdso]), and the screen (but its status line)
    when pcl's "written!" shows (perf, reading keys ahead, may skip that
    message: its dump is read once it has exited)."""
    t = browse(argv0, path, "--comms", "report_work", *args, cwd=str(cwd))
    dump = cwd / "perf.hist.0"
    for key in keys:
        t.send(key)
    t.send("P")
    if argv0 == PCL:
        t.wait_for("perf.hist.0 written!")
    else:
        t.wait_for(lambda text: dump.exists())
    screen = t.screen
    t.send("q")
    assert t.wait_exit() == 0
    t.close()
    return screen, dump.read_text()


def both_dumps(path, keys, tmp_path, *args):
    """keys_then_dump()'s dumps of perf's browser and pcl's, each in a
    directory of its own under tmp_path."""
    dumps = []
    for argv0 in (PERF, PCL):
        cwd = tmp_path / os.path.basename(argv0)
        cwd.mkdir()
        dumps.append(keys_then_dump(argv0, path, keys, cwd, *args)[1])
    return dumps


def selected_row(screen):
    """The row drawn in the cursor's colours, or None."""
    for y in range(2, ROWS - 1):
        if screen.buffer[y][0].bg not in ("default", "black") or screen.buffer[y][0].reverse:
            return y
    return None


# E/C every level; '+', 'e' one level (an entry's, or a graph line's),
# 'c' folds one; the first move key only shows the cursor and scroll bar
FOLDINGS = {
    "expand-all": ["E"],
    "levels": ["+", "down", "down", "+", "down", "+"],
    "e-toggles-a-level": ["+", "down", "down", "e"],
    "c-folds-a-level": ["E", "down", "down", "c", "down", "down", "c"],
    "c-e-keep-levels": ["E", "down", "down", "c", "e"],
    "entry-keeps-levels": ["E", "c", "e"],
    "collapse-all": ["down", "E", "down", "down", "C"],
    "pages": ["E", "down", "pgdn", "pgdn", "up", "pgup"],
    "end": ["down", "E", "end"],
    "first-move": ["down"],
}


@pytest.mark.parametrize("keys", FOLDINGS.values(), ids=FOLDINGS.keys())
def test_call_graph_levels_as_perfs_browser(data, tmp_path, keys):
    """Call graphs unfold level by level in perf's browser layout: the P
    dump equals perf's; the screen shows the dump's rows from the top one,
    the cursor after a first move key, and perf's scroll bar then: a
    diamond at index * (height - 1) / (rows - 1) of a bar as high as the
    screen but its title and status lines, from below the header."""
    dumps = []
    for argv0 in (PERF, PCL):
        cwd = tmp_path / os.path.basename(argv0)
        cwd.mkdir()
        screen, dump = keys_then_dump(argv0, data["g"], keys, cwd)
        dumps.append(dump)
    assert dumps[1] == dumps[0]
    rows = dumps[1].splitlines()
    shown = [line.rstrip().rstrip(SCROLLBAR).rstrip() for line in screen.display[2:ROWS - 1]]
    window = [(rows[top:] + [""] * ROWS)[:len(shown)] for top in range(len(rows))]
    assert shown in window
    top = window.index(shown)
    bar = [line[-1] for line in screen.display[2:ROWS]]
    y = selected_row(screen)
    if keys == ["E"] or keys[0] not in ("down", "up", "pgdn", "pgup", "end") and \
            "down" not in keys:
        assert y is None and set(bar) == {" "}
        return
    index = top + y - 2
    height = ROWS - 2
    assert bar == ["\u25c6" if h == index * (height - 1) // (len(rows) - 1) else "\u2592"
                   for h in range(height)]


def test_branch_history_notes(data, tmp_path):
    """perf 6.1's browser crashes unfolding --branch-history graphs; pcl's
    unfolds them with the notes on each frame's branches that perf's
    --stdio prints (the same nodes, in another layout)."""
    path = str(tmp_path / "history.data")
    add_branch_stacks(data["g"], path, cross=True, feature=True)
    want = perf("report", "--stdio", "--branch-history", "--comms", "report_work",
                "-i", path).stdout
    dump = keys_then_dump(PCL, path, ["E"], tmp_path, "--branch-history")[1]
    noted = re.findall(r"[-+ ]\s*(?:[\d.]+% )?(\S+ \S+ \([^()]*\))$", dump, re.M)
    assert any("(calltrace)" in n for n in noted) and any("(cycles:" in n for n in noted)
    assert [n for n in noted if n not in want] == []


HIERARCHY_GRAPHS = {
    "expand-all": ([], ["E"]),
    "branches": (["-s", "comm,dso", "-g", "graph,0,callee"], ["E"]),
    "fractal": (["-s", "comm,sym", "-g", "fractal,0"], ["E"]),
    "levels": ([], ["+", "down", "+", "down", "+", "down", "+"]),
}


@pytest.mark.parametrize("args,keys", HIERARCHY_GRAPHS.values(), ids=HIERARCHY_GRAPHS.keys())
def test_hierarchy_graphs_as_perfs_browser(data, tmp_path, args, keys):
    """--hierarchy: a leaf's call graph unfolds in perf's browser layout a
    level below the leaf; the P dump (perf prints its entries there
    without the blank after the fold sign) equals perf's."""
    dumps = both_dumps(data["g"], keys, tmp_path, "--hierarchy", *args)
    assert dumps[1] == dumps[0]
    assert len(dumps[1].splitlines()) > 4


@pytest.mark.parametrize("args", [["-g", "fractal,0"], ["--no-children", "-g", "fractal,0.5,callee"]],
                         ids=["children", "self-callee"])
def test_fractal_graphs_as_perfs_browser(data, tmp_path, args):
    """-g fractal: each level's percentages of its parent's hits, as
    perf's browser draws them; the P dump after E equals perf's."""
    dumps = both_dumps(data["g"], ["E"], tmp_path, *args)
    assert dumps[1] == dumps[0]
    # (report_work's own graphs with Self alone can all be single paths)
    if "--no-children" not in args:
        assert re.search(r"[+-] \d+\.\d+% ", dumps[1])


def test_expanded_graph_lines(data, tmp_path):
    """E unfolds every graph as perf's browser draws it: under its entry,
    levels three columns apart, each line a fold sign and a frame, a value
    before a node's first frame where its level splits; the screen shows
    the dump's first rows."""
    screen, dump = keys_then_dump(PCL, data["g"], ["E"], tmp_path)
    lines = dump.splitlines()
    graph = [line for line in lines if not ENTRY.match(line)]
    assert lines[0].startswith("-   ") and graph
    assert all(re.match(r"^(   )+ *[-+ ] (\d+\.\d+% )?\S+$", line) for line in graph)
    assert any(re.match(r"^(   )+[-+ ] \d+\.\d+% \S+$", line) for line in graph)
    assert [line.rstrip() for line in screen.display[2:12]] == lines[:10]


def fields(row, drop):
    """A row's columns, without the one a --comms/--dsos report elides."""
    return [f for f in re.split(r"\s{2,}", row.strip(" +-")) if f != drop]


@pytest.mark.parametrize("key,sort,column", [("t", "pid,dso,sym", 2), ("d", "comm,dso,sym", 3)])
def test_zoom_filters(data, key, sort, column):
    """Zooming into the first entry's thread (DSO) shows the entries
    --stdio --tid (--dsos) shows."""
    t = browse(PCL, data["g"], "--no-children", "-s", sort)
    what = re.split(r"\s{2,}", entry_rows(t)[0].strip(" +-"))[column - 1]
    if key == "t":
        tid, comm = what.split(":", 1)
        title, option = f", Thread: {comm}({tid})", ["--tid", tid]
    else:
        title, option = f", DSO: {what}", ["--dsos", what]
    t.send(key)
    # (whole frames: a row half drawn may already hold what; in a DSO
    # the rows lose their Shared Object column, as perf's)
    t.wait_for(lambda text: title in text and (
        "Shared Object" not in screen_lines(t)[1] if key == "d" else
        all(what in row for row in entry_rows(t))), frame=True)
    rows = entry_rows(t)
    want = stdio_entries(stdio("-i", data["g"], "--no-children", "-s", sort, *option))
    assert rows and [fields(r, what) for r in rows] == [fields(w, what) for w in want][:len(rows)]
    # ESC zooms out again (the column back)
    t.send("esc")
    t.wait_for(lambda text: title not in screen_lines(t)[0] and
               "Shared Object" in screen_lines(t)[1], frame=True)
    quit_ok(t)


@pytest.mark.parametrize("keys", [["F", "E"], ["t", "F", "E"], ["t", "F", "F", "E"]],
                         ids=["comms", "zoom", "back"])
def test_filtered_percentages_as_perfs_browser(data, tmp_path, keys):
    """F: percentages (call graphs' too) of what --comms and the zooms
    leave, or of everything again; the P dump equals perf's."""
    dumps = both_dumps(data["g"], keys, tmp_path)
    assert dumps[1] == dumps[0]
    first = dumps[1].split("%")[0].strip(" +-")
    if keys.count("F") == 1:
        assert float(first) > 50
    else:
        # of everything again, as --stdio shows the comm's entries (its
        # one thread's; the share of all samples that thread takes is
        # the recording's, near half of them)
        want = stdio_entries(stdio("-i", data["g"], "--comms", "report_work"))
        assert first == want[0].split("%")[0].strip()


def test_filtered_totals_in_title(data):
    """F after a zoom: the title counts the entries left, as perf's."""
    titles = []
    for argv0 in (PERF, PCL):
        t = browse(argv0, data["g"], "--no-children")
        whole = screen_lines(t)[0]
        t.send("t")
        t.send("F")
        # (the thread's comm ends the title, without the pid the sort keys
        # lack: a title read before it is half drawn; F's counts are the
        # thread's: the event count changes, the samples' "1K" may not)
        t.wait_for(lambda text: re.search(r", Thread: (report_work|rw-worker)$",
                                          screen_lines(t)[0]) and
                   screen_lines(t)[0].split(", Thread:")[0] != whole)
        titles.append(screen_lines(t)[0])
        t.send("q")
        assert t.wait_exit() == 0
        t.close()
    assert titles[1] == titles[0]


def test_symbol_filter(data):
    t = browse(PCL, data["g"], "--no-children")
    t.send("/")
    t.wait_for("Symbol to show")
    t.send("hot")
    t.send("enter")
    # (whole frames: "hot_" of a half drawn row holds "hot")
    t.wait_for(lambda text: entry_rows(t) and all("hot" in row for row in entry_rows(t)),
               frame=True)
    rows = entry_rows(t)
    assert rows and all("hot" in row.split("] ")[-1] for row in rows)
    # (the columns as wide as these rows need: the widths differ)
    want = stdio_entries(stdio("-i", data["g"], "--no-children", "--symbol-filter", "hot"))
    assert [fields(r, None) for r in rows] == [fields(w, None) for w in want]
    # as perf's, the title does not name the filter
    assert "hot" not in screen_lines(t)[0]
    quit_ok(t)


# perf's browser hides the Shared Object column in a DSO (the thread's
# columns stay in a thread), names the zooms in one order, cuts the
# headers to the widths of the rows a filter leaves, and ESC leaves the
# symbol filter
ZOOM_SCREENS = {
    "dso": ([], ["d"]),
    "dso-out": ([], ["d", "esc"]),
    "thread-dso": ([], ["t", "d"]),
    "dso-thread": ([], ["d", "t"]),
    "kernel": ([], ["k"]),
    "symbol": ([], ["/", "hot", "enter"]),
    "symbol-thread-esc": ([], ["/", "hot", "enter", "t", "esc"]),
    "nothing-left": ([], ["t", "/", "hot", "enter"]),
    "thread-keys": (["-s", "pid,comm,dso,sym"], ["t"]),
    "dso-keys": (["-s", "pid,comm,dso,sym"], ["d"]),
    "dso-first": (["-s", "dso,sym"], ["d"]),
    "narrow-out": (["--dsos", "report_work,libm.so.6"], ["t", "t"]),
    # --hierarchy: the levels above the DSO's count (and the total of the
    # top level) only what the zoom leaves, the widths those of its rows
    "hierarchy-dso": (["--hierarchy"], ["d"]),
    "hierarchy-dso-unfolded": (["--hierarchy"], ["E", "d"]),
    "hierarchy-dso-thread-out": (["--hierarchy"], ["d", "t", "t"]),
    "hierarchy-dso-first": (["--hierarchy", "-s", "dso,sym"], ["d"]),
    # LEFT and RIGHT scroll the columns sideways (the first only shows the
    # cursor), all but the last can go; a DSO zoom's hidden column too
    "sideways": ([], ["down", "right", "right"]),
    "sideways-back": (["--children"], ["right", "right", "right", "right", "right", "right",
                                       "left"]),
    "sideways-dso": ([], ["d", "down", "right"]),
    "sideways-hierarchy": (["--hierarchy"], ["down", "right", "right", "left", "E"]),
}


def pcl_screen(cwd, keys, path, *args):
    """pcl's browser's screen but its status line ([vdso]'s lines left
    out) after keys, once P's message shows it has handled them all."""
    t = browse(PCL, path, *args, cwd=str(cwd))
    for key in keys:
        t.send(key)
    t.send("P")
    t.wait_for("perf.hist.0 written!", frame=True)
    want = without_vdso(screen_lines(t)[:ROWS - 1])
    quit_ok(t)
    return want


def perf_shows(want, keys, path, *args):
    """perf's browser on path, after keys, shows want (the lines of a
    screen but its status line, [vdso]'s left out) in the end."""
    theirs = browse(PERF, path, *args)
    for key in keys:
        theirs.send(key)
    try:
        theirs.wait_for(lambda text: without_vdso(screen_lines(theirs)[:ROWS - 1]) == want)
    except AssertionError:
        raise AssertionError(unified("\n".join(without_vdso(screen_lines(theirs)[:ROWS - 1])) +
                                     "\n", "\n".join(want) + "\n"))
    quit_ok(theirs)


@pytest.mark.parametrize("args,keys", ZOOM_SCREENS.values(), ids=ZOOM_SCREENS.keys())
def test_zoom_screens_as_perfs_browser(data, tmp_path, args, keys):
    """Title, header and rows after zooms equal perf's browser's: pcl's
    screen once P's message shows (every key before handled), then perf's
    until it shows the same ([vdso] rows aside: perf resolves them in
    its browser run by run)."""
    want = pcl_screen(tmp_path, keys, data["g"], "--no-children", *args)
    assert len(want) >= 2
    perf_shows(want, keys, data["g"], "--no-children", *args)


@pytest.mark.parametrize("args", [["--no-children", "-g", "flat"], ["--no-children", "-g", "folded"],
                                  ["--no-children", "-g", "folded,0.5,caller"],
                                  ["--no-children", "-g", "flat,0.5,caller,function,count"]],
                         ids=" ".join)
def test_flat_and_folded_graphs_as_perfs_browser(data, tmp_path, args):
    """-g flat and folded, every entry unfolded: perf's browser's lines
    (a chain's value only where there are several or one is not the
    whole entry; flat frames after a value line indented further).
    With --children perf folds each chain on its own: not yet pcl."""
    want = pcl_screen(tmp_path, ["E"], data["g"], *args)
    assert any(re.match(r"^ {5}\S", line) for line in want), want
    perf_shows(want, ["E"], data["g"], *args)


def test_q_restores_the_terminal(data):
    t = browse(PCL, data["g"])
    t.send("q")
    assert t.wait_exit() == 0
    t.assert_restored()
    t.close()


def test_esc_asks_before_leaving(data):
    t = browse(PCL, data["g"])
    t.send("esc")
    t.wait_for("Do you really want to exit?")
    t.send("esc")
    t.wait_for(lambda text: "Do you really want to exit?" not in text)
    t.send("esc")
    t.wait_for("Do you really want to exit?")
    t.send("enter")
    assert t.wait_exit() == 0
    t.close()


def test_menu_of_events(data):
    theirs = Terminal([PERF, "report", "-i", data["two"]], rows=ROWS, cols=COLS)
    theirs.wait_for("Available samples")
    theirs.wait_for("task-clock")
    want = screen_lines(theirs)[:3]
    theirs.send("q")
    theirs.wait_exit()
    theirs.close()
    t = Terminal([PCL, "report", "-i", data["two"]], rows=ROWS, cols=COLS)
    # the status line is drawn last
    t.wait_for("Browse histograms")
    assert screen_lines(t)[:3] == want
    t.send("down")
    t.send("enter")
    t.wait_for("of event 'task-clock'")
    assert screen_lines(t)[0] == samples_line(stdio("-i", data["two"]), 1)
    # TAB goes to the next event
    t.send("\t")
    t.wait_for("of event 'cpu-clock'")
    quit_ok(t)


def test_tab_reaches_group_members(data):
    """Several groups: the menu names the groups; TAB goes to the next
    event, a group's member too, shown alone (its own title and columns),
    then the next group, and round: the titles and headers as perf's."""
    seen = []
    for argv0 in (PERF, PCL):
        t = Terminal([argv0, "report", "-i", data["groups"]], rows=ROWS, cols=COLS,
                     env=BROWSER_ENV)
        t.wait_for(lambda text: "Available samples" in text and
                   screen_lines(t)[2].endswith("anon group"))
        steps = []
        for key, title in (("enter", "events 'anon group { cpu-clock, task-clock }'"),
                           ("\t", "event 'task-clock'"),
                           ("\t", "events 'anon group { page-faults, cs }'"),
                           ("\t", "event 'cs'"),
                           ("\t", "events 'anon group { cpu-clock, task-clock }'")):
            t.send(key)
            # (the first row drawn: the header is)
            t.wait_for(lambda text: f" of {title}," in screen_lines(t)[0] and
                       re.match(r"^ +\d+\.\d\d% ", screen_lines(t)[2]))
            steps.append(screen_lines(t)[:2])
        quit_ok(t)
        seen.append(steps)
    assert seen[1] == seen[0]


@pytest.mark.parametrize("argv0", [PERF, PCL], ids=["perf", "pcl"])
def test_left_and_esc_with_events(data, argv0):
    """Several events: the left arrow neither leaves a browser nor zooms
    out (perf's scrolls the columns sideways) and does nothing in the
    menu; ESC goes back to the menu without asking, and asks there.  Had
    a key left, Enter would answer the question and exit."""
    t = Terminal([argv0, "report", "-i", data["two"]], rows=ROWS, cols=COLS, env=BROWSER_ENV)
    t.wait_for(lambda text: "Available samples" in text and "task-clock" in text)
    t.send("enter")
    t.wait_for("of event 'cpu-clock'")
    t.send("d")
    t.wait_for(lambda text: ", DSO: " in screen_lines(t)[0])
    for key in ("left", "left", "\r"):
        t.send(key)
    t.wait_for("Select option")
    t.send("esc")
    t.wait_for(lambda text: "Select option" not in text and ", DSO: " in screen_lines(t)[0])
    t.send("esc")
    t.wait_for(lambda text: "Samples:" in screen_lines(t)[0] and
               ", DSO: " not in screen_lines(t)[0])
    t.send("esc")
    t.wait_for("Available samples")
    t.send("left")
    t.send("enter")
    t.wait_for("of event 'cpu-clock'")
    t.send("esc")
    t.wait_for("Available samples")
    t.send("esc")
    t.wait_for("Do you really want to exit?")
    t.send("enter")
    assert t.wait_exit() == 0
    t.close()


def test_print_to_perf_hist(data, tmp_path):
    t = browse(PCL, data["g"], cwd=str(tmp_path))
    t.send("P")
    t.wait_for("perf.hist.0 written!")
    dumped = (tmp_path / "perf.hist.0").read_text().splitlines()
    assert dumped[:ROWS - 3] == entry_rows(t)
    quit_ok(t)


def test_not_a_terminal_prints_stdio(data):
    assert pcl("report", "-i", data["g"]).stdout == pcl("report", "--stdio", "-i",
                                                         data["g"]).stdout


def test_tui_report_off_prints_stdio(data, tmp_path):
    config = tmp_path / "perfconfig"
    config.write_text("[tui]\n\treport = false\n")
    t = Terminal([PCL, "report", "-i", data["g"]], rows=ROWS, cols=COLS,
                 env={"PERF_CONFIG": str(config)})
    assert t.wait_exit() == 0
    assert "# Samples:" in t.text() or b"# Samples:" in bytes(t.raw)
    t.close()


def test_resize_redraws(data):
    import fcntl
    import struct
    t = browse(PCL, data["g"])
    rows, cols = 24, 100
    t.screen.resize(rows, cols)
    # the kernel tells the program with SIGWINCH
    fcntl.ioctl(t.fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
    # (pyte drops the top lines on shrinking: the title shows once redrawn)
    t.wait_for(lambda text: t.screen.display[0].startswith("Samples:") and
               t.screen.display[rows - 1].startswith("Tip:") and
               ENTRY.match(t.screen.display[rows - 2]))
    quit_ok(t)


def test_group_as_perfs_browser(data):
    """--group: the members' columns side by side under perf's "of events" title."""
    screens = []
    want = stdio_entries(stdio("-i", data["two"], "--group", tool=perf))
    want_rows = min(ROWS - 8, len(without_vdso(want)))
    for argv0 in (PERF, PCL):
        t = browse(argv0, data["two"], "--group")
        t.wait_for(lambda text: len(without_vdso(entry_rows(t))) >= want_rows)
        screens.append(without_vdso(perf_screen(t) if argv0 == PERF else
                                    screen_lines(t)[:ROWS - 1]))
        t.send("q")
        assert t.wait_exit() == 0
        t.close()
    assert "of events 'cpu-clock, task-clock'" in screens[1][0]
    shown = min(len(screens[0]), len(screens[1]))
    assert shown >= want_rows and screens[1][:shown] == screens[0][:shown]


@pytest.mark.parametrize("argv0", [PERF, PCL], ids=["perf", "pcl"])
def test_sort_by_group_member(data, argv0):
    """0-9 with --group: past the members perf's message; a member's index
    sorts the rows by its column first, as --group-sort-idx does (the
    order perf's browser and --stdio show)."""
    def rows(lines):
        return without_vdso([line.strip() for line in lines])

    want = rows(stdio_entries(stdio("-i", data["two"], "--group", "--group-sort-idx", "1")))
    assert want == rows(stdio_entries(stdio("-i", data["two"], "--group", "--group-sort-idx",
                                            "1", tool=perf)))
    # (the two clocks sample the same code: on some recordings the orders
    # agree, and the keys are then checked on what they keep)
    first = rows(stdio_entries(stdio("-i", data["two"], "--group")))
    shown = min(ROWS - 8, len(want))
    t = browse(argv0, data["two"], "--group")
    t.send("5")
    t.wait_for("Max event group index to sort is 1 (index from 0 to 1)")
    t.send("1")
    t.wait_for(lambda text: rows(entry_rows(t))[:shown] == want[:shown])
    t.send("0")
    t.wait_for(lambda text: rows(entry_rows(t))[:shown] == first[:shown])
    t.send("q")
    assert t.wait_exit() == 0
    t.close()


def test_annotate_key_and_header_toggle(data):
    """a: the annotate browser on the selected entry's symbol, the screen
    pcl annotate's browser shows for it; q comes back to the entries.  An
    entry without samples of its own has nothing to annotate: perf's
    warning box.  H hides and shows the column header line as perf
    6.1's H does."""
    ann = Terminal([PCL, "annotate", "-i", data["g"], "hot_spin"], rows=ROWS, cols=COLS,
                   env=BROWSER_ENV)
    ann.wait_for("Percent\u2502", frame=True)
    want = screen_lines(ann)
    ann.send("q")
    assert ann.wait_exit() == 0
    ann.close()
    t = browse(PCL, data["g"])
    header = screen_lines(t)[1]
    t.send("H")
    t.wait_for(lambda text: ENTRY.match(screen_lines(t)[1]))
    t.send("H")
    t.wait_for(lambda text: screen_lines(t)[1] == header)
    # the report's event heads the screen (pcl annotate counts hot_spin's alone)
    title = screen_lines(t)[0].replace("', Event count", "', 4000 Hz, Event count")
    t.send("/")
    t.wait_for("Symbol")
    t.send("hot_spin\r")
    t.wait_for(lambda text: "hot_spin" in screen_lines(t)[2] and len(entry_rows(t)) == 1)
    t.send("a")
    t.wait_for(lambda text: screen_lines(t) == [title] + want[1:])
    t.send("q")
    t.wait_for(lambda text: "Children" in screen_lines(t)[1] and "hot_spin" in screen_lines(t)[2])
    t.send("/")
    t.wait_for("Symbol")
    t.send("main\r")
    # the first row: a caller of main or main itself, without samples of its own
    t.wait_for(lambda text: re.search(r" 0\.00% .*main$", screen_lines(t)[2]))
    name = screen_lines(t)[2].split()[-1]
    t.send("a")
    t.wait_for(f'No samples for the "{name}" symbol.')
    t.send("x")
    t.wait_for(lambda text: "Press any key..." not in text)
    quit_ok(t)


def graph_rows(t):
    """The first entry's graph lines' screen rows (below its row 2)."""
    rows = []
    for y in range(3, ROWS - 1):
        line = screen_lines(t)[y]
        if not line.startswith("   ") or re.search(r"\[[.k]\] ", line):
            break
        rows.append(y)
    return rows


def frame_of(line):
    """A graph line's frame name, without its branch's percentage."""
    return re.sub(r"^.*--", "", line.split()[-1])


@pytest.mark.parametrize("target", ["worker", "__memset_avx512_unaligned_erms"],
                         ids=["callee", "leaf"])
def test_annotate_on_a_graph_line(data, target):
    """a on a call graph's line annotates that line's frame's symbol, not
    its entry's, as perf's a does: in start_thread's graph (the fixture's
    worker thread), worker (no samples of its own: perf's warning box)
    and the memset it calls (sampled: its annotation).  The screens equal
    perf's."""
    screens = []
    for argv0 in (PERF, PCL):
        t = browse(argv0, data["g"], "--symbol-filter=start_thread", "--comms=rw-worker")
        t.wait_for(lambda text: entry_rows(t) and "start_thread" in entry_rows(t)[0])
        t.send("E")
        t.wait_for(lambda text: any(frame_of(screen_lines(t)[y]) == target
                                    for y in graph_rows(t)), frame=argv0 == PCL)
        y = next(y for y in graph_rows(t) if frame_of(screen_lines(t)[y]) == target)
        for _ in range(y - 1):
            t.send("down")
        t.wait_for(lambda text: selected_row(t.screen) == y, frame=argv0 == PCL)
        t.send("a")
        # (boxes keep the cursor: no whole frames to wait on; the screen is
        # read once nothing more comes)
        t.wait_for(lambda text: "Percent\u2502" in text or "Press any key..." in text)
        t.quiet(1.0)
        # (the report's random tip left out, under a box)
        screens.append([line for line in screen_lines(t) if not line.startswith("Tip: ")])
        if "Press any key..." in t.text():
            t.send("x")
        t.send("q")
        t.wait_for(lambda text: "Children" in screen_lines(t)[1])
        quit_ok(t)
    assert screens[1] == screens[0]
    # worker seldom has samples of its own: then both annotate it
    if target != "worker" or 'No samples for the "worker" symbol.' not in "\n".join(screens[1]):
        assert screens[1][1].startswith(target + " ")


def box(t, title):
    """The box whose top line holds title, as lines (its frame included),
    once drawn to its bottom line's right corner: the terminal may hand a
    box over in pieces, its bottom line half drawn."""
    def lines():
        display = t.screen.display
        top = next((y for y, line in enumerate(display) if "\u250c\u2500" + title in line), None)
        if top is None:
            return None
        left = display[top].index("\u250c\u2500" + title)
        right = display[top].index("\u2510", left)
        rows = []
        for line in display[top:]:
            rows.append(line[left:right + 1])
            if line[left] == "\u2514":
                return rows if line[right] == "\u2518" else None
        return None
    t.wait_for(lambda text: lines() is not None)
    return lines()


def both(args, keys, title):
    """The box titled title after keys, in perf's browser and pcl's."""
    boxes = []
    for argv0 in (PERF, PCL):
        t = browse(argv0, *args)
        for key in keys:
            t.send(key)
        boxes.append(box(t, title))
        # (an ESC and a key right after it read as one Alt key)
        t.send("esc")
        t.wait_for(lambda text: "\u250c\u2500" + title not in text)
        t.send("q")
        assert t.wait_exit() == 0
        t.close()
    return boxes


def test_help_lists_perfs_keys_pcl_has(data):
    """h: perf's help box."""
    theirs, ours = both([data["g"]], ["h"], "Help")
    assert ours == theirs
    assert len(ours) > 30


def test_percent_limit(data, tmp_path):
    """L: perf's question box; entries under the answer hide and the
    graphs fold again with the new threshold (the P dump equals perf's);
    an answer out of 0-100 is refused in perf's warning box."""
    theirs, ours = both([data["g"]], ["L"], "Percent Limit")
    assert ours == theirs
    dumps = both_dumps(data["g"], ["E", "L", "3", "\r", "E"], tmp_path)
    assert dumps[1] == dumps[0]
    rows = [line for line in dumps[1].splitlines() if ENTRY.match(line)]
    assert rows and all(float(re.split(r"%", row[1:])[0]) >= 3 for row in rows)
    theirs, ours = both([data["g"]], ["L", "150", "\r"], "Warning!")
    assert ours == theirs == ["\u250c\u2500Warning!" + "\u2500" * 14 + "\u2510",
                              "\u2502Invalid percent: 150.00\u2502",
                              "\u2502" + " " * 23 + "\u2502",
                              "\u2502Press any key..." + " " * 7 + "\u2502",
                              "\u2514" + "\u2500" * 23 + "\u2518"]


def test_symbol_filter_box(data):
    """/: perf's question box."""
    theirs, ours = both([data["g"]], ["/"], "Symbol to show")
    assert ours == theirs


def full_list(t):
    """A list screen once drawn: every row but the status line ends in the
    scroll bar."""
    t.wait_for(lambda text: all(line[-1] in SCROLLBAR for line in t.screen.display[1:ROWS - 1]))
    return [line.rstrip() for line in t.screen.display]


def test_header_information(data):
    """i: the file's header lines in a list, perf's screen; q goes back."""
    screens = []
    for argv0 in (PERF, PCL):
        t = browse(argv0, data["g"])
        t.send("i")
        t.wait_for("Header information")
        screens.append(full_list(t))
        t.send("q")
        t.wait_for("Samples:")
        t.send("q")
        assert t.wait_exit() == 0
        t.close()
    assert screens[1] == screens[0]
    assert screens[1][1].startswith("# captured on")


def test_verbose_and_group_keys(data):
    """V: frames show their DSO; 0-9 without a group: perf's message."""
    lines = []
    for argv0 in (PERF, PCL):
        t = browse(argv0, data["g"])
        t.send("V")
        t.send("+")
        # (its first graph line, once its DSO ends it: perf draws the rows
        # below it after, and a row may be read half drawn)
        t.wait_for(lambda text: screen_lines(t)[2].startswith("- ") and
                   re.match(r"^   [+ -] \S+ (libc\.so\.6|report_work)$", screen_lines(t)[3]))
        lines.append(screen_lines(t)[3])
        t.send("0")
        t.wait_for("Sort by index only available with group events!")
        t.send("q")
        assert t.wait_exit() == 0
        t.close()
    assert lines[1] == lines[0]
    assert lines[1].split()[-1] in ("libc.so.6", "report_work")


@pytest.mark.parametrize("args,keys", [([], ["V"]), ([], ["V", "E"]), ([], ["V"] * 4),
                                       (["--hierarchy"], ["V", "E"])],
                         ids=["rows", "graphs", "round", "hierarchy"])
def test_verbose_rows_as_perfs_browser(data, tmp_path, args, keys):
    """V: from level 1 the rows show the DSO's path and the address with
    the symbols' origin (as -v), in the widths the columns had; a fourth V
    goes back to level 0.  The P dump equals perf's."""
    dumps = both_dumps(data["g"], keys, tmp_path, *args)
    assert dumps[1] == dumps[0]
    # the address and the symbols' origin before the symbol's level
    verbose = re.search(r" 0x[0-9a-f]+ +\S \[[.k]\] ", dumps[1]) is not None
    assert verbose == (keys.count("V") % 4 != 0)


@pytest.mark.parametrize("args", [[], ["--no-children", "-G"]], ids=["children", "caller"])
def test_verbose_arrows_as_perfs_browser(data, tmp_path, args):
    """V: on the screen (not in perf.hist.N) a graph line whose frame's
    symbol has samples of its own to annotate shows an arrow after its
    fold sign, as perf's browser: pcl's screen once P's message shows,
    then perf's until it shows the same."""
    keys = ["V", "E"]
    want = pcl_screen(tmp_path, keys, data["g"], *args)
    graph = [line for line in want[2:] if not ENTRY.match(line)]
    assert any("\u2192" in line for line in graph)
    assert any(re.match(r"^ +[-+ ] ", line) for line in graph)
    assert "\u2192" not in (tmp_path / "perf.hist.0").read_text()
    perf_shows(want, keys, data["g"], *args)


@pytest.mark.parametrize("args,keys", [([], ["+", "down", "down"]),
                                       (["--no-children", "-s", "pid,sym"], [])],
                         ids=["graph-line", "thread"])
def test_menu_as_perfs(data, args, keys):
    """Enter: perf's options for the selected row, in its order (on an
    unfolded graph's line, its level's and its frame's symbol): the
    scripts of a thread (with the pid key), of a symbol, of all samples,
    the file switch."""
    menus = []
    for argv0 in (PERF, PCL):
        t = browse(argv0, data["g"], *args)
        if keys:
            t.send(keys[0])
            t.wait_for(lambda text: screen_lines(t)[2].startswith("- "))
        for key in keys[1:] + ["\r"]:
            t.send(key)
        t.wait_for(lambda text: "Select option" in text and "Exit" in screen_lines(t) and
                   "Run scripts for all samples" in screen_lines(t))
        lines = screen_lines(t)[1:ROWS - 1]
        menus.append(lines[:lines.index("Exit") + 1])
        t.send("esc")
        t.wait_for("Samples:")
        t.send("q")
        assert t.wait_exit() == 0
        t.close()
    assert menus[1] == menus[0]
    assert "Switch to another data file in PWD" in menus[1]
    assert any(line.startswith("Run scripts for samples of symbol [") for line in menus[1])
    if args:
        assert any(line.startswith("Run scripts for samples of thread [") for line in menus[1])
    else:
        assert "Browse map details" in menus[1]


def test_menu_runs_scripts_of_a_symbol(data):
    """Enter, "Run scripts for samples of symbol [...]", then the plain
    samples: perf script -S of that symbol pages through less."""
    t = browse(PCL, data["g"], "--no-children")
    t.send("\r")
    t.wait_for(lambda text: "Select option" in text and "Exit" in screen_lines(t))
    lines = screen_lines(t)[1:ROWS - 1]
    choice = next(i for i, line in enumerate(lines)
                  if line.startswith("Run scripts for samples of symbol ["))
    symbol = lines[choice].split("[", 1)[1].rstrip("]")
    for _ in range(choice):
        t.send("down")
    t.send("\r")
    script_menu(t)
    t.send("\r")
    r = perf("script", "-F", "+metric", "--inline", "-S", symbol, "-i", data["g"],
             env=dict(os.environ, **BROWSER_ENV))
    want = [line.expandtabs().rstrip() for line in r.stdout.splitlines()[:10]]
    assert len(want) == 10
    assert less_screen(t)[:10] == want
    t.send("q")
    t.wait_for(lambda text: screen_lines(t)[0].startswith("Samples:") and entry_rows(t))
    quit_ok(t)


def test_switch_data_file(data, tmp_path):
    """s: the perf.data files of the current directory; the chosen one is
    reported with the same options (perf 6.1 lists them the same way but
    then reads the first file again)."""
    import shutil
    shutil.copy(data["g"], tmp_path / "g.data")
    shutil.copy(data["two"], tmp_path / "two.data")
    (tmp_path / "notes.txt").write_text("not a perf.data file\n")
    t = browse(PCL, "g.data", "--no-children", cwd=str(tmp_path))
    t.send("s")
    t.wait_for("Select option")
    names = [line for line in screen_lines(t)[1:ROWS - 1] if line]
    assert sorted(names) == ["g.data", "two.data"]
    for _ in range(names.index("two.data")):
        t.send("down")
    t.send("\r")
    t.wait_for("Available samples")
    t.send("\r")
    want = stdio("-i", data["two"], "--no-children")
    t.wait_for(lambda text: screen_lines(t)[0] == samples_line(want) and entry_rows(t) and
               entry_rows(t)[0].strip() == stdio_entries(want)[0].strip())
    quit_ok(t)


PRESETS = ["Show individual samples", "Show individual samples with assembler",
           "Show individual samples with source", "Show samples with custom perf script arguments"]


def script_menu(t):
    """perf's menu of scripts, once drawn: its presets, then the scripts.
    perf draws its help line first, then each row but the parts equal to
    the screen before: a row is whole once its scroll bar shows (the
    entries had none; with the "%" gone, a row could still end in the
    entry drawn there before)."""
    t.wait_for(lambda text: "Select option" in screen_lines(t)[ROWS - 1] and
               "stackcollapse" in text and "export-to-postgresql" in text and
               not any("%" in line for line in screen_lines(t)) and
               all(line[-1] in SCROLLBAR for line in t.screen.display[1:ROWS - 1]))
    return [line for line in screen_lines(t)[:ROWS - 1] if line]


def less_screen(t):
    """The first screen of less, once its prompt shows."""
    t.wait_for(lambda text: screen_lines(t)[ROWS - 1] == ":")
    return screen_lines(t)[:ROWS - 1]


@pytest.mark.parametrize("choice,typed,script", [
    (0, None, ["-F", "+metric", "--inline"]),
    (3, "-F comm,tid,period", ["-F", "comm,tid,period"])], ids=["samples", "custom"])
def test_run_script(data, choice, typed, script):
    """r: perf's menu of scripts (the scripts that fit the recording in
    pcl's list order, perf's in its directory's); the chosen view of the
    samples pages through less (its first lines perf script's, perf's
    screen there keeping bits of its browser after them), and q there
    comes back to the browser."""
    r = perf("script", *script, "-i", data["g"], env=dict(os.environ, **BROWSER_ENV))
    want = [line.expandtabs().rstrip() for line in r.stdout.splitlines()[:10]]
    assert len(want) == 10 and all(len(line) < COLS for line in want)
    menus, screens = [], []
    for argv0 in (PERF, PCL):
        t = browse(argv0, data["g"], "--no-children")
        t.send("r")
        menus.append(script_menu(t))
        for _ in range(choice):
            t.send("down")
        t.send("\r")
        if typed:
            t.wait_for("Enter perf script command line (without perf script prefix)")
            t.send(typed)
            t.send("\r")
        screens.append(less_screen(t))
        t.send("q")
        t.wait_for(lambda text: screen_lines(t)[0].startswith("Samples:") and entry_rows(t))
        t.send("q")
        assert t.wait_exit() == 0
        if argv0 == PCL:
            t.assert_restored()
        t.close()
    assert menus[1][:4] == menus[0][:4] == PRESETS
    assert sorted(menus[1][4:]) == sorted(menus[0][4:])
    for screen in screens:
        assert all(line.startswith(w) for line, w in zip(screen, want))
    assert screens[1][:10] == want
