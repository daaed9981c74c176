"""pcl bench against perf bench 6.1: the same layouts once the measured numbers (times, rates,
addresses, pids) are masked, the same statuses and messages, and plausible numbers.  Loop
counts are small so each case runs in a fraction of a second."""
import re

import pytest

from conftest import pcl, perf, unified

NUMBER = re.compile(r" *(?<![\w.])(?:\d+(?:\.\d+)?|inf)(?![\w])")
ADDRESS = re.compile(r"0x[0-9a-f]+")


def masked(text):
    """The layout without the measured values: pids, addresses and numbers become tokens
    (the spaces padding a number go with it: its width depends on its value)."""
    text = re.sub(r"PID \d+", "PID <pid>", text)
    text = ADDRESS.sub("<addr>", text)
    # the memory benchmarks' unit follows the rate measured (perf: bytes, KB, MB, GB)
    text = re.sub(r"d? (bytes|[KMG]B)/sec", " <rate unit>", text)
    return NUMBER.sub(" <n>", text).replace("perf", "pcl")


def same_layout(args):
    theirs, mine = perf("bench", *args), pcl("bench", *args)
    assert mine.returncode == theirs.returncode, mine.stderr
    assert masked(mine.stdout) == masked(theirs.stdout), \
        unified(masked(theirs.stdout), masked(mine.stdout))
    assert masked(mine.stderr) == masked(theirs.stderr), \
        unified(masked(theirs.stderr), masked(mine.stderr))
    return mine, theirs


def measured(text, unit):
    """The values printed before unit ("GB/sec", "usecs/op", ...)."""
    return [float(v) for v in re.findall(r"([\d.]+|inf) " + re.escape(unit), text)]


LISTINGS = [[], ["sched"], ["mem"], ["futex"], ["epoll"], ["internals"], ["numa"],
            ["breakpoint"], ["syscall"], ["bogus"], ["sched", "bogus"], ["mem", "nope"]]


@pytest.mark.parametrize("args", LISTINGS, ids=lambda a: " ".join(a) or "none")
def test_listings_and_unknown_names(args):
    mine, _ = same_layout(args)
    # byte-equal: nothing is measured here
    assert mine.stdout == perf("bench", *args).stdout.replace("perf bench", "pcl bench")


ERRORS = [["-f", "bogus", "sched", "pipe"], ["-r", "0", "sched", "pipe"], ["-s"], ["-h"],
          ["sched", "messaging", "--bogus"], ["sched", "messaging", "-h"],
          ["sched", "pipe", "-h"], ["syscall", "basic", "-x"], ["mem", "memcpy", "-h"],
          ["mem", "memset", "-c"], ["mem", "memcpy", "--cycles", "-s", "1KB"],
          ["mem", "memcpy", "-s", "0"], ["mem", "memset", "-s", "1k"],
          ["mem", "memcpy", "-f", "help"], ["mem", "memset", "-f", "nope"],
          ["futex", "hash", "-h"], ["futex", "wake", "-h"], ["futex", "wake", "--bogus"],
          ["futex", "wake-parallel", "-h"], ["futex", "requeue", "-h"],
          ["futex", "lock-pi", "-h"], ["mem", "find_bit", "-h"], ["mem", "find_bit", "x"],
          ["epoll", "wait", "-h"], ["epoll", "ctl", "-h"], ["breakpoint", "thread", "-h"],
          ["breakpoint", "enable", "-x"],
          ["-r", "1", "futex", "wake-parallel", "-t", "3", "-w", "2"]]


@pytest.mark.parametrize("args", ERRORS, ids=" ".join)
def test_errors_as_perf(args):
    same_layout(args)


def test_sched_messaging():
    mine, _ = same_layout(["sched", "messaging", "-g", "1", "-l", "5"])
    assert "# 1 groups == 40 processes run" in mine.stdout
    assert re.search(r"Total time: \d+\.\d{3} \[sec\]", mine.stdout)


@pytest.mark.parametrize("args", [["-p"], ["-t"], ["-p", "-t"]], ids=" ".join)
def test_sched_messaging_modes(args):
    mine, _ = same_layout(["sched", "messaging", "-g", "2", "-l", "3", *args])
    kind = "threads" if "-t" in args else "processes"
    assert f"# 2 groups == 80 {kind} run" in mine.stdout


