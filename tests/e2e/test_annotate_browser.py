"""pcl annotate's full-screen browser against perf 6.1's, both run in a
pseudo-terminal on the same perf.data (tui_screen.py).  Waits are on screen
contents: a screen is compared with perf's by waiting until perf's shows the
same text, which fails with both screens when it never does."""
import os
import re
import tempfile
import time

import pytest

from conftest import PCL, PERF, fixture, pcl, perf, unified
from tui_screen import Terminal

ROWS, COLS = 60, 150
# xterm-color: its terminfo has no REP (repeat a character), which ncurses
# uses for runs of blanks and pyte does not know
ENV = {"TERM": "xterm-color", "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8",
       "PERF_CONFIG": "/dev/null"}
READY = "Press 'h' for help on key bindings"
HOT_ROW = re.compile(r"^ *(\d+\.\d\d) │")
STDIO_HOT = re.compile(r"^ +(\d+\.\d\d) : +([0-9a-f]+):\s+(.*)$")


@pytest.fixture(scope="module")
def data():
    with tempfile.TemporaryDirectory(prefix="pcl-annotate-browser-") as d:
        path = os.path.join(d, "o2.data")
        r = perf("record", "-q", "-e", "cpu-clock", "-o", path, "--",
                 fixture("annotate_work"), "300")
        assert r.returncode == 0, r.stderr
        yield path


def open_browser(tool, data, *args, cwd=None):
    term = Terminal([tool, "annotate", "-i", data, *args], rows=ROWS, cols=COLS, env=ENV,
                    cwd=cwd)
    term.wait_for(READY)
    return term


def list_rows(term):
    """The annotation's rows: between the two title lines and the help line."""
    return term.screen.display[2:ROWS - 1]


def selected_row(term):
    """The row drawn in the cursor's colours (black on yellow), or None."""
    for row in range(2, ROWS - 1):
        if term.screen.buffer[row][0].bg != "default":
            return term.line(row)
    return None


def stdio_hot_lines(tool, data, symbol):
    r = tool("annotate", "-i", data, "--stdio", symbol)
    assert r.returncode == 0, r.stderr
    return [m.groups() for m in map(STDIO_HOT.match, r.stdout.splitlines())
            if m and float(m.group(1)) > 0]


def close(term):
    term.send("q")
    assert term.wait_exit() == 0
    term.close()


def settle(term):
    """Waits until the browser has taken every key sent: a search box
    opened and cancelled after them closes only then.  Its text goes
    first; the rest of the box only once the frame is all read."""
    term.send("/")
    term.wait_for("String: ")
    term.send("esc")
    term.wait_for(lambda t: "String: " not in t)
    return term.quiet()


def wait_same(ours, theirs, timeout=30):
    """Waits until both screens show the same text (either may still be
    drawing); fails with their differences."""
    deadline = time.monotonic() + timeout
    while ours.text() != theirs.text():
        if time.monotonic() > deadline:
            raise AssertionError(unified(theirs.text(), ours.text()))
        ours._pump(0.1)
        theirs._pump(0.1)
    return ours.text()


def same_as_perf(data, keys, symbol="hot_mix"):
    """Sends keys to both browsers; pcl's screen must come out on perf's."""
    ours, theirs = open_browser(PCL, data, symbol), open_browser(PERF, data, symbol)
    try:
        for key in keys:
            ours.send(key)
            theirs.send(key)
        settle(ours)
        settle(theirs)
        text = wait_same(ours, theirs)
    finally:
        for term in (ours, theirs):
            term.close()
    return text


def test_first_screen_as_perf_and_stdio(data):
    ours = open_browser(PCL, data, "hot_mix")
    theirs = open_browser(PERF, data, "hot_mix")
    try:
        settle(ours)
        settle(theirs)
        wait_same(ours, theirs)
        assert ours.line(0).startswith("Samples: ")
        assert ours.line(1).startswith("hot_mix  ") and "[Percent: local period]" in ours.line(1)
        shown = [HOT_ROW.match(r).group(1) for r in list_rows(ours) if HOT_ROW.match(r)]
        # every sampled instruction, with --stdio's percentages, pcl's and perf's
        for tool in (pcl, perf):
            hot = stdio_hot_lines(tool, data, "hot_mix")
            assert shown == [pct for pct, _, _ in hot]
        # no cursor drawn until a move key
        assert selected_row(ours) is None
    finally:
        close(ours)
        theirs.close()


