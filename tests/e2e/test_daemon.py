"""pcl daemon against perf daemon: each runs the same sessions in its own base
directory; the clients' answers (session list, ping, signal, errors) must be the
same once pids and paths are named alike.  Every daemon started here is stopped,
and whatever it left running killed, even when a test fails."""
import os
import re
import signal

import pytest

from conftest import PCL, PERF, fixture, run, unified, wait_until

SESSIONS = {
    "plain": "-e cpu-clock -- sleep 1000",
    "switch": "-e cpu-clock --switch-output -- sleep 1000",
}
TIMEOUT = 60


def write_config(path, base, sessions):
    text = "[daemon]\n\tbase = %s\n" % base
    for name, run_line in sessions.items():
        text += "\n[session-%s]\n\trun = %s\n" % (name, run_line)
    # written aside and renamed in: the daemon never reads half a file
    with open(path + ".new", "w") as f:
        f.write(text)
    os.rename(path + ".new", path)


def alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def wait_for(cond, what):
    wait_until(cond, what, TIMEOUT)


class Daemon:
    """One tool's daemon in its own base directory."""

    def __init__(self, tool, root, sessions):
        self.tool = tool
        self.base = os.path.join(root, os.path.basename(tool) + "-base")
        self.config = os.path.join(root, os.path.basename(tool) + ".cfg")
        os.mkdir(self.base)
        write_config(self.config, self.base, sessions)
        self.pids = set()

    def client(self, *args):
        return run([self.tool, "daemon", *args, "--config", self.config], timeout=TIMEOUT)

    def sessions(self):
        """{name: pid} of the listed sessions (and remembers every pid seen)."""
        out = self.client("-x:").stdout
        found = {}
        for line in out.splitlines():
            fields = line.split(":")
            self.pids.add(int(fields[0]))
            if fields[1] != "daemon":
                found[fields[1]] = int(fields[0])
        return found

    def start(self, names):
        r = run([self.tool, "daemon", "start", "--config", self.config], timeout=TIMEOUT)
        assert r.returncode == 0, r.stderr
        wait_for(lambda: sorted(self.sessions()) == sorted(names), "the sessions to start")

    def stop(self):
        """Stops the daemon; kills what outlived it."""
        if os.path.exists(os.path.join(self.base, "control")):
            self.client("stop")
        try:
            wait_for(lambda: not any(alive(p) for p in self.pids), "the daemon to stop")
        finally:
            for pid in self.pids:
                if alive(pid):
                    os.kill(pid, signal.SIGKILL)


@pytest.fixture
def daemons(tmp_path):
    started = []

    def start(tool, sessions=SESSIONS):
        d = Daemon(tool, str(tmp_path), sessions)
        started.append(d)
        d.start(sessions)
        return d

    yield start
    for d in started:
        d.stop()


def normalized(d, text):
    """Names the daemon's pids and base alike for both tools."""
    text = text.replace(d.base, "BASE")
    text = re.sub(r"^\[\d+:", "[PID:", text, flags=re.M)
    text = re.sub(r"^\d+(?=[:,;])", "PID", text, flags=re.M)
    text = re.sub(r"\(pid \d+\)", "(pid PID)", text)
    return re.sub(r"\[\d+\]'", "[PID]'", text)


def same_answers(pcl_d, perf_d, *args):
    ours, theirs = pcl_d.client(*args), perf_d.client(*args)
    assert ours.returncode == theirs.returncode, args
    a, b = normalized(perf_d, theirs.stdout), normalized(pcl_d, ours.stdout)
    assert a == b, unified(a, b)
    assert normalized(perf_d, theirs.stderr) == normalized(pcl_d, ours.stderr)


def test_list_ping_signal_match_perf(daemons):
    perf_d = daemons(PERF)
    pcl_d = daemons(PCL)
    for args in ([], ["-v"], ["-x:"], ["-v", "-x;"], ["-x"], ["ping"],
                 ["ping", "--session", "plain"], ["ping", "--session", "nope"],
                 ["signal", "--session", "plain"], ["signal", "--session", "nope"]):
        same_answers(pcl_d, perf_d, *args)
    # SIGUSR2 to a record without --switch-output leaves it running
    assert sorted(pcl_d.sessions()) == sorted(SESSIONS)
    for name in ("control", "ack", "output"):
        assert os.path.exists(os.path.join(pcl_d.base, "session-plain", name))
    for name in ("control", "lock", "output"):
        assert os.path.exists(os.path.join(pcl_d.base, name))
    # a second daemon on the same base says who owns it (status 0, as perf)
    ours = run([PCL, "daemon", "start", "--config", pcl_d.config], timeout=TIMEOUT)
    theirs = run([PERF, "daemon", "start", "--config", perf_d.config], timeout=TIMEOUT)
    assert ours.returncode == theirs.returncode == 0
    assert normalized(pcl_d, ours.stderr) == normalized(perf_d, theirs.stderr)