@pytest.mark.parametrize("args", [[], ["-T"]], ids=lambda a: " ".join(a) or "processes")
def test_sched_pipe(args):
    mine, _ = same_layout(["sched", "pipe", "-l", "2000", *args])
    assert all(v > 0 for v in measured(mine.stdout, "usecs/op") + measured(mine.stdout,
                                                                            "ops/sec"))
    # the rates follow from the loops and the time, as perf computes them
    usecs = measured(mine.stdout, "usecs/op")[0]
    ops = measured(mine.stdout, "ops/sec")[0]
    assert abs(ops - 1e6 / usecs) <= 1 + 1e-3 * ops


def test_syscall_basic():
    mine, _ = same_layout(["syscall", "basic", "-l", "20000"])
    assert "# Executed 20000 getppid() calls" in mine.stdout
    assert measured(mine.stdout, "usecs/op")[0] > 0


@pytest.mark.parametrize("bench", ["memcpy", "memset"])
def test_mem_all_functions(bench):
    mine, _ = same_layout(["mem", bench, "-s", "64KB", "-l", "20"])
    # perf picks the unit by the rate (GB/sec, MB/sec on a busy machine)
    rates = [float(v) for v in re.findall(r"([\d.]+|inf) [KMG]?B/sec", mine.stdout)]
    assert len(rates) == mine.stdout.count("# function '") >= 1
    assert all(r > 0 for r in rates)
    # the value's field is right-aligned in perf's width
    assert all(line.index("GB/sec") == 16 for line in mine.stdout.splitlines()
               if line.endswith("GB/sec") and "inf" not in line and len(line) < 30)


@pytest.mark.parametrize("args", [["-f", "default"], ["-f", "x86-64-movsb"], ["-s", "1MB"]],
                         ids=" ".join)
def test_mem_options(args):
    same_layout(["mem", "memcpy", "-l", "2", *args])


@pytest.mark.parametrize("args", [["sched", "pipe", "-l", "500"],
                                  ["sched", "messaging", "-g", "1", "-l", "2"],
                                  ["syscall", "basic", "-l", "500"],
                                  ["mem", "memset", "-s", "4KB", "-l", "3"]], ids=" ".join)
def test_simple_format(args):
    mine, _ = same_layout(["-f", "simple", *args])
    assert "# Running" not in mine.stdout


def test_futex_hash_layout():
    # -r 0: the layout without the one-second minimum run (perf then reports zero rates)
    same_layout(["futex", "hash", "-r", "0", "-t", "2", "-f", "16"])
    same_layout(["futex", "hash", "-r", "0", "-t", "1", "-f", "1", "-S"])
    same_layout(["futex", "hash", "-r", "0", "-t", "2", "-s"])


@pytest.mark.parametrize("args", [["-t", "2"], ["-t", "2", "-s", "-S"], ["-t", "3", "-w", "2"]],
                         ids=" ".join)
def test_futex_wake(args):
    mine, _ = same_layout(["-r", "2", "futex", "wake", *args])
    summary = re.search(r"^Wokeup (\d+) of (\d+) threads in ([\d.]+) ms", mine.stdout, re.M)
    assert summary and summary[1] == summary[2] and float(summary[3]) > 0


def test_mem_find_bit():
    mine, _ = same_layout(["mem", "find_bit", "-i", "2", "-j", "3"])
    # every bitmap size from 1 to 2048 bits, each with 1, 2, 4, ... of its bits set
    assert mine.stdout.count(" operations ") == sum(n.bit_length() for n in
                                                     (1 << k for k in range(12)))


@pytest.mark.parametrize("args", [["-t", "4", "-w", "2"], ["-t", "2", "-w", "1", "-s"]],
                         ids=" ".join)
def test_futex_wake_parallel(args):
    mine, _ = same_layout(["-r", "2", "futex", "wake-parallel", *args])
    assert re.search(r"^Avg per-thread latency \(waking \d+/\d+ threads\) in [\d.]+ ms",
                     mine.stdout, re.M)


