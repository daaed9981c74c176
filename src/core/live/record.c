/* record: the sampling engine (see record.h). */
#include "core/live/record.h"
#include "core/events/cgroup.h"
#include "core/symbols/buildid-cache.h"
#include "core/symbols/kernel-maps.h"
#include "core/events/event-names.h"
#include "core/events/evlist.h"
#include "core/events/parse-events.h"
#include "core/live/bpf-progs.h"
#include "core/data/header-features.h"
#include "core/data/perf-record.h"
#include "core/data/session.h"
#include "util/perfconfig.h"
#include "util/util.h"

#include <ctype.h>
#include <dirent.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

/* x86-64 user registers perf records for DWARF unwinding: ax..flags, cs, ss
 * and r8..r15 (not the segment registers ds, es, fs, gs). */
#define DWARF_REGS_MASK	0xff0fffULL

void record_opts__init(struct record_opts *opts)
{
	memset(opts, 0, sizeof(*opts));
	opts->freq = 4000;
	opts->proc_map_timeout_ms = 500;
	opts->stack_size = RECORD_STACK_SIZE_DEFAULT;
	opts->mmap_pages = (512 * 1024) / (size_t)sysconf(_SC_PAGESIZE);
}

int record_opts__parse_callgraph(struct record_opts *opts, const char *arg,
				 char *buf, size_t size, const char **msg)
{
	const char *comma = strchr(arg, ',');
	size_t len = comma ? (size_t)(comma - arg) : strlen(arg);

	*msg = NULL;
	if (len == 2 && !strncmp(arg, "fp", 2)) {
		opts->call_graph = CALLGRAPH_FP;
		/* "fp,N": N frames at most, when below the kernel's limit */
		if (comma) {
			unsigned long n = strtoul(comma + 1, NULL, 0);

			if (n < 127)
				opts->callchain_max_stack = (int)n;
		}
		return 0;
	} else if (len == 3 && !strncmp(arg, "lbr", 3)) {
		opts->call_graph = CALLGRAPH_LBR;
	} else if (len == 5 && !strncmp(arg, "dwarf", 5)) {
		opts->call_graph = CALLGRAPH_DWARF;
		/* DWARF unwinding wants the data addresses too (perf does so). */
		opts->sample_address = true;
		if (comma) {
			char *end;
			unsigned long long v = strtoull(comma + 1, &end, 0);

			v = (v + 7) & ~7ULL;
			if (*end || !v || v > RECORD_STACK_SIZE_MAX) {
				snprintf(buf, size,
					 "callchain: Incorrect stack dump size (max %d): %s",
					 RECORD_STACK_SIZE_MAX, comma + 1);
				*msg = buf;
				return -1;
			}
			opts->stack_size = (uint32_t)v;
		}
		return 0;
	} else {
		snprintf(buf, size, "callchain: Unknown --call-graph option value: %s", arg);
		*msg = buf;
		return -1;
	}
	if (comma) {
		snprintf(buf, size, "callchain: No more arguments needed for --call-graph %.*s",
			 (int)len, arg);
		*msg = buf;
		return -1;
	}
	return 0;
}

/* One call-graph setting into cg: a mode ("dwarf,4096"), or a dump size
 * alone (the size perf's parser takes after "dwarf,"). */
static int config_callgraph_item(struct record_opts *cg, const char *key, const char *mode,
				 const char *dump_size, struct config_error *err)
{
	struct record_opts parsed;
	char *dwarf = NULL;
	int ret;

	record_opts__init(&parsed);
	if (!mode)
		mode = dwarf = xasprintf("dwarf,%s", dump_size);
	ret = record_opts__parse_callgraph(&parsed, mode, err->msg, sizeof(err->msg), &err->why);
	free(dwarf);
	if (!dump_size) {
		cg->call_graph = parsed.call_graph;
		cg->callchain_max_stack = parsed.callchain_max_stack;
	}
	cg->stack_size = parsed.stack_size;
	if (ret) {
		snprintf(err->key, sizeof(err->key), "%s", key);
		err->value = mode == dwarf ? dump_size : mode;
	}
	return ret;
}

int record_opts__config_callgraph(struct record_opts *cg, const struct perfconfig *c,
				  const char *key, struct config_error *err)
{
	const char *v;
	int found = 0;

	record_opts__init(cg);
	cg->call_graph = CALLGRAPH_FP;
	for (size_t i = 0; i < c->nr; i++) {
		const struct perfconfig_section *sec = &c->sections[i];

		for (size_t j = 0; j < sec->nr && !strcmp(sec->name, "call-graph"); j++) {
			const struct perfconfig_item *it = &sec->items[j];
			bool mode = !strcmp(it->name, "record-mode");

			if (!mode && strcmp(it->name, "dump-size"))
				continue;
			found = 1;
			if (config_callgraph_item(cg, mode ? "call-graph.record-mode" :
						  "call-graph.dump-size", mode ? it->value : NULL,
						  mode ? NULL : it->value, err))
				return -1;
		}
	}
	if ((v = perfconfig__get(c, key))) {
		found = 1;
		if (config_callgraph_item(cg, key, v, NULL, err))
			return -1;
	}
	return found;
}

/* x86-64 registers by their bit in the sample_regs masks; the segment
 * registers ds..gs (bits 12-15) are not offered. */
static const char *const reg_names[] = {
	"AX", "BX", "CX", "DX", "SI", "DI", "BP", "SP", "IP", "FLAGS", "CS", "SS",
	NULL, NULL, NULL, NULL,
	"R8", "R9", "R10", "R11", "R12", "R13", "R14", "R15",
};

int record_opts__parse_regs(const char *arg, const char *list_hint, uint64_t *mask,
			    char *buf, size_t size, const char **msg)
{
	size_t nr = sizeof(reg_names) / sizeof(reg_names[0]);

	*msg = NULL;
	if (!arg) {
		*mask = DWARF_REGS_MASK;
		return 0;
	}
	if (!strcmp(arg, "?")) {
		size_t len = (size_t)snprintf(buf, size, "available registers: ");

		for (size_t i = 0; i < nr && len < size; i++)
			if (reg_names[i])
				len += (size_t)snprintf(buf + len, size - len, "%s ", reg_names[i]);
		*msg = buf;
		return -1;
	}
	*mask = 0;
	for (const char *p = arg; *p;) {
		size_t len = strcspn(p, ","), i;

		for (i = 0; i < nr; i++)
			if (reg_names[i] && strlen(reg_names[i]) == len &&
			    !strncasecmp(p, reg_names[i], len))
				break;
		if (i == nr) {
			snprintf(buf, size, "Unknown register \"%.*s\", check man page or run "
				 "\"perf record %s\"", (int)len, p, list_hint);
			*msg = buf;
			return -1;
		}
		*mask |= 1ULL << i;
		p += len + (p[len] == ',');
	}
	return *mask ? 0 : -1;
}

