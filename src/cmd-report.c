/* pcl report: perf report --stdio — histograms of a perf.data file by
 * command, DSO, symbol and more, with call graphs.
 *
 * Reads through the session, builds the machine model from the side-band
 * records, resolves each sample (and its stack) and adds it to its event's
 * histogram (core/hist), then prints every event's table (ui/report-stdio),
 * or on a terminal opens the histogram browser on them (ui/hist-browser).
 */
#include <ctype.h>
#include <errno.h>
#include <event-parse.h>
#include <inttypes.h>
#include <regex.h>
#include <sys/mman.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "builtin.h"
#include "itrace-opts.h"
#include "core/hist/branch.h"
#include "core/hist/callchain.h"
#include "core/data/evswitch.h"
#include "core/hist/hist.h"
#include "core/data/sample-filter.h"
#include "core/data/session.h"
#include "core/symbols/machine.h"
#include "ui/header-print.h"
#include "ui/annotate-launch.h"
#include "ui/hist-browser.h"
#include "ui/percent-color.h"
#include "ui/raw-dump.h"
#include "ui/read-values.h"
#include "ui/tasks-print.h"
#include "ui/report-stdio.h"
#include "ui/session-warnings.h"
#include "ui/tui.h"
#include "util/exit-codes.h"
#include "util/parse-options.h"
#include "util/perfconfig.h"
#include "util/strbuf.h"
#include "util/util.h"

static const char *const report_usage[] = { "pcl report [<options>]", NULL };

#define DEFAULT_PARENT_PATTERN "^sys_|^do_page_fault"

/* pcl's own tips, shown where perf shows one of its tips. */
static const char *const tips[] = {
	"Sort by source line with in-process DWARF: pcl report -s srcline",
	"Show only entries above 5%: pcl report --percent-limit 5",
	"Fold stacks for flame graphs: pcl report --no-children -g folded",
	"See who calls a function: pcl report --no-children -G -S <symbol>",
	"Group events side by side: pcl report --group",
};

struct report {
	struct perf_tool tool;
	struct perf_session *session;	/* with the machine */
	struct annotate_launcher *annotate;	/* the browser's 'a': samples per symbol */
	struct hist_opts hopts;
	struct strset strings;
	struct callchain_store store;
	struct cc_resolver resolver;
	struct callchain_cursor cursor;
	struct hists **hists;		/* by evsel idx */
	int nr_hists;
	struct sample_filter filter;
	struct evswitch evswitch;	/* --switch-on/--switch-off */
	regex_t parent_regex, ignore_callees_regex;
	bool parent_regex_set, ignore_callees_set;
	bool need_cursor;
	bool exclude_other;		/* -x: only entries with a parent */
	bool hide_unresolved;		/* -U: samples without a symbol dropped */
	bool mem_mode;			/* --mem-mode: entries of memory accesses */
	bool branch_mode;		/* -b: entries of branches (branch.h) */
	struct branch_type_stat brtype_stat;
	bool stats_mode, tasks_mode;	/* --stats, --tasks: counts, thread tree */
	bool mmaps_mode;		/* --mmaps: --tasks with each thread's maps */
	bool skip_empty;		/* events without samples left out (perf's default) */
	bool show_threads;		/* -T: the READ records' values by thread */
	bool dump;			/* -D: every record dumped, then --stats */
	struct read_values thread_values;
	bool raw_trace;			/* --raw-trace: fields as name=value */
	bool print_features, full_header;	/* --header, -I: a pipe's come late */
	bool header_only;
	struct trace_seq seq;
	uint64_t total_lost_samples;
	uint64_t time_quantum;		/* the time key's slot, ns */
	uint64_t nr_user_stacks, nr_broken_stacks;
	/* progress */
	bool progress_tty;
	double progress_after;		/* seconds */
	struct timespec started;
	uint64_t next_check;
	bool progress_shown;
};

struct report_opts {
	const char *input, *sort_order, *field_order, *call_graph, *percentage, *parent_pattern;
	const char *comms, *pids, *tids, *dsos, *syms, *cpus, *time_str, *field_sep;
	const char *kallsyms, *vmlinux, *symfs, *percent_limit, *ignore_callees;
	const char *column_widths, *symbol_filter, *time_quantum, *pretty, *stdio_color;
	/* annotate's and hardware tracing's: accepted, nothing to show here */
	const char *prefix, *prefix_strip, *objdump, *disassembler_style, *percent_type, *itrace;
	int samples;
	bool asm_raw, source, show_ref_call_graph, ignore_vmlinux, modules, total_cycles;
	bool disable_order, stitch_lbr, mem_mode, branch_history;
	int socket_filter, group_sort_idx;
	int children;			/* -1: default */
	int group;			/* -1: default (on when the file has groups) */
	bool call_graph_set, inverted;
	bool show_nr_samples, show_cpu_utilization, show_total_period;
	bool header, header_only, show_full_info;
	bool hierarchy, nanosecs;
	bool full_source_path, demangle, demangle_kernel;
	bool stdio, tui, quiet, force;
	int branch_stack;		/* -b 1, --no-branch-stack 0; -1: the file's */
	bool show_inline;
	int max_stack;
	int verbose;
};

/* --- helpers -------------------------------------------------------------- */

static uint64_t combined_sample_type(const struct perf_session *s)
{
	uint64_t t = 0;

	evlist__for_each(&s->evlist, pos)
		t |= pos->attr.sample_type;
	return t;
}

static bool tracepoints_only(const struct perf_session *s)
{
	if (!s->evlist.first)
		return false;
	evlist__for_each(&s->evlist, pos)
		if (pos->attr.type != PERF_TYPE_TRACEPOINT)
			return false;
	return true;
}

static struct hists *report__hists(struct report *r, const struct evsel *evsel)
{
	if (evsel->idx >= r->nr_hists) {
		r->hists = xrealloc(r->hists, (size_t)(evsel->idx + 1) * sizeof(*r->hists));
		while (r->nr_hists <= evsel->idx)
			r->hists[r->nr_hists++] = NULL;
	}
	if (!r->hists[evsel->idx])
		r->hists[evsel->idx] = hists__new(&r->hopts, (struct evsel *)evsel, &r->strings,
						  &r->store);
	return r->hists[evsel->idx];
}

static bool printable_bytes(const unsigned char *p, int len)
{
	for (int i = 0; i < len && p[i]; i++)
		if (!isprint(p[i]) && !isspace(p[i]))
			return false;
	return len > 0;
}

/* --raw-trace: " name=value" per field, values as perf 6.1's own
 * traceevent library prints them (decimal unless a pointer or a long). */
static void raw_trace_fields(struct trace_seq *s, struct tep_event *ev, const unsigned char *data,
			     int size)
{
	for (struct tep_format_field *f = ev->format.fields; f; f = f->next) {
		unsigned long long v;
		int off = f->offset, len = f->size;

		trace_seq_printf(s, " %s=", f->name);
		if (off < 0 || len < 0 || off + len > size)
			continue;
		if (f->flags & TEP_FIELD_IS_ARRAY) {
			if (f->flags & TEP_FIELD_IS_DYNAMIC) {
				v = tep_read_number(ev->tep, data + off, len);
				off = (int)(v & 0xffff) +
				      ((f->flags & TEP_FIELD_IS_RELATIVE) ? f->offset + f->size : 0);
				len = (int)((v >> 16) & 0xffff);
				if (off + len > size)
					continue;
			}
			if ((f->flags & TEP_FIELD_IS_STRING) && printable_bytes(data + off, len)) {
				trace_seq_printf(s, "%.*s", len, (const char *)data + off);
				continue;
			}
			trace_seq_puts(s, "ARRAY[");
			for (int i = 0; i < len; i++)
				trace_seq_printf(s, "%s%02x", i ? ", " : "", data[off + i]);
			trace_seq_putc(s, ']');
			continue;
		}
		v = tep_read_number(ev->tep, data + off, len);
		if (f->flags & TEP_FIELD_IS_POINTER)
			trace_seq_printf(s, "0x%llx", v);
		else if (!(f->flags & TEP_FIELD_IS_SIGNED))
			trace_seq_printf(s, (f->flags & TEP_FIELD_IS_LONG) ? "0x%llx" : "%llu", v);
		else if (len == 4)
			trace_seq_printf(s, (f->flags & TEP_FIELD_IS_LONG) ? "0x%x" : "%d", (int)v);
		else if (len == 2)
			trace_seq_printf(s, "%2d", (short)v);
		else if (len == 1)
			trace_seq_printf(s, "%1d", (signed char)v);
		else
			trace_seq_printf(s, "%lld", (long long)v);
	}
}

