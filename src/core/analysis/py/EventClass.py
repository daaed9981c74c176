# EventClass: sample objects for scripts of perf's Python interface that
# import it (stackcollapse.py, event_analyzing_sample.py) -- pcl's own
# implementation of that module's API.  A raw buffer of PEBS size is
# decoded into the registers (and load-latency fields) it holds.
import struct

EVTYPE_GENERIC = 0
EVTYPE_PEBS = 1       # PEBS record: flags, ip and eight registers
EVTYPE_PEBS_LL = 2    # PEBS record with load latency
EVTYPE_IBS = 3

PEBS_SIZE = 144
PEBS_LL_SIZE = 176


def create_event(name, comm, dso, symbol, raw_buf):
    kind = {PEBS_SIZE: PebsEvent, PEBS_LL_SIZE: PebsNHM}.get(len(raw_buf), PerfEvent)
    return kind(name, comm, dso, symbol, raw_buf)


class PerfEvent(object):
    event_num = 0

    def __init__(self, name, comm, dso, symbol, raw_buf, ev_type=EVTYPE_GENERIC):
        self.name = name
        self.comm = comm
        self.dso = dso
        self.symbol = symbol
        self.raw_buf = raw_buf
        self.ev_type = ev_type
        PerfEvent.event_num += 1

    def show(self):
        print("PMU event: name=%12s, symbol=%24s, comm=%8s, dso=%12s" %
              (self.name, self.symbol, self.comm, self.dso))


class PebsEvent(PerfEvent):
    pebs_num = 0
    REGS = ('flags', 'ip', 'ax', 'bx', 'cx', 'dx', 'si', 'di', 'bp', 'sp')

    def __init__(self, name, comm, dso, symbol, raw_buf, ev_type=EVTYPE_PEBS):
        values = struct.unpack('10Q', raw_buf[:8 * len(self.REGS)])
        for reg, value in zip(self.REGS, values):
            setattr(self, reg, value)
        PerfEvent.__init__(self, name, comm, dso, symbol, raw_buf, ev_type)
        PebsEvent.pebs_num += 1


class PebsNHM(PebsEvent):
    pebs_nhm_num = 0

    def __init__(self, name, comm, dso, symbol, raw_buf, ev_type=EVTYPE_PEBS_LL):
        self.status, self.dla, self.dse, self.lat = \
            struct.unpack('4Q', raw_buf[PEBS_SIZE:PEBS_LL_SIZE])
        PebsEvent.__init__(self, name, comm, dso, symbol, raw_buf, ev_type)
        PebsNHM.pebs_nhm_num += 1