KEY_CASES = {
    "cursor": ["down"], "tab": ["tab", "tab"], "source": ["s"],
    "addresses": ["o"], "full-addresses": ["o", "f"], "full-then-addresses": ["f", "o"],
    "full-and-back": ["o", "f", "f"], "period": ["t"], "samples": ["t", "t"], "line-numbers": ["k"],
    "nr-jumps": ["J"], "source-from-a-source-line": ["down"] * 6 + ["s"],
    "end-pgup": ["end", "end", "pgup"], "fused-jump": ["down"] * 4 + ["enter", "down"],
    "global": ["p"], "hits": ["b"], "search": ["/", "shr\r", "n"],
    "search-back": ["?", "mov\r"], "jump": ["down"] * 5 + ["enter"],
    # l: perf's message on the help line, for an instruction, the function's
    # name line (no location above it) and a source line
    "location-asm": ["l"], "location-name": ["home", "home", "l"],
    "location-source": ["home", "home", "down", "down", "l"],
}


@pytest.mark.parametrize("keys", KEY_CASES.values(), ids=KEY_CASES.keys())
def test_keys_as_perf(data, keys):
    same_as_perf(data, keys)


def test_hottest_line(data):
    term = open_browser(PCL, data, "hot_mix")
    try:
        hottest = max(float(pct) for pct, _, _ in stdio_hot_lines(pcl, data, "hot_mix"))
        term.send("down")	# shows the cursor: on the hottest line at start
        term.wait_for(lambda t: selected_row(term) is not None, frame=True)
        assert float(HOT_ROW.match(selected_row(term)).group(1)) == hottest
        term.send("home")
        term.wait_for(lambda t: selected_row(term) == term.line(2), frame=True)
        assert not HOT_ROW.match(selected_row(term))
        term.send("H")
        term.wait_for(lambda t: HOT_ROW.match(selected_row(term) or ""), frame=True)
        assert float(HOT_ROW.match(selected_row(term)).group(1)) == hottest
    finally:
        close(term)


def test_source_lines_toggle(data):
    term = open_browser(PCL, data, "hot_mix")
    try:
        source = "return x ^ (x >> 15);"	# next to the hottest line
        assert source in term.text()
        term.send("s")
        text = term.wait_for(lambda t: source not in t, frame=True)
        # what stays is the instructions: each row has an address column
        rows = [r for r in list_rows(term) if r.strip()]
        hot = stdio_hot_lines(pcl, data, "hot_mix")
        assert len(rows) >= len(hot) and "for (int i" not in text
        term.send("s")
        term.wait_for(source)
    finally:
        close(term)


def test_addresses(data):
    term = open_browser(PCL, data, "hot_mix")
    try:
        term.send("o")
        hot = stdio_hot_lines(pcl, data, "hot_mix")
        text = term.wait_for(f"{hot[0][1]}: ", frame=True)
        for pct, addr, insn in hot:
            # objdump's own text after the address, as --stdio shows it
            row = next(r for r in list_rows(term) if f"│{addr}: " in r)
            assert HOT_ROW.match(row).group(1) == pct
            assert row.split(f"{addr}: ", 1)[1].split() == insn.split(), text
    finally:
        close(term)


def a_call(data):
    """A sampled function calling another of its file (not through the PLT),
    and the callee's name, from --stdio2."""
    caller = None
    for line in pcl("annotate", "-i", data, "--stdio2").stdout.splitlines():
        head = re.match(r"^(\S+)\(\) /", line)
        call = re.search(r"→ call +([\w.]+)\s*$", line)
        if head:
            caller = head.group(1)
        elif call and caller and call.group(1) != caller and not call.group(1).startswith("_init"):
            return caller, call.group(1)
    pytest.skip("no sampled function calls another")


def test_enter_on_call_opens_callee(data):
    caller, callee = a_call(data)
    term = open_browser(PCL, data, caller)
    try:
        term.send("home")
        term.send("home")
        term.wait_for(lambda t: selected_row(term) == term.line(2))
        term.send("/")
        term.wait_for("String: ")
        term.send(f"<{callee}>\r")
        term.wait_for(lambda t: "call" in (selected_row(term) or "") and
                      callee in selected_row(term))
        term.send("\r")
        term.wait_for(lambda t: term.line(1).startswith(f"{callee}  "))
        # back in the caller: perf leaves the callee's title under its own
        term.send("q")
        term.wait_for(lambda t: term.line(0).startswith(f"{caller}  "))
    finally:
        close(term)


def test_quit_restores_terminal(data):
    term = Terminal(["sh", "-c", f"{PCL} annotate -i {data} hot_mix; echo RC=$?; stty -a"],
                    rows=ROWS, cols=COLS, env=ENV)
    try:
        term.wait_for(READY)
        term.send("q")
        text = term.wait_for(lambda t: "RC=" in t and "icanon" in t)
        assert "RC=0" in text
        modes = text.split("RC=0", 1)[1].split()
        assert "icanon" in modes and "echo" in modes and "-icanon" not in modes
        assert term.wait_exit() == 0
    finally:
        term.close()