static const struct { const char *name; uint64_t bits; } branch_filters[] = {
	{ "u", PERF_SAMPLE_BRANCH_USER },
	{ "k", PERF_SAMPLE_BRANCH_KERNEL },
	{ "hv", PERF_SAMPLE_BRANCH_HV },
	{ "any", PERF_SAMPLE_BRANCH_ANY },
	{ "any_call", PERF_SAMPLE_BRANCH_ANY_CALL },
	{ "any_ret", PERF_SAMPLE_BRANCH_ANY_RETURN },
	{ "ind_call", PERF_SAMPLE_BRANCH_IND_CALL },
	{ "abort_tx", PERF_SAMPLE_BRANCH_ABORT_TX },
	{ "in_tx", PERF_SAMPLE_BRANCH_IN_TX },
	{ "no_tx", PERF_SAMPLE_BRANCH_NO_TX },
	{ "cond", PERF_SAMPLE_BRANCH_COND },
	{ "ind_jmp", PERF_SAMPLE_BRANCH_IND_JUMP },
	{ "call", PERF_SAMPLE_BRANCH_CALL },
	{ "save_type", PERF_SAMPLE_BRANCH_TYPE_SAVE },
	{ "stack", PERF_SAMPLE_BRANCH_CALL_STACK },
};

int record_opts__parse_branch_filter(struct record_opts *opts, const char *arg,
				     char *buf, size_t size, const char **msg)
{
	const uint64_t levels = PERF_SAMPLE_BRANCH_USER | PERF_SAMPLE_BRANCH_KERNEL |
				PERF_SAMPLE_BRANCH_HV;
	size_t nr = sizeof(branch_filters) / sizeof(branch_filters[0]);
	uint64_t bits = 0;

	*msg = NULL;
	for (const char *p = arg; *p;) {
		size_t len = strcspn(p, ","), i;

		for (i = 0; i < nr; i++)
			if (strlen(branch_filters[i].name) == len &&
			    !strncmp(p, branch_filters[i].name, len))
				break;
		if (i == nr) {
			snprintf(buf, size, "unknown branch filter %.*s, check man page",
				 (int)len, p);
			*msg = buf;
			return -1;
		}
		bits |= branch_filters[i].bits;
		p += len + (p[len] == ',');
	}
	if (!(bits & ~levels))
		bits |= PERF_SAMPLE_BRANCH_ANY;
	opts->branch_sample_type = bits;
	return 0;
}

static bool evsel__is_leader(const struct evsel *e)
{
	return e->leader == e;
}

/* The tracking event receives the mmap/comm/task side-band records. */
static struct evsel *add_dummy(struct evlist *evlist)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_DUMMY,
		.sample_period = 1,
	};
	struct evsel *dummy = evsel__new(&attr, "dummy:HG");

	evlist__add(evlist, dummy);
	return dummy;
}

static void config_callchain(struct evsel *e, const struct record_opts *opts,
			     enum record_callgraph mode, uint32_t stack_size)
{
	struct perf_event_attr *a = &e->attr;

	a->sample_type |= PERF_SAMPLE_CALLCHAIN;
	if (e->max_stack >= 0)
		a->sample_max_stack = (uint16_t)e->max_stack;
	else if (opts->callchain_max_stack > 0)
		a->sample_max_stack = (uint16_t)opts->callchain_max_stack;
	if (mode == CALLGRAPH_LBR) {
		a->sample_type |= PERF_SAMPLE_BRANCH_STACK;
		a->branch_sample_type = PERF_SAMPLE_BRANCH_USER | PERF_SAMPLE_BRANCH_CALL_STACK |
					PERF_SAMPLE_BRANCH_NO_CYCLES |
					PERF_SAMPLE_BRANCH_NO_FLAGS | PERF_SAMPLE_BRANCH_HW_INDEX;
		return;
	}
	if (mode == CALLGRAPH_DWARF)
		a->sample_type |= PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;
	/* A call-graph=fp term over --call-graph dwarf: perf drops the register
	 * and stack samples but keeps their settings. */
	if (mode == CALLGRAPH_DWARF || opts->call_graph == CALLGRAPH_DWARF) {
		a->sample_regs_user = DWARF_REGS_MASK;
		a->sample_stack_user = stack_size;
		a->exclude_callchain_user = 1;
	}
	if (opts->kernel_callchains)
		a->exclude_callchain_user = 1;
	if (opts->user_callchains)
		a->exclude_callchain_kernel = 1;
}

/* A call-graph=... term overrides the command line for its event. */
static enum record_callgraph term_callgraph(const struct evsel *e, enum record_callgraph def)
{
	if (!e->call_graph)
		return def;
	if (!strcmp(e->call_graph, "fp"))
		return CALLGRAPH_FP;
	if (!strncmp(e->call_graph, "dwarf", 5))
		return CALLGRAPH_DWARF;
	if (!strcmp(e->call_graph, "lbr"))
		return CALLGRAPH_LBR;
	return CALLGRAPH_NONE;	/* "no" */
}

static void config_evsel(struct evsel *e, const struct record_opts *opts, bool track)
{
	struct perf_event_attr *a = &e->attr;
	const struct target *t = &opts->target;
	enum record_callgraph cg = term_callgraph(e, opts->call_graph);
	bool dummy = a->type == PERF_TYPE_SOFTWARE && a->config == PERF_COUNT_SW_DUMMY;
	/* Per-thread rings of tasks that do not pass them on: perf leaves the
	 * time out unless asked for it. */
	bool time = !(t->per_thread && opts->no_inherit && !target__has_cpu(t));

	a->size = sizeof(*a);
	a->sample_id_all = 1;
	a->inherit = !opts->no_inherit;
	if (e->inherit >= 0)
		a->inherit = (unsigned)e->inherit;
	/* written backward into a ring that keeps the newest records */
	a->write_backward = e->overwrite >= 0 ? (unsigned)e->overwrite : opts->overwrite;
	a->read_format = PERF_FORMAT_ID | PERF_FORMAT_LOST;
	if (opts->inherit_stat || opts->running_time)
		a->read_format |= PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	a->inherit_stat = opts->inherit_stat;
	a->sample_type |= PERF_SAMPLE_IP | PERF_SAMPLE_TID;

	/* The command line's -F/-c beat the events' defaults, not their terms. */
	if (!(e->period_set || e->freq_set) &&
	    (!a->sample_period || opts->user_freq || opts->user_interval)) {
		if (opts->freq) {
			a->freq = 1;
			a->sample_freq = opts->freq;
		} else {
			a->freq = 0;
			a->sample_period = opts->interval;
		}
	}
	if (a->freq || opts->sample_period)
		a->sample_type |= PERF_SAMPLE_PERIOD;
	if (opts->no_samples)
		a->sample_period = 0;	/* also sample_freq: the same field */
	/* DWARF unwinding wants the data addresses, also from a term; not
	 * for -g under a perfconfig's dwarf mode (perf's does not ask) */
	if (opts->sample_address || (cg == CALLGRAPH_DWARF && cg != opts->call_graph)) {
		a->sample_type |= PERF_SAMPLE_ADDR | PERF_SAMPLE_DATA_SRC;
		a->mmap_data = track;
	}
	/* perf gives the tracking dummy the sampling events' call-graph setup
	 * and sample fields too (perf evlist -v shows them). */
	if (cg != CALLGRAPH_NONE)
		config_callchain(e, opts, cg, e->stack_size > 0 ?
				 (uint32_t)((e->stack_size + 7) & ~7) : opts->stack_size);
	/* Registers and branches are the sampling events' business: perf
	 * leaves them off the tracking dummy. */
	if (opts->regs_user && !dummy) {
		a->sample_type |= PERF_SAMPLE_REGS_USER;
		a->sample_regs_user = opts->regs_user;
	}
	if (opts->regs_intr && !dummy) {
		a->sample_type |= PERF_SAMPLE_REGS_INTR;
		a->sample_regs_intr = opts->regs_intr;
	}
	if (opts->branch_sample_type && !dummy) {
		a->sample_type |= PERF_SAMPLE_BRANCH_STACK;
		a->branch_sample_type = opts->branch_sample_type;
	}
	if (target__has_cpu(t) || opts->sample_cpu)
		a->sample_type |= PERF_SAMPLE_CPU;
	if (e->sample_time > 0 || (e->sample_time < 0 && time) || opts->sample_time)
		a->sample_type |= PERF_SAMPLE_TIME;
	if (opts->raw_samples)
		a->sample_type |= PERF_SAMPLE_TIME | PERF_SAMPLE_RAW | PERF_SAMPLE_CPU;
	if (opts->sample_weight)
		a->sample_type |= PERF_SAMPLE_WEIGHT_STRUCT;
	if (opts->sample_phys_addr)
		a->sample_type |= PERF_SAMPLE_PHYS_ADDR;
	if (opts->sample_data_page_size)
		a->sample_type |= PERF_SAMPLE_DATA_PAGE_SIZE;
	if (opts->sample_code_page_size)
		a->sample_type |= PERF_SAMPLE_CODE_PAGE_SIZE;
	if (opts->sample_identifier)
		a->sample_type |= PERF_SAMPLE_IDENTIFIER;
	if (opts->all_cgroups)
		a->sample_type |= PERF_SAMPLE_CGROUP;

	a->task = track;
	a->mmap = track;
	a->mmap2 = track;
	a->comm = track;
	a->comm_exec = track;
	a->ksymbol = track;
	a->bpf_event = track && !opts->no_bpf_event;
	a->build_id = track && opts->buildid_mmap;
	a->namespaces = track && opts->record_namespaces;
	a->context_switch = track && opts->record_switch_events;
	a->cgroup = track && opts->all_cgroups;

	/* Only leaders start disabled: members follow them. */
	if (evsel__is_leader(e))
		a->disabled = 1;
	if (target__none(t) && evsel__is_leader(e) && !t->initial_delay)
		a->enable_on_exec = 1;
	if (opts->use_clockid) {
		a->use_clockid = 1;
		a->clockid = opts->clockid;
	}
	if (e->precise_max)
		a->precise_ip = 3;
	if (opts->all_user) {
		a->exclude_kernel = 1;
		a->exclude_user = 0;
	}
	if (opts->all_kernel) {
		a->exclude_kernel = 0;
		a->exclude_user = 1;
	}
	if (opts->no_buffering) {
		a->watermark = 0;
		a->wakeup_events = 1;
	}
}