def test_signal_switches_output(daemons):
    burn = {"burn": "-e cpu-clock --switch-output -- %s 600000" % fixture("burner")}
    d = daemons(PCL, burn)
    session = os.path.join(d.base, "session-burn")
    log = os.path.join(session, "output")
    # until a switched file has samples: the burner may not have run yet
    for dumps in range(1, 100):
        r = d.client("signal", "--session", "burn")
        assert re.fullmatch(r"signal 12 sent to session 'burn \[\d+\]'\n", r.stdout), r.stdout
        # a switched file is complete once record says it dumped it
        wait_for(lambda: open(log).read().count("Dump perf.data.") == dumps, "the dump")
        newest = sorted(f for f in os.listdir(session) if f.startswith("perf.data."))[-1]
        rep = run([PERF, "report", "--stdio", "-i", os.path.join(session, newest)],
                  timeout=TIMEOUT)
        if "of event 'cpu-clock'" in rep.stdout:
            break
    assert rep.returncode == 0, rep.stderr
    assert "burner" in rep.stdout


def test_config_reload(daemons):
    d = daemons(PCL)
    old_plain = d.sessions()["plain"]
    write_config(d.config, d.base, {"switch": SESSIONS["switch"],
                                    "added": "-e cpu-clock -- sleep 999"})
    wait_for(lambda: sorted(d.sessions()) == ["added", "switch"], "the reload")
    assert not alive(old_plain) or open("/proc/%d/stat" % old_plain).read().split()[2] == "Z"
    log = open(os.path.join(d.base, "output")).read()
    assert re.search(r"\] reconfig: session 'plain' killed$", log, re.M), log
    assert re.search(r"\] reconfig: ruining session \[added:\d+\]: -e cpu-clock -- sleep 999$",
                     log, re.M), log


def test_stop_ends_every_process(daemons):
    d = daemons(PCL)
    d.sessions()
    data = os.path.join(d.base, "session-plain", "perf.data")
    # a session listed may still be setting up: stop it once it records
    wait_for(lambda: os.path.exists(data), "the session to write its perf.data")
    r = d.client("stop")
    assert r.returncode == 0 and r.stdout == ""
    wait_for(lambda: not any(alive(p) for p in d.pids), "the daemon and sessions to end")
    # each session's perf.data is complete
    rep = run([PERF, "report", "--stdio", "-i", data], timeout=TIMEOUT)
    assert rep.returncode == 0, rep.stderr
    after = d.client()
    assert after.returncode == 255
    assert after.stderr == "failed: connect: Connection refused\n"
    # perf's daemon log: each session's end, then the daemon's
    log = open(os.path.join(d.base, "output")).read()
    assert re.search(r"\] session 'plain' killed \(signal 15\)\n.*\] daemon exited\n\Z", log,
                     re.S), log


def test_relative_base(tmp_path):
    """A base relative to where the daemon and its clients run works (perf's
    daemon fails to bind its socket there: it leaves the directory first)."""
    os.mkdir(tmp_path / "base")
    config = str(tmp_path / "d.cfg")
    write_config(config, "base", {"plain": SESSIONS["plain"]})

    def client(*args):
        return run([PCL, "daemon", *args, "--config", config], cwd=str(tmp_path),
                   timeout=TIMEOUT)
    pids = set()

    def sessions():
        out = client("-x:").stdout
        pids.update(int(line.split(":")[0]) for line in out.splitlines())
        return [line.split(":")[1] for line in out.splitlines()]
    try:
        r = client("start")
        assert r.returncode == 0, r.stderr
        wait_for(lambda: sorted(sessions()) == ["daemon", "plain"], "the session to start")
        assert os.path.exists(tmp_path / "base" / "session-plain" / "control")
        assert client("stop").returncode == 0
        wait_for(lambda: not any(alive(p) for p in pids), "the daemon to stop")
    finally:
        for pid in pids:
            if alive(pid):
                os.kill(pid, signal.SIGKILL)


def test_errors_match_perf(tmp_path):
    nobase = tmp_path / "nobase.cfg"
    nobase.write_text("[daemon]\n")
    missing_base = tmp_path / "missing.cfg"
    missing_base.write_text("[daemon]\nbase = %s\n" % (tmp_path / "nonexistent"))
    cases = [["--config", str(nobase)], ["ping", "--config", str(nobase)],
             ["start", "--config", str(missing_base)], ["--config", str(tmp_path / "none")],
             ["bogus"], ["start", "-h"], ["signal", "-h"], ["ping", "-h"]]
    for args in cases:
        ours = run([PCL, "daemon", *args], timeout=TIMEOUT)
        theirs = run([PERF, "daemon", *args], timeout=TIMEOUT)
        assert (ours.returncode, ours.stdout, ours.stderr) == \
            (theirs.returncode, theirs.stdout, theirs.stderr), args
