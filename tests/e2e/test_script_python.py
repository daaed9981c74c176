"""pcl script -s FILE.py and -g python: scripts written for perf's Python
interface, run by perf 6.1 and by pcl on the same recordings, print the
same bytes."""
import os
import re
import shutil
import subprocess
import tempfile

import pytest

from conftest import PCL, PERF, fixture, perf, unified
from perfdata_branches import add_branch_stacks

SCHED_EVENTS = ["-e", "sched:sched_switch", "-e", "sched:sched_wakeup",
                "-e", "sched:sched_process_exec", "-e", "sched:sched_process_exit",
                "-e", "syscalls:sys_enter_write", "-e", "syscalls:sys_enter_openat",
                # print formats with __print_flags and __print_symbolic
                "-e", "kmem:kmalloc", "-e", "irq:softirq_entry"]

# one handler per event, taking perf_sample_dict or not, with the fields'
# types and perf_trace_context's readers of the common fields
HANDLERS = r'''
import os, sys
sys.path.append(os.environ['PERF_EXEC_PATH'] + '/scripts/python/Perf-Trace-Util/lib/Perf/Trace')
from perf_trace_context import *
from Core import *

def sched__sched_switch(event_name, context, common_cpu, common_secs, common_nsecs,
                        common_pid, common_comm, common_callchain, prev_comm, prev_pid,
                        prev_prio, prev_state, next_comm, next_pid, next_prio):
    print(event_name, common_cpu, common_secs, common_nsecs, common_pid, common_comm,
          common_callchain, prev_comm, prev_pid, prev_prio,
          flag_str("sched__sched_switch", "prev_state", prev_state), next_comm, next_pid,
          next_prio, common_pc(context), common_flags(context), common_lock_depth(context))

def sched__sched_wakeup(event_name, context, common_cpu, common_secs, common_nsecs,
                        common_pid, common_comm, common_callchain, comm, pid, prio,
                        target_cpu, perf_sample_dict):
    s = perf_sample_dict['sample']
    print(event_name, common_comm, comm, pid, prio, target_cpu, s['pid'], s['tid'],
          s['cpu'], s['time'], s['period'], perf_sample_dict['ev_name'],
          perf_sample_dict['comm'], len(perf_sample_dict['raw_buf']))

def sched__sched_process_exec(event_name, context, *args):
    print(event_name, [(type(a).__name__, a) for a in args])

def syscalls__sys_enter_write(event_name, context, common_cpu, common_secs, common_nsecs,
                              common_pid, common_comm, common_callchain, __syscall_nr,
                              fd, buf, count, perf_sample_dict):
    print(event_name, common_comm, __syscall_nr, fd, count, type(buf).__name__,
          sorted(perf_sample_dict['sample']))
'''

UNHANDLED = r'''
n = 0
def sched__sched_switch(*args):
    global n
    n += 1

def trace_unhandled(event_name, context, event_fields_dict, perf_sample_dict):
    print(event_name, sorted(event_fields_dict.items()))
    print(' ', sorted((k, v) for k, v in perf_sample_dict.items() if k not in ('sample', 'attr')))

def trace_end():
    print("switches:", n)
'''

PROCESS_EVENT = r'''
def process_event(param_dict):
    s = param_dict['sample']
    print(param_dict['ev_name'], param_dict['comm'], s['pid'], s['tid'], s['time'], s['period'],
          hex(s['ip']), param_dict.get('dso'), param_dict.get('symbol'), param_dict.get('symoff'))
    for node in param_dict['callchain']:
        sym = node.get('sym')
        print('   ', hex(node['ip']),
              sym and (sym['name'], sym['binding'], sym['end'] - sym['start']),
              node.get('sym_off'), node.get('dso'))
'''

# everything perf hands over, as Python shows it (the capsule's address aside)
REPR = r'''
def process_event(param_dict):
    print(repr(param_dict))

def trace_unhandled(event_name, context, event_fields_dict, perf_sample_dict):
    print(event_name, repr(event_fields_dict), repr(perf_sample_dict))
'''

BEGIN_END = r'''
import sys
from collections import Counter
counts = Counter()

def trace_begin():
    print("begin", sys.argv[1:])

def trace_unhandled(event_name, context, event_fields_dict, perf_sample_dict):
    counts[event_name] += 1

def process_event(param_dict):
    counts[param_dict['ev_name']] += 1

def trace_end():
    for name, n in sorted(counts.items()):
        print("%-40s %6d" % (name, n))
'''