void record__config(struct evlist *evlist, const struct record_opts *opts)
{
	const struct target *t = &opts->target;
	struct evsel *tracking = evlist->first, *first;
	bool same = true;

	/* System-wide and delayed recordings track through a dummy event that
	 * runs from the start while the sampling events wait. */
	if ((t->initial_delay || target__has_cpu(t)) && !opts->no_tracking_dummy)
		tracking = add_dummy(evlist);
	if (opts->group && evlist->nr_entries > 1) {
		evlist__for_each(evlist, pos)
			pos->leader = evlist->first;
		evlist->first->nr_members = evlist->nr_entries;
		evlist->nr_groups = 1;
	}
	evlist__for_each(evlist, pos)
		config_evsel(pos, opts, pos == tracking);
	if (tracking != evlist->first) {
		/* named by its modifiers, as --all-user/--all-kernel set them */
		free(tracking->name);
		tracking->name = event_name_for_attr(&tracking->attr);
		if (t->initial_delay && !target__has_cpu(t)) {
			tracking->attr.enable_on_exec = 1;
		} else {
			/* Enabled immediately, at open. */
			tracking->attr.disabled = 0;
			tracking->attr.enable_on_exec = 0;
		}
	}

	if (evlist->nr_entries <= 1 && !opts->sample_identifier)
		return;
	/* Several events: samples say which one they came from, as ID when all
	 * sample the same fields, else as IDENTIFIER at a fixed place. */
	first = evlist->first;
	evlist__for_each(evlist, pos)
		if (pos->attr.sample_type != first->attr.sample_type)
			same = false;
	evlist__for_each(evlist, pos) {
		if (same && !opts->sample_identifier) {
			pos->attr.sample_type |= PERF_SAMPLE_ID;
		} else {
			pos->attr.sample_type &= ~(uint64_t)PERF_SAMPLE_ID;
			pos->attr.sample_type |= PERF_SAMPLE_IDENTIFIER;
		}
	}
}

struct evsel *record__add_off_cpu(struct evlist *evlist)
{
	struct perf_event_attr attr;
	struct evsel *e;

	off_cpu__init_attr(&attr);
	e = evsel__new(&attr, OFF_CPU_EVENT_NAME);
	evlist__add(evlist, e);
	return e;
}

struct evsel *record__add_off_cpu_switch(struct evlist *evlist, const struct evsel *off_cpu)
{
	const struct perf_event_attr *o = &off_cpu->attr;
	struct parse_events_error err = { .idx = -1 };
	struct perf_event_attr *a;

	if (!(o->sample_type & PERF_SAMPLE_TIME) || parse_events(evlist, "sched:sched_switch", &err)) {
		parse_events_error__exit(&err);
		return NULL;
	}
	parse_events_error__exit(&err);
	a = &evlist->last->attr;
	/* offcpu's fields (and so its id's place), one sample per switch,
	 * the full stack, and the switch records that time the sleeps */
	a->size = sizeof(*a);
	a->sample_type = o->sample_type;
	a->sample_period = 1;
	a->freq = 0;
	a->read_format = o->read_format;
	a->sample_id_all = 1;
	a->inherit = o->inherit;
	a->disabled = o->disabled;
	a->enable_on_exec = o->enable_on_exec;
	a->use_clockid = o->use_clockid;
	a->clockid = o->clockid;
	a->context_switch = 1;
	return evlist->last;
}

void record__config_pipe(struct evlist *evlist)
{
	evlist__for_each(evlist, e) {
		if (!(e->attr.sample_type & (PERF_SAMPLE_ID | PERF_SAMPLE_IDENTIFIER)))
			e->attr.sample_type |= PERF_SAMPLE_ID;
	}
}

bool record__fallback(struct evsel *e, int err, char *msg, size_t size)
{
	char *name;

	if (evsel__fallback_user_only(e, err)) {
		snprintf(msg, size, "kernel.perf_event_paranoid=%d, trying to fall back to excluding "
			 "kernel and hypervisor  samples", perf_event_paranoid());
		return true;
	}
	if (err != ENOENT && err != ENODEV && err != EOPNOTSUPP && err != ENXIO &&
	    err != EINVAL)
		return false;
	if (e->attr.type != PERF_TYPE_HARDWARE || e->attr.config != PERF_COUNT_HW_CPU_CYCLES)
		return false;
	snprintf(msg, size, "The %s event is not supported, trying to fall back to cpu-clock-ticks",
		 e->name);
	e->attr.type = PERF_TYPE_SOFTWARE;
	e->attr.config = PERF_COUNT_SW_CPU_CLOCK;
	name = event_name_for_attr(&e->attr);
	free(e->name);
	e->name = name;
	return true;
}

/* --- opening and mapping --- */

