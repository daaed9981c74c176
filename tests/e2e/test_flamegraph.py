"""pcl collapse / pcl flamegraph: folded stacks equal what stackcollapse-perf.pl's
default rules make of perf 6.1's `perf script` output, the SVG and HTML views
are well-formed and interactive, diff and off-CPU give sane numbers."""
import collections
import functools
import os
import re
import subprocess
import tempfile
import xml.etree.ElementTree as ET

import pytest

from conftest import PCL, PERF, fixture, pcl, perf, perf_record_g

# --- an independent reading of stackcollapse-perf.pl's default rules -------
# (regular expressions here; pcl's C implementation scans by hand)
HEAD = re.compile(r"^(\S.+?)\s+(\d+)/*(\d+)*\s+")
EVENT = re.compile(r":\s*(\d+)*\s+(\S+):\s*$")
FRAME = re.compile(r"^\s*(\w+)\s*(.+) \((\S*)\)")


def tidy(func, mod, pname, kernel=False):
    names = []
    parts = func.split("->")
    while parts and parts[-1] == "":  # Perl's split drops trailing empties
        parts.pop()
    for i, f in enumerate(parts):
        if f == "[unknown]" and mod != "[unknown]":
            f = "[" + mod.rsplit("/", 1)[-1] + "]"
        f = f.replace(";", ":")
        if not re.search(r"\.\(.*\)\.", f):
            f = re.sub(r"\((?!anonymous namespace\)).*", "", f)
        f = f.replace('"', "").replace("'", "")
        if pname == "java" and "/" in f:
            f = re.sub(r"^L", "", f)
        if kernel and re.search(r"kernel\.|vmlinux$", mod):
            f += "_[k]"
        if i:
            f += "_[i]"
        names.append(f)
    return names


def collapse_text(text, event_filter=None, include_pid=False, include_tid=False,
                  kernel=False):
    """perf script text -> {folded stack: weight}; the options are
    stackcollapse-perf.pl's --event-filter, --pid, --tid and --kernel."""
    out = collections.Counter()
    stack, pname, period = [], None, 1
    for line in text.split("\n"):
        if line.startswith("#"):
            continue
        if line == "":
            if pname is not None:
                out[";".join([pname] + stack)] += period
            stack, pname = [], None
            continue
        m = HEAD.match(line)
        if m:
            e = EVENT.search(line)
            period = 1
            if e:
                event_filter = event_filter or e.group(2)
                if e.group(2) != event_filter:
                    pname = None
                    continue
                period = int(e.group(1)) if e.group(1) else 1
            comm, pid, tid = m.groups()
            if not tid:     # perf script's default shows the TID only
                pid, tid = "?", pid
            pname = comm + ("-%s/%s" % (pid, tid) if include_tid else
                            "-" + pid if include_pid else "")
            pname = pname.replace(" ", "_")
            continue
        m = FRAME.match(line)
        if m and pname is not None:
            func = re.sub(r"\+0x[\da-f]+$", "", m.group(2))
            if func.startswith("("):
                continue
            stack[0:0] = tidy(func, m.group(3), pname, kernel)
    return out


def parse_folded(text):
    out = {}
    for line in text.splitlines():
        stack, count = line.rsplit(" ", 1)
        assert stack not in out, "stack printed twice: " + stack
        out[stack] = int(count)
    return out


@functools.lru_cache(maxsize=None)
def collapsed(path, *args):
    """pcl collapse's stacks of a perf.data file (shared: do not modify)."""
    r = pcl("collapse", "-i", path, *args)
    assert r.returncode == 0, r.stderr
    return parse_folded(r.stdout)


def through(folded, name):
    """The weight of the stacks with a frame called name."""
    return sum(v for k, v in folded.items() if name in k.split(";"))


def share(folded, name):
    """The percentage of the profile in stacks through name."""
    return 100 * through(folded, name) / sum(folded.values())


def test_tidy_rules():
    assert tidy("foo(int, char*) const", "/x/a.so", "p") == ["foo"]
    assert tidy("[unknown]", "/usr/lib/libc.so.6", "p") == ["[libc.so.6]"]
    assert tidy("[unknown]", "[unknown]", "p") == ["[unknown]"]
    assert tidy("ns::(anonymous namespace)::f(int)", "m", "p") == \
        ["ns::(anonymous namespace)::f"]
    assert tidy("net/http.(*Client).Do", "m", "p") == ["net/http.(*Client).Do"]
    assert tidy("Ljava/lang/Thread;.run()V", "m", "java") == ["java/lang/Thread:.run"]
    assert tidy("a->b", "m", "p") == ["a", "b_[i]"]


# --- recordings -----------------------------------------------------------
@pytest.fixture(scope="module")
def tmp():
    with tempfile.TemporaryDirectory(prefix="pcl-flame-") as d:
        yield d


record = perf_record_g


@pytest.fixture(scope="module")
def cpu_data(tmp):
    return record(tmp, "cpu.data", [fixture("flame"), "cpu", "400"], ["-F", "2000"])


@pytest.fixture(scope="module")
def dwarf_data(tmp):
    return record(tmp, "dwarf.data", [fixture("flame"), "cpu", "200"],
                  ["--call-graph", "dwarf"])


def perf_script(path, *args):
    r = perf("script", "-i", path, *args)
    assert r.returncode == 0, r.stderr
    return r.stdout


@pytest.mark.parametrize("which", ["cpu_data", "dwarf_data"])
def test_folded_equals_stackcollapse_rules(which, request):
    path = request.getfixturevalue(which)
    expected = collapse_text(perf_script(path))
    r = pcl("collapse", "-i", path)
    assert r.returncode == 0, r.stderr
    got = parse_folded(r.stdout)
    assert len(expected) > 5
    assert got == expected
    lines = r.stdout.splitlines()
    assert lines == sorted(lines, key=lambda l: l.rsplit(" ", 1)[0].encode())


def test_collapse_reads_perf_script_text(cpu_data):
    text = perf_script(cpu_data)
    r = pcl("collapse", input=text)
    assert r.returncode == 0, r.stderr
    assert parse_folded(r.stdout) == collapse_text(text)
    # and from a file argument
    r2 = pcl("collapse", "-i", "-", input=text)
    assert r2.stdout == r.stdout