EVENT_CLASS = r'''
import os, sys, struct
sys.path.append(os.environ['PERF_EXEC_PATH'] + '/scripts/python/Perf-Trace-Util/lib/Perf/Trace')
from EventClass import *

def trace_begin():
    regs = struct.pack('10Q', *range(1, 11))
    for buf in (b'', regs + bytes(64), regs + bytes(64) + struct.pack('4Q', 7, 8, 9, 10)):
        e = create_event("ev", "comm", "dso", "sym", buf)
        print(type(e).__name__, e.ev_type, getattr(e, 'sp', None), getattr(e, 'lat', None))
        e.show()
    print(PerfEvent.event_num, PebsEvent.pebs_num, PebsNHM.pebs_nhm_num)

def process_event(param_dict):
    create_event(param_dict['ev_name'], param_dict['comm'], param_dict.get('dso'),
                 param_dict.get('symbol'), param_dict['raw_buf']).show()
'''

# perf_trace_context's readers of the sample: instruction bytes, source
# line and code (user space only), itrace options (taken once)
CONTEXT = r'''
from perf_trace_context import *

def process_event(d):
    print(repr(perf_sample_insn(perf_script_context)), perf_sample_srcline(perf_script_context),
          perf_sample_srccode(perf_script_context),
          perf_set_itrace_options(perf_script_context, "i"))

def trace_unhandled(event_name, context, event_fields_dict, perf_sample_dict):
    print(event_name, repr(perf_sample_insn(context)), perf_sample_srcline(context),
          perf_sample_srccode(context))
'''

SWITCH = r'''
samples = 0

def context_switch(ts, cpu, pid, tid, np_pid, np_tid, machine_pid, out, out_preempt, *x):
    print(ts, cpu, pid, tid, np_pid, np_tid, machine_pid, out, out_preempt, x)

def process_event(param_dict):
    global samples
    samples += 1

def trace_end():
    print("samples:", samples)
'''

UTIL = r'''
import os, sys
sys.path.append(os.environ['PERF_EXEC_PATH'] + '/scripts/python/Perf-Trace-Util/lib/Perf/Trace')
from Util import *
from Core import *

def trace_begin():
    print(nsecs(3, 14), nsecs_secs(3000000014), nsecs_nsecs(3000000014))
    print(nsecs_str(3000000014), nsecs_str(123456789012))
    print(avg(7, 2), strerror(-2), strerror(2), strerror(99999))
    print(syscall_name(1), FUTEX_CMD_MASK, NSECS_PER_SEC)
    stats = {}
    for v in (5, 3, 9, 4):
        add_stats(stats, "k", v)
    print(stats)
    print(trace_flag_str(0), trace_flag_str(0x0b), taskState(2), taskState(5))
    h = EventHeaders(1, 2, 3456789, 4, "comm", [])
    print(h.ts(), h.ts_format())
    d = autodict()
    d['a']['b']['c'] = 1
    print(d['a']['b']['c'], symbol_str("x", "y", 1), flag_str("x", "y", 1))

first = {}
def trace_unhandled(event_name, context, event_fields_dict, perf_sample_dict):
    t = nsecs(event_fields_dict['common_s'], event_fields_dict['common_ns'])
    first.setdefault(event_name, t)
    print(nsecs_str(t), nsecs_str(t - first[event_name]))
'''


@pytest.fixture(scope="module")
def files():
    d = tempfile.mkdtemp(prefix="pcl-pyscript-")
    work = fixture("script_work")

    def record(name, args, workload):
        path = os.path.join(d, name + ".data")
        r = perf("record", "-q", "-o", path, *args, "--", *workload)
        assert r.returncode == 0, r.stderr
        return path

    out = {
        "sched": record("sched", SCHED_EVENTS + ["-c", "1"],
                        ["sh", "-c", f"{work} 20; sleep 0.01; {work} 10"]),
        # call chains on tracepoints: common_callchain and perf_sample_dict's
        "sched_g": record("sched_g", ["-g"] + SCHED_EVENTS[:12],
                          ["sh", "-c", f"{work} 5; sleep 0.01"]),
        "sys": record("sys", ["-e", "raw_syscalls:sys_enter", "-e", "raw_syscalls:sys_exit"],
                      [work, "20"]),
        "switch": record("switch", ["--switch-events", "-e", "cpu-clock", "-c", "200000"],
                         ["sh", "-c", f"{work} 20; sleep 0.01"]),
        "cpu": record("cpu", ["-g", "-e", "cpu-clock", "-c", "100000"],
                      [fixture("flame"), "cpu", "100"]),
        # page faults: the data address resolved (addr_correlates_sym)
        "faults": record("faults", ["-d", "-e", "page-faults", "-c", "1"], [work, "5"]),
        # iregs/uregs
        "regs": record("regs", ["--user-regs=AX,BX,IP", "-I", "-e", "cpu-clock", "-c", "200000"],
                       [fixture("flame"), "cpu", "30"]),
        "dir": d,
    }
    # brstack/brstacksym: made-up branch stacks of every kind on the cpu recording
    out["branches"] = os.path.join(d, "branches.data")
    add_branch_stacks(out["cpu"], out["branches"], every_type=True)
    for name, text in [("handlers", HANDLERS), ("unhandled", UNHANDLED),
                       ("process_event", PROCESS_EVENT), ("repr", REPR),
                       ("begin_end", BEGIN_END), ("util", UTIL),
                       ("event_class", EVENT_CLASS), ("switch", SWITCH),
                       ("context", CONTEXT)]:
        with open(os.path.join(d, name + ".py"), "w") as f:
            f.write(text)
    yield out
    shutil.rmtree(d, ignore_errors=True)