static int open_with_fallbacks(struct record_session *rs, struct evsel *e,
			       const struct cpu_map *cpus, const struct thread_map *threads)
{
	for (;;) {
		int err = evsel__open(e, cpus, threads);

		if (!err)
			return 0;
		if (record__fallback(e, -err, rs->fallback_msg, sizeof(rs->fallback_msg)))
			continue;
		/* Precise levels the PMU lacks: step down like perf. */
		if (e->precise_max && e->attr.precise_ip && (err == -EOPNOTSUPP || err == -EINVAL)) {
			e->attr.precise_ip--;
			continue;
		}
		return err;
	}
}

static int id_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static int read_ids(struct record_session *rs)
{
	size_t total = 0;

	evlist__for_each(rs->evlist, e)
		total += (size_t)e->nr_cpus * (size_t)e->nr_threads;
	rs->id_map = xcalloc(total + 1, sizeof(*rs->id_map));
	evlist__for_each(rs->evlist, e) {
		size_t n = (size_t)e->nr_cpus * (size_t)e->nr_threads;

		free(e->ids);
		e->ids = xcalloc(n + 1, sizeof(uint64_t));
		for (size_t i = 0; i < n; i++) {
			if (e->fds[i] < 0 || ioctl(e->fds[i], PERF_EVENT_IOC_ID, &e->ids[i]) < 0)
				return -errno;
			rs->id_map[rs->nr_ids].id = e->ids[i];
			rs->id_map[rs->nr_ids].evsel = e;
			rs->nr_ids++;
		}
	}
	qsort(rs->id_map, rs->nr_ids, sizeof(*rs->id_map), id_cmp);
	return 0;
}

static bool is_clock(const struct perf_event_attr *attr)
{
	return attr->type == PERF_TYPE_SOFTWARE && (attr->config == PERF_COUNT_SW_CPU_CLOCK ||
						     attr->config == PERF_COUNT_SW_TASK_CLOCK);
}

int record_session__open(struct record_session *rs, struct evlist *evlist,
			 const struct cpu_map *cpus, const struct thread_map *threads,
			 const struct record_opts *opts, struct evsel **failed,
			 bool *filter_failed)
{
	int err;

	memset(rs, 0, sizeof(*rs));
	rs->opts = opts;
	rs->evlist = evlist;
	rs->cpus = cpus;
	rs->threads = threads;
	rs->writer.fd = -1;
	*failed = NULL;
	*filter_failed = false;
	rs->clock_unit = xcalloc((size_t)evlist->nr_entries + 1, sizeof(*rs->clock_unit));
	evlist__for_each(evlist, e) {
		rs->clock_unit[e->idx] = is_clock(&e->attr);
		/* A member of a group only opens with its leader. */
		err = open_with_fallbacks(rs, e, cpus, threads);
		if (err) {
			*failed = e;
			return err;
		}
		e->supported = true;
	}
	err = read_ids(rs);
	if (!err) {
		err = evlist__apply_filters(evlist, failed);
		if (err) {
			*filter_failed = true;
			return err;
		}
	}
	if (!err) {
		struct drain_opts dopts = {
			.mmap_pages = opts->mmap_pages,
			.target = &opts->target,
		};

		err = drain__mmap(&rs->drain, evlist, cpus, threads, &dopts);
	}
	return err;
}

/* --- the output file --- */

static int emit_record(void *ctx, const struct perf_event_header *rec)
{
	struct record_session *rs = ctx;

	if (rs->hits)
		dso_hits__record(rs->hits, rec);
	return perf_data_writer__write(&rs->writer, rec, rec->size);
}

enum event_update_type { EVENT_UPDATE_UNIT, EVENT_UPDATE_SCALE, EVENT_UPDATE_NAME };

/* One EVENT_UPDATE record about e.  perf sizes it as its 40-byte struct
 * plus the payload, rounded up to 8 bytes. */
static int write_event_update(struct record_session *rs, const struct evsel *e,
			      enum event_update_type type, const void *data, size_t len)
{
	size_t size = (40 + len + 7) & ~(size_t)7;
	struct perf_rec_event_update *u;
	int err;

	if (size > UINT16_MAX)
		return 0;
	u = xcalloc(1, size);
	u->header.type = PERF_RECORD_EVENT_UPDATE;
	u->header.size = (uint16_t)size;
	u->type = type;
	u->id = e->ids[0];
	memcpy(u->data, data, len);
	err = emit_record(rs, &u->header);
	free(u);
	return err;
}

/* Pipe mode: what a file's EVENT_DESC would say of each event, as perf
 * sends it: the unit and scale of a clock event asked for by name (not one
 * that cycles fell back to), then the name. */
static int by_pid(const struct dirent **a, const struct dirent **b)
{
	long pa = atol((*a)->d_name), pb = atol((*b)->d_name);

	return pa < pb ? -1 : pa > pb;
}

/* pcl kvm record: the guests' kernel and module maps, as perf gives each
 * guest machine it knows of: the default guest's from --guestkallsyms and
 * --guestmodules, then one per PID directory of --guestmount with a
 * readable proc/kallsyms (the first without one ends the list, as in
 * perf) and its proc/modules. */
static int synth_guest_kernels(struct synth *s)
{
	const struct guest_symbols *g = perf_session__guests();
	struct dirent **names = NULL;
	bool stop = false;
	int n, err = 0;

	if (!parse_events__guest)
		return 0;
	if (g->kallsyms)
		err = synth__guest_os(s, 0, g->kallsyms, g->modules);
	if ((err && err != -ENOENT) || !g->mount || (n = scandir(g->mount, &names, NULL, by_pid)) < 0)
		return err == -ENOENT ? 0 : err;
	err = 0;
	for (int i = 0; i < n; i++) {
		char *end, *path;
		long pid = strtol(names[i]->d_name, &end, 10);

		if (!stop && !err && isdigit((unsigned char)names[i]->d_name[0]) && !*end) {
			char *modules = xasprintf("%s/%s/proc/modules", g->mount, names[i]->d_name);

			path = xasprintf("%s/%s/proc/kallsyms", g->mount, names[i]->d_name);
			stop = access(path, R_OK) != 0;
			if (!stop && (err = synth__guest_os(s, (pid_t)pid, path, modules)) == -ENOENT)
				err = 0;
			free(modules);
			free(path);
		}
		free(names[i]);
	}
	free(names);
	return err;
}

/* EVENT_UPDATEs: a clock event's unit and scale, into files as into
 * pipes; every event's name too with names (a pipe has no EVENT_DESC). */
static int write_event_updates(struct record_session *rs, bool names)
{
	static const double msec_scale = 1e-6;
	int err = 0;

	evlist__for_each(rs->evlist, e) {
		if (!evsel__nr_ids(e))
			continue;
		if (rs->clock_unit[e->idx]) {
			err = write_event_update(rs, e, EVENT_UPDATE_UNIT, "msec", sizeof("msec"));
			if (!err)
				err = write_event_update(rs, e, EVENT_UPDATE_SCALE, &msec_scale,
							 sizeof(msec_scale));
		}
		if (!err && names)
			err = write_event_update(rs, e, EVENT_UPDATE_NAME, e->name,
						 strlen(e->name) + 1);
		if (err)
			return err;
	}
	return 0;
}

/* Every loaded BPF program's KSYMBOLs and BPF_EVENT, by id, then the BPF
 * trampolines and dispatchers, as perf does: the programs go to the
 * header too (unless --no-bpf-event), with the BTF naming their
 * functions.  Without the privilege to list them there are none; a
 * program whose description is inconsistent ends the list, as in perf. */
