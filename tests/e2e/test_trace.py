"""pcl trace against perf trace 6.1: replaying `trace record` files byte for byte,
pcl trace record's files read by perf, live tracing's shapes and counts."""
import os
import re
import select
import subprocess
import sys
import time

import pytest

from conftest import PCL, PERF, SANITIZED, fixture, pcl, perf, unified

PYTHON_WORKLOAD = """
import fcntl, os, select, signal, socket, threading, time
a = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
a.bind(("127.0.0.1", 0))
b = socket.socket(socket.AF_INET, socket.SOCK_DGRAM | socket.SOCK_NONBLOCK)
b.sendto(b"hi", a.getsockname())
a.recvfrom(10)
a.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
select.select([a], [], [], 0.001)
p = select.poll()
p.register(a)
p.poll(1)
e = select.epoll()
e.register(a.fileno(), select.EPOLLIN)
e.poll(0.001)
s = socket.socketpair()
s[0].sendmsg([b"x"])
s[1].recvmsg(10)
r, w = os.pipe2(os.O_NONBLOCK)
fcntl.fcntl(r, fcntl.F_SETFL, os.O_NONBLOCK | os.O_APPEND)
fcntl.fcntl(r, fcntl.F_GETFL)
fcntl.fcntl(r, fcntl.F_GETFD)
fcntl.fcntl(r, fcntl.F_DUPFD_CLOEXEC, 20)
os.dup2(r, 30)
os.getppid(); os.getpgid(0); threading.get_native_id(); os.umask(0o22)
signal.setitimer(signal.ITIMER_REAL, 0)
signal.signal(signal.SIGUSR1, signal.SIG_IGN)
os.kill(os.getpid(), 0)
fd = os.open("{tmp}/f", os.O_CREAT | os.O_RDWR | os.O_TRUNC, 0o640)
os.lseek(fd, 5, os.SEEK_END)
os.close(fd)
os.chmod("{tmp}/f", 0o600)
os.rename("{tmp}/f", "{tmp}/g")
os.access("/etc/passwd", os.R_OK | os.W_OK)
t = threading.Thread(target=lambda: time.sleep(0.01))
t.start()
t.join()
pid = os.fork()
if pid == 0:
    os._exit(3)
os.waitpid(pid, 0)
"""

# workloads recorded with perf trace record: one thread, threads, forks,
# signals, failing calls, a shell's redirections and fcntls
WORKLOADS = {
    "syscalls": lambda tmp: [fixture("syscalls"), "5"],
    "threads": lambda tmp: [fixture("threads")],
    "vforks": lambda tmp: [fixture("vforks")],
    "sigwork": lambda tmp: [fixture("sigwork")],
    "write1000": lambda tmp: [fixture("write1000")],
    "ls": lambda tmp: ["sh", "-c", "ls /nonexistent / || true"],
    "shell": lambda tmp: ["sh", "-c", f"echo hi > {tmp}/x; cat {tmp}/x; exec 3<{tmp}/x"],
    # sockets, polls, fcntls, pids, files, a thread and a fork from an interpreter
    "python": lambda tmp: ["python3", "-c", PYTHON_WORKLOAD.format(tmp=tmp)],
    # flags, commands, levels and protocols perf decodes, over their ranges
    "trace_args": lambda tmp: [fixture("trace_args"), str(tmp)],
}

OPTIONS = [[], ["-s"], ["-S"], ["--failure"], ["--duration", "0.005"],
           ["-s", "--errno-summary"], ["-S", "--failure"], ["-T"], ["--max-events", "5"]]