def run_both(files, script, data, *args, cwd=None):
    """perf's and pcl's stdout of -s script on a recording; both exit 0."""
    path = os.path.join(files["dir"], script)
    res = []
    for tool in (PERF, PCL):
        r = subprocess.run([tool, "script", "-s", path, "-i", files[data], *args],
                           capture_output=True, text=True, timeout=300, cwd=cwd)
        assert r.returncode == 0, (tool, r.stderr)
        res.append(r.stdout)
    return res


def assert_same(want, got, what):
    assert want == got, f"{what}: perf and pcl differ\n" + unified(want, got)


@pytest.mark.parametrize("script,data", [
    ("handlers.py", "sched"), ("unhandled.py", "sched"), ("process_event.py", "cpu"),
    ("begin_end.py", "sched"), ("begin_end.py", "cpu"), ("util.py", "sched"),
    ("handlers.py", "sched_g"), ("event_class.py", "cpu"), ("switch.py", "switch"),
    ("context.py", "regs"), ("context.py", "sched"),
])
def test_script_prints_what_perf_prints(files, script, data):
    want, got = run_both(files, script, data, "arg1", "arg 2")
    assert want.strip()
    assert_same(want, got, f"-s {script} on {data}")


NO_LINES = r"""
static volatile unsigned long x;
static void __attribute__((noinline)) spin_local(void)
{ for (unsigned long i = 0; i < 60000000; i++) x += i; }
void __attribute__((noinline)) spin_global(void)
{ for (unsigned long i = 0; i < 60000000; i++) x ^= i; }
int main(void) { spin_local(); spin_global(); return 0; }
"""


def test_source_of_functions_without_line_rows(files, tmp_path):
    """A program built without -g: addr2line names a local function's
    STT_FILE and line 0 ("nolines.c:?"), a global one "??:?"; perf hands
    both to the script as (file, 0), not None."""
    exe = str(tmp_path / "nolines")
    (tmp_path / "nolines.c").write_text(NO_LINES)
    subprocess.run(["gcc", "-O1", str(tmp_path / "nolines.c"), "-o", exe], check=True)
    data = str(tmp_path / "nolines.data")
    r = perf("record", "-q", "-o", data, "-e", "cpu-clock", "-c", "1000000", "--", exe)
    assert r.returncode == 0, r.stderr
    want, got = run_both(dict(files, nolines=data), "context.py", "nolines")
    assert "('??', 0)" in want and "('nolines.c', 0)" in want, want
    assert_same(want, got, "-s context.py on functions without line rows")


@pytest.mark.parametrize("data", ["sched", "sched_g", "cpu", "branches", "regs", "faults"])
def test_every_argument_as_perf_hands_it(files, data):
    def capsule(text):
        return re.sub(r"capsule object NULL at 0x[0-9a-f]+", "capsule", text)
    want, got = run_both(files, "repr.py", data)
    assert want.strip()
    assert_same(capsule(want), capsule(got), f"repr of everything on {data}")


def test_filters_apply_to_scripts(files):
    want, got = run_both(files, "begin_end.py", "sched", "--comms", "sh", "-C", "0")
    assert_same(want, got, "-s with --comms and -C")


@pytest.mark.parametrize("args", [["-G"], ["--max-stack", "2"], ["--max-stack", "0"]],
                         ids=" ".join)