static int synthesize_bpf(struct record_session *rs, struct synth *s)
{
	bool bpf_events = !rs->opts->no_bpf_event;
	uint32_t id = 0;
	int err = 0;

	while (!err && !bpf_progs__next_id(id, &id)) {
		struct bpf_prog_desc p;
		int ret = bpf_progs__read(&rs->bpf, id, bpf_events, &p);

		if (!ret)
			err = synth__bpf_prog(s, &p, rs->bpf.btfs, rs->bpf.nr_btfs, bpf_events);
		bpf_prog_desc__release(&p);
		if (ret && ret != -ENOENT)
			break;
	}
	if (!err)
		synth__bpf_images(s, NULL);
	return err;
}

/* What perf synthesizes of the machine and the target: the ids, the kernel
 * and its modules, the thread and cpu maps, the BPF programs, the cgroups,
 * the tasks already
 * running.  At the start of a file, or at its end with --tail-synthesize.
 * A pipe's event names go out with them at the start (names_too). */
static int synthesize_system(struct record_session *rs, struct synth *s, bool names_too)
{
	const struct target *t = &rs->opts->target;
	size_t n = 0;
	struct synth_id *ids;
	pid_t *tids;
	int err;

	ids = xcalloc(rs->nr_ids + 1, sizeof(*ids));
	evlist__for_each(rs->evlist, e) {
		for (int c = 0; c < e->nr_cpus; c++) {
			for (int th = 0; th < e->nr_threads; th++) {
				ids[n].id = e->ids[c * e->nr_threads + th];
				ids[n].idx = (uint64_t)e->idx;
				ids[n].cpu = (uint64_t)(int64_t)rs->cpus->map[c];
				ids[n].tid = (uint64_t)(int64_t)rs->threads->map[th].pid;
				n++;
			}
		}
	}
	err = synth__id_index(s, ids, n);
	free(ids);
	/* Without kallsyms there is no kernel map: kernel samples stay
	 * unresolved.  No event watching the kernel: perf leaves it out. */
	if (!err && !evlist__exclude_kernel(rs->evlist)) {
		err = synth__kernel_mmap(s, NULL);
		if (err == -ENOENT)
			err = 0;
		if (!err)
			err = synth__modules(s);
	}
	if (!err)
		err = synth_guest_kernels(s);
	/* (a pipe's tail: its head told them already) */
	if (!err && (names_too || !rs->writer.pipe))
		err = write_event_updates(rs, names_too && rs->writer.pipe);

	tids = xcalloc((size_t)rs->threads->nr + 1, sizeof(*tids));
	for (int i = 0; i < rs->threads->nr; i++)
		tids[i] = rs->threads->map[i].pid;
	if (!err)
		err = synth__thread_map(s, tids, (size_t)rs->threads->nr);
	free(tids);
	if (!err)
		err = synth__cpu_map(s, rs->cpus->map, (size_t)rs->cpus->nr);
	if (!err)
		err = synthesize_bpf(rs, s);
	if (!err && rs->opts->all_cgroups) {
		char *mnt = cgroup__mountpoint();

		err = synth__cgroups(s, mnt);
		free(mnt);
	}

	if (rs->opts->synth_no_tasks)
		return err;
	/* -a and -C: any task may run there. */
	if (!err && target__has_cpu(t)) {
		s->nr_threads = rs->opts->nr_synth_threads;
		err = synth__all_threads(s, !rs->opts->synth_no_mmaps);
	} else if (!err && target__has_task(t)) {
		for (int i = 0; i < rs->threads->nr && !err; i++)
			err = synth__thread(s, rs->threads->map[i].pid,
					    !rs->opts->synth_no_mmaps);
	}
	return err;
}

/* A synthesizer writing into the file with the session's settings. */
static void synth_init(struct record_session *rs, struct synth *s)
{
	synth__init(s, &rs->evlist->first->attr, rs->opts->sample_address, emit_record, rs);
	s->build_ids = rs->opts->buildid_mmap;
	s->map_timeout_ns = (int64_t)rs->opts->proc_map_timeout_ms * 1000000;
	s->timed_out = rs->opts->maps_timed_out;
}

/* The records that open a file.  With --tail-synthesize only the forked
 * workload's name is written here (samples before its exec need it), the
 * rest when the file ends (synthesize_tail). */
static int synthesize_head(struct record_session *rs, pid_t workload_pid)
{
	bool tail = rs->opts->tail_synthesize;
	struct synth s;
	int err;

	synth_init(rs, &s);
	err = synth__time_conv(&s, rs->drain.nr_rbs ? rs->drain.rbs[0].base : NULL);
	if (!err && !tail)
		err = synthesize_system(rs, &s, true);
	/* a pipe's readers need the names before the first sample */
	else if (!err && rs->writer.pipe)
		err = write_event_updates(rs, true);
	/* The forked workload has not exec'd yet: its name only, the one perf
	 * gives it, which tools filtering out the exec stub look for. */
	if (!err && workload_pid > 0)
		err = synth__comm(&s, workload_pid, workload_pid, "perf-exec");
	if (!err && !tail)
		err = synth__header_only(&s, PERF_RECORD_FINISHED_INIT);
	synth__exit(&s);
	if (!err)
		err = perf_data_writer__flush(&rs->writer);
	return err;
}

/* --tail-synthesize: the state of the system as the file ends, after the
 * last samples, as perf writes it: FINISHED_INIT, the workload (a zombie
 * still, with its final name), then the machine and the target's tasks. */
static int synthesize_tail(struct record_session *rs)
{
	struct synth s;
	int err;

	if (!rs->opts->tail_synthesize)
		return 0;
	synth_init(rs, &s);
	err = synth__header_only(&s, PERF_RECORD_FINISHED_INIT);
	if (!err && rs->workload_pid > 0)
		err = synth__thread(&s, rs->workload_pid, !rs->opts->synth_no_mmaps);
	if (!err)
		err = synthesize_system(rs, &s, false);
	synth__exit(&s);
	return err;
}

/* What the features know of a session before and after its samples. */
static void describe(const struct record_session *rs, const struct record_finish *fin,
		     struct header_env *env)
{
	memset(env, 0, sizeof(*env));
	env->evlist = rs->evlist;
	env->version = fin->version;
	env->argc = fin->argc;
	env->argv = fin->argv;
	/* perf writes the range always, zero when it did not look */
	env->have_sample_time = true;
	if (fin->sample_time_range) {
		env->first_sample_time = rs->first_time;
		env->last_sample_time = rs->last_time;
	}
	env->use_clockid = rs->opts->use_clockid;
	env->clockid = rs->opts->clockid;
	env->bpf = &rs->bpf;
}

/* A pipe's features go out before the data, as perf writes them: sample
 * times and compression ratio are not known yet and stay zero. */
static int write_pipe_features(struct record_session *rs, const struct record_finish *fin,
			       int comp_level)
{
	struct header_env env;
	int err;

	describe(rs, fin, &env);
	if (comp_level > 0) {
		env.compressed = true;
		env.comp_level = (uint32_t)comp_level;
		env.comp_mmap_len = perf_data_writer__comp_mmap_len();
	}
	err = header_features__write(&rs->writer, &env);
	if (!err)
		err = perf_data_writer__write_pipe_features(&rs->writer);
	return err;
}

/* --off-cpu: perf's BPF version has no switch event, so the file's attrs,
 * ids, features (no tracing data) and lost counts leave it out while they
 * are written; it stays in the evlist the drain enables and disables. */
