"""pcl ftrace against perf ftrace 6.1.

Three kinds of checks:
- usage and option errors, compared with perf's text and statuses;
- the real kernel: what it refuses (a locked-down kernel answers EPERM on the ftrace control
  files and may lack function_graph), which pcl must name, file and reason, with perf's status,
  leaving tracefs as it found it; -F against available_filter_functions where it is readable;
- a fake tracefs (fake_tracefs.c, an LD_PRELOAD shim pointing tracefs opens at a directory):
  perf and pcl run the same options on the same made-up trace_pipe, and their output, their
  statuses and the values they wrote to each control file are compared.
"""
import errno
import os
import re
import shutil
import signal
import subprocess
import time

import pytest

from conftest import PCL, PERF, pcl, perf, run, unified

TRACEFS = "/sys/kernel/tracing"
HERE = os.path.dirname(os.path.abspath(__file__))

# perf's text for its own name, so that the two can be compared
def as_perf(text):
    return text.replace("pcl ftrace", "perf ftrace")


@pytest.mark.parametrize("args", [["-h"], ["latency", "-h"], ["trace", "-h"]],
                         ids=["trace", "latency", "trace-sub"])
def test_usage_matches_perf(args):
    want = perf("ftrace", *args)
    got = pcl("ftrace", *args)
    assert got.returncode == want.returncode == 129
    assert as_perf(got.stderr) == want.stderr, unified(want.stderr, got.stderr)
    assert got.stdout == want.stdout == ""


def test_listed_among_commands():
    assert "ftrace" in pcl("--list-cmds").stdout.split()


# Errors found before tracefs is touched: perf's words and statuses.
OPTION_ERRORS = [
    ["--bogus"],
    ["-D", "abc", "--", "true"],
    ["-m", "512B", "--", "true"],
    ["-m", "1X", "--", "true"],
    ["-m", "512", "--", "true"],
    ["--graph-opts", "foo", "--", "true"],
    ["--func-opts", "call-graph,bar", "--", "true"],
    ["latency", "--", "true"],
    ["latency", "-b", "-T", "foo", "--", "true"],
    ["-p", "1", "-a"],
    ["-p", "1", "-C", "0"],
]


@pytest.mark.parametrize("args", OPTION_ERRORS, ids=[" ".join(a) for a in OPTION_ERRORS])
def test_option_errors_match_perf(args, tracefs_kept):
    want = perf("ftrace", *args)
    got = pcl("ftrace", *args)
    assert got.returncode == want.returncode != 0
    assert as_perf(got.stderr) == want.stderr, unified(want.stderr, got.stderr)
    assert got.stdout == want.stdout == ""


def test_no_such_process_is_named(tracefs_kept):
    want = perf("ftrace", "-p", "99999999")
    got = pcl("ftrace", "-p", "99999999")
    # perf says nothing at all
    assert got.returncode == want.returncode == 255
    assert "99999999" in got.stderr


# ---------------------------------------------------------------------------------------
# The real kernel


def read_tracefs(name):
    with open(os.path.join(TRACEFS, name)) as f:
        return f.read()


def tracefs_errno(name, mode):
    """0 if name opens with mode ("r" or "w"), else the errno."""
    flags = os.O_RDONLY if mode == "r" else os.O_WRONLY | os.O_APPEND
    try:
        os.close(os.open(os.path.join(TRACEFS, name), flags))
        return 0
    except OSError as e:
        return e.errno


@pytest.fixture
def tracefs_kept():
    """Puts back what perf ftrace leaves changed (it ends with tracing_on at 0)."""
    if not os.path.exists(os.path.join(TRACEFS, "README")):
        yield None
        return
    saved = {name: read_tracefs(name).split()[0]
             for name in ("tracing_on", "current_tracer")}
    yield saved
    for name, value in saved.items():
        if read_tracefs(name).split()[0] != value:
            with open(os.path.join(TRACEFS, name), "w") as f:
                f.write(value + "\n")


def need_tracefs():
    if os.geteuid() != 0:
        pytest.skip("tracefs's ftrace files need root")
    if not os.path.exists(os.path.join(TRACEFS, "README")):
        pytest.skip("tracefs is not mounted at " + TRACEFS)