def test_pipe_mode_perf_data(cpu_data):
    """perf.data in pipe format on stdin (perf inject -o -), events chosen by name."""
    r = subprocess.run("%s inject -i %s -o - | %s collapse --event cpu-clock" %
                       (PERF, cpu_data, PCL), shell=True, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stdout == pcl("collapse", "-i", cpu_data).stdout
    # flamegraph reads a piped perf.data on stdin by default
    r = subprocess.run("%s inject -i %s -o - | %s flamegraph --format folded" %
                       (PERF, cpu_data, PCL), shell=True, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert parse_folded(r.stdout) == collapsed(cpu_data)
    r = subprocess.run("%s inject -i %s -o - | %s collapse --event nope" %
                       (PERF, cpu_data, PCL), shell=True, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True, timeout=120)
    assert r.returncode != 0 and "'nope' not found" in r.stderr


def test_folded_weights_and_shape(cpu_data):
    got = collapsed(cpu_data)
    # the root total is the total period of the samples
    script = perf("script", "-i", cpu_data, "-F", "period")
    total = sum(int(x) for x in script.stdout.split())
    assert sum(got.values()) == total
    # comm with a space became '_'; the thread's stacks are under it
    worker = {k: v for k, v in got.items() if k.startswith("spin_worker;")}
    # nearly all of it under worker_loop (thread start/exit and page faults
    # outside the loop may take a few samples)
    in_loop = sum(v for k, v in worker.items() if "worker_loop" in k)
    assert worker and in_loop >= 0.9 * sum(worker.values())
    # hot_a calls hot_leaf three times for hot_b's once
    a = sum(v for k, v in got.items() if "hot_a;hot_leaf" in k)
    b = sum(v for k, v in got.items() if "hot_b;hot_leaf" in k)
    assert a > 1.5 * b > 0


def test_script_folded(cpu_data):
    r = pcl("script", "--folded", "-i", cpu_data)
    assert r.returncode == 0, r.stderr
    assert r.stdout == pcl("collapse", "-i", cpu_data).stdout
    # script's own filter options apply
    for ours, theirs in ((["--comms", "spin worker"], ["--comm", "spin worker"]),
                         (["--dsos", "flame"], ["--dso", "flame"]),
                         (["--max-stack", "3"], ["--max-stack", "3"])):
        r = pcl("script", "--folded", "-i", cpu_data, *ours)
        assert r.returncode == 0, r.stderr
        got = parse_folded(r.stdout)
        assert got == collapsed(cpu_data, *theirs) != collapsed(cpu_data), ours


@pytest.mark.parametrize("depth", ["1", "3"])
def test_collapse_max_stack_matches_perf_script(cpu_data, depth):
    expected = collapse_text(perf_script(cpu_data, "--max-stack", depth))
    assert collapsed(cpu_data, "--max-stack", depth) == expected
    assert max(k.count(";") for k in expected) <= int(depth)


def sample_times(text):
    return [float(m.group(1)) for m in re.finditer(r" (\d+\.\d+): ", text)]


def test_collapse_filters_match_perf_script(cpu_data):
    text = perf_script(cpu_data)
    times = sample_times(text)
    mid = "%.6f" % ((times[0] + times[-1]) / 2)
    cases = [
        (["--comm", "spin worker"], ["--comms", "spin worker"]),
        (["--dso", "flame"], ["--dsos", "flame"]),
        (["--time", "," + mid], ["--time", "," + mid]),
    ]
    full = collapse_text(text)
    for ours, theirs in cases:
        expected = collapse_text(perf_script(cpu_data, *theirs))
        r = pcl("collapse", "-i", cpu_data, *ours)
        assert r.returncode == 0, r.stderr
        got = parse_folded(r.stdout)
        assert got == expected, ours
        assert 0 < sum(got.values()) < sum(full.values()), ours
    pid = re.search(r"^\S+\s+(\d+)", text).group(1)
    got = parse_folded(pcl("collapse", "-i", cpu_data, "--pid", pid).stdout)
    assert got == full  # one process
    # like perf, -C needs CPU in the samples (not recorded without -a)
    r = pcl("collapse", "-i", cpu_data, "--cpu", "0")
    assert r.returncode != 0 and "CPU" in r.stderr
    assert "cpu" not in perf("report", "-i", cpu_data, "--header-only").stdout.split(
        "sample_type")[-1].split("\n")[0].lower()
    bad = pcl("collapse", "-i", cpu_data, "--cpu", "x")
    assert bad.returncode != 0 and "cpu" in bad.stderr.lower()


# perf script with the PID shown, as stackcollapse's --pid and --tid want it
WITH_PID = ["-F", "comm,pid,tid,time,period,event,ip,sym,dso"]


@pytest.mark.parametrize("option", ["--include-pid", "--include-tid", "--kernel"])
def test_collapse_naming_options(cpu_data, option):
    text = perf_script(cpu_data, *WITH_PID)
    expected = collapse_text(text, **{option[2:].replace("-", "_"): True})
    got = collapsed(cpu_data, option)
    assert got == expected
    assert got != collapsed(cpu_data)
    # the same from the text
    r = pcl("collapse", option, input=text)
    assert r.returncode == 0, r.stderr
    assert parse_folded(r.stdout) == expected
    # perf script's default output has no PID: stackcollapse writes "?"
    if option != "--kernel":
        text = perf_script(cpu_data)
        r = pcl("collapse", option, input=text)
        assert parse_folded(r.stdout) == collapse_text(
            text, **{option[2:].replace("-", "_"): True})
        assert all(k.split(";")[0].split("-")[-1].startswith("?") for k in
                   parse_folded(r.stdout))


@pytest.fixture(scope="module")
def two_events_data(tmp):
    """Two events with different stacks, both with callchains, and the CPU
    in each sample."""
    return record(tmp, "two.data", [fixture("flame"), "cpu", "400"],
                  ["-e", "cpu-clock", "-e", FAULTS, "-F", "1000", "--sample-cpu"])


FAULTS = "page-faults/period=1/"


def test_event_choice(tmp, two_events_data):
    text = perf_script(two_events_data)
    first = EVENT.search([l for l in text.splitlines() if HEAD.match(l)][0]).group(2)
    # by default the first sample's event, like stackcollapse
    assert collapsed(two_events_data) == collapse_text(text)
    stacks = {}
    for event in ("cpu-clock", FAULTS):
        stacks[event] = collapsed(two_events_data, "--event", event)
        assert stacks[event] == collapse_text(text, event_filter=event)
        assert sum(stacks[event].values()) > 0
        r = pcl("flamegraph", "-i", two_events_data, "--event", event, "--format", "folded",
                "-o", "-")
        assert parse_folded(r.stdout) == stacks[event]
    # a fault weighs 1, a clock sample its period in ns (about a million)
    heads = [EVENT.search(l).group(2) for l in text.splitlines() if HEAD.match(l)]
    assert sum(stacks[FAULTS].values()) == heads.count(FAULTS)
    assert min(stacks["cpu-clock"].values()) >= 1000
    assert collapsed(two_events_data) == stacks[first]
    r = pcl("flamegraph", "-i", two_events_data, "--event", "cycles", "-o", "-")
    assert r.returncode != 0 and "'cycles' not found" in r.stderr


def test_filters_tid_pid_cpu_match_perf_script(tmp, two_events_data):
    text = perf_script(two_events_data)
    heads = [HEAD.match(l) for l in text.splitlines() if HEAD.match(l)]
    worker_tid = [m.group(2) for m in heads if m.group(1) == "spin worker"][0]
    pid = [m.group(2) for m in heads if m.group(1) == "flame"][0]
    cpu = re.search(r"\[(\d+)\]", text).group(1)
    full = collapse_text(text, "cpu-clock")
    for ours, theirs in ((["--tid", worker_tid], ["--tid", worker_tid]),
                         (["--pid", pid], ["--pid", pid]),
                         (["--cpu", cpu], ["--cpu", cpu]),
                         (["-C", cpu], ["--cpu", cpu])):
        expected = collapse_text(perf_script(two_events_data, *theirs), "cpu-clock")
        got = collapsed(two_events_data, "--event", "cpu-clock", *ours)
        assert got == expected, ours
        assert sum(got.values()) > 0, ours
        # flamegraph takes the same filters
        r = pcl("flamegraph", "-i", two_events_data, "--event", "cpu-clock", *ours,
                "--format", "folded", "-o", "-")
        assert parse_folded(r.stdout) == expected, ours
    assert sum(collapsed(two_events_data, "--event", "cpu-clock", "--tid",
                         worker_tid).values()) < sum(full.values())
    r = pcl("collapse", "-i", two_events_data, "--tid", "1")
    assert r.returncode == 255 and r.stdout == "" and "no samples left after filtering" in r.stderr


@pytest.mark.parametrize("content", ["", "not a perf script line\n"], ids=["empty", "garbage"])
def test_nothing_to_fold_or_draw_is_an_error(tmp_path, content):
    """Empty or foreign input, or a perf.data without samples: collapse and
    flamegraph say so and fail, and no empty picture is written."""
    text = tmp_path / "in.txt"
    text.write_text(content)
    nosamples = str(tmp_path / "none.data")
    # a sample every 10^9 page faults: none in `true` (a switch-out could
    # land a sched_switch sample under load)
    rec = perf("record", "-q", "-e", "page-faults", "-c", "1000000000", "-o", nosamples,
               "--", "true")
    assert rec.returncode == 0, rec.stderr
    for src in (str(text), nosamples):
        r = pcl("collapse", "-i", src)
        assert r.returncode == 255 and r.stdout == "" and r.stderr, src
        svg = tmp_path / "out.svg"
        r = pcl("flamegraph", "-i", src, "-o", str(svg))
        assert r.returncode == 255 and r.stderr and not svg.exists(), src


def test_flamegraph_filters_change_the_graph(tmp, cpu_data):
    """The SVG's root is the filtered total."""
    _, frames = svg_frames(flamegraph(tmp, "comm.svg", "-i", cpu_data, "--comm",
                                      "spin worker", "--dso", "flame"))
    expect = collapsed(cpu_data, "--comm", "spin worker", "--dso", "flame")
    root = [f for f in frames if f[0] == "all"][0]
    assert root[1] == sum(expect.values()) < sum(collapsed(cpu_data).values())
    assert "spin_worker" in {f[0] for f in frames} and "flame" not in {f[0] for f in frames}


def test_report_folded_stacks_equal_perf_script_stacks(cpu_data):
    """pcl report -g folded (counts, by comm) holds the stacks perf script
    prints, counted once per sample; like perf report, it names unresolved
    frames by their address (C's %#x)."""
    r = pcl("report", "-i", cpu_data, "--stdio", "--no-children", "--sort", "comm",
            "-g", "folded,0,caller,count")
    assert r.returncode == 0, r.stderr
    got, comm = collections.Counter(), None
    for line in r.stdout.splitlines():
        if line.startswith("#") or not line.strip():
            continue
        m = re.match(r"^\s+[\d.]+%\s+(.*?)\s*$", line)
        if m:
            comm = m.group(1)
            continue
        n, stack = line.split(" ", 1)
        got[comm + ";" + stack] += int(n)
    expected = collections.Counter()
    for block in perf_script(cpu_data).split("\n\n"):
        lines = [l for l in block.splitlines() if l.strip()]
        if lines:
            frames = [re.sub(r"\+0x[\da-f]+$", "", m.group(2)) if m.group(2) != "[unknown]"
                      else "%#x" % int(m.group(1), 16) if int(m.group(1), 16) else "0"
                      for m in map(FRAME.match, lines[1:])]
            expected[HEAD.match(lines[0]).group(1) + ";" + ";".join(reversed(frames))] += 1
    assert len(expected) > 5 and got == expected


# --- SVG --------------------------------------------------------------------
def svg_frames(path):
    """[(name, count, x, y, width, height, (r, g, b))] of an SVG flame graph."""
    root = ET.parse(path).getroot()
    ns = {"s": "http://www.w3.org/2000/svg"}
    group = root.find(".//s:g[@id='frames']", ns)
    out = []
    for g in group.findall("s:g", ns):
        title = g.find("s:title", ns).text
        rect = g.find("s:rect", ns)
        m = re.match(r"^(.*) \(([\d,]+) ", title)
        fill = tuple(int(v) for v in re.findall(r"\d+", rect.get("fill")))
        out.append((m.group(1), int(m.group(2).replace(",", "")), float(rect.get("x")),
                    float(rect.get("y")), float(rect.get("width")),
                    float(rect.get("height")), fill))
    return root, out


def flamegraph(tmp, name, *args):
    out = os.path.join(tmp, name)
    r = pcl("flamegraph", *args, "-o", out)
    assert r.returncode == 0, r.stderr
    assert os.stat(out).st_mode & 0o777 == 0o600
    return out


def test_svg_is_valid_and_matches_folded(tmp, cpu_data):
    folded = collapsed(cpu_data)
    total = sum(folded.values())
    root, frames = svg_frames(flamegraph(tmp, "cpu.svg", "-i", cpu_data))
    assert root.get("width") == "1200"
    assert "Flame Graph" in ET.tostring(root, encoding="unicode")
    by_name = collections.defaultdict(int)
    for name, count, x, y, w, h, fill in frames:
        by_name[name] += count
        assert 10 - 0.05 <= x and x + w <= 1190 + 0.2
        # width is the frame's share of the total
        assert abs(w - 1180 * count / total) < 0.2, name
    assert [f for f in frames if f[0] == "all"][0][1] == total
    assert by_name["flame"] == sum(v for k, v in folded.items() if k.startswith("flame;"))
    # every frame's count is the sum of the stacks through it
    for name in ("hot_a", "hot_b", "worker_loop", "run_cpu"):
        expect = through(folded, name)
        assert by_name[name] == expect, name
    # a parent is at least as wide as its children and sits one row lower
    ys = sorted({f[3] for f in frames})
    assert [f for f in frames if f[0] == "all"][0][3] == ys[-1]


def rgb_hue(c):
    import colorsys
    return colorsys.rgb_to_hsv(*(v / 255 for v in c))[0] * 360


def test_svg_kernel_frames_coloured_apart(tmp, cpu_data):
    text = perf_script(cpu_data)
    kernel, user = set(), set()
    for line in text.splitlines():
        m = FRAME.match(line)
        if m and not HEAD.match(line):
            name = re.sub(r"\+0x[\da-f]+$", "", m.group(2))
            (kernel if "kernel.kallsyms" in m.group(3) else user).add(name)
    _, frames = svg_frames(flamegraph(tmp, "k.svg", "-i", cpu_data))
    seen_k = seen_u = 0
    for name, count, x, y, w, h, fill in frames:
        hue = rgb_hue(fill)
        if name in kernel and name not in user:
            assert 30 <= hue <= 60, (name, fill)
            seen_k += 1
        elif name in user and name not in kernel and not name.startswith("["):
            assert hue <= 30 or hue >= 350, (name, fill)
            seen_u += 1
    assert seen_k and seen_u


def test_svg_options(tmp, cpu_data):
    path = flamegraph(tmp, "o.svg", "-i", cpu_data, "--title", "My <Title>", "--subtitle",
                      "sub & title", "--width", "800", "--height", "20", "--fonttype",
                      "Courier", "--fontsize", "10", "--countname", "periods", "--nametype",
                      "Func:", "--notes", "some notes", "--colors", "mem", "--hash",
                      "--minwidth", "5%")
    text = open(path).read()
    root, frames = svg_frames(path)
    assert root.get("width") == "800"
    assert "My &lt;Title&gt;" in text and "sub &amp; title" in text
    assert "<!-- NOTES: some notes -->" in text
    assert "font-family:Courier" in text and "font-size:10.0px" in text
    assert "Func:" in text and " periods, " in text
    total = frames[0][1]
    assert all(f[5] == 19 for f in frames)
    assert all(f[1] >= total * 0.05 for f in frames)
    # mem is a green palette; --hash gives one colour per name
    assert all(f[6][1] > f[6][0] for f in frames)
    colours = collections.defaultdict(set)
    for f in frames:
        colours[f[0]].add(f[6])
    assert all(len(c) == 1 for c in colours.values())
    bad = pcl("flamegraph", "-i", cpu_data, "--colors", "pink", "-o", os.path.join(tmp, "x"))
    assert bad.returncode != 0 and "palette" in bad.stderr


def test_svg_width_and_minwidth_pixels(tmp, cpu_data):
    folded = collapsed(cpu_data)
    total = sum(folded.values())
    _, frames = svg_frames(flamegraph(tmp, "w.svg", "-i", cpu_data, "--width", "800"))
    for name, count, x, y, w, h, fill in frames:
        assert abs(w - 780 * count / total) < 0.2, name
        assert 10 - 0.05 <= x and x + w <= 790 + 0.2
    _, wide = svg_frames(flamegraph(tmp, "mw.svg", "-i", cpu_data, "--width", "800",
                                    "--minwidth", "50"))
    assert all(f[4] >= 50 - 0.01 for f in wide)
    assert len(wide) < len(frames)
    assert {f[0] for f in frames if f[4] >= 50.01} <= {f[0] for f in wide}


def hue_in(px, band):
    """Whether the colour's hue (degrees) lies in band; bands may pass 360."""
    h = rgb_hue(px)
    return band[0] <= h <= band[1] or band[0] <= h + 360 <= band[1]


RED, ORANGE, YELLOW, GREEN = (340, 375), (15, 45), (40, 70), (90, 150)
AQUA, BLUE, PURPLE = (165, 200), (195, 250), (270, 310)
# flamegraph.pl's palettes for ordinary names: the hue band they stay in
PALETTE_HUES = {
    "hot": (350, 390), "mem": (80, 180), "io": (195, 280), "wakeup": AQUA, "chain": BLUE,
    "red": RED, "green": GREEN, "blue": BLUE, "aqua": AQUA, "yellow": YELLOW,
    "purple": PURPLE, "orange": ORANGE,
}
# the language palettes colour by the shape of the name
LANGUAGE_HUES = {
    "java": {"java/util/Map.get": GREEN, "Foo::bar": YELLOW, "plain_fn": RED,
             "kfn_[k]": ORANGE, "inl_fn_[i]": AQUA, "jit_fn_[j]": GREEN},
    "js": {"lib/app.js": GREEN, "Foo::bar": YELLOW, "ns:fn": AQUA, "plain_fn": RED,
           "kfn_[k]": ORANGE},
    "perl": {"Perl_pp_add": GREEN, "Foo::bar": YELLOW, "plain_fn": RED, "kfn_[k]": ORANGE},
}
SHAPES = ["plain_fn", "Foo::bar", "java/util/Map.get", "lib/app.js", "ns:fn", "Perl_pp_add",
          "inl_fn_[i]", "jit_fn_[j]", "kfn_[k]", "wake_[w]"]


def html_colours(path):
    """{name: (r, g, b)} from the data block of a flame graph page."""
    import json
    text = open(path).read()
    data = json.loads(re.search(r'<script id="pcl-data" type="application/json">(.*?)'
                                r'</script>', text, re.S).group(1))
    return {n: (c >> 16, (c >> 8) & 255, c & 255) for n, c in zip(data["names"],
                                                                   data["colors"])}


@pytest.mark.parametrize("palette", sorted(PALETTE_HUES) + sorted(LANGUAGE_HUES))
def test_palettes(tmp, palette):
    src = os.path.join(tmp, "shapes.folded")
    with open(src, "w") as f:
        f.writelines("p;%s %d\n" % (name, 10 + i) for i, name in enumerate(SHAPES))
    _, frames = svg_frames(flamegraph(tmp, palette + ".svg", "--folded", src, "--colors",
                                      palette, "--hash"))
    svg = {f[0]: f[6] for f in frames}
    html = html_colours(flamegraph(tmp, palette + ".html", "--folded", src, "--colors",
                                   palette))
    if palette in LANGUAGE_HUES:
        expect = LANGUAGE_HUES[palette]
    else:
        expect = {n: PALETTE_HUES[palette] for n in SHAPES if not n.endswith("]")}
        expect["plain_fn"] = PALETTE_HUES[palette]
        if palette == "hot":
            expect["kfn_[k]"] = (30, 60)       # kernel frames apart from user ones
        if palette == "chain":
            expect["wake_[w]"] = AQUA          # wakeup stacks
    for name, band in expect.items():
        assert hue_in(svg[name], band), (palette, name, svg[name])
        assert hue_in(html[name], band), (palette, name, html[name])


def test_hash_colours_follow_names(tmp, cpu_data):
    a, b = os.path.join(tmp, "ha.folded"), os.path.join(tmp, "hb.folded")
    open(a, "w").write("p;alpha;beta 10\np;gamma 5\n")
    open(b, "w").write("q;gamma;alpha 3\nq;delta;beta 7\nq;beta 1\n")
    colours = collections.defaultdict(set)
    for path in (a, b):
        for f in svg_frames(flamegraph(tmp, "h.svg", "--folded", path, "--hash"))[1]:
            colours[f[0]].add(f[6])
    assert all(len(c) == 1 for c in colours.values())
    assert len({next(iter(c)) for c in colours.values()}) > 3
    # without --hash each frame draws its own colour, like flamegraph.pl
    _, frames = svg_frames(flamegraph(tmp, "nohash.svg", "-i", cpu_data))
    seen = collections.defaultdict(set)
    for f in frames:
        seen[f[0]].add(f[6])
    assert max(len(c) for c in seen.values()) > 1


def test_svg_inverted_reverse_flamechart(tmp):
    data = record(tmp, "phases.data", [fixture("flame"), "phases", "400"], ["-F", "2000"])
    _, normal = svg_frames(flamegraph(tmp, "n.svg", "-i", data))
    _, icicle = svg_frames(flamegraph(tmp, "i.svg", "-i", data, "--inverted"))
    top = lambda frames: min(frames, key=lambda f: f[3])[0]
    assert top(icicle) == "all" and top(normal) != "all"
    # reversed: leaves sit on the root
    _, rev = svg_frames(flamegraph(tmp, "r.svg", "-i", data, "--reverse"))
    root_y = [f for f in rev if f[0] == "all"][0][3]
    first = {f[0] for f in rev if f[3] == root_y - 16}
    assert "hot_leaf" in first and "flame" not in first
    # name order puts phase_a left; time order (flame chart) phase_z
    x = lambda frames, n: min(f[2] for f in frames if f[0] == n)
    assert x(normal, "phase_a") < x(normal, "phase_z")
    _, chart = svg_frames(flamegraph(tmp, "c.svg", "-i", data, "--flamechart"))
    assert x(chart, "phase_z") < x(chart, "phase_a")
    assert "Flame Chart" in open(os.path.join(tmp, "c.svg")).read()


def test_folded_input(tmp):
    src = os.path.join(tmp, "in.folded")
    with open(src, "w") as f:
        f.write("java;Lfoo/Bar;.run 30\nmain;a;b 70\n\nmain;a;c 0.5\nbad line\n")
    root, frames = svg_frames(flamegraph(tmp, "f.svg", "--folded", src))
    counts = {f[0]: f[1] for f in frames}
    assert counts["all"] == 101 and counts["a"] == 71 and counts["java"] == 30
    r = pcl("flamegraph", "--folded", "-", "-o", "-", input="x;y 5\n")
    assert r.returncode == 0 and "x (5 samples" in r.stdout
    r = pcl("flamegraph", "--folded", "-", "-o", "-", input="no counts here\n")
    assert r.returncode != 0 and "folded" in r.stderr


# --- differential --------------------------------------------------------------
def test_diff_folded(tmp):
    base = os.path.join(tmp, "base.folded")
    new = os.path.join(tmp, "new.folded")
    open(base, "w").write("p;a;b 100\np;a;c 100\np;gone 40\n")
    open(new, "w").write("p;a;b 300\np;a;c 50\np;d 10\n")
    r = pcl("flamegraph", "--diff", base, new, "--format", "folded", "-o", "-")
    assert r.returncode == 0, r.stderr
    rows = {l.rsplit(" ", 2)[0]: tuple(map(int, l.rsplit(" ", 2)[1:]))
            for l in r.stdout.splitlines()}
    assert rows == {"p;a;b": (100, 300), "p;a;c": (100, 50), "p;d": (0, 10), "p;gone": (40, 0)}
    # the two profiles are the arguments: nothing else may name an input
    for extra in (["-i", new], ["--folded", new], [new]):
        r = pcl("flamegraph", "--diff", base, new, *extra, "-o", "-")
        assert r.returncode == 129 and "two files" in r.stderr, extra
    _, frames = svg_frames(flamegraph(tmp, "d.svg", "--diff", base, new))
    f = {x[0]: x for x in frames}
    assert f["all"][1] == 360                     # widths from the new profile
    assert "gone" not in f
    red = lambda c: c[0] == 255 and c[2] < 255
    blue = lambda c: c[2] == 255 and c[0] < 255
    assert red(f["b"][6]) and red(f["d"][6]) and blue(f["c"][6])
    # the biggest change is the deepest colour
    assert f["b"][6][1] < f["d"][6][1]
    _, neg = svg_frames(flamegraph(tmp, "dn.svg", "--diff", "--negate", base, new))
    g = {x[0]: x for x in neg}
    assert blue(g["b"][6]) and red(g["c"][6])
    r = pcl("flamegraph", "--diff", "--normalize", base, new, "--format", "folded", "-o", "-")
    rows = {l.rsplit(" ", 2)[0]: tuple(map(int, l.rsplit(" ", 2)[1:]))
            for l in r.stdout.splitlines()}
    assert sum(v[0] for v in rows.values()) == 360
    # difffolded-style input (two counts) is a diff by itself
    both = os.path.join(tmp, "both.folded")
    open(both, "w").write("p;a 10 30\np;b 30 10\n")
    _, frames = svg_frames(flamegraph(tmp, "b.svg", "--folded", both))
    f = {x[0]: x for x in frames}
    assert red(f["a"][6]) and blue(f["b"][6])


def test_diff_perf_data(tmp, cpu_data):
    other = record(tmp, "phases2.data", [fixture("flame"), "phases", "300"], ["-F", "2000"])
    r = pcl("flamegraph", "--diff", cpu_data, other, "--format", "folded", "-o", "-")
    assert r.returncode == 0, r.stderr
    rows = [l.rsplit(" ", 2) for l in r.stdout.splitlines()]
    base = collapsed(cpu_data)
    new = parse_folded(pcl("collapse", "-i", other).stdout)
    assert {s: (int(a), int(b)) for s, a, b in rows} == {
        s: (base.get(s, 0), new.get(s, 0)) for s in set(base) | set(new)}
    _, frames = svg_frames(flamegraph(tmp, "dp.svg", "--diff", cpu_data, other))
    f = {x[0]: x for x in frames}
    red = lambda c: c[0] == 255 and c[2] < 255
    blue = lambda c: c[2] == 255 and c[0] < 255
    # phase_a is only in the new profile: it grew; run_cpu vanished (not
    # drawn); the root grew or shrank with the total (CPU time the
    # workloads got on a shared machine)
    assert sum(new.values()) == f["all"][1] != sum(base.values())
    root_grew = sum(new.values()) > sum(base.values())
    assert red(f["phase_a"][6]) and "run_cpu" not in f
    assert (red if root_grew else blue)(f["all"][6])
    _, frames = svg_frames(flamegraph(tmp, "dpn.svg", "--diff", "--negate", cpu_data, other))
    g = {x[0]: x for x in frames}
    assert blue(g["phase_a"][6]) and (blue if root_grew else red)(g["all"][6])
    assert {k: v[1] for k, v in g.items()} == {k: v[1] for k, v in f.items()}


# --- off-CPU ------------------------------------------------------------------
NAPS = 10


@pytest.fixture(scope="module")
def off_data(tmp):
    return record(tmp, "off.data", [fixture("flame"), "sleep", str(NAPS)],
                  ["-e", "sched:sched_switch", "--switch-events"])


def test_off_cpu(tmp, cpu_data, off_data):
    naps, data = NAPS, off_data
    r = pcl("collapse", "--off-cpu", "-i", data)
    assert r.returncode == 0, r.stderr
    got = parse_folded(r.stdout)
    total = sum(got.values())
    sleeping = sum(v for k, v in got.items() if "clock_nanosleep" in k)
    # ten naps of 20 ms: at least that long, not absurdly longer (loaded machine)
    assert naps * 20e6 * 0.95 <= sleeping <= naps * 20e6 * 20
    assert sleeping >= 0.8 * total
    # the switch happens in __schedule: every stack ends there
    assert all(k.startswith("flame;") and k.endswith(";__schedule") for k in got)
    path = flamegraph(tmp, "off.svg", "-i", data, "--off-cpu")
    text = open(path).read()
    assert "Off-CPU Time Flame Graph" in text and " ns, " in text
    _, frames = svg_frames(path)
    assert all(f[6][2] > f[6][0] for f in frames)   # blue (io) by default
    r = pcl("collapse", "--off-cpu", "-i", cpu_data)
    assert r.returncode != 0 and "sched_switch" in r.stderr


# --- HTML in headless Chromium ---------------------------------------------------
CHROMIUM = next((p for p in ("/usr/bin/chromium", "/usr/bin/chromium-browser")
                 if os.access(p, os.X_OK)), None)
needs_chromium = pytest.mark.skipif(
    CHROMIUM is None, reason="chromium is not installed (scripts/deps.sh installs it)")


def fd_above_4(fd):
    """fd moved where bash's 3<& and 4>& cannot overwrite it."""
    import fcntl
    high = fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 10)
    os.close(fd)
    return high


class Browser:
    """Headless Chromium driven over the DevTools protocol on a pipe
    (--remote-debugging-pipe: commands on fd 3, replies on fd 4, JSON texts
    ended by NUL), so that a test waits for what the page says it has done
    instead of guessing how long drawing takes on a loaded machine."""

    WAIT = 180      # seconds for any one step: other builds share the 2 cores

    def __init__(self, tmp):
        self.proc, self.errors, self.buf, self.next_id = None, [], b"", 0
        # only the launch is retried (a loaded machine can make Chromium
        # fail to start); what the page does is asserted once
        for _ in range(3):
            try:
                self._launch(tmp)
                return
            except (OSError, EOFError, TimeoutError) as e:
                self.close()
                why = "%s: %s\n%s" % (type(e).__name__, e, self.log_tail())
        raise AssertionError("chromium did not start three times: " + why)

    def log_tail(self):
        """The end of Chromium's stderr, for failure messages."""
        try:
            with open(self.log, errors="replace") as f:
                return f.read()[-2000:]
        except (AttributeError, OSError):
            return ""

    def _launch(self, tmp):
        profile = tempfile.mkdtemp(prefix="chromium-", dir=tmp)
        self.log = os.path.join(profile, "stderr.txt")
        cmd_r, self.cmd_w = os.pipe()
        self.res_r, res_w = os.pipe()
        cmd_r, res_w = fd_above_4(cmd_r), fd_above_4(res_w)
        argv = [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                "--no-first-run", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage",
                "--user-data-dir=" + profile, "--window-size=1200,1000",
                "--remote-debugging-pipe", "about:blank"]
        try:
            with open(self.log, "w") as log:
                self.proc = subprocess.Popen(
                    ["/bin/bash", "-c", 'exec "$@" 3<&%d 4>&%d' % (cmd_r, res_w), "bash",
                     *argv], pass_fds=(cmd_r, res_w), stdout=subprocess.DEVNULL, stderr=log)
        finally:
            os.close(cmd_r)
            os.close(res_w)
        target = self.call("Target.createTarget", url="about:blank")["targetId"]
        self.session = self.call("Target.attachToTarget", targetId=target,
                                 flatten=True)["sessionId"]
        self.call("Runtime.enable", session=True)
        self.call("Page.enable", session=True)

    def call(self, method, session=False, **params):
        """Sends a DevTools command, returns its result."""
        import json
        import select
        import time
        self.next_id += 1
        msg = {"id": self.next_id, "method": method, "params": params}
        if session:
            msg["sessionId"] = self.session
        os.write(self.cmd_w, json.dumps(msg).encode() + b"\0")
        deadline = time.monotonic() + self.WAIT
        while True:
            while b"\0" in self.buf:
                text, self.buf = self.buf.split(b"\0", 1)
                reply = json.loads(text)
                self._note(reply)
                if reply.get("id") == self.next_id:
                    assert "error" not in reply, (method, reply["error"])
                    return reply["result"]
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self.res_r], [], [], left)[0]:
                raise TimeoutError("no reply to " + method)
            chunk = os.read(self.res_r, 1 << 20)
            if not chunk:
                raise EOFError("chromium exited (rc %s)" % self.proc.poll())
            self.buf += chunk

    def _note(self, msg):
        """Keeps the page's uncaught exceptions and console errors."""
        if msg.get("method") == "Runtime.exceptionThrown":
            d = msg["params"]["exceptionDetails"]
            self.errors.append(d.get("exception", {}).get("description", d.get("text")))
        elif msg.get("method") == "Runtime.consoleAPICalled" and \
                msg["params"]["type"] in ("error", "assert"):
            self.errors.append(" ".join(str(a.get("value", a.get("description")))
                                        for a in msg["params"]["args"]))

    def js(self, expr):
        r = self.call("Runtime.evaluate", session=True, expression=expr, returnByValue=True)
        assert "exceptionDetails" not in r, (expr, r["exceptionDetails"])
        return r["result"].get("value")

    def wait(self, expr, what):
        """Polls until expr is true in the page."""
        import time
        deadline = time.monotonic() + self.WAIT
        while self.js("!!(%s)" % expr) is not True:
            assert time.monotonic() < deadline, "gave up waiting %d s for %s" % (
                self.WAIT, what)
            time.sleep(0.05)

    def open(self, path, fragment=""):
        import json
        self.call("Page.navigate", session=True, url="file://" + path + fragment)
        # the previous document may still be there (and complete) at first
        self.wait("location.pathname === %s && document.readyState === 'complete'"
                  % json.dumps(path), "the page to load")

    def painted(self):
        """Waits until every canvas draw so far is on screen (the page sets
        data-pcl-painted two animation frames after its latest draw)."""
        self.wait("window.__pclTest && document.documentElement.getAttribute("
                  "'data-pcl-painted') === String(__pclTest.state().draws)",
                  "the page's painted signal")

    def api(self, name, *args):
        """Calls the page's test API, waits until its drawing is painted."""
        import json
        out = self.js("__pclTest.%s.apply(null, %s)" % (name, json.dumps(list(args))))
        self.painted()
        return out

    def shot(self, selector):
        """(width, height, rows of (r, g, b)): a screenshot of one element."""
        import base64
        x, y, w, h = self.js(
            "(function () { var r = document.querySelector('%s').getBoundingClientRect();"
            " return [r.left + scrollX, r.top + scrollY, r.width, r.height]; })()" % selector)
        png = self.call("Page.captureScreenshot", session=True, format="png",
                        captureBeyondViewport=True,
                        clip={"x": x, "y": y, "width": w, "height": h, "scale": 1})
        return png_pixels(base64.b64decode(png["data"]))

    def close(self):
        if self.proc and self.proc.poll() is None:
            try:
                self.call("Browser.close")
            except (OSError, EOFError, TimeoutError, AssertionError):
                pass
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        for fd in ("cmd_w", "res_r"):
            if getattr(self, fd, None) is not None:
                os.close(getattr(self, fd))
                setattr(self, fd, None)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def page(tmp, path, calls):
    """Loads an HTML page or SVG in Chromium, runs the test API calls (listed
    in the URL's #pcltest=), returns their results."""
    import json
    import urllib.parse
    with Browser(tmp) as b:
        b.open(path, "#pcltest=" + urllib.parse.quote(json.dumps(calls)))
        b.wait("document.getElementById('pcl-test-out')", "the page's test hook")
        out = json.loads(b.js("document.getElementById('pcl-test-out').textContent"))
        assert out["errors"] == [] and b.errors == [], (out["errors"], b.errors)
    if path.endswith(".svg"):
        return out["results"]
    return [res for _, res in out["results"]]