@pytest.fixture(scope="module")
def recordings(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("trace")
    files = {}
    for name, workload in WORKLOADS.items():
        path = str(tmp / f"{name}.data")
        r = perf("trace", "record", "-o", path, "--", *workload(tmp),
                 stdout=open(os.devnull, "w"))
        assert r.returncode == 0, r.stderr
        files[name] = path
    return files


@pytest.mark.parametrize("name", list(WORKLOADS))
@pytest.mark.parametrize("args", OPTIONS, ids=lambda a: " ".join(a) or "plain")
def test_replay_matches_perf(recordings, name, args):
    want = perf("trace", "-i", recordings[name], *args)
    got = pcl("trace", "-i", recordings[name], *args)
    assert got.returncode == want.returncode == 0, got.stderr
    assert got.stdout == want.stdout == ""
    assert got.stderr == want.stderr, unified(want.stderr, got.stderr)


def test_output_file(recordings, tmp_path):
    """-o writes what would go to stderr."""
    out = tmp_path / "out.txt"
    got = pcl("trace", "-i", recordings["syscalls"], "-S", "-o", str(out))
    want = perf("trace", "-i", recordings["syscalls"], "-S")
    assert got.returncode == 0 and got.stderr == ""
    assert out.read_text() == want.stderr


def test_summary_counts_every_call(recordings):
    """write1000 makes 1000 writes: the summary says so."""
    got = pcl("trace", "-i", recordings["write1000"], "-s")
    rows = [line.split() for line in got.stderr.splitlines() if line.startswith("   write ")]
    assert rows and rows[0][1] == "1000", got.stderr


def test_pcl_record_is_perfs(tmp_path):
    """pcl trace record: perf's events and attrs; perf trace reads the file
    and both tools print the same."""
    ours, theirs = str(tmp_path / "pcl.data"), str(tmp_path / "perf.data")
    workload = [fixture("syscalls"), "3"]
    r = pcl("trace", "record", "-o", ours, "--", *workload)
    assert r.returncode == 0, r.stderr
    r = perf("trace", "record", "-o", theirs, "--", *workload)
    assert r.returncode == 0, r.stderr
    assert perf("evlist", "-v", "-i", ours).stdout == perf("evlist", "-v", "-i", theirs).stdout
    for args in ([], ["-S"]):
        want = perf("trace", "-i", ours, *args)
        got = pcl("trace", "-i", ours, *args)
        assert want.returncode == 0, want.stderr
        assert got.stderr == want.stderr, unified(want.stderr, got.stderr)
    assert "write(fd: 3, buf: 0x" in want.stderr


def test_missing_file():
    want = perf("trace", "-i", "/nonexistent/perf.data")
    got = pcl("trace", "-i", "/nonexistent/perf.data")
    assert got.returncode == want.returncode == 255
    assert got.stderr == want.stderr == \
        "failed to open /nonexistent/perf.data: No such file or directory\n"


FD_TRACEPOINTS = ("syscalls:sys_enter_read,syscalls:sys_exit_read,syscalls:sys_enter_openat,"
                  "syscalls:sys_exit_openat,syscalls:sys_enter_dup2,syscalls:sys_exit_dup2,"
                  "syscalls:sys_enter_close")


@pytest.mark.parametrize("recorder", ["perf", "pcl"])
def test_replay_with_fd_tracepoints(tmp_path, recorder):
    """A file with syscalls:sys_enter_*/sys_exit_* events whose arguments
    or results are fds, recorded by either tool: perf's replay shows
    neither their lines nor any fd's path (it reads paths from /proc live
    only), whatever -e asks; pcl's prints the same bytes."""
    path = str(tmp_path / "fds.data")
    workload = ["sh", "-c", f"echo hi > {tmp_path}/x; exec 3<{tmp_path}/x; exec 4<&3; "
                "read -r v <&4; cat <&3"]
    tool = perf if recorder == "perf" else pcl
    r = tool("trace", "record", "-e", FD_TRACEPOINTS, "-o", path, "--", *workload)
    assert r.returncode == 0, r.stderr
    for args in ([], ["-S"], ["-e", "syscalls:sys_exit_openat"], ["--no-syscalls"],
                 ["-e", "openat,dup2,syscalls:sys_exit_dup2"], ["-s"]):
        want, got = perf("trace", "-i", path, *args), pcl("trace", "-i", path, *args)
        assert got.returncode == want.returncode == 0, got.stderr
        assert got.stderr == want.stderr, unified(want.stderr, got.stderr)
    plain = perf("trace", "-i", path).stderr
    assert "dup2(oldfd: 3, newfd: 4)" in plain and "syscalls:" not in plain, plain
    assert not re.search(r"fd: \d+<", plain), plain


def test_file_without_syscalls(tmp_path):
    """A recording of other events: nothing to show, an empty summary."""
    path = str(tmp_path / "plain.data")
    assert perf("record", "-q", "-o", path, "--", "true").returncode == 0
    for args in ([], ["-s"]):
        want, got = perf("trace", "-i", path, *args), pcl("trace", "-i", path, *args)
        assert got.returncode == want.returncode == 0
        assert got.stderr == want.stderr


# Live tracing: shapes and exact counts (timings differ from run to run).
LINE = re.compile(r"^ {0,6}\d+\.\d{3} \( ?\d+\.\d{3} ms\): \S+/\d+ \w+\(.*\) += .+$"
                  r"|^ {0,6}\d+\.\d{3} \( {9}\): \S+/\d+ exit_group\(.*\) += \?$"
                  r"|^ {9}\? \( {9}\): \S+/\d+  \.\.\. \[continued\]: execve\(\)\) += 0$")


def test_live_lines_are_perfs_shape():
    """Every line has perf's layout; the calls are the fixture's, in order."""
    want = perf("trace", "--", fixture("syscalls"), "3")
    got = pcl("trace", "--", fixture("syscalls"), "3")
    assert got.returncode == 0, got.stderr
    lines = got.stderr.splitlines()
    assert all(LINE.match(line) for line in lines), got.stderr

    def calls(text):
        return [line.split(": ", 1)[1].split(" ", 1)[1].split("(")[0]
                for line in text.splitlines() if "): " in line]
    assert calls(got.stderr) == calls(want.stderr)
    assert re.search(r'openat\(dfd: CWD, filename: "/[^"]+"', got.stderr), got.stderr
    assert re.search(r"write\(fd: 3, buf: 0x[0-9a-f]+, count: 64\) += 64$", got.stderr, re.M)


def trace_while_waiting(tool, args, script, marker):
    """Runs `tool trace ARGS -- sh -c SCRIPT`, the script blocking on a
    read of its stdin, which is fed only once marker (bytes) showed on the
    tracer's stderr: what is shown then is shown while the task still runs.
    Returns the whole stderr after checking the tracer's status."""
    proc = subprocess.Popen([tool, "trace", *args, "--", "sh", "-c", script],
                            stdin=subprocess.PIPE, stderr=subprocess.PIPE)
    seen = b""
    try:
        while marker not in seen:
            # a guard against hanging forever, not a timing: the line
            # comes within a beat when all is well
            ready, _, _ = select.select([proc.stderr], [], [], 60)
            assert ready, f"{marker!r} not shown while the task waits: {seen!r}"
            chunk = os.read(proc.stderr.fileno(), 4096)
            assert chunk, f"the tracer ended first: {seen!r}"
            seen += chunk
    finally:
        proc.stdin.write(b"go\n")
        proc.stdin.close()
        seen += proc.stderr.read()
        proc.wait()
    assert proc.returncode == 0, seen
    return seen.decode()


@pytest.mark.parametrize("tool", [PERF, PCL])
def test_live_line_shows_while_the_task_waits(tool):
    """A call's line reaches stderr while its task still runs, as perf's
    does: a tracer that waits for its rings to fill never shows the umask
    call the shell makes before it blocks."""
    out = trace_while_waiting(tool, ["-e", "umask"], "umask 027; read x; umask 022",
                              b"umask(mask: 23)")
    assert "umask(mask: 18)" in out, out


def test_live_sys_exit_ret_as_perf():
    """syscalls:sys_exit_* tracepoints: ret shown with the beautifier of the
    syscall's first argument, as perf lays its table over the fields: an
    openat's fd with its path while the task holds it open (once a
    sys_enter_* event of the thread was seen: perf shows none before)."""
    cmd = ["-e", "syscalls:sys_enter_openat,syscalls:sys_exit_openat,"
           "syscalls:sys_exit_rt_sigprocmask,syscalls:sys_exit_brk,syscalls:sys_exit_dup2"]
    # the shell's fd 4 is the file: ld.so's opens get 3 and close it
    line = b"syscalls:sys_exit_openat(__syscall_nr: 257, ret: 4</etc/hostname>)"
    want, got = (trace_while_waiting(tool, cmd, "exec 3</dev/null 4</etc/hostname; read x",
                                     line) for tool in (PERF, PCL))
    ours, theirs = (re.sub(r"(ret: -?\d+)<[^>]*>", r"\1", t) for t in (got, want))
    assert normalize(ours) == normalize(theirs), unified(theirs, ours)
    assert re.search(r"sys_exit_brk\(__syscall_nr: 12, ret: 0x[0-9a-f]+\)", got), got


def summary_row(text, name):
    rows = [line.split() for line in text.splitlines() if line.startswith(f"   {name} ")]
    assert len(rows) == 1, text
    return rows[0]


def test_live_summary_counts_exactly():
    """-s loses nothing: write1000's 1000 writes are 1000 calls."""
    got = pcl("trace", "-s", "--", fixture("write1000"))
    assert got.returncode == 0, got.stderr
    assert summary_row(got.stderr, "write")[1:3] == ["1000", "0"]
    assert "\n Summary of events:\n\n write1000 (" in got.stderr
    assert not re.search(r"^ +\d+\.\d{3} \(", got.stderr, re.M)  # summary only


def test_live_syscall_storm_counts_exactly():
    """dd's 30000 one-byte copies: every read and write counted at the
    default -m (the sanitizer build gets rings that hold the whole storm)."""
    room = ["-m", "8192"] if SANITIZED else []
    got = pcl("trace", "-s", *room, "--", "dd", "if=/dev/zero", "of=/dev/null", "bs=1",
              "count=30000")
    assert got.returncode == 0, got.stderr
    assert "LOST" not in got.stderr
    assert int(summary_row(got.stderr, "write")[1]) == 30000 + 3  # dd's own messages
    assert int(summary_row(got.stderr, "read")[1]) >= 30000


@pytest.mark.parametrize("expr,names", [("write", {"write"}),
                                        ("open*,close", {"openat", "close"}),
                                        ("!write,!read", None)])
def test_live_expr(expr, names):
    got = pcl("trace", "-e", expr, "--", fixture("syscalls"), "3")
    assert got.returncode == 0, got.stderr
    seen = {line.split(": ", 1)[1].split(" ", 1)[1].split("(")[0]
            for line in got.stderr.splitlines() if re.match(r"^ +\d+\.\d+ \(", line)}
    if names is None:
        assert seen and not seen & {"write", "read"}
    else:
        assert seen == names


def test_live_failure_output_file_max_events(tmp_path):
    out = tmp_path / "trace.txt"
    got = pcl("trace", "--failure", "-o", str(out), "--", "cat", "/nonexistent")
    assert got.stderr.startswith("cat: ")  # the workload's, ours went to the file
    lines = out.read_text().splitlines()
    assert lines and all(" = -1 E" in line for line in lines)
    assert any("ENOENT (No such file or directory)" in line for line in lines)
    got = pcl("trace", "--max-events", "5", "--", fixture("write1000"))
    assert len(got.stderr.splitlines()) == 5


def perf_event_fds(pid):
    fd_dir = f"/proc/{pid}/fd"
    try:
        return sum("perf_event" in os.readlink(os.path.join(fd_dir, fd))
                   for fd in os.listdir(fd_dir))
    except OSError:
        return 0


def test_live_pid(tmp_path):
    """-p: a running process until it ends, counts exact.  The process waits
    for a flag file until pcl has its events open."""
    flag = tmp_path / "go"
    proc = subprocess.Popen(["sh", "-c", f"while [ ! -e {flag} ]; do sleep 0.05; done; "
                                         f"exec {fixture('write1000')}"])
    tracer = subprocess.Popen([PCL, "trace", "-p", str(proc.pid), "-s"],
                              stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.time() + 60
        while not perf_event_fds(tracer.pid) and time.time() < deadline:
            time.sleep(0.05)
        time.sleep(0.5)  # from open to enabled rings
        flag.write_text("")
        _, err = tracer.communicate(timeout=120)
    finally:
        proc.wait()
    assert tracer.returncode == 0, err
    assert summary_row(err, "write")[1] == "1000"


PID_WORKLOAD = """
import os, sys, threading, time
def until_flag():
    while not os.path.exists("{flag}"):
        os.getppid()
        time.sleep(0.01)
def calls():
    for _ in range(20):
        os.getpid()
threads = [threading.Thread(target=until_flag) for _ in range({threads} - 1)]
for t in threads:
    t.start()
print(flush=True)  # every thread is there
until_flag()
late = threading.Thread(target=calls)  # -p does not follow it
late.start()
for t in threads + [late]:
    t.join()
"""


def trace_pid(tool, tmp_path, threads, *args):
    """tool (a binary) trace -p of a process with that many threads, until
    a while after its events are open: its lines."""
    flag = tmp_path / f"go-{os.path.basename(tool)}"
    proc = subprocess.Popen([sys.executable, "-c",
                             PID_WORKLOAD.format(threads=threads, flag=flag)],
                            stdout=subprocess.PIPE, text=True)
    try:
        proc.stdout.readline()
        tracer = subprocess.Popen([tool, "trace", "-p", str(proc.pid), "-e", "getppid,getpid",
                                   *args], stderr=subprocess.PIPE, text=True)
        deadline = time.time() + 60
        while not perf_event_fds(tracer.pid) and time.time() < deadline:
            time.sleep(0.05)
        time.sleep(1)  # from open to enabled rings, and calls made
        flag.write_text("")
        err = tracer.communicate(timeout=120)[1]
    finally:
        proc.wait()
    assert tracer.returncode == 0, err
    return err


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("args", [[], ["--call-graph", "fp"]], ids=lambda a: " ".join(a) or "plain")
def test_live_pid_tasks_as_perf(tmp_path, threads, args):
    """-p: as perf, a lone task's lines have no comm/tid, several tasks'
    have them, each named from /proc as tracing began (however long the
    lines wait); a thread started later is not traced (perf's -p does not
    inherit)."""
    want = trace_pid(PERF, tmp_path, threads, *args)
    got = trace_pid(PCL, tmp_path, threads, *args)

    def heads(text):
        # perf prints each CPU's buffer in turn: a call whose thread moved
        # to the other CPU meanwhile ends on a "... [continued]" line
        return {re.sub(r"/\d+", "/N", m) for m in re.findall(r"\): (.*?)get", text)
                if "[continued]" not in m}
    assert heads(got) == heads(want) == ({"python3/N "} if threads > 1 else {""}), \
        unified(want, got)
    assert len(set(re.findall(r"python3/(\d+) ", got))) == (threads if threads > 1 else 0)
    assert "getpid(" not in got and "getpid(" not in want, got


@pytest.mark.parametrize("args", [["-u", "nosuchuser", "--", "true"], ["-u", "54321"],
                                  ["-p", "1", "-u", "root"], ["-u", "root", "-a"],
                                  ["-u", "root", "-C", "0"], ["-t", "1", "-a"],
                                  ["-p", "1", "-a", "-C", "0"],
                                  ["-u", "nosuchuser", "-i", "/nonexistent.data"]],
                         ids=lambda a: " ".join(a))
def test_target_errors_as_perf(args):
    """An unknown user, a uid no user has and targets that override each
    other: perf's words (no newline) and status, a replay too."""
    want, got = perf("trace", *args), pcl("trace", *args)
    assert (got.returncode, got.stderr) == (want.returncode, want.stderr)
    assert got.returncode != 0


UID_WORKLOAD = """
import os, select, sys
print(flush=True)
while not select.select([sys.stdin], [], [], 0.02)[0]:
    os.getppid()
for _ in range(3):
    os.getpid()
"""


@pytest.mark.skipif(not os.path.exists("/usr/bin/setpriv"), reason="no setpriv")
def test_live_uid_as_perf(tmp_path):
    """-u: the user's processes running when tracing starts, until they
    end, their lines without comm/tid as perf shows a lone task's.  The
    process goes on to its last calls once its first line showed."""
    results = []
    for tool in (PERF, PCL):
        # (on one CPU: perf prints each CPU's buffer in turn, so a call whose
        # task moved between CPUs would show as "... [continued]")
        proc = subprocess.Popen(["setpriv", "--reuid=nobody", "--regid=nogroup",
                                 "--clear-groups", "/usr/bin/python3", "-c", UID_WORKLOAD],
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                preexec_fn=on_cpu0)
        tracer = None
        try:
            proc.stdout.readline()  # it runs: tracing starts with it in the list
            tracer = subprocess.Popen([tool, "trace", "-u", "nobody", "-e", "getppid,getpid"],
                                      stderr=subprocess.PIPE)
            seen = b""
            while b"getppid()" not in seen:
                ready, _, _ = select.select([tracer.stderr], [], [], 60)  # a hang guard
                assert ready, seen
                chunk = os.read(tracer.stderr.fileno(), 4096)
                assert chunk, seen
                seen += chunk
            proc.stdin.write(b"go\n")
            proc.stdin.close()
            seen += tracer.communicate(timeout=120)[1]
        finally:
            if tracer and tracer.poll() is None:
                tracer.kill()
            proc.kill()
            proc.wait()
        assert tracer.returncode == 0, seen
        results.append(seen.decode().replace(str(proc.pid), "PID"))
    for out in results:
        assert re.search(r"^ +\d+\.\d{3} \( *\d+\.\d{3} ms\): getppid\(\) +=\s*$", out,
                         re.M), out
    want, got = (re.findall(r"\): (getpid\(\) += PID)$", out, re.M) for out in results)
    assert got == want == ["getpid()" + want[0][8:]] * 3, results[1]


def test_bad_syscall_name():
    got = pcl("trace", "-e", "nosuchcall", "--", "true")
    want = perf("trace", "-e", "nosuchcall", "--", "true")
    assert got.returncode == want.returncode == 129
    assert "event syntax error: 'nosuchcall'" in got.stderr


def on_cpu0():
    """Keeps a tracer and its workload on CPU 0.  perf trace prints each
    CPU's buffer in turn: a syscall whose thread migrated between entry and
    exit shows, at random, as an interrupted entry and a "[continued]" line."""
    os.sched_setaffinity(0, {0})


def without_fd_paths(text):
    """Live, an fd's path shows when /proc still has the process as its
    line is made: whether it does is a matter of timing, for both tools."""
    return re.sub(r"(fd: -?\d+)<[^>]*>", r"\1", text)


def normalize(text):
    """Times and pids vary between runs: what is left must match."""
    text = re.sub(r"^ +\d+\.\d{3} ", "T ", text, flags=re.M)
    text = re.sub(r"0x[0-9a-f]+", "X", text)
    return re.sub(r"\d+", "N", re.sub(r" {2,}", " ", text))


def test_live_tracepoints_as_perf():
    """-e with tracepoints only: perf's lines, no syscalls, same fields."""
    args = ["-e", "sched:sched_process_exec,sched:sched_process_exit", "--",
            "sh", "-c", "true; /bin/true"]
    # on two CPUs perf may print an exit read from one CPU's buffer before
    # the exec's COMM record in the other's, under the old name
    want = perf("trace", *args, preexec_fn=on_cpu0)
    got = pcl("trace", *args, preexec_fn=on_cpu0)
    assert got.returncode == want.returncode == 0, got.stderr
    assert normalize(got.stderr) == normalize(want.stderr), unified(want.stderr, got.stderr)
    assert 'sched:sched_process_exec(filename: "/bin/true", pid: ' in got.stderr


@pytest.mark.parametrize("args", [["-s", "-e", "sched:sched_process_exec,syscalls:sys_enter_umask,"
                                   "umask,execve"],
                                  ["-S", "-e", "syscalls:sys_enter_umask,umask"],
                                  ["-s", "--max-events", "2", "-e", "sched:sched_process_exec,umask"]],
                         ids=lambda a: " ".join(a))
def test_live_summary_with_tracepoints_as_perf(args):
    """Tracepoints show under -s as perf's do, with the calls they
    interrupt; a syscalls:sys_enter_* one fires before the call's entry (so
    interrupts none) and counts among the thread's events."""
    cmd = ["trace", *args, "--", "sh", "-c", "umask 022; /bin/true"]
    want = perf(*cmd, preexec_fn=on_cpu0)
    got = pcl("trace", "--no-augment", *cmd[1:], preexec_fn=on_cpu0)
    assert got.returncode == want.returncode == 0, got.stderr
    assert normalize(got.stderr) == normalize(want.stderr), unified(want.stderr, got.stderr)
    assert "sys_enter_umask(mask: " in got.stderr or "sched_process_exec(" in got.stderr


def test_live_syscalls_and_tracepoints():
    got = pcl("trace", "-e", "write,sched:sched_process_exit", "--", "sh", "-c", "echo hi")
    assert got.returncode == 0, got.stderr
    lines = [line for line in got.stderr.splitlines() if "): " in line]
    assert len(lines) == 2, got.stderr
    # fd 1's path shows when sh is still there to ask /proc as the line is made
    assert re.search(r"\): sh/\d+ write\(fd: 1(<[^>]+>)?, buf: 0x[0-9a-f]+, count: 3\) += 3$",
                     lines[0])
    assert re.search(r"\(         \): sh/\d+ sched:sched_process_exit\(comm: \"sh\", pid: \d+ "
                     r"\(sh\), prio: \d+, group_dead: 1\)$", lines[1])


@pytest.mark.parametrize("name", ["threads", "vforks"])
def test_replay_pid_tid_filters(recordings, name):
    """-p and -t in a replay keep the tasks perf keeps (by pid, by tid)."""
    full = perf("trace", "-i", recordings[name]).stderr
    tids = sorted({int(t) for t in re.findall(r"\): \S*?/(\d+) ", full)})
    assert len(tids) > 1
    for args in (["-p", str(tids[0])], ["-t", str(tids[-1])], ["-t", f"{tids[0]},{tids[-1]}"],
                 ["-p", str(tids[-1]), "-S"]):
        want = perf("trace", "-i", recordings[name], *args)
        got = pcl("trace", "-i", recordings[name], *args)
        assert got.stderr == want.stderr, unified(want.stderr, got.stderr)


def summary_counts(text):
    """The summary without what timing decides: per thread (comm, events, %)
    and its syscalls' calls and errors, in a stable order."""
    threads, rows = [], None
    for line in text.splitlines():
        m = re.match(r"^ (\S+) \(\d+\), (\d+ events, [\d.]+%)$", line)
        if m:
            rows = []
            threads.append((m.group(1), m.group(2), rows))
        elif rows is not None and re.match(r"^   [a-z]\w* +\d+ +\d+ ", line):
            rows.append(tuple(line.split()[:3]))
    return sorted((comm, events, sorted(r)) for comm, events, r in threads)


@pytest.mark.parametrize("args", [[], ["--no-inherit"]], ids=["inherit", "no-inherit"])
def test_live_summary_matches_perf(args):
    """Live -s: the same threads, event counts, percentages, calls and errors
    as perf trace -s (durations aside)."""
    cmd = ["-s", *args, "--", fixture("syscalls"), "20"]
    got = pcl("trace", *cmd)
    # perf now and then misses the dynamic loader's read, the first call
    # after the exec (20 reads where strace and pcl count 21): it gets
    # three tries to count them all
    for _ in range(3):
        want = perf("trace", *cmd)
        if summary_counts(got.stderr) == summary_counts(want.stderr):
            break
    assert summary_counts(got.stderr) == summary_counts(want.stderr), \
        unified(want.stderr, got.stderr)
    assert len(summary_counts(got.stderr)) == 1


def test_no_comm(recordings):
    want = perf("trace", "-i", recordings["threads"], "--no-comm", "-S")
    got = pcl("trace", "-i", recordings["threads"], "--no-comm", "-S")
    assert got.stderr == want.stderr, unified(want.stderr, got.stderr)


@pytest.mark.parametrize("callgraph", ["fp", "dwarf"])
@pytest.mark.parametrize("workload", ["syscalls", "threads"])
def test_replay_callchains(tmp_path, callgraph, workload):
    """trace record --call-graph: each exit line's chain, kernel and user
    frames as recorded (perf trace unwinds no stacks), byte for byte."""
    path = str(tmp_path / "cg.data")
    r = perf("trace", "record", "--call-graph", callgraph, "-o", path, "--",
             *WORKLOADS[workload](tmp_path), stdout=open(os.devnull, "w"))
    assert r.returncode == 0, r.stderr
    for args in ([], ["--failure", "-S"]):
        want = perf("trace", "-i", path, *args)
        got = pcl("trace", "-i", path, *args)
        assert got.stderr == want.stderr, unified(want.stderr, got.stderr)
    assert "do_syscall_64 ([kernel.kallsyms])" in got.stderr


@pytest.mark.parametrize("args", [["--call-graph", "fp"], ["--call-graph", "dwarf"],
                                  ["--call-graph", "fp", "--kernel-syscall-graph"],
                                  ["--call-graph", "fp", "--min-stack", "2"],
                                  ["--call-graph", "dwarf", "--min-stack", "5"],
                                  # a stack option alone asks for dwarf chains
                                  ["--max-stack", "2"], ["--min-stack", "3"],
                                  ["--call-graph", "dwarf", "--max-stack", "1"],
                                  ["--call-graph", "dwarf", "--max-stack", "0"],
                                  ["--call-graph", "fp", "--max-stack", "2"]],
                         ids=lambda a: " ".join(a))
def test_live_callchains_as_perf(args):
    """Live call chains: the frames perf shows under each exit line."""
    cmd = [*args, "-e", "write,getpid", "--", fixture("syscalls"), "2"]
    want, got = perf("trace", *cmd, preexec_fn=on_cpu0), pcl("trace", *cmd, preexec_fn=on_cpu0)
    assert got.returncode == want.returncode == 0, got.stderr
    ours, theirs = without_fd_paths(got.stderr), without_fd_paths(want.stderr)
    assert normalize(ours) == normalize(theirs), unified(theirs, ours)
    if "--max-stack" not in args:
        assert " __libc_start_call_main (/usr/lib/x86_64-linux-gnu/libc.so.6)\n" in got.stderr


@pytest.mark.parametrize("callgraph,frames", [("dwarf", 200), ("fp", 127)])
def test_live_max_stack_above_kernel_limit(callgraph, frames):
    """--max-stack 200 on a 300 calls deep stack: perf unwinds a dwarf chain
    that deep, the kernel's perf_event_max_stack (127) cuts an fp one."""
    cmd = ["--call-graph", callgraph, "--max-stack", "200", "-e", "getppid", "--",
           fixture("deep_stack"), "300"]
    want = perf("trace", *cmd, preexec_fn=on_cpu0)
    got = pcl("trace", *cmd, preexec_fn=on_cpu0)
    assert got.returncode == want.returncode == 0, got.stderr
    assert normalize(got.stderr) == normalize(want.stderr), unified(want.stderr, got.stderr)
    if int(open("/proc/sys/kernel/perf_event_max_stack").read()) == 127:
        assert len(got.stderr.splitlines()) == 1 + frames, got.stderr


def test_replay_max_stack_above_default(tmp_path):
    """A file's chains: 127 frames by default, --max-stack 200 more."""
    path = str(tmp_path / "deep.data")
    r = perf("trace", "record", "--call-graph", "dwarf", "-o", path, "--",
             fixture("deep_stack"), "300", stdout=open(os.devnull, "w"))
    assert r.returncode == 0, r.stderr
    for args in ([], ["--max-stack", "200"]):
        want, got = perf("trace", "-i", path, *args), pcl("trace", "-i", path, *args)
        assert got.stderr == want.stderr, unified(want.stderr, got.stderr)
    assert got.stderr.count("descend (") > 127


def test_live_pagefaults():
    """-F: perf's fault lines (where the ip is, what the address is) and the
    summary's fault counts."""
    got = pcl("trace", "-F", "all", "--no-syscalls", "--", fixture("syscalls"), "1")
    assert got.returncode == 0, got.stderr
    lines = got.stderr.splitlines()
    assert lines and all(re.match(r"^ +\d+\.\d{3} \( 0\.000 ms\): syscalls/\d+ (min|maj)fault "
                                  r"\[\S+\] => \S+ \([d?][.k]\)$", line) for line in lines), \
        got.stderr
    assert re.search(r"minfault \[_start\+0x0\] => /\S+/ld-linux-x86-64\.so\.2@0x[0-9a-f]+ "
                     r"\(d\.\)$", got.stderr, re.M)
    got = pcl("trace", "-F", "min", "-s", "--", fixture("syscalls"), "1")
    assert re.search(r"^ syscalls \(\d+\), \d+ events, [\d.]+%, \d+ minfaults$", got.stderr,
                     re.M), got.stderr


def test_live_single_tracepoint():
    """One event alone: its samples carry no id and still count."""
    got = pcl("trace", "-e", "sched:sched_process_exec", "--", "/bin/true")
    assert got.returncode == 0, got.stderr
    assert re.match(r'^ +\d+\.\d{3} true/\d+ sched:sched_process_exec\(filename: "/bin/true", '
                    r"pid: \d+ \(true\), old_pid: \d+ \(true\)\)\n$", got.stderr), got.stderr


# the calls of trace_args whose arguments are decoded, not the fork and waits
TRACE_ARGS_CALLS = ("socket,setsockopt,getsockopt,sendto,recvfrom,sendmsg,recvmsg,flock,"
                    "sync_file_range,sched_setscheduler,seccomp,kcmp,keyctl,pkey_alloc,mount,"
                    "fspick,fsmount,fsconfig,move_mount")


def test_live_beautifiers_as_perf(tmp_path):
    """Live: the decoded arguments are perf's, call by call (pcl adds the
    paths of fds, perf does not here)."""
    cmd = ["-e", TRACE_ARGS_CALLS, "--", fixture("trace_args"), str(tmp_path)]
    want = perf("trace", *cmd, preexec_fn=on_cpu0)
    got = pcl("trace", "--no-augment", *cmd, preexec_fn=on_cpu0)
    assert got.returncode == want.returncode == 0, got.stderr
    ours, theirs = without_fd_paths(got.stderr), without_fd_paths(want.stderr)
    assert normalize(ours) == normalize(theirs), unified(theirs, ours)
    assert "flags: DONTWAIT|NOSIGNAL" in got.stderr
    assert "flags: RDONLY|NOSUID|NODEV|NOEXEC" in got.stderr


def test_live_ioctl_names(tmp_path):
    """Live: kvm, sound, vhost and drm ioctls by name, others by their parts."""
    got = pcl("trace", "-e", "ioctl", "--", fixture("trace_args"), str(tmp_path))
    assert got.returncode == 0, got.stderr
    for cmd in ("TCGETS", "PERF_SET_FILTER", "KVM_GET_API_VERSION", "KVM_CREATE_VM",
                "SNDRV_PCM_PVERSION", "SNDRV_CTL_ELEM_LIST", "VHOST_GET_FEATURES",
                "VHOST_SET_FEATURES", "DRM_VERSION", "DRM_MODE_GETRESOURCES", "DRM_I915_INIT",
                "(WRITE, 0x78, 0x5, 0x4)", "(0xae, 0x6, 0x2)"):
        assert re.search(rf"ioctl\(fd: 3(<[^>]*>)?, cmd: {re.escape(cmd)}\)", got.stderr), cmd


@pytest.fixture(scope="module")
def chained(tmp_path_factory):
    """trace record --call-graph fp and dwarf of syscalls and threads."""
    tmp = tmp_path_factory.mktemp("chained")
    files = {}
    for callgraph in ("fp", "dwarf"):
        for workload in ("syscalls", "threads"):
            path = str(tmp / f"{callgraph}-{workload}.data")
            r = perf("trace", "record", "--call-graph", callgraph, "-o", path, "--",
                     *WORKLOADS[workload](tmp), stdout=open(os.devnull, "w"))
            assert r.returncode == 0, r.stderr
            files[callgraph, workload] = path
    return files


STACK_OPTIONS = [["--min-stack", "1"], ["--min-stack", "5"], ["--min-stack", "6", "-S"],
                 ["--min-stack", "4", "--failure"], ["--min-stack", "3", "--duration", "0.005"],
                 ["--min-stack", "500"], ["--sort-events"], ["--proc-map-timeout", "100"]]


# --max-stack 0 refuses a dwarf chain: perf's complaint instead of it
MAX_STACK_OPTIONS = [["--max-stack", n] for n in ("0", "1", "2", "3", "4", "5", "127")] + \
    [["--min-stack", "5", "--max-stack", "5"], ["--min-stack", "3", "--max-stack", "1"],
     ["--min-stack", "2", "--max-stack", "0"], ["--max-stack", "2", "-S", "--failure"]]


@pytest.mark.parametrize("key", [("fp", "syscalls"), ("fp", "threads"), ("dwarf", "syscalls"),
                                 ("dwarf", "threads")], ids="-".join)
@pytest.mark.parametrize("args", STACK_OPTIONS + MAX_STACK_OPTIONS, ids=" ".join)
def test_replay_stack_options(chained, key, args):
    """--min-stack drops the exits with shorter chains (and, as perf, the
    interrupted entries and exit_group lines); --max-stack cuts chains,
    the kernel's and the unwound user part each to that many frames (an
    unwound frame with its inlined functions counting one)."""
    want = perf("trace", "-i", chained[key], *args)
    got = pcl("trace", "-i", chained[key], *args)
    assert got.returncode == want.returncode == 0, got.stderr
    assert got.stderr == want.stderr, unified(want.stderr, got.stderr)


@pytest.mark.parametrize("name", ["syscalls", "threads", "trace_args"])
def test_replay_verbose(recordings, name):
    """-v: perf's notes on the file (build ids, missing pmu capabilities)
    before the lines, on the same stream."""
    want = perf("trace", "-v", "-i", recordings[name], "-S")
    got = pcl("trace", "-v", "-i", recordings[name], "-S")
    assert got.returncode == want.returncode == 0, got.stderr
    assert got.stderr == want.stderr, unified(want.stderr, got.stderr)
    assert "build id event received for [kernel.kallsyms]: " in got.stderr


@pytest.mark.parametrize("key", [("fp", "syscalls"), ("dwarf", "threads")], ids="-".join)
@pytest.mark.parametrize("args", [[], ["-s"], ["--failure"], ["--call-graph", "fp"],
                                  ["--call-graph", "fp", "--max-stack", "0"]],
                         ids=lambda a: " ".join(a) or "plain")
def test_replay_verbose_kernel_notes(chained, key, args):
    """-v of a file with call chains: perf's notes on loading the kernel's
    symbols (its vmlinux path, the build-id cache's kallsyms copy it tries
    as ELF, /proc/kallsyms) as the first chain needs them, and on a
    --call-graph given after -v.  (Unwinding, perf's libunwind says more.)"""
    want = perf("trace", "-v", "-i", chained[key], *args)
    got = pcl("trace", "-v", "-i", chained[key], *args)
    assert got.returncode == want.returncode == 0, got.stderr
    assert got.stderr == want.stderr, unified(want.stderr, got.stderr)
    assert "Looking at the vmlinux_path (8 entries long)\n" in got.stderr


def test_live_verbose():
    """-v live: the size of each ring, as perf says it."""
    want = perf("trace", "-v", "-s", "-m", "128", "--", "true")
    got = pcl("trace", "-v", "-s", "-m", "128", "--", "true")
    assert got.returncode == want.returncode == 0, got.stderr
    assert "mmap size 528384B\n" in want.stderr
    assert "\nmmap size 528384B\n" in got.stderr, got.stderr


@pytest.mark.parametrize("args", [
    ["--tool_stats", "-e", "clock_nanosleep", "--", "sleep", "0.01"],
    ["--libtraceevent_print", "-e", "sched:sched_process_exec,sched:sched_process_exit", "--",
     "true"],
    ["--syscalls", "-e", "sched:sched_process_exit", "--", "true"],
    ["--no-syscalls", "--", "true"],
    ["--print-sample", "-e", "clock_nanosleep", "--", "sleep", "0.01"],
    ["--filter-pids", "1", "-e", "clock_nanosleep", "--", "sleep", "0.01"],
    ["-e", "sched:sched_process_exec,sched:sched_process_exit", "--switch-on",
     "sched:sched_process_exec", "--", "sh", "-c", "true"],
    ["-e", "sched:sched_process_exec,sched:sched_process_exit", "--switch-on",
     "sched:sched_process_exec", "--show-on-off-events", "--", "sh", "-c", "true"],
    ["-e", "sched:sched_process_exec,sched:sched_process_exit", "--switch-off",
     "sched:sched_process_exec", "--", "sh", "-c", "true"],
    ["--switch-on", "sched:nope", "--", "true"],
    ["--map-dump", "some_map", "--", "true"],
], ids=" ".join)
def test_live_more_options_as_perf(args):
    """Options that choose what is traced and what is printed besides it:
    tool stats, libtraceevent's own text, syscalls with tracepoints (and
    perf's quirk: --no-syscalls alone traces them), each raw sample, pids
    the kernel leaves out, the on/off switches, BPF maps (none)."""
    want = perf("trace", *args, preexec_fn=on_cpu0)
    got = pcl("trace", "--no-augment", *args, preexec_fn=on_cpu0)
    assert got.returncode == want.returncode, got.stderr
    ours, theirs = without_fd_paths(got.stderr), without_fd_paths(want.stderr)
    assert normalize(ours) == normalize(theirs), unified(theirs, ours)


def test_live_sched_runtime_in_summary():
    """--sched: each thread's CPU time from sched_stat_runtime, after its
    events in the summary, as perf adds it."""
    line = re.compile(r"^ burner \(\d+\), \d+ events, \d+\.\d%, (\d+\.\d{3}) msec$", re.M)
    args = ["-s", "--sched", "--", fixture("burner"), "100", "cpu"]
    want, got = perf("trace", *args), pcl("trace", *args)
    assert got.returncode == want.returncode == 0, got.stderr
    assert line.search(want.stderr), want.stderr
    # the workload burns 100 ms of CPU: most of it is accounted
    assert float(line.search(got.stderr).group(1)) > 50, got.stderr


@pytest.mark.parametrize("name", ["syscalls", "threads"])
def test_replay_print_sample(recordings, name):
    """--print-sample replayed: a line per raw syscall sample before what it
    prints, also with -s."""
    for args in (["--print-sample"], ["--print-sample", "-s"]):
        want = perf("trace", "-i", recordings[name], *args)
        got = pcl("trace", "-i", recordings[name], *args)
        assert got.returncode == want.returncode == 0, got.stderr
        assert got.stderr == want.stderr, unified(want.stderr, got.stderr)
    assert " raw_syscalls:sys_exit " in got.stderr


def test_live_cgroup():
    """-G: system-wide only (perf's usage error), perf's words for a cgroup
    that is not there (status 0), and the workload's calls in the root
    cgroup, which holds every task."""
    want, got = perf("trace", "-G", "/", "--", "true"), pcl("trace", "-G", "/", "--", "true")
    assert got.returncode == want.returncode == 129
    assert got.stderr.splitlines()[0] == want.stderr.splitlines()[0]
    args = ["-G", "pcl-no-such-cgroup", "-a", "-e", "clock_nanosleep", "--", "true"]
    want, got = perf("trace", *args), pcl("trace", *args)
    assert got.returncode == want.returncode == 0, got.stderr
    # (the trace then goes on system-wide: any other task's sleep shows)
    def complaint(text):
        return [line for line in text.splitlines() if "cgroup" in line]
    assert complaint(got.stderr) == complaint(want.stderr) != [], \
        unified(want.stderr, got.stderr)
    got = pcl("trace", "-a", "-G", "/", "-e", "clock_nanosleep", "--", "sleep", "0.01")
    assert got.returncode == 0, got.stderr
    assert re.search(r"\): sleep/\d+ clock_nanosleep\(", got.stderr), got.stderr


def test_help_as_perf():
    """-h: every option with perf's help text and layout, multi-line
    --call-graph text included."""
    want, got = perf("trace", "-h"), pcl("trace", "-h")
    assert got.returncode == want.returncode
    assert got.stderr.replace("pcl trace", "perf trace") == want.stderr, \
        unified(want.stderr, got.stderr)


# perfconfig's trace.show_zeros, trace.show_arg_names (which implies it)
# and trace.show_prefix
ZERO_CONFS = ["show_zeros = true", "show_arg_names = false",
              "show_zeros = false\n\tshow_arg_names = no\n\targs_alignment = 40",
              "show_prefix = true", "show_prefix = yes\n\tshow_zeros = true",
              "show_prefix = 1\n\tshow_arg_names = false"]


def config_env(tmp_path, conf):
    path = tmp_path / "perfconfig"
    path.write_text("[trace]\n\t%s\n" % conf)
    return dict(os.environ, PERF_CONFIG=str(path))


@pytest.mark.parametrize("name", list(WORKLOADS))
@pytest.mark.parametrize("conf", ZERO_CONFS, ids=lambda c: c.replace("\n\t", " "))
def test_replay_zeros_and_arg_names(recordings, tmp_path, name, conf):
    """Zero arguments through each beautifier (NULL pointers, RDONLY, NONE,
    0 flags, pid 0's comm), values without their names, and names with
    their C prefixes (O_RDONLY, AT_FDCWD, R_OK, "36 /* F_??? */"), as perf."""
    env = config_env(tmp_path, conf)
    for args in ([], ["-S", "--failure"]):
        want = perf("trace", "-i", recordings[name], *args, env=env)
        got = pcl("trace", "-i", recordings[name], *args, env=env)
        assert got.returncode == want.returncode == 0, got.stderr
        assert got.stderr == want.stderr, unified(want.stderr, got.stderr)


@pytest.mark.parametrize("conf", ZERO_CONFS[:2] + ZERO_CONFS[3:4],
                         ids=lambda c: c.replace("\n\t", " "))
def test_live_tracepoint_zeros_and_arg_names(tmp_path, conf):
    """Tracepoint fields follow the two keys too (digits compared as N)."""
    cmd = ["trace", "-e", "sched:sched_process_exec,sched:sched_process_exit", "--",
           "/bin/true"]
    env = config_env(tmp_path, conf)
    want = perf(*cmd, env=env, preexec_fn=on_cpu0)
    got = pcl(*cmd, env=env, preexec_fn=on_cpu0)
    assert got.returncode == want.returncode == 0, got.stderr
    # a timestamp's width (digits compared as N) varies from run to run
    assert re.sub(r"\d+", "N", re.sub(r"^ +", "", got.stderr, flags=re.M)) == \
        re.sub(r"\d+", "N", re.sub(r"^ +", "", want.stderr, flags=re.M))


@pytest.mark.parametrize("conf", [None] + ZERO_CONFS[3:6], ids=lambda c: (c or "plain").replace("\n\t", " "))
def test_live_syscall_tracepoints_as_perf(tmp_path, conf):
    """syscalls:sys_enter_* tracepoints: their arguments decoded as the
    syscall's line decodes them (with trace.show_prefix, O_RDONLY...), user
    strings empty, as perf shows them without its BPF augmenter."""
    cmd = ["trace", "-e", "syscalls:sys_enter_openat,syscalls:sys_enter_mmap,"
           "syscalls:sys_enter_access,syscalls:sys_enter_write,syscalls:sys_enter_close", "--",
           fixture("syscalls"), "2"]
    env = config_env(tmp_path, conf) if conf else None
    want, got = perf(*cmd, env=env), pcl(*cmd, env=env)
    assert got.returncode == want.returncode == 0, got.stderr
    ours, theirs = without_fd_paths(got.stderr), without_fd_paths(want.stderr)
    assert normalize(ours) == normalize(theirs), unified(theirs, ours)
    if not conf:
        assert re.search(r"sys_enter_openat\(dfd: CWD, filename: \"\", flags: ", got.stderr)


def test_live_pathnames_as_strings():
    """pcl's BPF reader shows a pathname argument as perf does where its
    augmenter works: the string, quoted."""
    got = pcl("trace", "-e", "openat", "--", "cat", "/etc/hostname")
    assert got.returncode == 0, got.stderr
    assert re.search(r'\): cat/\d+ openat\(dfd: CWD, filename: "/etc/hostname"\) += 3$',
                     got.stderr, re.M), got.stderr
    # a string whose page was not in memory as the call began (libc's
    # locale names) is read again as it ends
    assert 'filename: "/usr/lib/locale/locale-archive"' in got.stderr, got.stderr
    assert "filename: 0x" not in got.stderr, got.stderr


def test_live_execve_and_rename_strings(tmp_path):
    """execve shows the program's path; rename both of its names."""
    got = pcl("trace", "-e", "execve", "--", "sh", "-c", "/bin/true; exit 0")
    assert got.returncode == 0, got.stderr
    assert re.search(r'\): true/\d+ execve\(filename: "/bin/true", argv: 0x[0-9a-f]+, envp: ',
                     got.stderr), got.stderr
    old, new = str(tmp_path / "old"), str(tmp_path / "new")
    script = "import os, sys; open(sys.argv[1], 'w').close(); os.rename(sys.argv[1], sys.argv[2])"
    got = pcl("trace", "-e", "rename", "--", sys.executable, "-c", script, old, new)
    assert got.returncode == 0, got.stderr
    assert f'rename(oldname: "{old}", newname: "{new}")' in got.stderr, got.stderr


def test_live_long_pathnames(tmp_path):
    """A path longer than 256 bytes is shown whole; one longer than perf's
    augmenter's PATH_MAX buffer (4096 bytes, its NUL included) is cut to
    4095 bytes."""
    deep = tmp_path / ("d" * 200) / ("e" * 200)
    deep.mkdir(parents=True)
    (deep / "f").write_text("x")
    got = pcl("trace", "-e", "openat", "--", "cat", str(deep / "f"))
    assert got.returncode == 0, got.stderr
    assert f'openat(dfd: CWD, filename: "{deep / "f"}")' in got.stderr, got.stderr
    script = "import os\ntry:\n    os.open('/' + 'a' * 5000, 0)\nexcept OSError:\n    pass"
    got = pcl("trace", "-e", "openat", "--", sys.executable, "-c", script)
    assert got.returncode == 0, got.stderr
    assert re.search(r'filename: "/a{4094}", flags: RDONLY\|CLOEXEC\) += -1 ENAMETOOLONG',
                     got.stderr), got.stderr


def without_strings(text):
    """The pathnames pcl read, as pointers (normalize() makes them X)."""
    return re.sub(r'((?:file|path|old|new)?name): "[^"]*"', r"\1: 0x0", text)


def test_live_no_augment_as_perf():
    """--no-augment shows pathnames as pointers, as perf 6.1 does here; with
    the strings, nothing else on the lines changes."""
    cmd = ["-e", "openat,access,execve", "--", "cat", "/etc/hostname"]
    want = perf("trace", *cmd, preexec_fn=on_cpu0)
    plain = pcl("trace", "--no-augment", *cmd, preexec_fn=on_cpu0)
    got = pcl("trace", *cmd, preexec_fn=on_cpu0)
    assert got.returncode == plain.returncode == want.returncode == 0, got.stderr
    theirs = normalize(without_fd_paths(want.stderr))
    assert normalize(without_fd_paths(plain.stderr)) == theirs, unified(want.stderr, plain.stderr)
    assert '"' not in plain.stderr
    assert normalize(without_strings(without_fd_paths(got.stderr))) == theirs, \
        unified(want.stderr, got.stderr)
    assert 'filename: "/etc/hostname"' in got.stderr


SOCKADDR_WORKLOAD = """
import os, socket
u = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
u.connect(("127.0.0.1", 9))
u.sendto(b"x", ("127.0.0.1", 9))
s6 = socket.socket(socket.AF_INET6, socket.SOCK_DGRAM)
s6.connect(("::1", 9))
if os.path.exists("{tmp}/s.sock"):
    os.unlink("{tmp}/s.sock")
for name in ("{tmp}/s.sock", "\\0{tmp}/abstract"):
    x = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    x.bind(name)
"""


def without_sockaddrs(text):
    """The socket addresses pcl read, as pointers (normalize() makes them X)."""
    return re.sub(r"\{ \.family: [^}]*\}", "0x0", text)


def test_live_sockaddrs(tmp_path):
    """connect's, sendto's and bind's socket address, read by pcl's BPF
    program, decoded in the form of perf's augmenter; perf 6.1 here (no
    augmenter) shows the pointers, and so does --no-augment."""
    cmd = ["-e", "connect,sendto,bind", "--", sys.executable, "-c",
           SOCKADDR_WORKLOAD.format(tmp=tmp_path)]
    want = perf("trace", *cmd, preexec_fn=on_cpu0)
    plain = pcl("trace", "--no-augment", *cmd, preexec_fn=on_cpu0)
    got = pcl("trace", *cmd, preexec_fn=on_cpu0)
    assert got.returncode == plain.returncode == want.returncode == 0, got.stderr
    theirs = normalize(want.stderr)
    assert normalize(plain.stderr) == theirs, unified(want.stderr, plain.stderr)
    assert "{" not in plain.stderr
    assert normalize(without_sockaddrs(got.stderr)) == theirs, unified(want.stderr, got.stderr)
    for decoded in ["connect(fd: 3, uservaddr: { .family: INET, port: 9, addr: 127.0.0.1 }, "
                    "addrlen: 16)",
                    "addr: { .family: INET, port: 9, addr: 127.0.0.1 }, addr_len: 0x10)",
                    "connect(fd: 4, uservaddr: { .family: INET6, port: 9, addr: ::1 }, "
                    "addrlen: 28)",
                    f"umyaddr: {{ .family: LOCAL, path: {tmp_path}/s.sock }}",
                    f"umyaddr: {{ .family: LOCAL, path: @{tmp_path}/abstract }}"]:
        assert decoded in got.stderr, got.stderr


AUGMENTER = "/usr/share/doc/linux-perf/examples/bpf/augmented_raw_syscalls.c"


@pytest.mark.parametrize("expr", [AUGMENTER, f"open,{AUGMENTER}", "augmented.o"])
def test_bpf_scriptlet_refused(expr):
    """perf 6.1 here cannot build its BPF augmenter (no kernel headers) and
    fails with 129; pcl loads no BPF program, says so, and fails the same."""
    got = pcl("trace", "-e", expr, "--", "true")
    assert got.returncode == 129, got.stderr
    assert "is a BPF program: pcl loads none" in got.stderr
    if os.path.exists(AUGMENTER):
        want = perf("trace", "-e", AUGMENTER, "--", "true")
        assert want.returncode == 129, want.stderr


def test_live_delay_names_as_perf():
    """-D: tasks whose exec came before tracing began are ":tid", as perf
    knows no name for them; a later exec names its task."""
    cmd = ["trace", "-D", "50", "-e", "getpid,exit_group", "--", "sh", "-c",
           f"sleep 0.3; {fixture('syscalls')} 1"]
    want, got = perf(*cmd, preexec_fn=on_cpu0), pcl(*cmd, preexec_fn=on_cpu0)
    assert got.returncode == want.returncode == 0, got.stderr
    assert normalize(got.stderr) == normalize(want.stderr), unified(want.stderr, got.stderr)
    assert re.search(r"\): :\d+/\d+ exit_group\(\) +\= \?$", got.stderr, re.M), got.stderr


@pytest.mark.parametrize("timeout", ["0", "500"])
def test_live_proc_map_timeout(timeout):
    """--proc-map-timeout bounds the reading of a traced process's maps, as
    perf's: past it, perf's warning and no symbols beyond the map being
    read (0: only the first); within it, the libc frame resolves."""
    results = []
    for tool in (perf, pcl):
        proc = subprocess.Popen([sys.executable, "-c", "import os, time\n"
                                 "for _ in range(150):\n    os.getppid(); time.sleep(0.01)"])
        try:
            time.sleep(0.3)
            results.append(tool("trace", "-p", str(proc.pid), "--call-graph", "fp",
                                "--proc-map-timeout", timeout, "-e", "getppid"))
        finally:
            proc.kill()
            proc.wait()
        results[-1].stderr = results[-1].stderr.replace(str(proc.pid), "PID")
    want, got = results
    warning = ("Reading /proc/PID/task/PID/maps time out. You may want to "
               "increase the time limit by --proc-map-timeout\n")
    assert (warning in got.stderr) == (warning in want.stderr) == (timeout == "0"), got.stderr
    assert ("__GI___getppid (" in got.stderr) == ("__GI___getppid (" in want.stderr)


@pytest.mark.parametrize("expr", ["!openat,close", "!write,getpid", "open*,close"])
def test_live_expr_as_perf(expr):
    """A list that begins with '!' is negated whole, as perf's: the same
    calls are traced."""
    cmd = ["trace", "-e", expr, "--", "/bin/true"]
    want, got = perf(*cmd), pcl(*cmd)
    assert got.returncode == want.returncode == 0, got.stderr
    names = [re.findall(r"\): \S+ ([a-z_0-9]+)\(", r.stderr) for r in (want, got)]
    assert sorted(names[0]) == sorted(names[1]) and names[1], got.stderr


def verbose_notes(text):
    """-v's notes: what is not a line of the trace, nor a ring's size (pcl's
    rings are bigger than perf's)."""
    return [line for line in text.splitlines()
            if not line.startswith(" ") and not line.startswith("mmap size ")]


@pytest.mark.parametrize("args", [[], ["-e", "getpid,write"], ["-e", "!write,getpid"],
                                  ["--call-graph", "fp", "-e", "getpid"]],
                         ids=lambda a: " ".join(a) or "plain")
def test_live_verbose_notes(args):
    """-v live: perf's notes on the CPU, the module maps, its syscall
    filter, the call-graph mode and the kernel's symbols, in its order
    (pcl's rings are bigger than perf's: their size is left out)."""
    import bpf_progs
    cmd = ["trace", "-v", *args, "--", fixture("syscalls"), "1"]
    want, got = bpf_progs.while_programs_stay(lambda: perf(*cmd), lambda: pcl(*cmd))
    assert got.returncode == want.returncode == 0, got.stderr
    assert verbose_notes(got.stderr) == verbose_notes(want.stderr), \
        unified(want.stderr, got.stderr)


def test_live_verbose_notes_bpf_loaded():
    """-v live with other BPF programs loaded: perf's note for each of their
    functions as the kernel's symbols load, in address order, and none for
    pcl's own pathname reader (perf has no such program loaded)."""
    import bpf_progs
    cmd = ["trace", "-v", "--call-graph", "fp", "-e", "getpid", "--", fixture("syscalls"), "1"]
    with bpf_progs.some_loaded():
        want, got = bpf_progs.while_programs_stay(lambda: perf(*cmd), lambda: pcl(*cmd))
    assert got.returncode == want.returncode == 0, got.stderr
    assert verbose_notes(got.stderr) == verbose_notes(want.stderr), \
        unified(want.stderr, got.stderr)
    assert got.stderr.count('looking for "[bpf]" module!') >= 3, got.stderr
