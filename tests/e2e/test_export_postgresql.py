"""pcl script -s export-to-postgresql against a real PostgreSQL 15.

Debian's perf has export-to-postgresql.py but not the PySide it opens its
database with: tests/e2e/pyside_shim stands in for PySide2.QtSql (its QPSQL
driver over libpq), so perf's own script writes its database into the same
server and the two are compared table by table, with their views, keys and
indexes.  Besides: pcl's export-to-sqlite of the same file, table by table
and ids included; the schema as the script declares it; perf script's
sample count.

The server runs from a temporary directory, on a unix socket there, as an
unprivileged user (initdb refuses root), and is stopped at the end."""
import os
import pwd
import re
import shutil
import socket
import sqlite3
import subprocess
import tempfile

import pytest

from conftest import fixture, pcl, perf, run, PERF

PGBIN = "/usr/lib/postgresql/15/bin"
SCRIPT = "/usr/lib/perf-core/scripts/python/export-to-postgresql.py"
SHIM = os.path.join(os.path.dirname(os.path.abspath(__file__)), "pyside_shim")

pytestmark = pytest.mark.skipif(not os.path.exists(os.path.join(PGBIN, "initdb")),
                                reason="PostgreSQL 15 is missing (scripts/deps.sh test)")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def server():
    """A throwaway server; yields the environment that makes libpq reach it."""
    d = tempfile.mkdtemp(prefix="pcl-pg-")
    as_user = []
    if os.geteuid() == 0:
        user = pwd.getpwnam("nobody")
        os.chown(d, user.pw_uid, user.pw_gid)
        as_user = ["runuser", "-u", "nobody", "--"]
    data = os.path.join(d, "data")
    port = free_port()
    try:
        r = run([*as_user, os.path.join(PGBIN, "initdb"), "-D", data, "-A", "trust",
                 "-U", "postgres", "-E", "UTF8", "--locale=C", "--no-sync"], cwd=d, timeout=300)
        assert r.returncode == 0, r.stdout + r.stderr
        r = run([*as_user, os.path.join(PGBIN, "pg_ctl"), "-D", data, "-l",
                 os.path.join(d, "log"), "-w", "-t", "300", "-o",
                 f"-k {d} -p {port} -c listen_addresses='' -c fsync=off", "start"],
                cwd=d, timeout=400)
        assert r.returncode == 0, r.stdout + r.stderr + open(os.path.join(d, "log")).read()
        yield dict(os.environ, PGHOST=d, PGPORT=str(port), PGUSER="postgres")
    finally:
        if os.path.exists(os.path.join(data, "postmaster.pid")):
            run([*as_user, os.path.join(PGBIN, "pg_ctl"), "-D", data, "-m", "immediate",
                 "-w", "stop"], cwd=d, timeout=120)
        shutil.rmtree(d, ignore_errors=True)


def psql(env, db, sql):
    """Rows of a query, each a tuple of strings ('' for NULL)."""
    r = run([os.path.join(PGBIN, "psql"), "-X", "-A", "-t", "-F", "\x1f", "-v",
             "ON_ERROR_STOP=1", "-d", db, "-c", sql], env=env)
    assert r.returncode == 0, r.stderr
    return [tuple(line.split("\x1f")) for line in r.stdout.splitlines()]


@pytest.fixture(scope="module")
def tmp(tmp_path_factory):
    return str(tmp_path_factory.mktemp("pgexport"))


@pytest.fixture(scope="module")
def recordings(tmp):
    """A call graph of the burner, and a shell forking and exec'ing threads
    with context switches (comm history, context_switches)."""
    def record(name, *args):
        path = os.path.join(tmp, name + ".data")
        r = perf("record", "-q", "-o", path, *args, stdout=subprocess.DEVNULL)
        assert r.returncode == 0, r.stderr
        return path
    return {
        "fp": record("fp", "-g", "--", fixture("burner")),
        "forks": record("forks", "-g", "--switch-events", "--", "sh", "-c",
                        f"{fixture('vforks')}; {fixture('threads')}"),
    }