def png_pixels(data):
    """(width, height, rows of (r, g, b)) of an 8-bit RGB/RGBA PNG."""
    import struct
    import zlib
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, width = 8, b"", 0
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            width, height, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", body)
            assert depth == 8 and ctype in (2, 6) and interlace == 0
            bpp = 3 if ctype == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    raw, rows, prev = zlib.decompress(idat), [], bytearray(width * bpp)
    stride = width * bpp
    for y in range(height):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append([tuple(line[i:i + 3]) for i in range(0, stride, bpp)])
        prev = line
    return width, height, rows


@pytest.fixture(scope="module")
def phases_data(tmp):
    return record(tmp, "phases-html.data", [fixture("flame"), "phases", "600"], ["-F", "2000"])


@needs_chromium
def test_html_draws_without_errors(tmp, cpu_data):
    html = flamegraph(tmp, "cpu.html", "-i", cpu_data)
    text = open(html).read()
    assert "http://" not in text.replace("http://www.w3.org", "") and "https://" not in text
    state, ink = page(tmp, html, [["state"], ["ink"]])
    folded = collapsed(cpu_data)
    assert state["rootTotal"] == sum(folded.values())
    assert state["frames"] > 5 and ink > 10000 and state["timed"]
    assert state["top"][0][0] == "hot_leaf"


