"""pcl script -s export-to-sqlite against perf 6.1's export-to-sqlite.py.

Debian's perf has the script but not PySide, which it writes through:
tests/e2e/pyside_shim stands in for PySide2.QtSql over Python's sqlite3, so
perf writes its own database and the two are compared row for row.  Besides,
the schema is checked against the CREATE statements of the script itself,
sample counts against perf script, per-symbol counts against perf report and
call paths against perf script's stacks."""
import os
import re
import sqlite3
import subprocess
import tempfile

import pytest

from conftest import fixture, pcl, perf, run, PERF
from perfdata_branches import add_branch_stacks

SCRIPT = "/usr/lib/perf-core/scripts/python/export-to-sqlite.py"
SHIM = os.path.join(os.path.dirname(os.path.abspath(__file__)), "pyside_shim")

pytestmark = pytest.mark.skipif(not os.path.exists(SCRIPT), reason="perf's script is missing")


@pytest.fixture(scope="module")
def tmp():
    with tempfile.TemporaryDirectory(prefix="pcl-sqlite-") as d:
        yield d


def record(tmp, name, *args, stdout_devnull=False):
    path = os.path.join(tmp, name + ".data")
    r = perf("record", "-q", "-o", path, *args,
             **({"stdout": subprocess.DEVNULL} if stdout_devnull else {}))
    assert r.returncode == 0, r.stderr
    return path


@pytest.fixture(scope="module")
def recordings(tmp):
    """fp and DWARF call graphs, the fp one with made-up branch stacks (perf
    makes calls of Intel PT's branches only), no call graph, several events
    (a tracepoint among them), system-wide with context switches, a shell
    forking and exec'ing threads and a stripped binary (ls)."""
    burner = fixture("burner")
    work = fixture("script_work")
    fp = record(tmp, "fp", "-g", "--", burner)
    lbr = os.path.join(tmp, "lbr.data")
    add_branch_stacks(fp, lbr)
    return {
        "fp": fp,
        "lbr": lbr,
        "dwarf": record(tmp, "dwarf", "--call-graph", "dwarf", "--", burner),
        "plain": record(tmp, "plain", "--", burner),
        "forks": record(tmp, "forks", "-g", "--switch-events", "--", "sh", "-c",
                        f"{fixture('vforks')}; {fixture('threads')}; ls -R /usr/lib/python3",
                        stdout_devnull=True),
        "multi": record(tmp, "multi", "-g", "-e", "cpu-clock", "-e", "page-faults",
                        "-e", "sched:sched_switch", "--", work),
        "system": record(tmp, "system", "-a", "-g", "--switch-events", "-e", "cpu-clock",
                         "-e", "page-faults", "--", "sleep", "0.2"),
    }


def export(tool, tmp, data, args):
    db = os.path.join(tmp, f"{os.path.basename(data)}.{tool}.{'-'.join(args)}.db")
    if os.path.exists(db):
        return db
    if tool == "perf":
        env = dict(os.environ, PYTHONPATH=SHIM)
        r = run([PERF, "script", "-i", data, "-s", SCRIPT, db, *args], env=env, timeout=600)
    else:
        r = pcl("script", "-i", data, "-s", "export-to-sqlite", db, *args)
    assert r.returncode == 0, r.stderr
    return db


def rows(db, table):
    with sqlite3.connect(db) as c:
        return c.execute(f"SELECT * FROM {table} ORDER BY id").fetchall()


def names(db, kind):
    with sqlite3.connect(db) as c:
        return sorted(r[0] for r in c.execute(
            "SELECT name FROM sqlite_master WHERE type = ?", (kind,)))


def script_tables():
    """The tables of the script's CREATE TABLE statements: name -> list of
    [(column, type)] variants (samples has two)."""
    src = open(SCRIPT).read()
    tables = {}
    for m in re.finditer(r"'CREATE TABLE (\w+) \('", src):
        text, depth = "", 1
        for lit in re.finditer(r"'([^']*)'", src[m.end():]):
            for ch in lit.group(1):
                depth += (ch == "(") - (ch == ")")
            text += lit.group(1)
            if depth <= 0:
                break
        text = text[:text.rindex(")")]
        columns = [re.split(r"\s+", col.strip())[:2] for col in re.split(r",(?![^(]*\))", text)]
        tables.setdefault(m.group(1), []).append([tuple(c) for c in columns])
    return tables