@pytest.mark.parametrize("args", [["-t", "4"], ["-t", "4", "-s"], ["-t", "4", "-B"],
                                  ["-t", "4", "-p", "-q", "2"]], ids=" ".join)
def test_futex_requeue(args):
    mine, _ = same_layout(["-r", "2", "futex", "requeue", *args])
    assert re.search(r"^Requeued 4 of 4 threads", mine.stdout, re.M)


@pytest.mark.parametrize("args", [["-t", "2"], ["-t", "2", "-M", "-s"]], ids=" ".join)
def test_futex_lock_pi_layout(args):
    same_layout(["futex", "lock-pi", "-r", "0", *args])


@pytest.mark.parametrize("args", [["wait", "-t", "2", "-f", "4"],
                                  ["wait", "-t", "1", "-f", "8", "-m", "-E"],
                                  ["wait", "-t", "2", "-f", "4", "-S"],
                                  ["ctl", "-t", "2", "-f", "4"]], ids=" ".join)
def test_epoll_layout(args):
    # -r 0: layout and work without the one-second minimum
    mine, _ = same_layout(["epoll", *args[:1], "-r", "0", *args[1:]])
    # perf pads the per-thread counts to four digits
    assert re.search(r"\[ (add: )?\d{4,} ops", mine.stdout)


@pytest.mark.parametrize("args", [["ctl", "-t", "1", "-f", "2", "-N", "9", "-v"],
                                  ["ctl", "-t", "2", "-f", "2", "-n", "-R", "-v"],
                                  ["wait", "-t", "1", "-f", "2", "-N", "2"]], ids=" ".join)
def test_epoll_nesting_and_notes(args):
    # -v notes (nesting, descriptor limit) and -N nesting, capped at 4 as perf caps it
    same_layout(["epoll", *args[:1], "-r", "0", *args[1:]])


@pytest.mark.parametrize("args", [["thread"], ["thread", "-t", "3", "-p", "2", "-b", "2"],
                                  ["enable", "-a", "1", "-p", "1"]], ids=" ".join)
def test_breakpoint(args):
    mine, _ = same_layout(["-r", "3", "breakpoint", *args])
    assert all(v > 0 for v in measured(mine.stdout, "usecs/op"))


NUMA_PROGRESS = re.compile(
    r"^ #  +\d+\.\d%  \[\d+\.\d mins\]"
    r"(?:(?: +\d+/\d+)+ +\[ *\d+/\d+ *\] l: *\d+-\d+ +\( *\d+\)(?: \[ *\d+\.\d%\])?"
    r"(?: \{\d+-\d+\})?(?: \( +\d+\.\ds (?:de-)?converged\))?)?$\n?", re.M)


def numa_masked(text):
    """numa mem's layout without its progress lines (\\r-led, read here as lines: one per
    wall-clock second the run crosses, so their number is timing's) and without the blank
    lines they displace."""
    return re.sub(r"\n\n+", "\n", masked(NUMA_PROGRESS.sub("", text)))


def numa_results(text):
    """metric -> value of the "main, value, unit, metric" lines."""
    return {m: float(v) for v, m in re.findall(r"^ main, +([-\d.]+|inf), \S+ +(\S+)$", text,
                                                re.M)}


def numa_same_layout(args):
    theirs, mine = perf("bench", *args), pcl("bench", *args)
    assert mine.returncode == theirs.returncode, mine.stderr
    assert numa_masked(mine.stdout) == numa_masked(theirs.stdout), \
        unified(numa_masked(theirs.stdout), numa_masked(mine.stdout))
    assert mine.stderr == theirs.stderr.replace("perf", "pcl")
    return mine


NUMA_ERRORS = [["-h"], ["--bogus"], ["extra"], ["-p", "abc"], ["-C", "5", "-l", "1"],
               ["-M", "3", "-l", "1"], ["-C", "0-7", "-l", "1"]]


@pytest.mark.parametrize("args", NUMA_ERRORS, ids=" ".join)
def test_numa_mem_errors_as_perf(args):
    numa_same_layout(["numa", "mem", *args])


