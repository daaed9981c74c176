/* event-names: the symbolic names of the kernel's generic events (hardware,
 * software, hardware cache), pcl's tool events, and the reverse mapping from
 * an attr back to the name perf would print for it. */
#ifndef PCL_EVENT_NAMES_H
#define PCL_EVENT_NAMES_H

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/events/evsel.h"

struct event_symbol {
	const char *symbol;	/* the name perf lists first */
	const char *alias;	/* "" when there is none */
};

/* Indexed by attr.config. */
extern const struct event_symbol hw_event_symbols[PERF_COUNT_HW_MAX];
extern const struct event_symbol sw_event_symbols[PERF_COUNT_SW_MAX];

#define TOOL_EVENT_MAX (TOOL_SYSTEM_TIME + 1)
/* Indexed by enum tool_event; [TOOL_NONE] is NULL. */
extern const char *const tool_event_names[TOOL_EVENT_MAX];

/* Hardware cache spellings: [id][0] is the canonical one, then aliases (NULL-ended). */
#define HW_CACHE_ALIASES 5
extern const char *const hw_cache_names[PERF_COUNT_HW_CACHE_MAX][HW_CACHE_ALIASES];
extern const char *const hw_cache_op_names[PERF_COUNT_HW_CACHE_OP_MAX][HW_CACHE_ALIASES];
extern const char *const hw_cache_result_names[PERF_COUNT_HW_CACHE_RESULT_MAX][HW_CACHE_ALIASES];

/* Whether the cache has the operation at all (L1-icache has no stores, ...). */
bool hw_cache_op_valid(unsigned int type, unsigned int op);
/* The canonical name: "L1-dcache-load-misses", "LLC-loads". */
void hw_cache_event_name(char *buf, size_t size, unsigned int type,
			 unsigned int op, unsigned int result);
/*
 * Index of the entry in names[nr][HW_CACHE_ALIASES] whose spelling is the
 * longest case-insensitive prefix of str, or -1.
 */
int hw_cache_lookup(const char *str, const char *const names[][HW_CACHE_ALIASES], int nr);

/*
 * The name perf gives an event described only by its attr: "cycles",
 * "cpu-clock:u", "L1-dcache-load-misses", "sched:sched_switch" (tracepoint
 * ids are looked up in tracefs), "mem:0x1000:rw", "raw 0x3c".  Caller frees.
 */
char *event_name_for_attr(const struct perf_event_attr *attr);

/* Whether the kernel accepts the event for this thread (perf list probes so). */
bool event_is_supported(uint32_t type, uint64_t config);

#endif