def db_name(data, args):
    return re.sub(r"\W", "_", f"{os.path.basename(data)}_{'_'.join(args)}").lower()


def export_pg(env, data, args, name=None):
    name = name or db_name(data, args)
    if not psql(env, "postgres", f"SELECT 1 FROM pg_database WHERE datname = '{name}'"):
        r = pcl("script", "-i", data, "-s", "export-to-postgresql", name, *args, env=env,
                timeout=600)
        assert r.returncode == 0, r.stderr
    return name


def export_perf(env, tmp, data, args):
    """perf's script writes its database (its binary COPY files go to the
    current directory)."""
    name = "perf_" + db_name(data, args)
    if not psql(env, "postgres", f"SELECT 1 FROM pg_database WHERE datname = '{name}'"):
        r = run([PERF, "script", "-i", data, "-s", SCRIPT, name, *args],
                env=dict(env, PYTHONPATH=SHIM), cwd=tmp, timeout=600)
        assert r.returncode == 0, r.stderr
    return name


def export_sqlite(tmp, data, args):
    db = os.path.join(tmp, db_name(data, args) + ".db")
    if not os.path.exists(db):
        r = pcl("script", "-i", data, "-s", "export-to-sqlite", db, *args)
        assert r.returncode == 0, r.stderr
    return db


def sqlite_rows(db, sql):
    with sqlite3.connect(db) as c:
        return [tuple("" if v is None else str(v) for v in row) for row in c.execute(sql)]


def pg_relations(env, db, kind):
    return sorted(r[0] for r in psql(env, db, "SELECT table_name FROM information_schema."
                                     f"tables WHERE table_schema = 'public' AND "
                                     f"table_type = '{kind}'"))


def pg_table(env, db, table):
    """Rows by id, booleans as SQLite stores them (0 and 1)."""
    bools = {r[0] for r in psql(env, db, "SELECT column_name FROM information_schema.columns "
                                f"WHERE table_name = '{table}' AND data_type = 'boolean'")}
    cols = [c for (c,) in psql(env, db, "SELECT column_name FROM information_schema.columns "
                               f"WHERE table_name = '{table}' ORDER BY ordinal_position")]
    select = ", ".join(f"CAST({c} AS integer)" if c in bools else f'"{c}"' for c in cols)
    return psql(env, db, f"SELECT {select} FROM {table} ORDER BY id")


def script_tables():
    """The script's CREATE TABLE statements: name -> [(column, type word)]
    variants (samples has two)."""
    tables = {}
    for m in re.finditer(r"'CREATE TABLE (\w+) \((.*?)\)'\)", open(SCRIPT).read(), re.S):
        cols = re.findall(r"'(\w+)\s+([a-z]+)", m.group(2))
        tables.setdefault(m.group(1), []).append(cols)
    return tables


MODES = [("all",), ("branches",), ("all", "calls", "callchains")]
VIEW_COLUMNS = {
    "samples_view": "id, time, cpu, pid, tid, command, event, ip_hex, symbol, sym_offset, "
                    "dso_short_name, to_ip_hex, to_symbol, branch_type_name",
    "context_switches_view": "*",
    "call_paths_view": "*",
    "comm_threads_view": "*",
    "threads_view": "*",
    "symbols_view": "*",
    "dsos_view": "*",
}


CATALOG = {
    "columns": "SELECT table_name, column_name, data_type FROM information_schema.columns "
               "WHERE table_schema = 'public' ORDER BY 1, 2",
    "keys": "SELECT conname, conrelid::regclass, pg_get_constraintdef(oid) FROM pg_constraint "
            "WHERE connamespace = 'public'::regnamespace ORDER BY 1, 2",
    "views": "SELECT viewname, definition FROM pg_views WHERE schemaname = 'public' "
             "ORDER BY 1",
    "indexes": "SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = 'public' "
               "ORDER BY 1",
}