def test_stdio_on_a_terminal(data):
    term = Terminal([PCL, "annotate", "-i", data, "--stdio", "hot_mix"], rows=ROWS, cols=COLS,
                    env=ENV)
    try:
        term.wait_for("Source code & Disassembly of annotate_work")
        assert term.wait_exit() == 0
    finally:
        term.close()


def test_tui_annotate_false_gives_text(data, tmp_path):
    config = tmp_path / "perfconfig"
    config.write_text("[tui]\n\tannotate = false\n[annotate]\n\thide_src_code = true\n")
    term = Terminal([PCL, "annotate", "-i", data, "hot_mix"], rows=ROWS, cols=COLS,
                    env=dict(ENV, PERF_CONFIG=str(config)))
    try:
        term.wait_for("Source code & Disassembly of annotate_work")
        assert term.wait_exit() == 0
    finally:
        term.close()


def test_config_hides_source(data, tmp_path):
    config = tmp_path / "perfconfig"
    config.write_text("[annotate]\n\thide_src_code = true\n")
    term = Terminal([PCL, "annotate", "-i", data, "hot_mix"], rows=ROWS, cols=COLS,
                    env=dict(ENV, PERF_CONFIG=str(config)))
    try:
        text = term.wait_for(READY)
        assert "for (int i" not in text and "xor  %edx,%eax" in text
        term.send("q")
        assert term.wait_exit() == 0
    finally:
        term.close()


def test_help_lists_perfs_keys_pcl_has(data):
    """h: perf's help box."""
    boxes = []
    for tool in (PERF, PCL):
        term = open_browser(tool, data, "hot_mix")
        term.send("h")
        term.wait_for(lambda text: "Press any key..." in text and "\u2518" in text)
        lines = term.screen.display
        top = next(y for y, line in enumerate(lines) if "\u250c\u2500Help" in line)
        left = lines[top].index("\u250c")
        right = lines[top].index("\u2510")
        boxes.append([line[left:right + 1] for line in lines[top:]
                      if line[left] in "\u250c\u2502\u2514"])
        term.send("x")
        term.wait_for(lambda text: "Press any key..." not in text)
        close(term)
    assert boxes[1] == boxes[0]


@pytest.mark.parametrize("keys", [[], ["down"]], ids=["hot-lines", "cursor"])
def test_percent_colours_as_perf(data, keys):
    """Hot lines' percentages in perf's colours (red from 5%, green from
    0.5%), the cursor's line in its own: every cell's colours equal perf's."""
    ours, theirs = open_browser(PCL, data, "hot_mix"), open_browser(PERF, data, "hot_mix")
    try:
        for key in keys:
            ours.send(key)
            theirs.send(key)
        settle(ours)
        settle(theirs)
        wait_same(ours, theirs)
        colours = [[[(c.fg, c.bg) for c in (term.screen.buffer[y][x] for x in range(8))]
                    for y in range(2, ROWS - 1)] for term in (ours, theirs)]
        assert colours[0] == colours[1]
        assert any(("red", "default") in row for row in colours[0])
    finally:
        for term in (ours, theirs):
            term.close()


def test_script_menu_and_back(data):
    """r: perf's menu of scripts, the same as perf annotate's (its scripts
    in pcl's order); ESC comes back to the annotation."""
    menus = []
    for tool in (PERF, PCL):
        term = open_browser(tool, data, "hot_mix")
        first = settle(term)
        term.send("r")
        # (perf redraws a row in pieces, what differs from the screen
        # before: a row is whole once its last column, the scroll bar the
        # annotation lacked, is drawn)
        term.wait_for(lambda text: "Select option" in term.line(ROWS - 1) and
                      "export-to-postgresql" in text and "stackcollapse" in text and
                      "\u2502" not in text and
                      all(line[-1] in "\u25c6\u2592" for line in term.screen.display[1:ROWS - 1]))
        # (without the scroll bar in the last column)
        menus.append([line.rstrip("\u25c6\u2592 ") for line in term.screen.display[:ROWS - 1]
                      if line.strip("\u25c6\u2592 ")])
        term.send("esc")
        term.wait_for(lambda text: text == first)
        close(term)
    assert menus[1][:4] == menus[0][:4] == [
        "Show individual samples", "Show individual samples with assembler",
        "Show individual samples with source", "Show samples with custom perf script arguments"]
    assert sorted(menus[1][4:]) == sorted(menus[0][4:])


def test_cycles_key_says_there_are_none(data):
    """c: perf toggles its min/max cycles columns, which need branch
    cycles no pcl file has: the help line says so, the rows stay."""
    term = open_browser(PCL, data, "hot_mix")
    rows = list_rows(term)
    term.send("c")
    term.wait_for("No min/max cycles")
    assert list_rows(term) == rows
    close(term)
