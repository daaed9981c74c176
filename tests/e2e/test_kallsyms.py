"""pcl kallsyms against perf kallsyms 6.1 on the running kernel."""
import random

import pytest

from conftest import pcl, perf, unified


def kernel_symbol_names():
    """Every distinct name of /proc/kallsyms (module symbols by their name)."""
    with open("/proc/kallsyms") as f:
        names = {line.split()[2] for line in f if len(line.split()) >= 3}
    if not names or open("/proc/kallsyms").readline().startswith("0000000000000000"):
        pytest.skip("kallsyms hides the kernel's addresses")
    return sorted(names)


def test_sampled_names_match_perf():
    # A fixed sample: duplicated static names (first by address wins),
    # symbols sharing _text's address, init text past _etext, and data.
    names = kernel_symbol_names()
    picked = random.Random(20).sample(names, min(1500, len(names)))
    picked += ["_text", "_stext", "_etext", "startup_64", "init_once", "vfs_read",
               "jiffies", "no_such_symbol_anywhere"]
    want = perf("kallsyms", *picked)
    got = pcl("kallsyms", *picked)
    assert got.returncode == want.returncode == 0, got.stderr
    assert got.stdout == want.stdout, unified(want.stdout, got.stdout)


def test_verbose_matches_perf():
    want = perf("kallsyms", "-v", "vfs_read", "no_such_symbol_anywhere")
    got = pcl("kallsyms", "-v", "vfs_read", "no_such_symbol_anywhere")
    assert (got.returncode, got.stdout, got.stderr) == (want.returncode, want.stdout,
                                                        want.stderr)


def test_verbose_bpf_programs_as_perf():
    """-v with BPF programs loaded: a note per function of each (the
    "[bpf]" module has no map), in address order among the others, as
    perf's."""
    import bpf_progs
    cmd = ["kallsyms", "-v", "vfs_read"]
    with bpf_progs.some_loaded():
        want, got = bpf_progs.while_programs_stay(lambda: perf(*cmd), lambda: pcl(*cmd))
    assert got.returncode == want.returncode == 0, got.stderr
    assert got.stderr == want.stderr, unified(want.stderr, got.stderr)
    assert got.stderr.count('looking for "[bpf]" module!') >= 3, got.stderr


@pytest.mark.parametrize("args", [[], ["-x", "vfs_read"]], ids=["none", "unknown"])
def test_usage_matches_perf(args):
    want = perf("kallsyms", *args)
    got = pcl("kallsyms", *args)
    assert got.returncode == want.returncode == 129
    assert got.stdout == want.stdout
    assert got.stderr.replace("pcl", "perf") == want.stderr