@pytest.mark.skipif(not os.path.exists(SCRIPT), reason="perf's script is missing")
@pytest.mark.parametrize("name", ["fp", "forks"])
@pytest.mark.parametrize("args", MODES, ids=["-".join(m) for m in MODES])
def test_database_equals_perfs(server, tmp, recordings, name, args):
    """Every table row for row, every column, key, view and index, as perf's
    own script makes them."""
    data = recordings[name]
    ours, theirs = export_pg(server, data, args), export_perf(server, tmp, data, args)
    for what, sql in CATALOG.items():
        assert psql(server, ours, sql) == psql(server, theirs, sql), what
    for table in pg_relations(server, theirs, "BASE TABLE"):
        mine, perfs = pg_table(server, ours, table), pg_table(server, theirs, table)
        assert len(mine) == len(perfs), table
        diff = [(a, b) for a, b in zip(perfs, mine) if a != b]
        assert not diff, f"{table}: {len(diff)} rows differ, first (perf, pcl): {diff[0]}"


@pytest.mark.parametrize("name", ["fp", "forks"])
@pytest.mark.parametrize("args", MODES, ids=["-".join(m) for m in MODES])
def test_database_equals_sqlite_export(server, tmp, recordings, name, args):
    """Every table, row for row and id for id, and the views' columns the
    two dialects spell alike, as in the SQLite export of the same file."""
    data = recordings[name]
    pg, lite = export_pg(server, data, args), export_sqlite(tmp, data, args)
    tables = sorted(r[0] for r in sqlite_rows(lite, "SELECT name FROM sqlite_master "
                                                    "WHERE type = 'table'"))
    views = sorted(r[0] for r in sqlite_rows(lite, "SELECT name FROM sqlite_master "
                                                   "WHERE type = 'view'"))
    assert pg_relations(server, pg, "BASE TABLE") == tables
    assert pg_relations(server, pg, "VIEW") == views
    for table in tables:
        mine, lites = pg_table(server, pg, table), sqlite_rows(lite, f"SELECT * FROM {table} "
                                                                   "ORDER BY id")
        assert len(mine) == len(lites), table
        diff = [(a, b) for a, b in zip(lites, mine) if a != b]
        assert not diff, f"{table}: {len(diff)} rows differ, first (sqlite, pg): {diff[0]}"
    for view, cols in VIEW_COLUMNS.items():
        if view in views:
            sql = f"SELECT {cols} FROM {view} ORDER BY 1"
            assert psql(server, pg, sql) == sqlite_rows(lite, sql), view


def test_schema_is_the_scripts(server, recordings):
    """The tables and columns (names and types) export-to-postgresql.py
    declares, its keys, and every view answering."""
    db = export_pg(server, recordings["forks"], ("all", "calls", "callchains"))
    cols = psql(server, db, "SELECT table_name, column_name, data_type FROM "
                "information_schema.columns WHERE table_schema = 'public' AND table_name "
                "IN (SELECT table_name FROM information_schema.tables WHERE table_type = "
                "'BASE TABLE') ORDER BY table_name, ordinal_position")
    ours = {}
    for table, col, kind in cols:
        ours.setdefault(table, []).append((col, kind))
    if os.path.exists(SCRIPT):
        declared = script_tables()
        words = {"bigint": "bigint", "integer": "integer", "boolean": "boolean",
                 "character varying": "varchar"}
        for table, columns in ours.items():
            if table == "comms":
                assert columns[-1] == ("has_calls", "boolean")
                columns = columns[:-1]
            assert [(c, words[k]) for c, k in columns] in declared[table], table
    assert ("samples", "transaction") in {(t, c) for t, c, _ in cols}
    keys = dict(psql(server, db, "SELECT conrelid::regclass::text, count(*) FROM "
                     "pg_constraint WHERE contype = 'p' AND "
                     "connamespace = 'public'::regnamespace GROUP BY 1"))
    assert set(keys) == set(ours)
    assert psql(server, db, "SELECT count(*) FROM pg_constraint WHERE contype = 'f' AND "
                "conrelid = 'samples'::regclass") == [("8",)]
    for (view,) in psql(server, db, "SELECT table_name FROM information_schema.views "
                        "WHERE table_schema = 'public'"):
        psql(server, db, f"SELECT * FROM {view} LIMIT 5")
    assert int(psql(server, db, "SELECT count(*) FROM context_switches_view")[0][0]) > 0


