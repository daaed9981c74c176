/* dlfilter: perf script's --dlfilter shared objects, through perf's public
 * ABI (<perf/perf_dlfilter.h>): the object's start/stop/filter_event/
 * filter_event_early/filter_description, and the perf_dlfilter_fns table
 * it calls back (resolve_ip, resolve_addr, args, resolve_address, attr,
 * srcline, object_code).  insn answers nothing (no x86 length decoder
 * here); object_code reads user-space binaries only, as perf does when
 * there is no vmlinux. */
#ifndef PCL_DLFILTER_H
#define PCL_DLFILTER_H

#include <stdbool.h>
#include <stdio.h>

#include "core/symbols/machine.h"
#include "core/data/sample-filter.h"
#include "core/data/session.h"

struct dlfilter;

/* Where perf 6.1 (Debian) installs its dlfilters; "name.so" alone is
 * looked for there after the current directory. */
#define PERF_DLFILTER_DIR "/usr/lib/perf-core/dlfilters"

/* Opens file ("name.so" alone: the current directory or perf's), with the --dlarg
 * values.  NULL with perf's "dlopen failed for: '...'" printed to err. */
struct dlfilter *dlfilter__new(const char *file, int argc, char **argv, FILE *err);
/* Calls start() (if any): its return (0 ok). */
int dlfilter__start(struct dlfilter *d);
/* Calls stop() (if any, and asked) and unloads the object.  NULL is fine. */
int dlfilter__delete(struct dlfilter *d, bool stop);

/* Asks filter_event_early() (early: before pcl's filters) or
 * filter_event() about a sample.  1: drop it, 0: keep it, <0: error.
 * filter is used for resolve_ip()'s "filtered". */
int dlfilter__filter(struct dlfilter *d, bool early, struct perf_session *session,
		     const struct sample_filter *filter, struct evsel *evsel,
		     const struct perf_sample *sample);

/* --list-dlfilters: "  name.so   description" for each object in dir
 * that loads. */
void dlfilter__list(FILE *fp, const char *dir);

#endif
