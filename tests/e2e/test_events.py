"""The event grammar end to end: what `pcl stat -e X` makes of X, beside perf.

The grammar itself is unit-tested (tests/unit/test-parse-events.c); here the
error text and the event names are compared with perf 6.1 through `stat`.
"""
import re

import pytest

from conftest import pcl, perf

HAVE_STAT = "is not a pcl-command" not in pcl("stat", "-h").stderr
needs_stat = pytest.mark.skipif(not HAVE_STAT,
                                reason="pcl stat is not in this tree yet (it parses -e)")

BAD_EVENTS = [
    "foo", "cycles:z", "cycles:{k,u}", "cpu-clock:uz", "cpu-clock:pppp", "cpu-clock:uu",
    "cpu-clock/foo=1/", "cpu-clock/period=abc/", "cpu-clock/max-stack=2/",
    "cpu-clock/name=123/", "nopmu/event=1/", "msr/nosuch/", "msr/event=0x1,umask=3/",
    "software/event=1/", "msr/tsc/:u", "sched:nosuch", "nosys:*", "cpu-clock,sched:nosuch",
    "*:sched_switch", "sched*", "sched:sched_sw*,foo", "sched:sched_switch/foo=1/",
    "cpu-clock,,task-clock", "cpu-clock}", "{cpu-clock,task-clock}:uu", "{}", "", ",",
    "r", "rxyz", "mem:", "mem:0x1000:u,foo", "L1-dcache-foo", "branches-loads",
    "cpu-clock,task-clock,page-faults,minor-faults,major-faults,context-switches,foo",
]

GOOD_EVENTS = [
    "cpu-clock", "task-clock:u", "cpu-clock:ku", "cs", "faults", "duration_time",
    "msr/tsc/", "tsc", "msr/tsc/u", "r003c", "1:0", "mem:0x1000:rw", "mem:0x1000/8",
    "sched:sched_switch", "sched:sched_switch:u", "sched:sched_stat*",
    "L1-dcache-load-misses:u", "cpu-clock/period=1000/", "cpu-clock/name=foo/",
    "{cpu-clock,task-clock}:u", "mygroup{cpu-clock,page-faults}", "cycles u",
]


def error_block(text, tool):
    """From "event syntax error" down to the "Run '<tool> list'" line."""
    lines = text.splitlines()
    end = next((i for i, l in enumerate(lines) if l.startswith(f"Run '{tool} list'")), None)
    assert end is not None, text
    start = next((i for i, l in enumerate(lines) if l.startswith("event syntax error")), end)
    return "\n".join(lines[start:end + 1]).replace(f"'{tool} ", "'TOOL ")


@needs_stat
@pytest.mark.parametrize("event", BAD_EVENTS)
def test_bad_event_error_matches_perf(event):
    got = pcl("stat", "-e", event, "true")
    want = perf("stat", "-e", event, "true")
    assert got.returncode != 0 and want.returncode != 0
    assert error_block(got.stderr, "pcl") == error_block(want.stderr, "perf")


# globs that match nothing: no syntax error, but nothing to count (an empty
# group is left out with a warning); the whole stderr must be perf's
NOTHING_EVENTS = ["nosuch*:foo", "{nosuch*:foo}", "{nosuch*:foo}:", "{nosuch*:foo},cpu-clock",
                  "cpu-clock,{nosuch*:foo}:u", "g{sched:nosuch*}"]


@needs_stat
@pytest.mark.parametrize("event", NOTHING_EVENTS)
def test_events_matching_nothing_as_perf(event):
    got = pcl("stat", "-x", ";", "-e", event, "true")
    want = perf("stat", "-x", ";", "-e", event, "true")
    assert got.returncode == want.returncode
    # the warning has no newline: a counted event's row follows on its line
    def head(text):
        return re.sub(r"([0-9.]+|<not (counted|supported)>)$", "",
                      text.split("\n", 1)[0].split(";", 1)[0])
    assert head(got.stderr) == head(want.stderr).replace("perf", "pcl")
    assert names(got.stderr) == names(want.stderr)


def names(stderr):
    """Event names from `stat -x ;` rows: value;unit;event;..."""
    return [f[2] for f in (l.split(";") for l in stderr.splitlines()) if len(f) > 3]


@needs_stat
@pytest.mark.parametrize("event", GOOD_EVENTS)
def test_event_names_match_perf(event):
    got = pcl("stat", "-x", ";", "-e", event, "true")
    want = perf("stat", "-x", ";", "-e", event, "true")
    assert got.returncode == want.returncode == 0, got.stderr
    assert names(got.stderr) == names(want.stderr)