def test_call_chain_options(files, args):
    want, got = run_both(files, "process_event.py", "cpu", *args)
    assert_same(want, got, f"-s with {' '.join(args)}")


def test_generated_script(files, tmp_path):
    """-g python writes a skeleton with perf's handlers (same names and
    arguments) that prints what perf's own skeleton prints."""
    gen = {}
    for tool in (PERF, PCL):
        d = tmp_path / os.path.basename(tool)
        d.mkdir()
        r = subprocess.run([tool, "script", "-g", "python", "-i", files["sched"]], cwd=d,
                           capture_output=True, text=True, timeout=120)
        assert r.returncode == 0, r.stderr
        assert r.stderr == "generated Python script: perf-script.py\n"
        gen[tool] = str(d / "perf-script.py")

    def signatures(path):
        text = re.sub(r"\s+", " ", open(path).read())
        return re.findall(r"def (\w+)\(([^)]*)\)", text)
    assert signatures(gen[PCL]) == signatures(gen[PERF])
    out = []
    for tool, script in ((PERF, gen[PERF]), (PCL, gen[PCL])):
        r = subprocess.run([tool, "script", "-s", script, "-i", files["sched"]],
                           capture_output=True, text=True, timeout=300)
        assert r.returncode == 0, r.stderr
        out.append(r.stdout)
    assert_same(out[0], out[1], "the generated scripts' output")


def test_missing_script(files):
    want = perf("script", "-s", "/nonexistent/x.py", "-i", files["sched"])
    got = subprocess.run([PCL, "script", "-s", "/nonexistent/x.py", "-i", files["sched"]],
                         capture_output=True, text=True, timeout=60)
    assert (got.returncode, got.stderr) == (want.returncode, want.stderr)


def test_handler_error_stops(files, tmp_path):
    script = tmp_path / "bad.py"
    script.write_text("def process_event(d):\n    raise ValueError('boom')\n")
    r = subprocess.run([PCL, "script", "-s", str(script), "-i", files["cpu"]],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode != 0
    assert "ValueError: boom" in r.stderr


def test_script_syntax_error(files, tmp_path):
    script = tmp_path / "syntax.py"
    script.write_text("def process_event(d)\n")
    r = subprocess.run([PCL, "script", "-s", str(script), "-i", files["cpu"]],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 255
    assert "SyntaxError" in r.stderr and "Error running python script" in r.stderr


def test_unknown_extension(files):
    want = perf("script", "-s", "x.rb", "-i", files["sched"])
    got = subprocess.run([PCL, "script", "-s", "x.rb", "-i", files["sched"]],
                         capture_output=True, text=True, timeout=60)
    assert got.returncode == want.returncode == 129
    assert got.stderr.split("\n")[0] == want.stderr.split("\n")[0] == "invalid script extension"


PERF_SCRIPTS = "/usr/lib/perf-core/scripts/python"


@pytest.mark.parametrize("script,data,args", [
    ("stackcollapse.py", "cpu", []),
    ("stackcollapse.py", "cpu", ["--", "--include-tid", "--tidy-java"]),
    ("syscall-counts.py", "sys", []), ("syscall-counts-by-pid.py", "sys", []),
    ("failed-syscalls-by-pid.py", "sys", []),
    ("futex-contention.py", "sys", []),
])
def test_perfs_own_scripts(files, script, data, args):
    """The scripts Debian's perf ships run under pcl as under perf (not
    sctop.py: its printing thread races with the samples)."""
    path = os.path.join(PERF_SCRIPTS, script)
    if not os.path.exists(path):
        pytest.skip("perf's scripts are not installed")
    out = []
    for tool in (PERF, PCL):
        r = subprocess.run([tool, "script", "-s", path, "-i", files[data], *args],
                           capture_output=True, text=True, timeout=300)
        assert r.returncode == 0, (tool, r.stderr)
        out.append(r.stdout)
    assert_same(out[0], out[1], script)


def test_perfs_flamegraph_script(files, tmp_path):
    path = os.path.join(PERF_SCRIPTS, "flamegraph.py")
    if not os.path.exists(path):
        pytest.skip("perf's scripts are not installed")
    out = []
    for tool in (PERF, PCL):
        dest = str(tmp_path / (os.path.basename(tool) + ".json"))
        r = subprocess.run([tool, "script", "-s", path, "-i", files["cpu"], "--",
                            "--format", "json", "-o", dest],
                           capture_output=True, text=True, timeout=300)
        assert r.returncode == 0, (tool, r.stderr)
        out.append(open(dest).read())
    assert out[0] and out[0] == out[1]