def flame_shots(tmp, html, calls):
    """Screenshots (width, height, rows) of a page's flame graph as loaded
    and after each test-API call."""
    with Browser(tmp) as b:
        b.open(html)
        b.painted()
        shots = [b.shot("#flame")]
        for call in calls:
            b.api(*call)
            shots.append(b.shot("#flame"))
        assert b.errors == []
    return shots


def warm(px):
    """A hot-palette colour: red to yellow, saturated, bright."""
    import colorsys
    h, s, v = colorsys.rgb_to_hsv(*(c / 255 for c in px))
    return (h <= 60 / 360 or h >= 350 / 360) and s >= 0.5 and v >= 0.7


SEARCH_HIT = (230, 0, 230)


def count(rows, pred):
    return sum(1 for row in rows for px in row if pred(px))


def frames_area(folded, width, names=None, row=16):
    """Pixels the frames of a flame graph cover: each frame (ROW - 1)
    pixels high and as wide as its share of the root (all of them, or
    only those in names)."""
    total = sum(folded.values())
    frames = sum(v * sum(1 for f in ["all"] + k.split(";") if names is None or f in names)
                 for k, v in folded.items())
    return (width - 20) * (row - 1) * frames / total


@needs_chromium
def test_html_screenshots_follow_the_data(tmp, cpu_data):
    """What is on screen, waited for through the page's painted signal:
    warm frames covering the area the data says, search hits in magenta,
    zoom and reset redraw."""
    html = flamegraph(tmp, "shot.html", "-i", cpu_data)
    folded = collapsed(cpu_data)
    shots = flame_shots(tmp, html, [["search", "^hot_leaf$"], ["zoom", "hot_a"], ["reset"]])
    width = shots[0][0]
    first, searched, zoomed, reset = (rows for _, _, rows in shots)
    area = frames_area(folded, width)
    # labels take some of each wide frame's pixels
    assert 0.6 * area <= count(first, warm) <= 1.02 * area
    assert count(first, lambda px: px == SEARCH_HIT) == 0
    leaf_area = frames_area(folded, width, {"hot_leaf"})
    hits = count(searched, lambda px: px == SEARCH_HIT)
    assert 0.6 * leaf_area <= hits <= 1.02 * leaf_area
    assert count(searched, warm) < count(first, warm) - 0.5 * hits
    # zoomed into hot_a: hot_a is the full width, its hot_leaf child its share
    in_a = through(folded, "hot_a")
    leaf_in_a = sum(v for k, v in folded.items() if "hot_a;hot_leaf" in k)
    zoom_hits = (width - 20) * 15 * leaf_in_a / in_a
    assert 0.6 * zoom_hits <= count(zoomed, lambda px: px == SEARCH_HIT) <= 1.02 * zoom_hits
    assert zoomed != searched
    assert reset == first