def script_views():
    return set(re.findall(r"'CREATE VIEW (\w+) AS '", open(SCRIPT).read()))


def columns(db, table):
    with sqlite3.connect(db) as c:
        return [(r[1], r[2].lower()) for r in c.execute(f"PRAGMA table_info({table})")]


MODES = [("all",), ("branches",), ("all", "calls", "callchains")]


@pytest.mark.parametrize("name", ["fp", "dwarf", "lbr", "plain", "multi", "system", "forks"])
@pytest.mark.parametrize("args", MODES, ids=["-".join(m) for m in MODES])
def test_database_equals_perfs(tmp, recordings, name, args):
    """Every table, row for row, as perf's script writes it."""
    data = recordings[name]
    ours, theirs = export("pcl", tmp, data, args), export("perf", tmp, data, args)
    for kind in ("table", "view", "index"):
        assert names(ours, kind) == names(theirs, kind), kind
    for table in names(theirs, "table"):
        assert columns(ours, table) == columns(theirs, table), table
        mine, perfs = rows(ours, table), rows(theirs, table)
        assert len(mine) == len(perfs), table
        diff = [(a, b) for a, b in zip(perfs, mine) if a != b]
        assert not diff, f"{table}: {len(diff)} rows differ, first (perf, pcl): {diff[0]}"


@pytest.mark.parametrize("args", MODES, ids=["-".join(m) for m in MODES])
def test_schema_is_the_scripts(tmp, recordings, args):
    """Tables and columns as the script's CREATE statements declare them;
    the views it creates, but for those of tables dropped empty."""
    db = export("pcl", tmp, recordings["system"], args)
    declared = script_tables()
    optional_dropped = {"ptwrite", "cbr", "mwait", "pwre", "exstop", "pwrx"}
    calls = "calls" in args
    expected = set(declared) - optional_dropped
    if not calls:
        expected -= {"call_paths", "calls"}
    if "callchains" in args:
        expected.add("call_paths")
    assert set(names(db, "table")) == expected
    for table in expected:
        cols = columns(db, table)
        if table == "comms" and calls:
            assert cols[-1] == ("has_calls", "boolean")
            cols = cols[:-1]
        assert [tuple(c) for c in cols] in declared[table], table
    samples = [c[0] for c in columns(db, "samples")]
    assert ("period" not in samples) == ("branches" in args)
    views = script_views() - {t + "_view" for t in optional_dropped} - {"power_events_view"}
    if not calls:
        views -= {"call_paths_view", "calls_view"}
    assert set(names(db, "view")) == views
    with sqlite3.connect(db) as c:
        for view in views:
            c.execute(f"SELECT * FROM {view} LIMIT 5").fetchall()
        assert c.execute("SELECT count(*) FROM samples_view").fetchone() == \
            c.execute("SELECT count(*) FROM samples").fetchone()
        assert c.execute("SELECT count(*) FROM context_switches_view").fetchone()[0] > 0


@pytest.mark.parametrize("name", ["fp", "plain", "multi", "system"])
def test_sample_counts_are_perf_scripts(tmp, recordings, name):
    """One row per sample perf script shows, row 0 aside; tracepoint samples
    stay out, as with perf's script (their handlers export nothing)."""
    data = recordings[name]
    db = export("pcl", tmp, data, ("all",))
    events = perf("script", "-i", data, "-F", "event").stdout.split()
    with sqlite3.connect(db) as c:
        counted = dict(c.execute("SELECT name, count(*) - (evsel_id = 0) FROM samples "
                                 "JOIN selected_events ON evsel_id = selected_events.id "
                                 "WHERE samples.id > 0 GROUP BY name"))
    shown = {}
    for e in events:
        e = e.rstrip(":")
        if not e.startswith("sched:"):
            shown[e] = shown.get(e, 0) + 1
    assert counted == shown