# (processes, threads, MB options, loops): the data walked is then known to the byte
NUMA_LOOPS = [("1", "1", ["-P", "2"], 3), ("2", "1", ["-G", "2", "-P", "4", "-T", "1"], 4),
              ("1", "2", ["-P", "8", "-L", "4", "-T", "2"], 5),
              ("2", "2", ["-G", "0", "-P", "3", "-T", "1"], 2)]


@pytest.mark.parametrize("procs,threads,mem,loops", NUMA_LOOPS, ids=lambda v: str(v))
def test_numa_mem_loops(procs, threads, mem, loops):
    mine = numa_same_layout(["numa", "mem", "-p", procs, "-t", threads, "-l", str(loops),
                             *mem])
    res = numa_results(mine.stdout)
    sizes = dict(zip(mem[::2], map(float, mem[1::2])))
    per_loop = sum(sizes.get(o, 1.0 if o == "-G" else 0.0) for o in "-G -P -L -T".split())
    tasks = int(procs) * int(threads)
    assert f"# {tasks} task{'s' if tasks > 1 else ''} will execute" in mine.stdout
    assert f"#      {loops:5d}x" in mine.stdout
    assert res["data/thread"] == round(loops * per_loop * 2**20 / 1e9, 3)
    assert abs(res["data-total"] - tasks * res["data/thread"]) <= 0.0005 * (tasks + 1)
    assert res["runtime-min/thread"] <= res["runtime-avg/thread"] <= res["runtime-max/thread"]


@pytest.mark.parametrize("args", [["-q"], ["-q", "--no-serialize-startup", "-p", "2"],
                                  ["--no-serialize-startup", "-t", "2"],
                                  ["-R", "-Z", "-r", "-z", "-0", "-H", "1", "-u", "10"],
                                  ["--no-data_reads", "-B", "--no-init_random", "-H", "-1",
                                   "--no-data_rand_walk"],
                                  ["-C", "0", "-M", "0"], ["-C", "0_2,1x3", "-M", "0x2", "-p", "3"],
                                  ["-C", "1", "-M", "0", "-p", "2", "-t", "2"]], ids=" ".join)
def test_numa_mem_options(args):
    mine = numa_same_layout(["numa", "mem", "-l", "3", "-P", "2", *args])
    if "-q" in args:
        assert not re.search("^ main,", mine.stdout, re.M) and "GB data processed, total" in mine.stdout


def test_numa_mem_simple_format():
    mine = numa_same_layout(["-f", "simple", "numa", "mem", "-l", "2", "-P", "1"])
    assert "# Running 'numa/mem'" not in mine.stdout


@pytest.mark.parametrize("args", [["-p", "1", "-t", "2", "-P", "16"],
                                  ["-p", "2", "-t", "1", "-P", "4", "-c", "-m"],
                                  ["-p", "1", "-t", "2", "-P", "4", "-c"]], ids=" ".join)
def test_numa_mem_timed(args):
    """-s 1: a run for a second, its progress lines well formed, the rates consistent."""
    mine = numa_same_layout(["numa", "mem", "-s", "1", *args])
    res = numa_results(mine.stdout)
    tasks = int(args[1]) * int(args[3])
    assert abs(res["data-total"] - tasks * res["data/thread"]) <= 0.0005 * (tasks + 1)
    assert abs(res["total-speed"] - tasks * res["thread-speed"]) <= 0.0005 * (tasks + 1)
    assert res["data/thread"] > 0 and res["runtime-max/thread"] >= res["runtime-avg/thread"]
    if "-m" in args:
        assert res["NUMA-convergence-latency"] == res["runtime-max/thread"]


@pytest.mark.parametrize("args", [["-i", "20"], ["-s", "-i", "5"], ["-t", "-I", "2", "-M", "2"],
                                  ["-s", "-t", "-i", "3", "-I", "1", "-m", "2", "-M", "2"], ["-h"]],
                         ids=" ".join)
def test_internals_synthesize(args):
    """pcl's synthesis of its own process (-s) and of the machine's among 1..N threads
    (-t), in perf's layout.  perf warns on stderr when a maps file takes long to read on a
    loaded machine: only stdout is compared."""
    theirs = perf("bench", "internals", "synthesize", *args)
    mine = pcl("bench", "internals", "synthesize", *args)
    assert mine.returncode == theirs.returncode
    assert masked(mine.stdout) == masked(theirs.stdout), \
        unified(masked(theirs.stdout), masked(mine.stdout))
    if args != ["-h"]:
        assert all(v > 0 for v in measured(mine.stdout, "usec (+-"))
        events = [float(v) for v in re.findall(r"num\. events: ([\d.]+)", mine.stdout)]
        assert events and all(v >= 1 for v in events)
    else:
        assert masked(mine.stderr) == masked(theirs.stderr)