def test_samples_symbols_and_call_paths(server, recordings):
    """A row per sample perf script shows (row 0 aside), the burner's
    symbols and DSO, and call paths that all lead up to the root."""
    data = recordings["fp"]
    db = export_pg(server, data, ("all", "calls", "callchains"))
    shown = len(perf("script", "-i", data, "-F", "event").stdout.split())
    assert psql(server, db, "SELECT count(*) FROM samples WHERE id > 0") == [(str(shown),)]
    symbols = {s for (s,) in psql(server, db, "SELECT name FROM symbols")}
    assert {"leaf_math", "leaf_libc", "leaf_spin", "level", "main"} <= symbols
    assert ("burner",) in psql(server, db, "SELECT short_name FROM dsos")
    paths = {i: p for i, p in psql(server, db, "SELECT id, parent_id FROM call_paths")}
    assert psql(server, db, "SELECT count(*) FROM call_paths c LEFT JOIN call_paths p ON "
                "p.id = c.parent_id WHERE p.id IS NULL") == [("0",)]
    for (path,) in psql(server, db, "SELECT DISTINCT call_path_id FROM samples WHERE id > 0"):
        seen = 0
        while path not in ("0", "1"):
            path = paths[path]
            seen += 1
            assert seen < 1000
        assert path == "1"
    burnt = psql(server, db, "SELECT count(*) FROM samples_view WHERE symbol LIKE 'leaf_%' "
                 "AND dso_short_name = 'burner'")
    assert int(burnt[0][0]) > 0


def test_top_symbols_across_hosts(server, recordings):
    """The README's fleet query: two hosts' databases on one server, their
    samples added up per symbol through dblink."""
    data = recordings["fp"]
    for host in ("web1", "web2"):
        export_pg(server, data, (), name=f"perf_{host}")
    psql(server, "postgres", "CREATE EXTENSION IF NOT EXISTS dblink")
    # the server's libpq connects: it knows the socket of the default install only
    where = f"host={server['PGHOST']} port={server['PGPORT']} user=postgres"
    per_host = "SELECT symbol, dso_short_name, count(*) FROM samples_view " \
               "WHERE id > 0 GROUP BY 1, 2"
    fleet = psql(server, "postgres", f"""
        SELECT symbol, dso, sum(samples) AS samples FROM (
            SELECT * FROM dblink('{where} dbname=perf_web1', '{per_host}')
                AS t(symbol text, dso text, samples bigint)
            UNION ALL
            SELECT * FROM dblink('{where} dbname=perf_web2', '{per_host}')
                AS t(symbol text, dso text, samples bigint)
        ) AS hosts GROUP BY symbol, dso ORDER BY samples DESC, symbol LIMIT 10""")
    one = {(s, d): int(n) for s, d, n in psql(server, "perf_web1", per_host)}
    assert fleet and all(int(n) == 2 * one[(s, d)] for s, d, n in fleet)


def test_report_form_and_errors(server, recordings, tmp):
    data = recordings["fp"]
    r = pcl("script", "report", "export-to-postgresql", "report_form", "branches", "-i", data,
            env=server)
    assert r.returncode == 0, r.stderr
    assert pg_table(server, "report_form", "samples") == \
        pg_table(server, export_pg(server, data, ("branches",)), "samples")
    r = pcl("script", "-i", data, "-s", "export-to-postgresql", "report_form", env=server)
    assert r.returncode != 0 and "already exists" in r.stderr
    r = pcl("script", "-i", data, "-s", "export-to-postgresql", "bad_args", "everything",
            env=server)
    assert r.returncode != 0 and "usage" in r.stderr
    assert not psql(server, "postgres", "SELECT 1 FROM pg_database WHERE datname = 'bad_args'")
    gone = dict(server, PGHOST=os.path.join(tmp, "no-server-here"))
    r = pcl("script", "-i", data, "-s", "export-to-postgresql", "nowhere", env=gone)
    assert r.returncode != 0
    assert "cannot connect to the PostgreSQL server" in r.stderr
    assert "Start the server" in r.stderr and "PGHOST" in r.stderr