static const char *trace_output(struct report *r, const struct evsel *evsel,
				const struct perf_sample *sample)
{
	struct tep_event *tp = perf_session__event(r->session, evsel)->tp_format;

	if (evsel->attr.type != PERF_TYPE_TRACEPOINT)
		return NULL;
	if (!tp || !sample->raw_data)
		return strset_intern(&r->strings, "");
	trace_seq_reset(&r->seq);
	if (r->raw_trace) {
		raw_trace_fields(&r->seq, tp, sample->raw_data, (int)sample->raw_size);
		trace_seq_terminate(&r->seq);
	} else {
		perf_session__print_trace(r->session, evsel, sample, &r->seq);
	}
	return strset_intern_len(&r->strings, r->seq.buffer, r->seq.len);
}

/* A progress line on a terminal once processing takes more than a second. */
static void progress(struct report *r, uint64_t offset, bool done)
{
	struct timespec now;
	double elapsed;
	uint64_t start = r->session->data_offset, end = r->session->data_end;

	/* a directory's offsets are each file's own: no one percentage */
	if (!r->progress_tty || r->session->is_dir)
		return;
	if (done) {
		if (r->progress_shown)
			fputs("\r\033[K", stderr);
		return;
	}
	if (offset < r->next_check)
		return;
	r->next_check = offset + (1u << 18);
	clock_gettime(CLOCK_MONOTONIC, &now);
	elapsed = (double)(now.tv_sec - r->started.tv_sec) +
		  (double)(now.tv_nsec - r->started.tv_nsec) / 1e9;
	if (elapsed < r->progress_after || end <= start)
		return;
	fprintf(stderr, "\rProcessing events... %3d%%",
		(int)((offset - start) * 100 / (end - start)));
	r->progress_shown = true;
}

/* --- samples -------------------------------------------------------------- */

static int32_t cpu_socket(const struct report *r, uint32_t cpu)
{
	const struct perf_header *h = &r->session->header;

	if (cpu == (uint32_t)-1 || !h->cpu_topo || cpu >= h->nr_cpus_avail)
		return -1;
	return h->cpu_topo[cpu].socket_id;
}

/* --mem-mode: the sample's data address resolved (perf's mem_info), and
 * the weight as its period, so that entries weigh what they cost */
static void resolve_mem(struct report *r, const struct perf_sample *sample,
			struct hist_sample *hs)
{
	struct addr_location al;

	memset(&al, 0, sizeof(al));
	machine__resolve(r->session->machine, hs->thread, sample->cpumode, sample->addr, &al);
	hs->mem = (struct hist_mem){
		.present = true,
		.data_src = sample->data_src,
		.daddr = sample->addr,
		.daddr_rel = al.map ? al.addr : sample->addr,
		.dso = al.map ? al.dso : NULL,
		.sym = al.map ? al.sym : NULL,
		.phys_addr = sample->phys_addr,
		.page_size = sample->data_page_size,
		.cpumode = sample->cpumode,
		.mapped = al.map != NULL,
	};
	if (al.map) {
		bool file = map__has_file_id(al.map);

		hs->mem.map_maj = al.map->maj;
		hs->mem.map_min = al.map->min;
		hs->mem.map_ino = al.map->ino;
		hs->mem.map_ino_gen = al.map->ino_generation;
		hs->mem.anon = !(al.map->flags & MAP_SHARED) && !file;
		hs->mem.shared_file = sample->cpumode != PERF_RECORD_MISC_KERNEL &&
				      !(al.map->prot & PROT_EXEC) && (al.map->flags & MAP_SHARED) &&
				      file;
		if (al.sym)
			hs->mem.sym_unmapped = map__unmap_ip(al.map, al.sym->start);
	}
	hs->period = sample->weight ? sample->weight : 1;
}

/* Branch mode: an entry for each branch of the stack, of period 1 (the
 * percentages are of branches, not samples), located at the branch's
 * target; perf weighs each with the first branch's cycles */
static void add_branches(struct report *r, struct evsel *evsel, const struct perf_sample *sample,
			 struct hist_sample *hs)
{
	struct hists *h = report__hists(r, evsel);
	uint64_t first_cycles = 0;

	hs->cursor = NULL;
	hs->period = 1;
	for (uint64_t i = 0; sample->branch_entries && i < sample->branch_nr; i++) {
		struct hist_branch *b = &hs->br;
		struct hist_entry *he;

		hist_branch__resolve(b, r->session->machine, hs->thread, sample, i);
		if (!i)
			first_cycles = BRANCH_CYCLES(b->flags);
		if (r->hide_unresolved && !(b->from.sym && b->to.sym))
			continue;
		hs->dso = b->to.dso;
		hs->sym = b->to.sym;
		/* perf: the sym key shows it unresolved; the level stays the sample's */
		hs->addr = b->to.addr;
		hs->weight = first_cycles ? first_cycles : 1;
		he = hists__add_sample(h, hs);
		branch_type_stat__count(&r->brtype_stat, &he->br);
	}
}

static void process_sample(struct report *r, struct evsel *evsel, const struct perf_sample *sample)
{
	struct addr_location al;
	struct thread *thread;
	struct hist_sample hs;
	uint8_t filtered;

	if (sample_filter__skip_time(&r->filter, sample->time) ||
	    evswitch__discard(&r->evswitch, evsel))
		return;
	perf_session__resolve_sample(r->session, sample, &al);
	thread = al.thread;
	if (r->dump)
		raw_dump_sample_location(stdout, thread, &al);
	if (r->hide_unresolved && !(al.map && al.sym))
		return;
	filtered = (sample_filter__thread(&r->filter, thread) ? HIST_FILTER_THREAD : 0) |
		   (sample_filter__dso(&r->filter, &al) ? HIST_FILTER_DSO : 0) |
		   (sample_filter__symbol(&r->filter, &al) ? HIST_FILTER_SYMBOL : 0) |
		   hist_filter__host_guest(sample->cpumode);
	if (sample_filter__skip_cpu(&r->filter, sample->cpu))
		return;
	if (r->annotate && al.map && al.sym)
		annotate_samples__add(&r->annotate->samples, al.dso, al.sym, evsel->idx, al.addr,
				      sample->period);
	hs = hist_sample__resolved(thread, &al, sample, &r->strings);
	hs.socket = cpu_socket(r, sample->cpu);
	hs.time = sample->time - sample->time % r->time_quantum;
	hs.weight = sample->weight;
	hs.ins_lat = sample->ins_lat;
	hs.map_size = al.map ? al.map->end - al.map->start : 0;
	hs.cgroup = (struct hist_cgroup){
		.id = sample->cgroup,
		.path = machine__cgroup_path(r->session->machine, sample->cgroup),
		.ns_dev = thread->cgroup_ns_dev,
		.ns_ino = thread->cgroup_ns_ino,
	};
	hs.filtered = filtered;
	if (r->mem_mode)
		resolve_mem(r, sample, &hs);
	if (r->branch_mode) {
		add_branches(r, evsel, sample, &hs);
		return;
	}
	if (r->hopts.layout.has_trace)
		hs.trace = trace_output(r, evsel, sample);
	if (r->need_cursor && (sample->callchain || r->hopts.branch_counts)) {
		callchain_cursor__resolve(&r->cursor, &r->resolver, thread, &evsel->attr, sample);
		hs.cursor = &r->cursor;
		if (r->cursor.root) {
			/* --ignore-callees: the sample is the matching function's */
			const struct cc_frame *f = r->cursor.root;

			hs.dso = f->dso;
			hs.sym = f->sym;
			hs.addr = f->addr;
			hs.map_size = f->map_size;
			hs.unmap_shift = f->unmap_shift;
			hs.level = f->kernel ? 'k' : '.';
			hs.cpumode = f->kernel ? PERF_RECORD_MISC_KERNEL : PERF_RECORD_MISC_USER;
			/* perf takes the frame's location whole: no filter marks */
			hs.filtered = 0;
		}
		if (r->cursor.has_user) {
			r->nr_user_stacks++;
			r->nr_broken_stacks += r->cursor.broken;
		}
	}
	if (r->exclude_other && !(hs.cursor && hs.cursor->parent))
		hs.filtered |= HIST_FILTER_PARENT;
	hists__add_sample(report__hists(r, evsel), &hs);
}

static struct report *report_of(struct perf_tool *tool)
{
	return (struct report *)tool;
}

/* Under -D with --stats, --tasks or --mmaps, perf's counting tools leave
 * most records to stubs, which say ": unhandled!" instead of the details:
 * --stats handles samples and losses (and reads the file unsorted),
 * --tasks also COMM, FORK and EXIT, --mmaps also MMAP and MMAP2. */