@pytest.mark.parametrize("args", [["-i", "2", "-m", "5", "-n", "5"],
                                  ["-i", "1", "-m", "3", "-n", "2", "-v"], ["-h"]],
                         ids=" ".join)
def test_internals_inject_build_id(args):
    """pcl inject -b and --buildid-all in a forked child on a made-up stream of COMM, MMAP2
    and sample records, in perf's layout; the DSO count (-v) is perf's too."""
    mine, theirs = same_layout(["internals", "inject-build-id", *args])
    if args != ["-h"]:
        assert all(v > 0 for v in measured(mine.stdout, "msec (+-"))
        assert re.findall(r"exited with \d+", mine.stderr) == \
            re.findall(r"exited with \d+", theirs.stderr)
        assert re.findall(r"Collected \d+ DSOs", mine.stderr) == \
            re.findall(r"Collected \d+ DSOs", theirs.stderr)


def test_internals_kallsyms_parse():
    # pcl's own kallsyms reader, timed as perf times its parser
    mine, _ = same_layout(["internals", "kallsyms-parse", "-i", "1"])
    assert float(re.search(r"took: ([\d.]+) ms", mine.stdout)[1]) > 0
    same_layout(["internals", "kallsyms-parse", "-h"])


@pytest.mark.parametrize("args", [[], ["-n", "3"], ["-e", "cpu-clock", "-n", "2"], ["-C", "0"],
                                  ["-p", "1"], ["-p", "1", "--per-thread"], ["-e", "bogus"]],
                         ids=lambda a: " ".join(a) or "dummy")
def test_internals_evlist_open_close(args):
    # pcl's event list life cycle; the counts of cpus, threads, events and fds are perf's
    mine, _ = same_layout(["internals", "evlist-open-close", "-i", "2", *args])
    if mine.returncode == 0:
        theirs = perf("bench", "internals", "evlist-open-close", "-i", "2", *args)
        counts = re.compile(r"^  Number of .*$", re.M)
        assert counts.findall(mine.stdout) == counts.findall(theirs.stdout)


def suite_prefix(tool, stop, timeout=300):
    """The output of `TOOL bench numa mem -a` up to and with the line holding stop, the run
    then ended: the suite's cases take their own run times (-s 20, ...) whatever the
    command line says, and all of them would take many minutes."""
    import os
    import signal
    import subprocess
    import threading
    from conftest import PCL, PERF

    proc = subprocess.Popen([{"perf": PERF, "pcl": PCL}[tool], "bench", "numa", "mem", "-a"],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                            start_new_session=True)
    lines = []

    def read():
        for line in proc.stdout:
            lines.append(line)
            if stop in line:
                return

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    reader.join(timeout)
    os.killpg(proc.pid, signal.SIGKILL)     # its own session: the suite's workers too
    proc.wait()
    assert lines and stop in lines[-1], "".join(lines)
    return "".join(lines)


def test_numa_mem_all_as_perf():
    """-a: perf's suite, its cases run one after another in perf's layout: the bandwidth
    ones, those this machine cannot bind ("Test not applicable, ..."), a convergence one.
    (Only the suite's start: its cases run 20 to 100 seconds each, as perf's.  perf and pcl
    run at the same time, which changes the numbers but not the lines.)"""
    from concurrent.futures import ThreadPoolExecutor

    stop = "# Running  1x4-convergence,"
    with ThreadPoolExecutor(2) as pool:
        theirs, mine = pool.map(lambda t: suite_prefix(t, stop), ["perf", "pcl"])
    assert numa_masked(mine) == numa_masked(theirs), \
        unified(numa_masked(theirs), numa_masked(mine))
    assert "# Running RAM-bw-local-NOTHP," in mine and "latency to NUMA-converge" in mine
    assert "Test not applicable" in mine