def test_symbol_counts_are_perf_reports(tmp, recordings):
    """Samples per (dso, symbol), as perf report -n counts them."""
    data = recordings["fp"]
    db = export("pcl", tmp, data, ("all",))
    r = perf("report", "-i", data, "--stdio", "-n", "--no-children", "-g", "none",
             "--sort", "dso,sym", "-q", "-t", "|")
    report = {}
    for line in r.stdout.splitlines():
        parts = [p.strip() for p in line.split("|")]
        if len(parts) == 4 and parts[1].isdigit():
            sym = parts[3].split("] ", 1)[1]
            if not sym.startswith("0x"):
                report[(parts[2], sym)] = int(parts[1])
    with sqlite3.connect(db) as c:
        ours = {(dso, sym): n for dso, sym, n in c.execute(
            "SELECT dsos.short_name, symbols.name, count(*) FROM samples "
            "JOIN symbols ON symbol_id = symbols.id JOIN dsos ON samples.dso_id = dsos.id "
            "WHERE samples.id > 0 AND symbols.name != 'unknown' GROUP BY symbol_id")}
    assert report and ours == report


def perf_script_stacks(data):
    """Each sample's frames, caller first, as perf script names them."""
    out = perf("script", "-i", data, "-F", "ip,sym").stdout
    stacks = []
    for block in out.split("\n\n"):
        frames = [line.split(None, 1) for line in block.strip("\n").splitlines()]
        if frames:
            stacks.append([f[1].removesuffix(" (inlined)") if len(f) > 1 else "[unknown]"
                           for f in reversed(frames)])
    return stacks


@pytest.mark.parametrize("name", ["fp", "dwarf"])
def test_call_paths_are_perf_scripts_stacks(tmp, recordings, name):
    """A sample's call path, walked from its leaf up to the root (id 1),
    is the callchain perf script prints for it (inlined functions are
    nodes of their own)."""
    data = recordings[name]
    db = export("pcl", tmp, data, ("all", "calls", "callchains"))
    stacks = perf_script_stacks(data)
    with sqlite3.connect(db) as c:
        paths = {i: (p, s, ip) for i, p, s, ip in c.execute("SELECT * FROM call_paths")}
        symbols = dict(c.execute("SELECT id, name FROM symbols"))
        samples = c.execute("SELECT call_path_id FROM samples WHERE id > 0 ORDER BY id").fetchall()
    assert len(samples) == len(stacks)
    assert paths[1] == (0, 0, 0)
    checked = 0
    for (path,), stack in list(zip(samples, stacks))[::7]:
        frames = []
        while path > 1:
            parent, sym, _ = paths[path]
            name = symbols[sym]
            frames.append("[unknown]" if sym == 0 or name == "unknown" else name)
            path = parent
        assert list(reversed(frames)) == stack
        checked += 1
    assert checked > 20


def test_page_fault_addresses_are_perfs(tmp):
    """Page-fault samples with their data addresses (-d): to_ip and the
    to_dso/to_symbol they resolve to, as perf's export gives them.  Labels
    ending a data section (_edata) are symbols to perf, an address without
    one to pcl: their ids and starts agree, not their names."""
    data = record(tmp, "faults", "-d", "-e", "page-faults", "-e", "cpu-clock", "--",
                  fixture("burner"))
    ours, theirs = export("pcl", tmp, data, ("all",)), export("perf", tmp, data, ("all",))
    assert names(ours, "table") == names(theirs, "table")
    for table in names(theirs, "table"):
        mine, perfs = rows(ours, table), rows(theirs, table)
        if table == "symbols":
            mine, perfs = [r[:3] for r in mine], [r[:3] for r in perfs]
        assert mine == perfs, table
    with sqlite3.connect(ours) as c:
        assert c.execute("SELECT count(*) FROM samples WHERE to_dso_id != 0").fetchone()[0] > 0


def test_calls_without_branches_is_empty(tmp, recordings):
    """calls holds perf's row 0 alone when the samples carry no branches."""
    db = export("pcl", tmp, recordings["fp"], ("all", "calls"))
    assert rows(db, "calls") == [(0,) * 14]
    assert rows(db, "call_paths") == [(0, 0, 0, 0)]


def test_report_form_and_errors(tmp, recordings):
    data = recordings["plain"]
    db = os.path.join(tmp, "report-form.db")
    r = pcl("script", "report", "export-to-sqlite", db, "branches", "-i", data)
    assert r.returncode == 0, r.stderr
    assert rows(db, "samples") == rows(export("pcl", tmp, data, ("branches",)), "samples")
    r = pcl("script", "-i", data, "-s", "export-to-sqlite", db)
    assert r.returncode != 0 and "already exists" in r.stderr
    r = pcl("script", "-i", data, "-s", "export-to-sqlite", db + "2", "everything")
    assert r.returncode != 0 and "usage" in r.stderr
    assert not os.path.exists(db + "2")