def test_locked_down_kernel_is_named(tracefs_kept):
    need_tracefs()
    err = tracefs_errno("set_ftrace_pid", "w")
    if err == 0:
        pytest.skip("set_ftrace_pid is writable: this kernel does not refuse ftrace")
    if "function" not in read_tracefs("available_tracers").split():
        pytest.skip("no function tracer on this kernel")
    want = perf("ftrace", "-t", "function", "--", "true")
    got = pcl("ftrace", "-t", "function", "--", "true")
    assert want.stderr == "failed to reset ftrace\n"
    assert got.returncode == want.returncode == 255
    lines = got.stderr.splitlines()
    assert lines[0] == "failed to reset ftrace"
    assert lines[1].startswith("pcl ftrace: cannot open /sys/kernel/tracing/set_ftrace_pid")
    assert os.strerror(err) in lines[1] and ("(%s)" % errno.errorcode[err]) in lines[1]
    if err == 1:
        assert "refuses function tracing" in got.stderr and "lockdown" in got.stderr
    assert got.stdout == ""


def test_tracefs_left_as_found(tracefs_kept):
    need_tracefs()
    before = {n: read_tracefs(n) for n in ("tracing_on", "current_tracer", "tracing_cpumask")}
    got = pcl("ftrace", "-t", "function", "--", "true")
    after = {n: read_tracefs(n) for n in before}
    assert after == before, got.stderr


def test_missing_function_graph_is_named(tracefs_kept):
    need_tracefs()
    tracers = read_tracefs("available_tracers").split()
    if "function_graph" in tracers:
        pytest.skip("this kernel has the function_graph tracer")
    for args in (["--", "true"], ["latency", "-T", "vfs_read", "--", "true"]):
        want = perf("ftrace", *args)
        got = pcl("ftrace", *args)
        assert got.returncode == want.returncode == 255, args
        assert "no function_graph tracer" in got.stderr
        assert "available_tracers: " + " ".join(tracers) in got.stderr
        assert "CONFIG_FUNCTION_GRAPH_TRACER" in got.stderr
        # the function tracer instead: said to be refused too where the kernel refuses it
        refused = args[0] == "--" and tracefs_errno("set_ftrace_pid", "w") == 1
        assert ("refused too" in got.stderr) == refused


def test_funcs_listing_or_its_refusal():
    need_tracefs()
    err = tracefs_errno("available_filter_functions", "r")
    want = perf("ftrace", "-F", "vfs_*")
    got = pcl("ftrace", "-F", "vfs_*")
    assert got.returncode == want.returncode
    if err:
        assert got.returncode == 129
        assert "/sys/kernel/tracing/available_filter_functions" in got.stderr
        assert os.strerror(err) in got.stderr
        return
    listed = [line for line in read_tracefs("available_filter_functions").splitlines()
              if line.startswith("vfs_")]
    assert got.stdout.splitlines() == listed
    assert got.stdout == want.stdout


def test_not_root_as_perf():
    if os.geteuid() != 0 or not shutil.which("setpriv"):
        pytest.skip("needs root and setpriv to run as another user")
    drop = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
    want = run(drop + [PERF, "ftrace", "--", "true"])
    got = run(drop + [PCL, "ftrace", "--", "true"])
    assert got.returncode == want.returncode == 255
    assert got.stderr == want.stderr
    # -F reads before any capability check: the file is root's
    want = run(drop + [PERF, "ftrace", "-F"])
    got = run(drop + [PCL, "ftrace", "-F"])
    assert got.returncode == want.returncode == 129
    assert "/sys/kernel/tracing/available_filter_functions" in got.stderr
    assert "run pcl ftrace as root" in got.stderr


# ---------------------------------------------------------------------------------------
# A fake tracefs, where everything runs

TRACE_HEADER = ("# tracer: function_graph\n#\n"
                "# CPU  DURATION                  FUNCTION CALLS\n"
                "# |     |   |                     |   |   |   |\n")


def graph_text():
    """function_graph lines with durations in every bucket, on two CPUs."""
    lines = []
    durations = [0.25, 0.9, 1.5, 3.2, 7.7, 15.2, 40.1, 120.5, 900.3, 1500.2, 5000.1,
                 70000.5, 2500000.0, 1.0, 2.0, 0.0]
    for i in range(320):
        d = durations[(i * 7) % len(durations)]
        mark = "  " if d < 10 else "+ " if d < 100 else "! " if d < 1000 else "# "
        lines.append(" %d) %s%7.3f us   |  vfs_read();\n" % (i % 2, mark, d))
    lines += [" 1)               |  vfs_read() {\n",
              " 1)   0.500 us    |    rw_verify_area();\n",
              " 1) + 12.345 us   |  }\n"]
    return "".join(lines)


