/* pmu: the kernel's performance monitoring units as sysfs describes them.
 *
 * /sys/bus/event_source/devices/NAME/ holds, for each PMU, its attr.type
 * ("type"), how named terms map onto attr bits ("format/TERM" such as
 * "config:0-7,21"), and named events ("events/ALIAS" holding terms like
 * "event=0x3c,umask=0x00", with optional ALIAS.unit and ALIAS.scale).
 * The PMUs are read once, on first use, and live until pmus__exit().
 */
#ifndef PCL_PMU_H
#define PCL_PMU_H

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stdint.h>

struct pmu_format {
	char *name;
	int field;		/* 0: config, 1: config1, 2: config2 */
	uint64_t mask;		/* the attr bits the value is spread over, low first */
};

struct pmu_alias {
	char *name;
	char *terms;		/* "event=0x3c,umask=0x00" */
	char *unit;		/* from ALIAS.unit, or NULL */
	double scale;		/* from ALIAS.scale, 1.0 when absent */
};

struct pmu {
	char *name;
	uint32_t type;
	struct pmu_format *formats;	/* in sysfs directory order */
	int nr_formats;
	struct pmu_alias *aliases;	/* sorted by name */
	int nr_aliases;
	bool is_core;			/* "cpu" or a cpu_* hybrid core PMU */
};

/* Every PMU in sysfs directory order; sets *nr. */
const struct pmu *pmus__all(int *nr);
const struct pmu *pmus__find(const char *name);
/* Reads sysfs again on next use (tests point it elsewhere first). */
void pmus__exit(void);
/* Test hook: read PMUs from ROOT/bus/event_source/devices instead of /sys. */
void pmus__set_sysfs_root(const char *root);

const struct pmu_format *pmu__find_format(const struct pmu *pmu, const char *name);
const struct pmu_alias *pmu__find_alias(const struct pmu *pmu, const char *name);

/* How perf lists a sysfs event: "msr/tsc/", with any "term=?" parameters
 * the event needs ("pmu/ev,ch_mask=?/").  Caller frees. */
char *pmu_alias__slashed_name(const struct pmu *pmu, const struct pmu_alias *alias);

/* Largest value a format can hold. */
uint64_t pmu_format__max_value(const struct pmu_format *fmt);
/* ORs value into the attr field the format describes. */
void pmu_format__apply(const struct pmu_format *fmt, uint64_t value,
		       struct perf_event_attr *attr);

#endif