static bool unhandled_when_counting(const struct report *r, uint32_t type)
{
	switch (type) {
	case PERF_RECORD_COMM:
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
	case PERF_RECORD_FINISHED_ROUND:
		return r->stats_mode;
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		return r->stats_mode || !r->mmaps_mode;
	case PERF_RECORD_NAMESPACES:
	case PERF_RECORD_CGROUP:
	case PERF_RECORD_ID_INDEX:
		return true;
	default:
		return false;
	}
}

/* -D: one record's dump, ended as perf's handler for it ends it. */
static void dump_record(struct report *r, struct perf_session *s,
			const struct perf_event_header *rec, const struct perf_sample *sample,
			struct evsel *evsel, uint64_t off)
{
	bool counting = r->stats_mode || r->tasks_mode;
	enum raw_dump_end end = RAW_DUMP_HANDLED;

	/* --stats counts them without a word, not even the line's end */
	if (r->stats_mode && rec->type == PERF_RECORD_LOST_SAMPLES) {
		raw_dump_record_head(stdout, s, rec, sample, off);
		return;
	}
	if (counting && unhandled_when_counting(r, rec->type))
		end = RAW_DUMP_STUB;
	/* perf report has no use for these (perf script has) */
	else if (raw_dump_left_to_stub(rec->type) ||
		 (rec->type == PERF_RECORD_SAMPLE && r->tasks_mode && !r->stats_mode) ||
		 (rec->type == PERF_RECORD_EVENT_UPDATE && counting))
		end = RAW_DUMP_STUB_AFTER_DETAILS;
	raw_dump_record_as(stdout, s, rec, sample, evsel, off, end);
}

/* Every record, before the machine takes it: a pipe's header pieces,
 * the progress line and -D's dump. */
static int report_each(struct perf_tool *tool, struct perf_session *s,
		       const struct perf_event_header *rec, struct perf_sample *sample,
		       struct evsel *evsel, uint64_t off)
{
	struct report *r = report_of(tool);

	if (rec->type == PERF_RECORD_HEADER_FEATURE && r->print_features) {
		uint64_t feat = ((const struct perf_rec_feature *)(const void *)rec)->feat_id;

		if (feat < HEADER_LAST_FEATURE)
			header_print_feature(stdout, s, (int)feat, r->full_header);
	}
	if (r->header_only)
		return 0;
	if (!r->stats_mode && !r->tasks_mode)
		progress(r, off, false);
	if (r->dump)
		dump_record(r, s, rec, sample, evsel, off);
	return 0;
}

static int report_sample(struct perf_tool *tool, struct perf_session *s,
			 const struct perf_event_header *rec, struct perf_sample *sample,
			 struct evsel *evsel)
{
	struct report *r = report_of(tool);

	/* perf's counting tools: samples only counted, threads followed */
	if (r->stats_mode || r->tasks_mode)
		report__hists(r, evsel)->stats.nr_samples++;
	else
		process_sample(r, evsel, sample);
	return 0;
}

static int report_read(struct perf_tool *tool, struct perf_session *s,
		       const struct perf_event_header *rec, struct perf_sample *sample,
		       struct evsel *evsel)
{
	const struct perf_rec_read *rd = (const void *)rec;

	if (evsel)
		read_values__add(&report_of(tool)->thread_values, (int)rd->pid, (int)rd->tid,
				 evsel->idx, evsel->name, rd->value);
	return 0;
}

static int report_lost_samples(struct perf_tool *tool, struct perf_session *s,
			       const struct perf_event_header *rec, struct perf_sample *sample,
			       struct evsel *evsel)
{
	uint64_t lost = ((const struct perf_rec_lost_samples *)(const void *)rec)->lost;

	report_of(tool)->total_lost_samples += lost;
	if (evsel)
		report__hists(report_of(tool), evsel)->stats.nr_lost_samples += lost;
	return 0;
}

static int report_attr(struct perf_tool *tool, struct perf_session *s, struct evsel *evsel)
{
	report__hists(report_of(tool), evsel);
	return 0;
}

/* The callbacks the mode asks for. */
static void report_tool(struct report *r)
{
	bool counting = r->stats_mode || r->tasks_mode;

	r->tool.record = report_each;
	/* perf's --stats tool leaves FORKs to a stub: no thread is looked at */
	r->tool.stale_parent = r->dump && !r->stats_mode ? raw_dump_stale_parent : NULL;
	r->tool.attr = report_attr;
	r->tool.ordered = !r->stats_mode;	/* perf counts records as they come */
	if (r->header_only)
		return;
	r->tool.sample = report_sample;
	r->tool.lost_samples = report_lost_samples;
	/* the records perf's --tasks/--mmaps tool leaves to stubs */
	if (r->tasks_mode)
		for (uint32_t type = 0; type < PERF_RECORD_HEADER_MAX; type++)
			r->tool.machine_ignores[type] = unhandled_when_counting(r, type);
	if (!counting)
		r->tool.read = r->show_threads ? report_read : NULL;
}

/* --- setup ---------------------------------------------------------------- */

static int parse_percent_limit(struct report *r, const char *arg)
{
	char *end;
	float v = strtof(arg, &end);

	if (end == arg)
		return -1;
	r->hopts.percent_limit = v;
	/* perf makes it the call graph threshold too */
	r->hopts.cc.min_percent = v;
	return 0;
}

/* --time-quantum: a number of ns, or of s, ms, us with the unit after it. */
static int parse_time_quantum(const char *arg, uint64_t *q)
{
	static const struct { const char *unit; uint64_t ns; } units[] = {
		{ "", 1 }, { "s", 1000000000 }, { "ms", 1000000 }, { "us", 1000 }, { "ns", 1 },
	};
	char *end;

	*q = strtoull(arg, &end, 0);
	if (end == arg)
		goto bad;
	if (!*q) {
		fputs("time quantum cannot be 0", stderr);
		return -1;
	}
	while (isspace((unsigned char)*end))
		end++;
	for (size_t i = 0; i < ARRAY_SIZE(units); i++)
		if (!strcmp(end, units[i].unit)) {
			*q *= units[i].ns;
			return 0;
		}
bad:
	fprintf(stderr, "Cannot parse time quantum `%s'\n", arg);
	return -1;
}

/* --percent-type: "local" or "global", and "period" or "hits", either
 * first, joined by '-'. */
static bool percent_type_ok(const char *arg)
{
	const char *dash = strchr(arg, '-');
	bool scope = false, kind = false;

	if (!dash)
		return false;
	for (const char *w = arg; w; w = w == arg ? dash + 1 : NULL) {
		size_t n = w == arg ? (size_t)(dash - arg) : strlen(w);

		if ((n == 5 && !strncmp(w, "local", 5)) || (n == 6 && !strncmp(w, "global", 6)))
			scope = true;
		else if ((n == 6 && !strncmp(w, "period", 6)) || (n == 4 && !strncmp(w, "hits", 4)))
			kind = true;
	}
	return scope && kind;
}

/* perf: --group on a file without groups makes one group of all events. */
static void setup_groups(struct report *r, bool forced)
{
	evlist__for_each(&r->session->evlist, pos) {
		struct hists *h = report__hists(r, pos);

		h->leader = report__hists(r, forced ? r->session->evlist.first : pos->leader);
	}
	evlist__for_each(&r->session->evlist, pos) {
		struct hists *h = report__hists(r, pos);

		if (h->leader == h)
			continue;
		h->leader->members = xrealloc(h->leader->members,
					      (size_t)h->leader->nr_members * sizeof(struct hists *));
		h->leader->members[h->leader->nr_members - 1] = h;
		h->leader->nr_members++;
	}
}

static void print_elided(const struct hist_layout *l, const struct sample_filter *f,
			 const char *only[HISTC_NR_COLS])
{
	const struct { enum hist_column col; const char *name; const struct name_list *list; } lists[] = {
		{ HISTC_SYMBOL, "symbol", &f->syms },
		{ HISTC_DSO, "dso", &f->dsos },
		{ HISTC_COMM, "comm", &f->comms },
	};

	for (int i = 0; i < l->nr_fields; i++) {
		const struct hist_field *field = l->fields[i].field;

		if (!field->is_key)
			continue;
		for (size_t k = 0; k < ARRAY_SIZE(lists); k++) {
			if (field->col != lists[k].col || lists[k].list->n != 1)
				continue;
			printf("# %s: %s\n", lists[k].name, lists[k].list->v[0]);
			only[field->col] = lists[k].list->v[0];
		}
	}
}