@pytest.fixture(scope="module")
def shim(tmp_path_factory):
    need_tracefs()
    cc = shutil.which("cc") or shutil.which("gcc")
    if not cc:
        pytest.skip("no C compiler to build the fake tracefs shim")
    out = str(tmp_path_factory.mktemp("shim") / "fake_tracefs.so")
    subprocess.run([cc, "-shared", "-fPIC", "-o", out, os.path.join(HERE, "fake_tracefs.c"),
                    "-ldl"], check=True)
    return out


def make_fake(path):
    os.makedirs(os.path.join(path, "options"))
    files = {
        "available_tracers": "blk function_graph function nop\n",
        "current_tracer": "nop\n", "tracing_on": "1\n", "tracing_thresh": "0\n",
        "max_graph_depth": "0\n", "tracing_cpumask": "3\n",
        "buffer_size_kb": "7 (expanded: 1408)\n",
        "set_ftrace_pid": "", "set_ftrace_filter": "", "set_ftrace_notrace": "",
        "set_graph_function": "", "set_graph_notrace": "",
        "trace": TRACE_HEADER, "trace_pipe": graph_text(),
        "available_filter_functions": "vfs_read\nvfs_write\nksys_read\ndo_sys_open [ext4]\n",
    }
    for opt, value in (("function-fork", 0), ("func_stack_trace", 0), ("sleep-time", 1),
                       ("funcgraph-irqs", 1), ("funcgraph-proc", 0), ("funcgraph-abstime", 0),
                       ("latency-format", 0), ("irq-info", 0)):
        files["options/" + opt] = "%d\n" % value
    for name, text in files.items():
        with open(os.path.join(path, name), "w") as f:
            f.write(text)


def writes_of(path, pids=()):
    """The control-file writes logged by the shim, the workload's pid as PID."""
    try:
        with open(os.path.join(path, ".writes")) as f:
            text = f.read()
    except FileNotFoundError:
        return []
    for pid in pids:
        text = text.replace("\t%d\n" % pid, "\tPID\n")
    return text.splitlines()


def fake_run(tool, args, shim, tmp_path, deny=None, interrupt_after=None, extra_env=None):
    fake = str(tmp_path / os.path.basename(tool))
    make_fake(fake)
    # the sanitizer build wants its runtime first; the shim only wraps libc calls
    env = dict(os.environ, FAKE_TRACEFS=fake, LD_PRELOAD=shim,
               ASAN_OPTIONS=os.environ.get("ASAN_OPTIONS", "") + ":verify_asan_link_order=0",
               **(extra_env or {}))
    if deny:
        env["FAKE_TRACEFS_DENY"] = deny
    proc = subprocess.Popen([tool, "ftrace", *args], env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    if interrupt_after is not None:
        time.sleep(interrupt_after)
        proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=120)
    pids = [int(p) for p in re.findall(r"set_ftrace_pid\t(\d+)", open(
        os.path.join(fake, ".writes")).read())] if os.path.exists(
        os.path.join(fake, ".writes")) else []
    # perf (wrongly) starts a workload it has not got: one line of noise
    err = err.replace("unable to write to pipe: Bad file descriptor\n", "")
    return proc.returncode, out, err, writes_of(fake, pids)


def restores(perf_writes, pcl_writes):
    """pcl writes what perf writes, then puts back the values it found: the extra tail."""
    assert pcl_writes[:len(perf_writes)] == perf_writes, unified(
        "\n".join(perf_writes) + "\n", "\n".join(pcl_writes) + "\n")
    return pcl_writes[len(perf_writes):]


FAKE_RUNS = {
    "latency": (["latency", "-T", "vfs_read", "--", "sleep", "0.2"], ["tracing_on\t1"]),
    "latency-nsec": (["latency", "-n", "-T", "vfs_*", "--", "sleep", "0.2"],
                     ["tracing_on\t1"]),
    "graph-all-options": (["-G", "vfs_read", "-g", "schedule", "--graph-opts",
                           "depth=3,thresh=5,nosleep-time,noirqs,verbose", "-m", "4M",
                           "-D", "50", "--inherit", "--", "sleep", "0.2"],
                          ["buffer_size_kb\t1408", "tracing_on\t1"]),
    "function-cpus": (["-T", "vfs_read", "-N", "vfs_write", "--func-opts",
                       "call-graph,irq-info", "-C", "1", "--", "sleep", "0.2"],
                      ["tracing_on\t1"]),
    "function": (["-t", "function", "--", "sleep", "0.2"], ["tracing_on\t1"]),
    "default": (["--", "sleep", "0.2"], ["tracing_on\t1"]),
}