@needs_chromium
def test_html_heat_map_selection_redraws(tmp, phases_data):
    html = flamegraph(tmp, "phshot.html", "-i", phases_data)
    with Browser(tmp) as b:
        b.open(html)
        b.painted()
        _, _, flame_all = b.shot("#flame")
        _, _, heat_all = b.shot("#heat")
        first, last = b.api("busiestCells")
        assert b.api("selectCells", first, first + 9)
        _, _, flame_start = b.shot("#flame")
        _, _, heat_start = b.shot("#heat")
        assert b.api("selectCells", last - 9, last)
        _, _, flame_end = b.shot("#flame")
        b.api("clearSelection")
        _, _, flame_cleared = b.shot("#flame")
        assert b.errors == []
    # the selected cells got the blue overlay: ten cells of 3x5 pixels or more
    bluer = sum(1 for a, b in zip(heat_all, heat_start) for p, q in zip(a, b)
                if (q[2] - q[0]) - (p[2] - p[0]) > 50)
    assert bluer >= 10 * 3 * 5
    assert len({str(flame_all), str(flame_start), str(flame_end)}) == 3
    assert flame_cleared == flame_all


@needs_chromium
def test_html_options(tmp, cpu_data):
    html = flamegraph(tmp, "opts.html", "-i", cpu_data, "--title", "T <x>", "--subtitle",
                      "sub & t", "--countname", "periods", "--nametype", "Func:",
                      "--fonttype", "Courier", "--fontsize", "10", "--height", "20",
                      "--notes", "my notes")
    narrow = flamegraph(tmp, "narrow.html", "-i", cpu_data, "--minwidth", "5%")
    preset = flamegraph(tmp, "preset.html", "-i", cpu_data, "--search", "^hot_leaf$")
    assert "<!-- NOTES: my notes -->" in open(html).read()
    folded = collapsed(cpu_data)
    with Browser(tmp) as b:
        b.open(html)
        b.painted()
        texts = b.js("[document.title, document.querySelector('h1').textContent,"
                     " document.getElementById('subtitle').textContent,"
                     " document.querySelectorAll('#top thead th')[2].textContent,"
                     " document.getElementById('flame').getContext('2d').font]")
        width, height, shot = b.shot("#flame")
        # hover over the root row: the details line names and counts it
        details = b.js("(function () { var c = document.getElementById('flame'),"
                       " r = c.getBoundingClientRect();"
                       " c.dispatchEvent(new MouseEvent('mousemove', {clientX: r.left + 20,"
                       " clientY: r.bottom - 15, bubbles: true}));"
                       " return document.getElementById('details').textContent; })()")
        frames = b.js("__pclTest.state().frames")
        b.open(narrow)
        b.painted()
        narrow_frames = b.js("__pclTest.state().frames")
        b.open(preset)
        b.painted()
        preset_matched = b.js("__pclTest.state().matched")
        assert b.errors == []
    assert texts == ["T <x>", "T <x>", "sub & t", "Func", "10px Courier"]
    assert details == "Func: all ({:,} periods, 100.00%)".format(sum(folded.values()))
    # the root row: --height 20 makes it 19 pixels of colour
    # (each row leaves a line of background above the next: the root fills
    # 19 lines above the 10-pixel margin and that line)
    y = height - 10 - 2
    assert warm_share(shot[y + 1], width) == 0
    while warm_share(shot[y], width) > 0.9:
        y -= 1
    assert height - 10 - 2 - y == 19
    assert 0 < narrow_frames < frames
    assert abs(preset_matched - share(folded, "hot_leaf")) < 0.01