static void hide_off_cpu_switch(struct record_session *rs)
{
	evlist__for_each(rs->evlist, e) {
		if (rs->off_cpu_switch && e->next == rs->off_cpu_switch) {
			e->next = NULL;
			rs->evlist->last = e;
			rs->evlist->nr_entries--;
			return;
		}
	}
}

static void show_off_cpu_switch(struct record_session *rs)
{
	if (!rs->off_cpu_switch || rs->evlist->last == rs->off_cpu_switch)
		return;
	rs->evlist->last->next = rs->off_cpu_switch;
	rs->evlist->last = rs->off_cpu_switch;
	rs->evlist->nr_entries++;
}

static int create_file(struct record_session *rs, const char *path, int comp_level,
		       bool build_ids, pid_t workload_pid, const struct record_finish *fin)
{
	struct perf_data_writer_attr *attrs;
	bool pipe = !strcmp(path, "-");
	size_t n = 0;
	int err;

	if (pipe) {
		perf_data_writer__open_pipe(&rs->writer, STDOUT_FILENO);
	} else if (rs->dir_masks) {
		char *data = xasprintf("%s/data", path);

		err = mkdir(path, 0700) && errno != EEXIST ? -errno : 0;
		if (!err)
			err = perf_data_writer__open(&rs->writer, data);
		free(data);
	} else {
		err = perf_data_writer__open(&rs->writer, path);
	}
	if (!pipe && err)
		return err;
	rs->writing = true;
	rs->samples = rs->nr_records = rs->lost_chunks = 0;
	rs->samples_dropped = rs->samples_added = 0;
	rs->first_time = rs->last_time = 0;
	attrs = xcalloc((size_t)rs->evlist->nr_entries + 1, sizeof(*attrs));
	evlist__for_each(rs->evlist, e) {
		attrs[n].attr = &e->attr;
		attrs[n].ids = e->ids;
		attrs[n].nr_ids = (size_t)e->nr_cpus * (size_t)e->nr_threads;
		n++;
	}
	err = perf_data_writer__write_header(&rs->writer, attrs, n);
	free(attrs);
	if (!err && pipe)
		err = write_pipe_features(rs, fin, comp_level);
	if (err)
		return err;
	rs->file_start = rs->drain.stats;
	dso_hits__delete(rs->hits);
	/* perf leaves build ids out of a pipe: it cannot go back for them. */
	rs->hits = build_ids && !pipe ? dso_hits__new() : NULL;
	rs->workload_pid = workload_pid;
	err = synthesize_head(rs, workload_pid);
	/* Synthesized records stay uncompressed; the samples are squeezed. */
	if (!err && comp_level > 0)
		err = perf_data_writer__set_compression(&rs->writer, comp_level);
	if (!err && rs->dir_masks && !pipe)
		rs->dir_writers = record_threads__start(path, rs->cpus, rs->dir_masks, comp_level,
							&err);
	return err;
}

static const struct perf_event_attr *attr_of_sample(const struct record_session *rs,
						    const struct perf_event_header *rec)
{
	const struct perf_event_attr *first = &rs->evlist->first->attr;
	const struct evsel *evsel;
	int pos;
	uint64_t id;

	if (rs->evlist->nr_entries == 1)
		return first;
	pos = perf_sample__id_pos(first->sample_type);
	if (pos < 0 || (size_t)(pos + 1) * 8 + sizeof(*rec) > rec->size)
		return NULL;
	memcpy(&id, (const char *)(rec + 1) + (size_t)pos * 8, sizeof(id));
	evsel = record_session__evsel_of_id(rs, id);
	return evsel ? &evsel->attr : NULL;
}

/* A sample's pid, ip and time lead its fields (after IDENTIFIER): no
 * need to parse the rest, which can be a long call chain. */
static void note_sample(struct record_session *rs, const struct perf_event_header *rec)
{
	const struct perf_event_attr *attr = attr_of_sample(rs, rec);
	const uint64_t *field = (const uint64_t *)(rec + 1);
	size_t nr = (rec->size - sizeof(*rec)) / sizeof(uint64_t), i = 0;
	uint64_t st, ip = 0;
	uint32_t pid = (uint32_t)-1;
	bool kernel;

	if (!attr)
		return;
	st = attr->sample_type;
	if (st & PERF_SAMPLE_IDENTIFIER)
		i++;
	if ((st & PERF_SAMPLE_IP) && i < nr)
		ip = field[i++];
	if ((st & PERF_SAMPLE_TID) && i < nr)
		memcpy(&pid, &field[i++], sizeof(pid));
	/* untimed samples count as perf reads them: at time ~0 */
	if (!(st & PERF_SAMPLE_TIME) || i < nr) {
		uint64_t time = st & PERF_SAMPLE_TIME ? field[i] : ~0ULL;

		if (!rs->first_time || time < rs->first_time)
			rs->first_time = time;
		if (time > rs->last_time)
			rs->last_time = time;
	}
	kernel = (rec->misc & PERF_RECORD_MISC_CPUMODE_MASK) == PERF_RECORD_MISC_KERNEL;
	if (rs->hits)
		dso_hits__sample(rs->hits, (int32_t)pid, ip, kernel);
}

/* A program loaded while recording goes to the header too, as perf's
 * side-band thread adds it (unless --no-bpf-event). */
static void note_bpf_event(struct record_session *rs, const struct perf_event_header *rec)
{
	struct perf_rec_bpf_event b;

	if (rs->opts->no_bpf_event || rec->size < sizeof(b))
		return;
	memcpy(&b, rec, sizeof(b));
	if (b.type == PERF_BPF_EVENT_PROG_LOAD)
		bpf_progs__note_load(&rs->bpf, b.id);
}

/* What the file's features need to know about the records on their way out. */
static void note_records(struct record_session *rs, const unsigned char *data, size_t len)
{
	for (size_t pos = 0; pos < len;) {
		const struct perf_event_header *rec = (const void *)(data + pos);

		switch (rec->type) {
		case PERF_RECORD_SAMPLE:
			note_sample(rs, rec);
			break;
		case PERF_RECORD_MMAP:
		case PERF_RECORD_MMAP2:
		case PERF_RECORD_FORK:
			if (rs->hits)
				dso_hits__record(rs->hits, rec);
			break;
		case PERF_RECORD_BPF_EVENT:
			note_bpf_event(rs, rec);
			break;
		default:
			break;
		}
		pos += rec->size;
	}
}

/* A record of the off-CPU switch event: a sample (its id) or a switch
 * (the id in its trailer: --switch-events' tracking event has its own). */
static bool is_off_cpu_switch(const struct record_session *rs, const struct perf_sample *s)
{
	const struct evsel *e = rs->off_cpu_switch;
	size_t n = (size_t)e->nr_cpus * (size_t)e->nr_threads;

	for (size_t i = 0; i < n; i++)
		if (e->ids[i] == s->id)
			return true;
	return false;
}