@pytest.mark.parametrize("name", list(FAKE_RUNS))
def test_fake_tracefs_matches_perf(name, shim, tmp_path):
    args, restored = FAKE_RUNS[name]
    want = fake_run(PERF, args, shim, tmp_path)
    got = fake_run(PCL, args, shim, tmp_path)
    assert got[0] == want[0] == 0, got[2]
    assert got[1] == want[1], unified(want[1], got[1])
    assert got[2] == want[2] == ""
    assert restores(want[3], got[3]) == restored
    if args[0] == "latency":
        assert got[1].startswith("#   DURATION     |      COUNT | GRAPH")
    else:
        assert got[1].startswith(TRACE_HEADER) and "vfs_read();" in got[1]


@pytest.mark.parametrize("args", [["-T", "vfs_read"], ["latency", "-T", "vfs_read", "-a"]],
                         ids=["trace", "latency"])
def test_fake_tracefs_until_sigint(args, shim, tmp_path):
    want = fake_run(PERF, args, shim, tmp_path, interrupt_after=1.0)
    got = fake_run(PCL, args, shim, tmp_path, interrupt_after=1.0)
    assert got[0] == want[0] == 0, got[2]
    assert got[1] == want[1], unified(want[1], got[1])
    assert got[2] == want[2] == ""
    # system-wide: every online CPU in the mask, no pid filter
    assert not any(w.startswith("+set_ftrace_pid") for w in got[3])
    assert restores(want[3], got[3]) == ["tracing_on\t1"]


def test_fake_tracefs_existing_pid(shim, tmp_path):
    sleeper = subprocess.Popen(["sleep", "60"])
    try:
        args = ["-G", "vfs_read", "-p", str(sleeper.pid)]
        want = fake_run(PERF, args, shim, tmp_path, interrupt_after=1.0)
        got = fake_run(PCL, args, shim, tmp_path, interrupt_after=1.0)
    finally:
        sleeper.kill()
        sleeper.wait()
    assert got[0] == want[0] == 0, got[2]
    assert got[1] == want[1]
    assert "+set_ftrace_pid\tPID" in got[3]
    assert restores(want[3], got[3]) == ["tracing_on\t1"]


@pytest.mark.parametrize("pattern", ["*read*", "!vfs_*", "vfs_*|ksys_*", "*ext4*"])
def test_fake_funcs_listing_matches_perf(pattern, shim, tmp_path):
    want = fake_run(PERF, ["-F", pattern], shim, tmp_path)
    got = fake_run(PCL, ["-F", pattern], shim, tmp_path)
    assert got[0] == want[0] == 0
    assert got[1] == want[1] != ""
    assert got[3] == want[3] == []


def test_fake_workload_exec_failure(shim, tmp_path):
    args = ["--", "/nonexistent/command"]
    want = fake_run(PERF, args, shim, tmp_path)
    got = fake_run(PCL, args, shim, tmp_path)
    assert got[0] == want[0] == 255
    assert got[2] == want[2] == "workload failed: No such file or directory\n"
    # perf may copy some trace before it notices; pcl waits for the exec's outcome
    assert got[1] == TRACE_HEADER and want[1].startswith(TRACE_HEADER)
    assert restores(want[3], got[3]) == ["tracing_on\t1"]


# A step the kernel refuses: perf's line, then pcl's file, errno and reason.
REFUSALS = {
    "no-graph-tracer": (["--", "true"], "current_tracer=function_graph:22",
                        "failed to set current_tracer to function_graph",
                        "cannot write 'function_graph' to /sys/kernel/tracing/current_tracer: "
                        "Invalid argument (EINVAL)", "no 'function_graph' tracer"),
    "filter-refused": (["-T", "vfs_read", "--", "true"], "set_ftrace_filter:1",
                       "failed to set tracing filters",
                       "cannot open /sys/kernel/tracing/set_ftrace_filter to write 'vfs_read': "
                       "Operation not permitted (EPERM)", "refuses function tracing"),
    "unknown-function": (["-T", "no_such_fn", "--", "true"], "set_ftrace_filter=no_such_fn:22",
                         "failed to set tracing filters",
                         "cannot write 'no_such_fn' to /sys/kernel/tracing/set_ftrace_filter",
                         "pcl ftrace -F lists them"),
    "pid-refused": (["--", "true"], "set_ftrace_pid:1", "failed to reset ftrace",
                    "cannot open /sys/kernel/tracing/set_ftrace_pid to write ' ': "
                    "Operation not permitted (EPERM)",
                    "refuses function tracing"),
    "buffer-size": (["-m", "1G", "--", "true"], "buffer_size_kb=1048576:12",
                    "failed to set tracing per-cpu buffer size",
                    "cannot write '1048576' to /sys/kernel/tracing/buffer_size_kb: "
                    "Cannot allocate memory (ENOMEM)", None),
    "busy": (["--", "true"], "current_tracer=function_graph:16",
             "failed to set current_tracer to function_graph",
             "Device or resource busy (EBUSY)", "Another user of ftrace"),
}