def mean_x(rows, pred):
    xs = [x for row in rows for x, px in enumerate(row) if pred(px)]
    return sum(xs) / len(xs)


def warm_share(row, width):
    """The share of warm pixels in one pixel row of a flame graph, inside its margins."""
    return sum(1 for px in row[10:width - 10] if warm(px)) / (width - 20)


@needs_chromium
def test_html_inverted_and_flamechart(tmp, phases_data):
    """Icicle: the root row on top; flame chart: time order (phase_z ran
    first), where name order puts phase_a first."""
    shots = {}
    for kind, args in (("flame", []), ("icicle", ["--inverted"]), ("chart", ["--flamechart"])):
        html = flamegraph(tmp, kind + ".html", "-i", phases_data, *args)
        plain, z, a = flame_shots(tmp, html, [["search", "^phase_z$"],
                                              ["search", "^phase_a$"]])
        shots[kind] = plain + (z[2], a[2])
    for kind in shots:
        width, height, plain, z, a = shots[kind]
        top, bottom = plain[10 + 4], plain[height - 10 - 4]
        if kind == "icicle":
            assert warm_share(top, width) > 0.9 and warm_share(bottom, width) < 0.5
        else:
            assert warm_share(bottom, width) > 0.9 and warm_share(top, width) < 0.5
        hit = lambda px: px == SEARCH_HIT
        if kind == "chart":
            assert mean_x(z, hit) < mean_x(a, hit)
        else:
            assert mean_x(a, hit) < mean_x(z, hit)