/* Feeds the off-CPU tracker; returns whether rec stays out of the file. */
static bool track_off_cpu(struct record_session *rs, int cpu, const struct perf_event_header *rec)
{
	const struct perf_event_attr *attr = &rs->off_cpu_switch->attr;
	struct perf_sample s;
	const char *why;

	bool parsed;

	/* Every event samples the time at the same place (they share the
	 * id's): the time of any record tells how far perf will have read,
	 * also of a sample whose later fields are another event's. */
	if (rec->type >= PERF_RECORD_USER_TYPE_START)
		return false;
	parsed = !perf_sample__parse(attr, rec, &s, &why);
	if (s.time != ~0ULL)
		off_cpu__note_time(rs->off_cpu, s.time);
	if (!is_off_cpu_switch(rs, &s))
		return false;
	if (rec->type == PERF_RECORD_SAMPLE)
		rs->samples_dropped++;
	/* None of its records goes to the file: perf could not tell whose
	 * they are.  Other kinds (LOST...) and the idle task (it never
	 * sleeps) tell nothing of sleeps. */
	if (!parsed || !s.tid || (rec->type != PERF_RECORD_SAMPLE &&
				  rec->type != PERF_RECORD_SWITCH &&
				  rec->type != PERF_RECORD_SWITCH_CPU_WIDE))
		return true;
	if (rec->type == PERF_RECORD_SAMPLE)
		off_cpu__stack(rs->off_cpu, s.tid, s.callchain, s.callchain_nr);
	else if (rec->misc & PERF_RECORD_MISC_SWITCH_OUT)
		off_cpu__switch_out(rs->off_cpu, s.pid, s.tid, s.time,
				    rec->misc & PERF_RECORD_MISC_SWITCH_OUT_PREEMPT);
	else
		off_cpu__switch_in(rs->off_cpu, s.pid, s.tid, s.time,
				   (attr->sample_type & PERF_SAMPLE_CPU) ? s.cpu :
				   cpu < 0 ? 0 : (uint32_t)cpu);
	return true;
}

static int write_records(struct record_session *rs, const void *data, size_t len)
{
	int err = perf_data_writer__write(&rs->writer, data, len);

	note_records(rs, data, len);
	return err;
}

/* A ring's records: into the file, or (--threads) its data.N file. */
static int write_ring_records(struct record_session *rs, int cpu, const void *data, size_t len)
{
	if (!rs->dir_writers)
		return write_records(rs, data, len);
	note_records(rs, data, len);
	return record_threads__write(rs->dir_writers, cpu, data, len);
}

/* --off-cpu: the records go into the file but the switch event's. */
static int write_chunk_off_cpu(struct record_session *rs, int cpu, const unsigned char *data,
			       size_t len)
{
	size_t kept = 0, pos = 0;
	int err = 0;

	while (pos < len && !err) {
		const struct perf_event_header *rec = (const void *)(data + pos);

		if (track_off_cpu(rs, cpu, rec)) {
			if (pos > kept)
				err = write_ring_records(rs, cpu, data + kept, pos - kept);
			kept = pos + rec->size;
		}
		pos += rec->size;
	}
	if (!err && len > kept)
		err = write_ring_records(rs, cpu, data + kept, len - kept);
	return err;
}

/* drain's chunk callback: the records go into the file as they are. */
static int write_chunk(void *ctx, int cpu, const void *data, size_t len)
{
	struct record_session *rs = ctx;

	if (!rs->writing)
		return 0;
	if (rs->off_cpu)
		return write_chunk_off_cpu(rs, cpu, data, len);
	return write_ring_records(rs, cpu, data, len);
}

/* The off-CPU tracker's samples go into the file with the drained ones. */
static int write_off_cpu_sample(void *ctx, const struct perf_event_header *rec)
{
	struct record_session *rs = ctx;

	rs->samples_added++;
	return write_records(rs, rec, rec->size);
}

/* drain's round_end callback: the round is closed and on disk, so that a
 * recording killed hard keeps it. */
static int end_round(void *ctx, size_t bytes)
{
	static const struct perf_event_header round = {
		.type = PERF_RECORD_FINISHED_ROUND, .misc = 0, .size = sizeof(round),
	};
	struct record_session *rs = ctx;
	const struct drain_stats *now = &rs->drain.stats, *then = &rs->file_start;
	int err;

	(void)bytes;
	if (!rs->writing)
		return 0;
	err = rs->off_cpu ? off_cpu__round_end(rs->off_cpu, write_off_cpu_sample, rs) : 0;
	if (err)
		return err;
	rs->samples = now->samples - then->samples - rs->samples_dropped + rs->samples_added;
	rs->nr_records = now->records - then->records;
	rs->lost_chunks = now->lost_records - then->lost_records;
	/* a directory's files are each in time order: perf writes no rounds */
	err = rs->dir_writers ? 0 :
	      perf_data_writer__write_uncompressed(&rs->writer, &round, sizeof(round));
	if (!err)
		err = perf_data_writer__flush(&rs->writer);
	return err;
}

void record_session__consumer(struct record_session *rs, struct drain_consumer *c)
{
	memset(c, 0, sizeof(*c));
	c->ctx = rs;
	c->chunk = write_chunk;
	c->round_end = end_round;
}

long record_session__drain(struct record_session *rs)
{
	struct drain_consumer c;

	record_session__consumer(rs, &c);
	return drain__round(&rs->drain, &c);
}

uint64_t record_session__file_size(const struct record_session *rs)
{
	return perf_data_writer__size(&rs->writer);
}

/* A LOST_SAMPLES record per counter that dropped samples, with its trailer. */
static int write_lost_samples(struct record_session *rs)
{
	evlist__for_each(rs->evlist, e) {
		uint64_t st = e->attr.sample_type, rf = e->attr.read_format;
		/* The lost count comes last: after the value, the times and the id. */
		size_t lost_at = 1 + !!(rf & PERF_FORMAT_TOTAL_TIME_ENABLED) +
				 !!(rf & PERF_FORMAT_TOTAL_TIME_RUNNING) + !!(rf & PERF_FORMAT_ID);

		for (int c = 0; c < e->nr_cpus; c++) {
			for (int t = 0; t < e->nr_threads; t++) {
				uint64_t buf[6] = { 0 }, rec[16] = { 0 }, *p;
				int fd = evsel__fd(e, c, t), err;
				struct perf_event_header *h = (void *)rec;
				ssize_t n;

				if (fd < 0)
					continue;
				n = read(fd, buf, sizeof(buf));
				if (n < (ssize_t)((lost_at + 1) * sizeof(*buf)) || !buf[lost_at])
					continue;
				rs->lost_samples += buf[lost_at];
				h->type = PERF_RECORD_LOST_SAMPLES;
				rec[1] = buf[lost_at];
				p = &rec[2];
				if (st & PERF_SAMPLE_TID) {
					uint32_t pt[2] = { (uint32_t)rs->threads->map[t].pid,
							   (uint32_t)rs->threads->map[t].pid };

					memcpy(p++, pt, sizeof(pt));
				}
				if (st & PERF_SAMPLE_TIME)
					p++;
				if (st & PERF_SAMPLE_ID)
					*p++ = buf[1];
				if (st & PERF_SAMPLE_STREAM_ID)
					*p++ = buf[1];
				if (st & PERF_SAMPLE_CPU)
					*p++ = (uint64_t)(uint32_t)rs->cpus->map[c];
				if (st & PERF_SAMPLE_IDENTIFIER)
					*p++ = buf[1];
				h->size = (uint16_t)((char *)p - (char *)rec);
				err = perf_data_writer__write(&rs->writer, rec, h->size);
				if (err)
					return err;
			}
		}
	}
	return 0;
}

/* perf record reads the kernel's symbols to mark the DSOs hit: when they
 * come from a vmlinux, its build-id table names the kernel after it. */