@pytest.mark.parametrize("name", list(REFUSALS))
def test_fake_refusals_are_named(name, shim, tmp_path):
    args, deny, perf_line, named, reason = REFUSALS[name]
    want = fake_run(PERF, args, shim, tmp_path, deny=deny)
    got = fake_run(PCL, args, shim, tmp_path, deny=deny)
    assert want[2] == perf_line + "\n"
    assert got[0] == want[0] == 255
    lines = got[2].splitlines()
    assert lines[0] == perf_line
    assert named in lines[1]
    if reason:
        assert reason in got[2]
    assert got[1] == want[1] == ""
    # whatever failed, tracefs is given back what it had
    assert got[3][-1] == "tracing_on\t1"


@pytest.mark.parametrize("sub", [[], ["latency"]], ids=["trace", "latency"])
def test_completion_options_match_perf(sub):
    # perf's common options (-p, --tid, -v, -a, -C) come from a parent table it leaves out
    want = perf("ftrace", *sub, "--list-opts")
    got = pcl("ftrace", *sub, "--list-opts")
    assert got.returncode == want.returncode == 130
    assert got.stdout == want.stdout


@pytest.mark.parametrize("items", ["\ttracer = foo\n", "\tbogus = 1\n",
                                   "\ttracer = function\n\tdepth = 2\n"],
                         ids=["bad-tracer", "unknown-key", "key-after-tracer"])
def test_config_errors_match_perf(items, tmp_path):
    config = tmp_path / "perfconfig"
    config.write_text("[ftrace]\n" + items)
    env = dict(os.environ, PERF_CONFIG=str(config))
    want = perf("ftrace", "-h", env=env)
    got = pcl("ftrace", "-h", env=env)
    assert got.returncode == want.returncode == 255
    assert got.stderr == want.stderr != ""


def test_config_tracer_is_used(shim, tmp_path):
    config = tmp_path / "perfconfig"
    config.write_text("[ftrace]\n\ttracer = function\n")
    args = ["--", "sleep", "0.2"]
    want = fake_run(PERF, args, shim, tmp_path, extra_env={"PERF_CONFIG": str(config)})
    got = fake_run(PCL, args, shim, tmp_path, extra_env={"PERF_CONFIG": str(config)})
    assert got[0] == want[0] == 0, got[2]
    assert got[1] == want[1]
    assert "current_tracer\tfunction" in got[3]
    assert restores(want[3], got[3]) == ["tracing_on\t1"]


def test_verbose_lines_as_perf_then_the_reason(tracefs_kept):
    need_tracefs()
    if tracefs_errno("set_ftrace_pid", "w") == 0:
        pytest.skip("set_ftrace_pid is writable: this kernel does not refuse ftrace")
    want = perf("ftrace", "-v", "-t", "function", "--", "true")
    got = pcl("ftrace", "-v", "-t", "function", "--", "true")
    assert got.returncode == want.returncode == 255
    # perf's debug lines and its message first, pcl's explanation after them
    assert got.stderr.startswith(want.stderr), unified(want.stderr, got.stderr)
    assert len(got.stderr.splitlines()) > len(want.stderr.splitlines())


@pytest.mark.parametrize("args", [["-v", "-T", "vfs_read", "--", "true"],
                                  ["-v", "-G", "vfs_read", "--", "true"]],
                         ids=["function", "function_graph"])
def test_fake_verbose_matches_perf(args, shim, tmp_path):
    want = fake_run(PERF, args, shim, tmp_path, deny="set_graph_notrace:2")
    got = fake_run(PCL, args, shim, tmp_path, deny="set_graph_notrace:2")
    assert got[0] == want[0] == 0
    assert got[2] == want[2] != ""