def to_fixed(x, digits):
    """JavaScript's x.toFixed(digits): the exact binary value rounded, a tie
    (0.125 to two digits) up, where Python's format rounds it to even."""
    import decimal
    return str(decimal.Decimal(x).quantize(decimal.Decimal(1).scaleb(-digits),
                                           rounding=decimal.ROUND_HALF_UP))


@needs_chromium
def test_html_top_functions_table(tmp, cpu_data):
    html = flamegraph(tmp, "top.html", "-i", cpu_data)
    rows_js = ("Array.from(document.querySelectorAll('#top tbody tr')).map(function (tr) {"
               " return Array.from(tr.cells).map(function (td) { return td.textContent; });"
               " })")
    with Browser(tmp) as b:
        b.open(html)
        b.painted()
        by_self = b.js(rows_js)
        b.js("document.querySelectorAll('#top thead th')[1].click()")
        by_total = b.js(rows_js)
        # a click on a name searches for that function
        b.js("document.querySelector('#top tbody td.name').click()")
        b.painted()
        search = b.js("document.getElementById('search').value")
        matched = b.js("__pclTest.state().matched")
        assert b.errors == []
    folded = collapsed(cpu_data)
    root = sum(folded.values())
    self_w, total_w = collections.Counter(), collections.Counter()
    for stack, v in folded.items():
        names = stack.split(";")
        self_w[names[-1]] += v
        for n in set(names):       # once per stack, however often it recurses
            total_w[n] += v
    cell = lambda v: "{:,} ({}%)".format(v, to_fixed(100 * v / root, 2))
    for rows, first, second in ((by_self, self_w, total_w), (by_total, total_w, self_w)):
        order = sorted(total_w, key=lambda n: (-first[n], -second[n], n))[:100]
        assert [r[2] for r in rows] == order
        assert all(r[0] == cell(self_w[r[2]]) and r[1] == cell(total_w[r[2]]) for r in rows)
    top = by_total[0][2]
    assert search == "^" + re.sub(r"([.*+?^${}()|\[\]\\])", r"\\\1", top) + "$"
    assert abs(matched - share(folded, top)) < 0.01