/* Beyond perf: truncated user stacks are the first thing to fix. */
static void print_broken_stacks(const struct report *r)
{
	bool dwarf = combined_sample_type(r->session) & PERF_SAMPLE_STACK_USER;
	uint64_t pct;

	if (!r->nr_user_stacks)
		return;
	pct = r->nr_broken_stacks * 100 / r->nr_user_stacks;
	/* a few broken stacks are normal (signal frames, JIT code, start-up):
	 * only most of them being broken says how the program was built */
	if (pct <= 50)
		return;
	fprintf(stderr, "%" PRIu64 "%% of stacks end outside main/thread start: %s\n", pct,
		dwarf ? "record a bigger stack copy (--call-graph dwarf,65528) or check for "
			"missing debug info (CFI)" :
			"build with -fno-omit-frame-pointer or use --call-graph dwarf");
}

static int report_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int report_error(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fputs("Error:\n", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return 0;	/* perf report exits 0 after these */
}

/* Returns -1 with *status perf's exit status for what was wrong. */
static int setup_filters(struct report *r, const struct report_opts *o, int *status)
{
	sample_filter__add_names(&r->filter, &(struct sample_filter_names){
		o->comms, o->dsos, o->syms, o->pids, o->tids });
	if (o->time_str) {
		const struct perf_header *h = &r->session->header;
		int err = sample_filter__set_time_arg(&r->filter, o->time_str,
						      h->first_sample_time, h->last_sample_time);

		if (err == -2)
			fprintf(stderr, "HINT: no first/last sample time found in perf data.\n"
				"Please use latest perf binary to execute 'perf record'\n"
				"(if '--buildid-all' is enabled, please set "
				"'--timestamp-boundary').\n");
		else if (err < 0)
			fprintf(stderr, "Invalid time string\n");
		if (err < 0) {
			*status = PCL_EXIT_EINVAL;
			return -1;
		}
	}
	if (o->cpus) {
		bool has_cpu = true;

		evlist__for_each(&r->session->evlist, pos)
			has_cpu &= !!(pos->attr.sample_type & PERF_SAMPLE_CPU);
		if (!has_cpu) {
			fprintf(stderr, "File does not contain CPU events. Remove -C option to "
				"proceed.\nError:\nfailed to set cpu bitmap\n");
			*status = 0;
			return -1;
		}
		if (sample_filter__set_cpus(&r->filter, o->cpus) < 0) {
			fprintf(stderr, "Error:\nfailed to set cpu bitmap\n");
			*status = 0;
			return -1;
		}
	}
	return 0;
}

/* --- output ---------------------------------------------------------------- */

/* --stats: the records of the file by type, then each event's samples
 * and lost samples (perf lists those as LOST_SAMPLES events; -D alone
 * leaves them out, as perf does). */
static void print_stats(struct report *r)
{
	const struct session_stats *st = &r->session->stats;

	printf("\nAggregated stats:\n");
	raw_dump_record_counts(stdout, st->nr_records, PERF_RECORD_HEADER_MAX, st->nr_events,
			       true, r->skip_empty);
	evlist__for_each(&r->session->evlist, pos) {
		uint64_t counts[PERF_RECORD_LOST_SAMPLES + 1] = { 0 };
		const struct hists_stats *hs = &report__hists(r, pos)->stats;

		counts[PERF_RECORD_SAMPLE] = hs->nr_samples;
		counts[PERF_RECORD_LOST_SAMPLES] = r->stats_mode ? hs->nr_lost_samples : 0;
		if (r->skip_empty && !counts[PERF_RECORD_SAMPLE] &&
		    !counts[PERF_RECORD_LOST_SAMPLES])
			continue;
		printf("%s stats:\n", pos->name);
		raw_dump_record_counts(stdout, counts, ARRAY_SIZE(counts), 0, false, true);
	}
}

/* perf: --group or --no-group on a file without groups makes one group
 * of all its events, shown together or not. */
static bool forced_group(const struct report *r, const struct report_opts *o)
{
	return o->group != -1 && !r->session->evlist.nr_groups && r->session->evlist.nr_entries > 1;
}

static bool leads_group(const struct report *r, const struct report_opts *o,
			const struct evsel *evsel)
{
	if (forced_group(r, o))
		return evsel == r->session->evlist.first;
	return evsel->leader == evsel && evsel->nr_members > 1;
}

static struct report_stdio stdio_setup(const struct report_opts *o)
{
	return (struct report_stdio){
		.skip_first_sym = !o->field_order && o->sort_order &&
				  !strncmp(o->sort_order, "sym", 3),
		.time_str = o->time_str,
		.socket_filter = o->socket_filter,
		.mem_sort_order = !o->mem_mode ? NULL : o->sort_order ? o->sort_order :
				  SORT_MEM_DEFAULT_ORDER,
	};
}

/* Whether an event gets a table of its own (members show in their leader's). */
static bool event_shown(const struct report *r, const struct hists *h)
{
	if (r->hopts.event_group && h->leader != h)
		return false;
	return !r->skip_empty || h->stats.nr_samples;
}

static const char *tip(const struct report *r)
{
	uint64_t total = 0;

	for (int i = 0; i < r->nr_hists; i++)
		if (r->hists[i])
			total += r->hists[i]->stats.nr_samples;
	return tips[total % ARRAY_SIZE(tips)];
}

static void print_report(struct report *r, const struct report_opts *o)
{
	struct report_stdio rs = stdio_setup(o);

	if (!o->quiet)
		printf("#\n# Total Lost Samples: %" PRIu64 "\n#\n", r->total_lost_samples);
	evlist__for_each(&r->session->evlist, pos) {
		struct hists *h = report__hists(r, pos);
		char *desc = NULL;

		if (!event_shown(r, h))
			continue;
		if (r->hopts.event_group && h->nr_members > 1)
			desc = hists__group_desc(h, !forced_group(r, o));
		if (!o->quiet)
			report_stdio__nr_samples(stdout, h, desc ? desc : pos->name,
						 leads_group(r, o, pos), &rs);
		report_stdio__hists(stdout, h, &rs, !o->quiet);
		fputs("\n\n", stdout);
		free(desc);
	}
	if (!o->quiet)
		printf("#\n# (Tip: %s)\n#\n", tip(r));
	if (r->branch_mode)
		report_stdio__branch_stats(stdout, &r->brtype_stat);
	if (r->show_threads)
		read_values__print(stdout, &r->thread_values, o->pretty && !strcmp(o->pretty, "raw"));
}

static const char *browse_annotation(void *launcher, const struct hist_entry *he)
{
	return annotate_launcher__browse(launcher, he);
}

/* The browser's 'i': the header report --header-only -I prints. */
static void browse_header(void *session, FILE *fp)
{
	header_print(fp, session, true);
}

/* The histogram browser on the events print_report() would print; -1
 * when the terminal could not be taken over. */
static int browse_report(struct report *r, const struct report_opts *o, bool show_headers,
			 char **switch_input)
{
	struct report_stdio rs = stdio_setup(o);
	struct hist_browser_event *events = xcalloc((size_t)r->session->evlist.nr_entries + 1,
						    sizeof(*events));
	char **descs = xcalloc((size_t)r->session->evlist.nr_entries + 1, sizeof(*descs));
	char *helpline = xasprintf("Tip: %s", tip(r));
	struct hist_browser_opts bo = { .stdio = &rs, .helpline = helpline,
					.show_headers = show_headers,
					.annotate = browse_annotation, .annotate_ctx = r->annotate,
					.has_samples = annotate_launcher__has_samples,
					.header = browse_header, .header_ctx = r->session,
					.switch_input = switch_input,
					.filter_relative = &r->hopts.filter_relative,
					.group_sort_idx = &r->hopts.group_sort_idx,
					.verbose = &r->hopts.verbose };
	const char **names = xcalloc((size_t)r->session->evlist.nr_entries + 1, sizeof(*names));
	struct script_menu scripts = { .input = o->input, .events = names };
	int n = 0, ret;

	evlist__for_each(&r->session->evlist, pos)
		names[scripts.nr_events++] = pos->name;
	bo.scripts = &scripts;
	if (r->annotate)
		r->annotate->scripts = &scripts;
	/* a group's members too, after it: TAB reaches them, as perf's */
	evlist__for_each(&r->session->evlist, pos) {
		struct hists *h = report__hists(r, pos);
		bool member = r->hopts.event_group && h->leader != h;

		if (!member && !event_shown(r, h))
			continue;
		if (r->hopts.event_group && h->nr_members > 1)
			descs[n] = hists__group_desc(h, !forced_group(r, o));
		events[n] = (struct hist_browser_event){ .hists = h,
			.name = descs[n] ? descs[n] : pos->name,
			.leads_group = leads_group(r, o, pos), .member = member };
		n++;
	}
	ret = hist_browser__run(events, n, &bo);
	if (r->annotate)
		r->annotate->scripts = NULL;
	free(names);
	for (int i = 0; i < n; i++)
		free(descs[i]);
	free(descs);
	free(events);
	free(helpline);
	return ret;
}

/* perf's choice of interface: --stdio, else the browser on a terminal
 * unless the tui.report setting says no (--tui overrides it); what only
 * prints text (headers, --stats, -D, ...) stays text. */
static bool use_browser(const struct report *r, const struct report_opts *o)
{
	if (o->stdio || o->header || o->header_only || r->stats_mode || r->tasks_mode || r->dump ||
	    r->show_threads || o->field_sep || !tui__usable())
		return false;
	return o->tui || perfconfig__default_bool("tui.report", true);
}

/* -h's texts as perf 6.1 words them (its key lists are its own, whatever
 * pcl adds or lacks: a bad key names the accepted ones). */
#define KEYS_CONT "\n\t\t\t  "
#define SORT_KEYS_HELP \
	"sort by key(s): overhead overhead_sys overhead_us overhead_guest_sys" KEYS_CONT \
	"overhead_guest_us overhead_children sample period" KEYS_CONT \
	"pid comm dso symbol parent cpu socket srcline srcfile" KEYS_CONT \
	"local_weight weight transaction trace symbol_size" KEYS_CONT \
	"dso_size cgroup cgroup_id ipc_null time code_page_size" KEYS_CONT \
	"local_ins_lat ins_lat local_p_stage_cyc p_stage_cyc" KEYS_CONT \
	"addr dso_from dso_to symbol_from symbol_to mispredict" KEYS_CONT \
	"abort in_tx cycles srcline_from srcline_to ipc_lbr" KEYS_CONT \
	"addr_from addr_to symbol_daddr dso_daddr locked tlb" KEYS_CONT \
	"mem snoop dcacheline symbol_iaddr phys_daddr data_page_size" KEYS_CONT \
	"blocked"
#define FIELDS_HELP \
	"output field(s): overhead period sample  overhead overhead_sys" KEYS_CONT \
	"overhead_us overhead_guest_sys overhead_guest_us overhead_children" KEYS_CONT \
	"sample period pid comm dso symbol parent cpu socket" KEYS_CONT \
	"srcline srcfile local_weight weight transaction trace" KEYS_CONT \
	"symbol_size dso_size cgroup cgroup_id ipc_null time" KEYS_CONT \
	"code_page_size local_ins_lat ins_lat local_p_stage_cyc" KEYS_CONT \
	"p_stage_cyc addr dso_from dso_to symbol_from symbol_to" KEYS_CONT \
	"mispredict abort in_tx cycles srcline_from srcline_to" KEYS_CONT \
	"ipc_lbr addr_from addr_to symbol_daddr dso_daddr locked" KEYS_CONT \
	"tlb mem snoop dcacheline symbol_iaddr phys_daddr data_page_size" KEYS_CONT \
	"blocked"
#define CALL_GRAPH_HELP \
	"Display call graph (stack chain/backtrace):\n\n" \
	"\t\t\t\tprint_type:\tcall graph printing style (graph|flat|fractal|folded|none)\n" \
	"\t\t\t\tthreshold:\tminimum call graph inclusion threshold (<percent>)\n" \
	"\t\t\t\tprint_limit:\tmaximum number of call graph entry (<number>)\n" \
	"\t\t\t\torder:\t\tcall graph order (caller|callee)\n" \
	"\t\t\t\tsort_key:\tcall graph sort key (function|address)\n" \
	"\t\t\t\tbranch:\t\tinclude last branch info to call graph (branch)\n" \
	"\t\t\t\tvalue:\t\tcall graph value (percent|period|count)\n\n" \
	"\t\t\t\tDefault: graph,0.5,caller,function,percent"

/* perf's call-graph.* display keys, as defaults -g overrides. */
static int callchain_config(struct callchain_param *cc)
{
	const char *why, *key, *value;
	char buf[256];

	if (!callchain_param__read_config(cc, buf, sizeof(buf), &why, &key, &value))
		return 0;
	fprintf(stderr, "%s\nError in the given config file: wrong config key-value pair "
		"%s=%s\n", why, key, value);
	return -1;
}

/* One report; the browser's 's' leaves the file it chose in *switch_input. */
static int report_main(int argc, const char **argv, char **switch_input)
{
	struct report r = { .skip_empty = true };
	struct report_opts o = { .children = -1, .group = -1, .branch_stack = -1, .socket_filter = -1, .demangle = true,
				 .source = true, .max_stack = callchain_max_stack_default(),
				 .show_inline = true };
	char max_stack_help[192];
	const struct option opts[] = {
		OPT_STRING('i', "input", &o.input, "file", "input file name"),
		OPT_INCR('v', "verbose", &o.verbose, "be more verbose (show symbol address, etc)"),
		OPT_BOOLEAN('q', "quiet", &o.quiet, "Do not show any warnings or messages"),
		OPT_BOOLEAN('f', "force", &o.force, "don't complain, do it"),
		OPT_BOOLEAN('n', "show-nr-samples", &o.show_nr_samples,
			    "Show a column with the number of samples"),
		OPT_BOOLEAN(0, "show-cpu-utilization", &o.show_cpu_utilization,
			    "Show sample percentage for different cpu modes"),
		{ .type = OPT_BOOL_T, .long_name = "showcpuutilization",
		  .value = &o.show_cpu_utilization, .flags = OPTF_HIDDEN },
		OPT_BOOLEAN(0, "show-total-period", &o.show_total_period,
			    "Show a column with the sum of periods"),
		OPT_STRING('s', "sort", &o.sort_order, "key[,key2...]", SORT_KEYS_HELP),
		OPT_STRING('F', "fields", &o.field_order, "key[,keys...]", FIELDS_HELP),
		OPT_STRING('p', "parent", &o.parent_pattern, "regex",
			   "regex filter to identify parent, see: '--sort parent'"),
		OPT_BOOLEAN('x', "exclude-other", &r.exclude_other,
			    "Only display entries with parent-match"),
		{ .type = OPT_STRING_T, .short_name = 'g', .long_name = "call-graph",
		  .value = &o.call_graph, .flags = OPTF_OPTARG | OPTF_LASTARG_DEFAULT,
		  .defstr = "graph,0.5,caller,function,percent",
		  .argh = "print_type,threshold[,print_limit],order,sort_key[,branch],value",
		  .help = CALL_GRAPH_HELP },
		OPT_BOOLEAN('G', "inverted", &o.inverted, "alias for inverted call graph"),
		OPT_SET_INT(0, "children", &o.children,
			    "Accumulate callchains of children and show total overhead as well. "
			    "Enabled by default, use --no-children to disable.", 1),
		OPT_INTEGER(0, "max-stack", &o.max_stack, max_stack_help),
		OPT_BOOLEAN(0, "inline", &o.show_inline, "Show inline function"),
		OPT_STRING(0, "percent-limit", &o.percent_limit, "percent",
			   "Don't show entries under that percent"),
		OPT_STRING(0, "percentage", &o.percentage, "relative|absolute",
			   "how to display percentage of filtered entries"),
		OPT_STRING('t', "field-separator", &o.field_sep, "separator",
			   "separator for columns, no spaces will be added between columns '.' is "
			   "reserved."),
		OPT_BOOLEAN(0, "header", &o.header, "Show data header."),
		OPT_BOOLEAN(0, "header-only", &o.header_only, "Show only data header."),
		OPT_BOOLEAN('I', "show-info", &o.show_full_info,
			    "Display extended information about perf.data file"),
		OPT_SET_INT(0, "group", &o.group, "Show event group information together", 1),
		OPT_STRING('c', "comms", &o.comms, "comm[,comm...]",
			   "only consider symbols in these comms"),
		OPT_STRING(0, "pid", &o.pids, "pid[,pid...]", "only consider symbols in these pids"),
		OPT_STRING(0, "tid", &o.tids, "tid[,tid...]", "only consider symbols in these tids"),
		OPT_STRING('d', "dsos", &o.dsos, "dso[,dso...]", "only consider symbols in these dsos"),
		OPT_STRING('S', "symbols", &o.syms, "symbol[,symbol...]",
			   "only consider these symbols"),
		OPT_STRING('C', "cpu", &o.cpus, "cpu", "list of cpus to profile"),
		OPT_STRING(0, "time", &o.time_str, "str", "Time span of interest (start,stop)"),
		OPT_BOOLEAN(0, "full-source-path", &o.full_source_path,
			    "Show full source file name path for source lines"),
		OPT_BOOLEAN(0, "demangle", &o.demangle, "Disable symbol demangling"),
		OPT_BOOLEAN(0, "demangle-kernel", &o.demangle_kernel,
			    "Enable kernel symbol demangling"),
		OPT_BOOLEAN(0, "ns", &o.nanosecs, "Show times in nanosecs"),
		OPT_STRING(0, "time-quantum", &o.time_quantum, "time (ms|us|ns|s)",
			   "Set time quantum for time sort key (default 100ms)"),
		OPT_STRING(0, "symbol-filter", &o.symbol_filter, "filter",
			   "only show symbols that (partially) match with this filter"),
		OPT_INTEGER(0, "socket-filter", &o.socket_filter,
			    "only show processor socket that match with this filter"),
		OPT_STRING('k', "vmlinux", &o.vmlinux, "file", "vmlinux pathname"),
		OPT_STRING(0, "kallsyms", &o.kallsyms, "file", "kallsyms pathname"),
		OPT_STRING(0, "symfs", &o.symfs, "directory",
			   "Look for files with symbols relative to this directory"),
		OPT_BOOLEAN('U', "hide-unresolved", &r.hide_unresolved,
			    "Only display entries resolved to a symbol"),
		OPT_BOOLEAN(0, "raw-trace", &r.raw_trace,
			    "Show raw trace event output (do not use print fmt or plugins)"),
		OPT_SET_INT('b', "branch-stack", &o.branch_stack,
			    "use branch records for per branch histogram filling", 1),
		OPT_STRING(0, "ignore-callees", &o.ignore_callees, "regex",
			   "ignore callees of these functions in call graphs"),
		OPT_STRING('w', "column-widths", &o.column_widths, "width[,width...]",
			   "don't try to adjust column width, use these fixed values"),
		OPT_BOOLEAN(0, "hierarchy", &o.hierarchy, "Show entries in a hierarchy"),
		OPT_BOOLEAN('D', "dump-raw-trace", &r.dump, "dump raw trace in ASCII"),
		OPT_BOOLEAN('T', "threads", &r.show_threads, "Show per-thread event counters"),
		OPT_STRING(0, "pretty", &o.pretty, "key", "pretty printing style key: normal raw"),
		OPT_INTEGER(0, "group-sort-idx", &o.group_sort_idx,
			    "Sort the output by the event at the index n in group. If n is invalid, "
			    "sort by the first event. WARNING: should be used on grouped events."),
		OPTS_EVSWITCH(&r.evswitch),
		OPT_BOOLEAN(0, "disable-order", &o.disable_order, "Disable raw trace ordering"),
		OPT_INTEGER(0, "samples", &o.samples,
			    "Number of samples to save per histogram entry for individual browsing"),
		OPT_STRING(0, "prefix", &o.prefix, "prefix",
			   "Add prefix to source file path names in programs (with --prefix-strip)"),
		OPT_STRING(0, "prefix-strip", &o.prefix_strip, "N",
			   "Strip first N entries of source file path name in programs (with --prefix)"),
		OPT_STRING(0, "objdump", &o.objdump, "path",
			   "objdump binary to use for disassembly and annotations"),
		OPT_BOOLEAN(0, "asm-raw", &o.asm_raw,
			    "Display raw encoding of assembly instructions (default)"),
		OPT_STRING('M', "disassembler-style", &o.disassembler_style, "disassembler style",
			   "Specify disassembler style (e.g. -M intel for intel syntax)"),
		OPT_BOOLEAN(0, "source", &o.source,
			    "Interleave source code with assembly code (default)"),
		OPT_STRING(0, "percent-type", &o.percent_type, "local-period",
			   "Set percent type local/global-period/hits"),
		OPT_BOOLEAN(0, "show-ref-call-graph", &o.show_ref_call_graph,
			    "Show callgraph from reference event"),
		OPT_BOOLEAN(0, "ignore-vmlinux", &o.ignore_vmlinux, "don't load vmlinux even if found"),
		OPT_BOOLEAN('m', "modules", &o.modules,
			    "load module symbols - WARNING: use only with -k and LIVE kernel"),
		OPT_STRING_OPTARG(0, "itrace", &o.itrace, "opts", ITRACE_HELP, ""),
		OPT_BOOLEAN(0, "total-cycles", &o.total_cycles, "Sort all blocks by 'Sampled Cycles%'"),
		OPT_BOOLEAN(0, "stitch-lbr", &o.stitch_lbr, "Enable LBR callgraph stitching approach"),
		OPT_BOOLEAN(0, "mem-mode", &o.mem_mode, "mem access profile"),
		OPT_BOOLEAN(0, "branch-history", &o.branch_history,
			    "add last branch records to call history"),
		OPT_BOOLEAN(0, "skip-empty", &r.skip_empty,
			    "Do not display empty (or dummy) events in the output"),
		OPT_BOOLEAN(0, "stats", &r.stats_mode, "Display event stats"),
		OPT_BOOLEAN(0, "tasks", &r.tasks_mode, "Display recorded tasks"),
		OPT_BOOLEAN(0, "mmaps", &r.mmaps_mode, "Display recorded tasks memory maps"),
		OPT_BOOLEAN(0, "stdio", &o.stdio, "Use the stdio interface"),
		{ .type = OPT_STRING_T, .long_name = "stdio-color", .value = &o.stdio_color,
		  .flags = OPTF_OPTARG | OPTF_LASTARG_DEFAULT, .defstr = "always", .argh = "mode",
		  .help = "'always' (default), 'never' or 'auto' only applicable to --stdio mode" },
		OPT_BOOLEAN(0, "tui", &o.tui, "Use the TUI interface"),
		OPT_END(),
	};
	struct sort_setup ss = { 0 };
	const char *only[HISTC_NR_COLS] = { NULL };
	char *err = NULL, *sort_tmp = NULL;
	bool user_sort;		/* -s given: its usage follows a bad key */
	bool unusable = false;	/* the file lacks what the options ask for */
	const char *bad_file, *input;
	uint64_t sample_type;
	struct machine *machine;
	size_t nr_entries;
	struct symbols_config *symbols;
	struct annotate_launcher launcher;
	bool browser;
	int ret = 1;

	/* perfconfig: defaults the command line overrides (report.group is
	 * read where groups are decided) */
	o.children = perfconfig__default_bool("report.children", o.children);
	r.skip_empty = perfconfig__default_bool("report.skip-empty", r.skip_empty);
	snprintf(max_stack_help, sizeof(max_stack_help),
		 "Set the maximum stack depth when parsing the callchain, anything beyond the "
		 "specified depth will be ignored. Default: kernel.perf_event_max_stack or %d",
		 callchain_max_stack_default());
	argc = parse_options(argc, argv, opts, report_usage, 0);
	if (!o.sort_order)
		o.sort_order = perfconfig__default("report.sort_order");
	if (!o.percent_limit)
		o.percent_limit = perfconfig__default("report.percent-limit");
	if (!o.percentage)
		o.percentage = perfconfig__default("hist.percentage");
	if (argc)
		usage_with_options(report_usage, opts);
	r.tasks_mode |= r.mmaps_mode;
	browser = use_browser(&r, &o);
	if (!itrace_opts_check(o.itrace, report_usage[0]))
		return PCL_EXIT_USAGE;
	if (o.percent_type && !percent_type_ok(o.percent_type)) {
		parse_options_usage(report_usage, opts, "percent-type", false);
		return PCL_EXIT_USAGE;
	}
	if (o.prefix_strip && !o.prefix) {
		fputs("--prefix-strip requires --prefix\n", stderr);
		return PCL_EXIT_EINVAL;
	}
	if (o.mem_mode && o.branch_stack == 1) {
		fputs("branch and mem mode incompatible\n", stderr);
		return 0;
	}
	/* --disable-order: perf 6.1 still reports what time order gives on
	 * these files, where pcl without ordering would meet a thread's
	 * samples before its COMM: accepted, records stay ordered */
	if (o.branch_history)
		o.call_graph_set = r.hopts.use_callchain = true;
	callchain_param__init(&r.hopts.cc);
	if (callchain_config(&r.hopts.cc))
		return PCL_EXIT_ERROR;
	/* '.' would be taken for the separator in every number: perf refuses
	 * it too (though it prints two header lines and exits 0) */
	if (o.field_sep && *o.field_sep == '.') {
		fputs("'.' is the only non valid --field-separator argument\n", stderr);
		return PCL_EXIT_ERROR;
	}
	r.hopts.field_sep = o.field_sep;
	r.hopts.color = percent_color_mode(o.stdio_color);
	r.hopts.verbose = o.verbose > 0;
	if (o.call_graph) {
		/* perf says nothing more than the option's usage */
		if (callchain_param__parse(&r.hopts.cc, o.call_graph, &r.hopts.use_callchain) < 0) {
			parse_options_usage(report_usage, opts, "g", true);
			return PCL_EXIT_USAGE;
		}
		o.call_graph_set = true;
	}
	/* --branch-history: call-graph nodes are addresses, whatever -g said */
	if (o.branch_history)
		r.hopts.cc.key = CCKEY_ADDRESS;
	if (o.percentage) {
		if (!strcmp(o.percentage, "relative"))
			r.hopts.filter_relative = true;
		else if (strcmp(o.percentage, "absolute"))
			usage_with_options(report_usage, opts);
	}
	if (o.percent_limit && parse_percent_limit(&r, o.percent_limit) < 0)
		usage_with_options(report_usage, opts);
	r.time_quantum = 100000000;	/* perf's default: 100 ms */
	if (o.time_quantum && parse_time_quantum(o.time_quantum, &r.time_quantum) < 0) {
		parse_options_usage(report_usage, opts, "time-quantum", false);
		return PCL_EXIT_USAGE;
	}
	r.hopts.nanosecs = o.nanosecs;
	if (o.hierarchy) {
		/* perf: the levels are the columns (no Children column, see below) */
		if (o.field_order) {
			fputs("Error: --hierarchy and --fields options cannot be used together\n",
			      stderr);
			parse_options_usage(report_usage, opts, "F", true);
			parse_options_usage(NULL, opts, "hierarchy", false);
			return 0;	/* perf's status */
		}
	}

	if ((bad_file = symbol_files__unreadable(o.vmlinux, o.kallsyms))) {
		fprintf(stderr, "Invalid file: %s\n", bad_file);
		return PCL_EXIT_EINVAL;
	}
	input = o.input ? o.input : perf_data__default_path(false);
	r.session = perf_session__open(input, o.force, &err);
	if (!r.session) {
		session_warnings__open_failed(input, err);
		free(err);
		return PCL_EXIT_ERROR;
	}
	if (evswitch__init(&r.evswitch, &r.session->evlist, stderr) < 0) {
		ret = PCL_EXIT_ENOENT;
		goto out;
	}
	if (o.group_sort_idx && !r.session->evlist.nr_groups && !forced_group(&r, &o)) {
		parse_options_usage(NULL, opts, "group-sort-idx", false);
		ret = PCL_EXIT_EINVAL;
		goto out;
	}
	r.hopts.group_sort_idx = o.group_sort_idx;
	if (r.stats_mode && r.tasks_mode) {	/* perf's complaint, and its rc 0 */
		fprintf(stderr, "Error: --tasks and --mmaps can't be used together with --stats\n");
		ret = 0;
		goto out;
	}
	/* perf's branch mode: asked for, or the file was recorded with -b
	 * (though not with a user stack); --branch-history is not it */
	r.branch_mode = (o.branch_stack == 1 ||
			 (o.branch_stack == -1 &&
			  perf_header__has_feat(&r.session->header, HEADER_BRANCH_STACK) &&
			  !(combined_sample_type(r.session) & PERF_SAMPLE_STACK_USER))) &&
			!o.branch_history;
	if (r.branch_mode && o.mem_mode) {
		fputs("branch and mem mode incompatible\n", stderr);
		ret = 0;
		goto out;
	}
	user_sort = o.sort_order != NULL;
	if (o.branch_history && !o.sort_order)
		o.sort_order = "srcline,symbol,dso";
	/* perf notes the branches' counts on the graph's frames when the
	 * file says it was recorded with -b */
	r.hopts.branch_counts = o.branch_history &&
				perf_header__has_feat(&r.session->header, HEADER_BRANCH_STACK);
	/* perf takes no ipc key from -s (only -F): the -s help, and success */
	if (o.sort_order && strstr(o.sort_order, "ipc")) {
		parse_options_usage(report_usage, opts, "s", true);
		ret = 0;
		goto out;
	}
	if (o.sort_order && strstr(o.sort_order, "symbol"))
		o.sort_order = sort_tmp = xasprintf("%s,%s", o.sort_order,
						    r.branch_mode ? "ipc_lbr" : "ipc_null");
	/* as perf: the columns first (bad keys stop here), the header next,
	 * then what the file holds decides the rest */
	ss.sort_order = o.sort_order;
	ss.field_order = o.field_order;
	ss.tracepoints_only = tracepoints_only(r.session);
	ss.cumulate = o.children != 0 && !o.hierarchy && !o.mem_mode && !r.branch_mode;
	ss.show_cpu_utilization = o.show_cpu_utilization;
	ss.show_nr_samples = o.show_nr_samples;
	ss.show_total_period = o.show_total_period;
	ss.hierarchy = o.hierarchy;
	ss.mem_mode = o.mem_mode;
	ss.branch_mode = r.branch_mode;
	if (o.mem_mode && !o.sort_order && !o.field_order)
		ss.sort_order = SORT_MEM_DEFAULT_ORDER;
	if (o.parent_pattern && strcmp(o.parent_pattern, DEFAULT_PARENT_PATTERN)) {
		/* a custom --parent pattern implies the parent column (perf) */
		char *more = xasprintf("%s,parent", o.sort_order ? o.sort_order :
				       sort_default_order(ss.tracepoints_only));

		free(sort_tmp);
		ss.sort_order = o.sort_order = sort_tmp = more;
	}
	if (hist_layout__setup(&r.hopts.layout, &ss, &err) < 0) {
		/* perf then shows the options that named the keys */
		if (user_sort || o.field_order) {
			ret = 0;	/* perf's, as after its other errors here */
			fflush(stdout);
			fprintf(stderr, "Error:\n%s", err);
			if (user_sort)
				parse_options_usage(report_usage, opts, "s", true);
			if (o.field_order)
				parse_options_usage(user_sort ? NULL : report_usage, opts, "F", true);
		} else {
			ret = report_error("%s", err);
		}
		free(err);
		goto out;
	}
	/* perf sets the levels up from the events it knows before reading:
	 * a pipe's come later, so its hierarchy has none (and no entries) */
	if (o.hierarchy && r.session->is_pipe)
		r.hopts.layout.nr_levels = 0;
	if (o.header_only && !o.quiet) {
		r.print_features = true;
		r.full_header = o.show_full_info;
		header_print(stdout, r.session, o.show_full_info);
		/* a pipe's features come as records */
		if (r.session->is_pipe) {
			r.header_only = true;
			report_tool(&r);
			perf_session__process(r.session, &r.tool);
		}
		ret = 0;
		goto out;
	}
	/* a pipe has told nothing yet: call graphs, but no --children */
	sample_type = r.session->is_pipe ? 0 : combined_sample_type(r.session);
	r.hopts.cumulate = o.children != 0 && !o.mem_mode && !r.branch_mode;
	if (o.inverted)
		r.hopts.cc.order = ORDER_CALLER;
	if (r.hopts.cumulate && !r.hopts.cc.order_set)
		r.hopts.cc.order = ORDER_CALLER;
	/* perf turns --children off for --hierarchy after choosing the order */
	if (o.hierarchy)
		r.hopts.cumulate = false;
	if ((sample_type & PERF_SAMPLE_CALLCHAIN) || r.session->is_pipe) {
		if (!o.call_graph_set && r.hopts.cc.mode != CHAIN_NONE)
			r.hopts.use_callchain = true;
	}
	if (!(sample_type & PERF_SAMPLE_CALLCHAIN))
		r.hopts.cumulate = false;
	if (!r.session->is_pipe && !(sample_type & PERF_SAMPLE_CALLCHAIN)) {
		if (r.hopts.layout.has_parent) {
			ret = report_error("Selected --sort parent, but no callchain data. Did you "
					   "call 'perf record' without -g?");
			unusable = true;
		} else if ((r.hopts.use_callchain || o.branch_history) && !r.hopts.branch_counts) {
			ret = report_error("Selected -g or --branch-history.\nBut no callchain or "
					   "branch data.\nDid you call 'perf record' without -g or -b?");
			unusable = true;
		}
	}
	if (!unusable && r.branch_mode && !r.session->is_pipe &&
	    !(sample_type & PERF_SAMPLE_BRANCH_STACK)) {
		ret = report_error("Selected -b but no branch data. Did you call perf "
				   "record without -b?");
		unusable = true;
	}
	if (!unusable && o.mem_mode && !r.session->is_pipe &&
	    !(sample_type & PERF_SAMPLE_DATA_SRC)) {
		ret = report_error("Selected --mem-mode but no mem data. Did you call perf record "
				   "without -d?");
		unusable = true;
	}
	if (!unusable && o.branch_history && !r.session->is_pipe &&
	    !(sample_type & PERF_SAMPLE_BRANCH_STACK)) {
		/* perf 6.1 crashes here */
		ret = report_error("Selected --branch-history but no branch data. Did you call "
				   "perf record without -b?");
		unusable = true;
	}
	/* perf reads call chains from branch stacks when it shows chains
	 * and the samples have branch stacks but no user stack to unwind;
	 * anything else has no LBR chain to stitch */
	if (!unusable && o.stitch_lbr && !((r.hopts.use_callchain || r.hopts.cumulate) &&
			      (sample_type & PERF_SAMPLE_BRANCH_STACK) &&
			      (~sample_type & (PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER)))) {
		fputs("Warning:\nCan't find LBR callchain. Switch off --stitch-lbr.\n"
		      "Please apply --call-graph lbr when recording.\n", stderr);
		o.stitch_lbr = false;
	}
	/* perf's header comes after these complaints, and even with them */
	if (o.header && !o.quiet) {
		r.print_features = true;
		r.full_header = o.show_full_info;
		header_print(stdout, r.session, o.show_full_info);
	} else if (!o.quiet && !r.stats_mode && !r.tasks_mode && !browser) {
		fputs("# To display the perf.data header info, please use --header/--header-only "
		      "options.\n#\n", stdout);
	}
	if (unusable)
		goto out;
	if (!r.hopts.cumulate && !(o.field_order && o.field_order[0] != '+'))
		hist_layout__cancel_cumulate(&r.hopts.layout);
	if (o.column_widths) {
		/* perf's hierarchy levels are copies the widths never reach */
		if (!o.hierarchy)
			hist_layout__set_user_widths(&r.hopts.layout, o.column_widths);
		r.hopts.user_widths = true;
	}
	if (r.hopts.layout.has_parent) {
		if (regcomp(&r.parent_regex, o.parent_pattern ? o.parent_pattern :
			    DEFAULT_PARENT_PATTERN, REG_EXTENDED)) {
			ret = report_error("Invalid regex: %s", o.parent_pattern);
			goto out;
		}
		r.parent_regex_set = true;
	}
	if (o.ignore_callees) {
		if (regcomp(&r.ignore_callees_regex, o.ignore_callees, REG_EXTENDED)) {
			ret = report_error("Invalid regex: %s", o.ignore_callees);
			goto out;
		}
		r.ignore_callees_set = true;
	}
	if (setup_filters(&r, &o, &ret) < 0)
		goto out;
	r.hopts.dso_filter = r.filter.dsos.n > 0;
	r.hopts.thread_filter = r.filter.comms.n || r.filter.pids.n || r.filter.tids.n;
	r.hopts.sym_filter = r.filter.syms.n > 0;
	print_elided(&r.hopts.layout, &r.filter, only);
	/* perf's hierarchy levels keep their columns */
	if (!o.hierarchy)
		hist_layout__elide(&r.hopts.layout, only);

	/* groups: on by default when the file recorded some */
	r.hopts.event_group = o.group == 1 || (o.group == -1 && r.session->evlist.nr_groups > 0 &&
						perfconfig__default_bool("report.group", true));
	if (r.hopts.event_group)
		setup_groups(&r, forced_group(&r, &o));

	machine = perf_session__new_machine(r.session, o.kallsyms, o.symfs, o.force);
	symbols = machine__symbols_config(machine);
	symbols->inline_frames = o.show_inline;
	/* the kernel's names are never mangled C++ here: --demangle-kernel
	 * changes nothing pcl shows */
	symbols->demangle = o.demangle;
	symbols->full_source_path = o.full_source_path;
	symbols->vmlinux = o.vmlinux;
	symbols->ignore_vmlinux = o.ignore_vmlinux;
	machine__prefetch_kallsyms(machine);
	cc_resolver__init(&r.resolver, machine, &r.hopts.cc, &r.strings);
	r.resolver.max_stack = o.max_stack;
	r.resolver.parent_regex = r.parent_regex_set ? &r.parent_regex : NULL;
	r.resolver.hide_unresolved = r.hide_unresolved;
	r.resolver.branch_history = o.branch_history;
	r.resolver.lbr_depth = o.stitch_lbr ? perf_header__lbr_depth(&r.session->header) : 0;
	r.mem_mode = o.mem_mode;
	r.resolver.ignore_callees = r.ignore_callees_set ? &r.ignore_callees_regex : NULL;
	r.need_cursor = r.hopts.use_callchain || r.hopts.cumulate || r.hopts.layout.has_parent;
	callchain_store__init(&r.store);
	trace_seq_init(&r.seq);
	evlist__for_each(&r.session->evlist, pos) {
		struct hists *h = report__hists(&r, pos);

		/* perf gives the first event only the --symbol-filter */
		if (pos->idx == 0)
			h->symbol_filter = o.symbol_filter;
		h->socket_filter = o.socket_filter;
	}

	r.progress_tty = isatty(STDERR_FILENO);
	r.progress_after = 1.0;
	/* for tests only: show the progress line sooner (milliseconds) */
	if (getenv("PCL_PROGRESS_AFTER_MS"))
		r.progress_after = atof(getenv("PCL_PROGRESS_AFTER_MS")) / 1000;
	clock_gettime(CLOCK_MONOTONIC, &r.started);
	report_tool(&r);
	if (browser) {
		r.annotate = &launcher;
		annotate_launcher__init(&launcher, r.session->header.cpuid);
	}
	if (perf_session__process(r.session, &r.tool) < 0) {
		progress(&r, 0, true);
		fprintf(stderr, "pcl report: %s\n", r.session->err);
		goto out_machine;
	}
	progress(&r, 0, true);
	if (!o.quiet && !r.stats_mode && !r.tasks_mode) {
		bool kernel_symbols;

		session_warnings__print(stderr, &r.session->stats, false);
		if (!browser && !evlist__exclude_kernel(&r.session->evlist) &&
		    machine__kernel_unplaced(machine, &kernel_symbols))
			session_warnings__kernel_unplaced(kernel_symbols);
	}
	if (r.stats_mode || r.tasks_mode || r.dump) {
		ret = 0;
		if (r.stats_mode || !r.tasks_mode)
			print_stats(&r);
		else if (tasks_print(stdout, machine, r.mmaps_mode) < 0)
			report_error("failed to process tasks");
		goto out_machine;
	}

	nr_entries = 0;
	evlist__for_each(&r.session->evlist, pos) {
		struct hists *h = report__hists(&r, pos);

		hists__collapse(h);
		nr_entries += h->nr_entries;
		if (r.hopts.event_group && h->leader != h)
			hists__link_group(h->leader, h, (int)(pos->idx - h->leader->evsel->idx));
	}
	if (!nr_entries) {
		ret = report_error("The %s data has no samples!", o.input ? o.input : "perf.data");
		goto out_machine;
	}
	for (int i = 0; i < r.nr_hists; i++)
		if (r.hists[i])
			hists__output_resort(r.hists[i]);
	if (!browser || browse_report(&r, &o, perfconfig__default_bool("ui.show-headers", true),
				      switch_input) < 0)
		print_report(&r, &o);
	if (!o.quiet)
		print_broken_stacks(&r);
	ret = 0;
out_machine:
	if (r.annotate)
		annotate_launcher__exit(r.annotate);
	trace_seq_destroy(&r.seq);
	read_values__exit(&r.thread_values);
	for (int i = 0; i < r.nr_hists; i++)
		hists__delete(r.hists[i]);
	free(r.hists);
	callchain_cursor__exit(&r.cursor);
	cc_resolver__exit(&r.resolver);
	callchain_store__exit(&r.store);
	kallsyms_prefetch_end();
out:
	if (r.parent_regex_set)
		regfree(&r.parent_regex);
	if (r.ignore_callees_set)
		regfree(&r.ignore_callees_regex);
	strset_release(&r.strings);
	sample_filter__exit(&r.filter);
	perf_session__delete(r.session);
	free(sort_tmp);
	return ret;
}

int cmd_report(int argc, const char **argv)
{
	/* the command line as given: the browser's 's' reports another file
	 * with it, as perf does (the last -i wins) */
	const char **given = xcalloc((size_t)argc + 3, sizeof(*given));
	char *switch_input = NULL;
	int ret;

	memcpy(given, argv, (size_t)argc * sizeof(*argv));
	ret = report_main(argc, argv, &switch_input);
	if (switch_input) {
		given[argc] = "-i";
		given[argc + 1] = switch_input;
		ret = cmd_report(argc + 2, given);
		free(switch_input);
	}
	free(given);
	return ret;
}