static void name_kernel(struct dso_hits *hits, const char *vmlinux)
{
	char *image = running_kernel__vmlinux(vmlinux);

	if (image)
		dso_hits__name_kernel(hits, image);
	free(image);
}

static int finish_file(struct record_session *rs, struct record_finish *fin)
{
	struct header_env env;
	struct perf_data_writer *w = &rs->writer;
	struct record_threads_totals rings = { 0 };
	bool is_dir = rs->dir_writers != NULL;
	int err;

	err = 0;
	if (is_dir) {
		err = record_threads__stop(rs->dir_writers, &rings);
		rs->dir_writers = NULL;
	}
	if (rs->off_cpu) {
		err = off_cpu__finish(rs->off_cpu, write_off_cpu_sample, rs);
		rs->samples = rs->drain.stats.samples - rs->file_start.samples -
			      rs->samples_dropped + rs->samples_added;
	}
	if (!err)
		err = synthesize_tail(rs);
	describe(rs, fin, &env);
	rs->lost_samples = 0;
	if (!err)
		err = write_lost_samples(rs);
	if (!err)
		err = perf_data_writer__flush(w);
	if (!err && rs->hits) {
		name_kernel(rs->hits, fin->vmlinux);
		env.nr_dsos = dso_hits__resolve(rs->hits, fin->buildid_all, &env.dsos);
	}
	if (!err && fin->buildid_cache && env.nr_dsos) {
		char *dir = build_id_cache__dir();

		/* Best effort, as perf: a cache that cannot be written is no error. */
		for (size_t i = 0; i < env.nr_dsos; i++)
			build_id_cache__add(dir, env.dsos[i].filename, env.dsos[i].build_id,
					    env.dsos[i].build_id_size);
		free(dir);
	}
	fin->raw_bytes = w->raw_size + rings.raw_bytes;
	fin->written_bytes = w->data_size + rings.written_bytes;
	fin->data_end = w->data_offset + w->data_size + rings.written_bytes;
	env.dir_format_version = is_dir;
	if (!err && w->zstd && !w->pipe) {
		env.compressed = true;
		env.comp_level = (uint32_t)w->comp_level;
		env.comp_ratio = fin->written_bytes ?
				 (uint32_t)(fin->raw_bytes / fin->written_bytes + 0.5) : 0;
		env.comp_mmap_len = perf_data_writer__comp_mmap_len();
	}
	/* A pipe's features went out at its start. */
	if (!err && !w->pipe)
		err = header_features__write(w, &env);
	if (!err)
		err = perf_data_writer__finish(w);
	else
		perf_data_writer__close(w);
	rs->writing = false;
	dso_hits__delete(rs->hits);
	rs->hits = NULL;
	return err;
}

int record_session__track_off_cpu(struct record_session *rs, const struct evsel *off_cpu,
				  struct evsel *sched_switch)
{
	if (rs->evlist->last != sched_switch)
		return -EINVAL;
	rs->off_cpu = off_cpu__new(off_cpu->attr.sample_type, off_cpu->ids ? off_cpu->ids[0] : 0);
	rs->off_cpu_switch = sched_switch;
	return rs->off_cpu ? 0 : -EINVAL;
}

int record_session__create_file(struct record_session *rs, const char *path,
				int comp_level, bool build_ids, pid_t workload_pid,
				const struct record_finish *fin)
{
	int err;

	hide_off_cpu_switch(rs);
	err = create_file(rs, path, comp_level, build_ids, workload_pid, fin);
	show_off_cpu_switch(rs);
	return err;
}

int record_session__finish_file(struct record_session *rs, struct record_finish *fin)
{
	int err;

	hide_off_cpu_switch(rs);
	err = finish_file(rs, fin);
	show_off_cpu_switch(rs);
	return err;
}

void record_session__close(struct record_session *rs)
{
	off_cpu__delete(rs->off_cpu);
	rs->off_cpu = NULL;
	rs->off_cpu_switch = NULL;
	if (rs->dir_writers)
		record_threads__stop(rs->dir_writers, NULL);
	rs->dir_writers = NULL;
	drain__unmap(&rs->drain);
	free(rs->id_map);
	rs->id_map = NULL;
	free(rs->clock_unit);
	rs->clock_unit = NULL;
	if (rs->writing)
		perf_data_writer__close(&rs->writer);
	rs->writing = false;
	dso_hits__delete(rs->hits);
	rs->hits = NULL;
	bpf_env__free(&rs->bpf);
	evlist__close(rs->evlist);
}

/* --- live consumers ----------------------------------------------------------- */

struct evsel *record_session__evsel_of_id(const struct record_session *rs, uint64_t id)
{
	size_t lo = 0, hi = rs->nr_ids;

	if (!(rs->evlist->first->attr.sample_type & (PERF_SAMPLE_ID | PERF_SAMPLE_IDENTIFIER)))
		return rs->evlist->first;
	while (lo < hi) {	/* read_ids() sorted the map */
		size_t mid = (lo + hi) / 2;

		if (rs->id_map[mid].id < id)
			lo = mid + 1;
		else if (rs->id_map[mid].id > id)
			hi = mid;
		else
			return rs->id_map[mid].evsel;
	}
	return NULL;
}

const struct perf_event_attr *record_session__attr_of(const struct record_session *rs,
						      const struct perf_event_header *rec)
{
	const struct perf_event_attr *first = &rs->evlist->first->attr;
	const struct evsel *evsel;
	uint64_t id;

	if (rec->type != PERF_RECORD_SAMPLE || !(first->sample_type & PERF_SAMPLE_IDENTIFIER) ||
	    rec->size < sizeof(*rec) + sizeof(id))
		return first;
	memcpy(&id, rec + 1, sizeof(id));
	evsel = record_session__evsel_of_id(rs, id);
	return evsel ? &evsel->attr : first;
}

void record_round__add(struct record_round *r, const struct perf_event_header *rec)
{
	struct record_round_entry *e;
	struct perf_sample sample;
	const char *err;

	if (r->nr == r->alloc_entries) {
		r->alloc_entries = r->alloc_entries ? 2 * r->alloc_entries : 4096;
		r->entries = xrealloc(r->entries, r->alloc_entries * sizeof(*r->entries));
	}
	if (r->len + rec->size > r->alloc) {
		r->alloc = r->alloc ? 2 * r->alloc : 1 << 20;
		while (r->len + rec->size > r->alloc)
			r->alloc *= 2;
		r->buf = xrealloc(r->buf, r->alloc);
	}
	e = &r->entries[r->nr];
	e->time = perf_sample__parse(record_session__attr_of(r->rs, rec), rec, &sample, &err) ?
		  0 : sample.time;
	e->seq = r->nr++;
	e->off = r->len;
	memcpy(r->buf + r->len, rec, rec->size);
	r->len += rec->size;
}

static int round_entry_cmp(const void *pa, const void *pb)
{
	const struct record_round_entry *a = pa, *b = pb;

	if (a->time != b->time)
		return a->time < b->time ? -1 : 1;
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

void record_round__sort(struct record_round *r)
{
	qsort(r->entries, r->nr, sizeof(*r->entries), round_entry_cmp);
}

void record_round__reset(struct record_round *r)
{
	r->nr = 0;
	r->len = 0;
}

void record_round__exit(struct record_round *r)
{
	free(r->buf);
	free(r->entries);
	*r = (struct record_round){ 0 };
}