@needs_chromium
def test_svg_zoom_and_search_in_browser(tmp, cpu_data):
    svg = flamegraph(tmp, "live.svg", "-i", cpu_data)
    (before, a0, matched, zoomed, after, a1, worker, main, matched_b, _, restored,
     a2) = page(tmp, svg, [
         ["visible"], ["frame", "hot_a"], ["search", "^hot_leaf$"], ["zoom", "hot_a"],
         ["visible"], ["frame", "hot_a"], ["frame", "worker_loop"], ["frame", "main"],
         ["search", "^hot_b$"], ["reset"], ["visible"], ["frame", "hot_a"]])
    # pixel-based in the SVG
    assert abs(matched - share(collapsed(cpu_data), "hot_leaf")) < 0.2
    assert zoomed and after < before
    # the zoomed frame and its ancestors span the width; others are hidden
    assert a1["x"] == 10 and a1["width"] == 1180 and a0["width"] < 1180
    assert main["width"] == 1180 and worker["hidden"]
    assert matched_b < 0.01
    assert restored == before and a2 == a0


@needs_chromium
def test_svg_search_share_of_a_zoom(tmp):
    """The SVG rounds x and width to 0.1 pixel, so a neighbour's frame can
    start 0.1 pixel before the zoomed frame ends (here d_target at 20.1,
    100.1 wide, e_next at 120.1): a search counts only the frames the zoom
    shows, so nothing of e_next is found in d_target."""
    src = os.path.join(tmp, "rounding.folded")
    open(src, "w").write("p;c_first 1006\np;d_target 10006\np;e_next 106988\n")
    svg = flamegraph(tmp, "rounding.svg", "--folded", src)
    _, frames = svg_frames(svg)
    x = {f[0]: (f[2], f[4]) for f in frames}
    assert x["d_target"][0] + x["d_target"][1] > x["e_next"][0]     # the overlap is there
    zoomed, other, own, parent = page(tmp, svg, [
        ["zoom", "d_target"], ["search", "^e_next$"], ["search", "^d_target$"],
        ["search", "^p$"]])
    assert zoomed and other == 0 and own == 100 and parent == 100


@needs_chromium
def test_html_search_and_zoom(tmp, cpu_data):
    html = flamegraph(tmp, "sz.html", "-i", cpu_data)
    before, matched, zoomed, after, matched2, reset = page(tmp, html, [
        ["state"], ["search", "^hot_leaf$"], ["zoom", "hot_a"], ["state"],
        ["search", "hot_b"], ["reset"]])
    folded = collapsed(cpu_data)
    assert abs(matched - share(folded, "hot_leaf")) < 0.01
    # zoom shows one hot_a node; a sample taken in hot_a's prologue (before
    # its frame pointer is pushed) files hot_a under another parent, so the
    # focused total may miss a sample or two of with_a
    period = min(folded.values())  # the lightest stack: one sample
    assert zoomed and after["focus"] == "hot_a"
    assert 0 <= through(folded, "hot_a") - after["total"] <= 2 * period
    assert after["frames"] < before["frames"]
    assert matched2 == 0          # nothing of hot_b under hot_a


@needs_chromium
def test_html_heat_map_selects_time(tmp, phases_data):
    html = flamegraph(tmp, "ph.html", "-i", phases_data)
    # (time, period, frames) of each sample, as perf script prints them
    samples = [(float(m.group(1)), int(m.group(2)), m.group(3)) for m in re.finditer(
        r" (\d+\.\d+):\s+(\d+) cpu-clock\S*\s*\n((?:\t.*\n)*)", perf_script(phases_data))]
    t0 = samples[0][0]
    first_200ms = sum(w for t, w, _ in samples if t - t0 < 0.2)
    # phase_z runs 300 ms of CPU time first, so it fills the first 200 ms
    # of wall time but for the start of the process
    z_200ms = sum(w for t, w, stack in samples if t - t0 < 0.2 and " phase_z+" in stack)
    full, cells, picked, sel, zsel, asel, cleared = page(tmp, html, [
        ["state"], ["busiestCells"], ["selectCells", 0, 9], ["state"],
        ["totalOf", "phase_z"], ["totalOf", "phase_a"], ["clearSelection"]])
    assert full["heatCells"] >= 25 and cells[0] == 0 and cells[1] >= 25
    assert picked and sel["range"] == [0, 200000]
    # the graph now holds the first 200 ms only: phase_z (run first), no phase_a
    period = samples[0][1]
    assert abs(sel["rootTotal"] - first_200ms) <= 2 * period
    assert sel["rootTotal"] < full["rootTotal"]
    assert z_200ms > 0 and abs(zsel - z_200ms) <= 2 * period and asel == 0
    tail = page(tmp, html, [["selectCells", cells[1] - 4, cells[1]], ["totalOf", "phase_a"],
                            ["totalOf", "phase_z"], ["heatInk"]])
    assert tail[1] > 0 and tail[2] == 0 and tail[3] > 100


@needs_chromium
def test_html_folded_diff_and_offcpu_inputs(tmp, off_data):
    base = os.path.join(tmp, "hb.folded")
    new = os.path.join(tmp, "hn.folded")
    open(base, "w").write("p;a;b 100\np;a;c 100\n")
    open(new, "w").write("p;a;b 300\np;a;c 50\n")
    html = flamegraph(tmp, "diff.html", "--diff", base, new)
    state, ink = page(tmp, html, [["state"], ["ink"]])
    assert not state["timed"] and state["rootTotal"] == 350 and ink > 1000
    # off-CPU: nanoseconds per stack, placed in time on the heat map
    html = flamegraph(tmp, "off.html", "-i", off_data, "--off-cpu")
    folded = collapsed(off_data, "--off-cpu")
    sleep = [f for k in folded for f in k.split(";") if f.startswith("clock_nanosleep")][0]
    state, cells, nap = page(tmp, html, [["state"], ["busiestCells"], ["totalOf", sleep]])
    assert state["timed"] and state["rootTotal"] == sum(folded.values())
    assert nap == through(folded, sleep) >= NAPS * 20e6 * 0.95
    assert cells[0] >= 0 and state["heatCells"] >= 1


@needs_chromium
def test_html_large_profile_stays_fast(tmp):
    # 120K distinct stacks, 6 to 30 frames deep
    src = os.path.join(tmp, "big.folded")
    with open(src, "w") as f:
        for i in range(120000):
            depth = 6 + i % 25
            f.write(";".join(["proc"] + ["fn_%d_%d" % (d, (i >> d) % 7) for d in range(depth)]
                             + ["leaf_%d" % i]) + " %d\n" % (1 + i % 5))
    html = flamegraph(tmp, "big.html", "--folded", src)
    import time
    t = time.time()
    with Browser(tmp) as b:
        b.open(html)
        b.painted()
        state = b.js("__pclTest.state()")
        # the whole graph drawn three times (as loaded, two searches), the
        # zoom three times: the fastest of each counts, as a loaded machine
        # can stall any one drawing for a while
        full, zoomed = [state["renderMs"]], []
        for term in ("^leaf_1", "^leaf_2"):
            assert b.api("search", term) > 0
            full.append(b.js("__pclTest.state().renderMs"))
        for _ in range(3):
            assert b.api("zoom", "fn_0_3")
            z = b.js("__pclTest.state()")
            zoomed.append(z["renderMs"])
        assert b.errors == []
    elapsed = time.time() - t
    assert state["frames"] > 1000 and z["focus"] == "fn_0_3" and z["frames"] > 1000
    # drawing is bounded by pixels, not by stacks (generous: the machine is shared)
    assert min(full) < 2000 and min(zoomed) < 2000, (full, zoomed)
    assert elapsed < 150
