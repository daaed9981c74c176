# Core: the helpers scripts for perf's Python interface import with
# "from Core import *" -- pcl's own implementation of that module's API.
# pcl script hands each tracepoint's __print_flags/__print_symbolic tables
# over through define_*() before the first sample of the event.
from collections import defaultdict


def autodict():
    """A dict whose missing keys become autodicts: d[a][b][c] = v works."""
    return defaultdict(autodict)


flag_fields = autodict()
symbolic_fields = autodict()


def define_flag_field(event_name, field_name, delim):
    flag_fields[event_name][field_name]['delim'] = delim


def define_flag_value(event_name, field_name, value, field_str):
    flag_fields[event_name][field_name]['values'][value] = field_str


def define_symbolic_field(event_name, field_name):
    pass    # the values say it all


def define_symbolic_value(event_name, field_name, value, field_str):
    symbolic_fields[event_name][field_name]['values'][value] = field_str


def _join_flags(names, value, delim):
    """The names of the bits set in value, lowest first, joined by delim;
    the name of 0 when value is 0."""
    words = []
    for bits in sorted(names):
        if bits == 0:
            if value == 0:
                return names[bits]
            continue
        if value & bits == bits:
            words.append(names[bits])
            value &= ~bits
    return (" %s " % delim if delim else "").join(words)


def flag_str(event_name, field_name, value):
    table = flag_fields[event_name][field_name]
    if not table:
        return ""
    return _join_flags(table['values'], value, table['delim'])


def symbol_str(event_name, field_name, value):
    table = symbolic_fields[event_name][field_name]
    if not table:
        return ""
    for key in sorted(table['values']):
        if key == value:
            return table['values'][key]
    return ""


trace_flags = {0x00: "NONE", 0x01: "IRQS_OFF", 0x02: "IRQS_NOSUPPORT",
               0x04: "NEED_RESCHED", 0x08: "HARDIRQ", 0x10: "SOFTIRQ"}


def trace_flag_str(value):
    return _join_flags(trace_flags, value, "|")


def taskState(state):
    return {0: "R", 1: "S", 2: "D", 64: "DEAD"}.get(state, "Unknown")


class EventHeaders:
    """The common_* arguments of a tracepoint handler, kept together."""

    def __init__(self, common_cpu, common_secs, common_nsecs,
                 common_pid, common_comm, common_callchain):
        self.cpu = common_cpu
        self.secs = common_secs
        self.nsecs = common_nsecs
        self.pid = common_pid
        self.comm = common_comm
        self.callchain = common_callchain

    def ts(self):
        return self.secs * 1000000000 + self.nsecs

    def ts_format(self):
        return "%d.%d" % (self.secs, int(self.nsecs / 1000))
