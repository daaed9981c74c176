/* pcl annotate: the samples of perf.data laid over the disassembly (and
 * source) of the functions they hit, as perf 6.1's `annotate --stdio`. */
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "builtin.h"
#include "itrace-opts.h"
#include "core/analysis/annotate.h"
#include "core/data/session.h"
#include "core/events/cpumap.h"
#include "core/hist/hist.h"
#include "core/symbols/buildid.h"
#include "core/symbols/disasm.h"
#include "core/symbols/machine.h"
#include "ui/annotate-browser.h"
#include "ui/annotate-launch.h"
#include "ui/annotate-stdio.h"
#include "ui/annotate-stdio2.h"
#include "ui/report-stdio.h"
#include "ui/session-warnings.h"
#include "ui/percent-color.h"
#include "ui/raw-dump.h"
#include "ui/tui.h"
#include "util/exit-codes.h"
#include "util/parse-options.h"
#include "util/perfconfig.h"
#include "util/strbuf.h"
#include "util/util.h"

static const char *const annotate_usage[] = { "pcl annotate [<options>]", NULL };

struct annotate_cmd {
	struct perf_tool tool;
	struct perf_session *session;
	const char *symbol;		/* -s */
	const char *dsos;		/* -d: comma separated */
	struct cpu_map *cpus;		/* -C, or NULL */
	struct hist_opts hopts;
	struct strset strings;
	struct callchain_store store;
	struct hists **hists;		/* by evsel index */
	int nr_hists;
	struct annotate_samples samples;
	struct hashmap files;		/* dso* -> struct disasm_file* (NULL: unreadable) */
	struct hashmap warned;		/* dso*: perf's annotate_warned */
	struct disasm_opts dis;
	bool full_paths;
	bool print_line;		/* -l */
	bool group;			/* --group: a group's events side by side */
	bool stdio2;			/* --stdio2: perf's browser lines as text */
	bool skip_missing;		/* --skip-missing */
	bool no_disassembler;		/* said that libopcodes cannot be loaded */
	struct annotate_browser_opts *browser;	/* the TUI, or NULL */
	double percent_limit;		/* --percent-limit */
	bool dump;			/* -D: the records, then their counts */
	struct script_menu scripts;	/* the browser's 'r' */
};

static bool dso_listed(const char *list, const struct dso *dso)
{
	size_t nl = strlen(dso->long_name), ns = strlen(dso->short_name);

	for (const char *p = list; *p;) {
		size_t len = strcspn(p, ",");

		if ((len == nl && !strncmp(p, dso->long_name, len)) ||
		    (len == ns && !strncmp(p, dso->short_name, len)))
			return true;
		p += len + (p[len] == ',');
	}
	return false;
}

/* The event's histogram, made when first needed (a pipe's events come
 * with its records). */
static struct hists *hists_of(struct annotate_cmd *c, struct evsel *evsel)
{
	if (evsel->idx >= c->nr_hists) {
		c->hists = xrealloc(c->hists, (size_t)(evsel->idx + 1) * sizeof(*c->hists));
		while (c->nr_hists <= evsel->idx)
			c->hists[c->nr_hists++] = NULL;
	}
	if (!c->hists[evsel->idx])
		c->hists[evsel->idx] = hists__new(&c->hopts, evsel, &c->strings, &c->store);
	return c->hists[evsel->idx];
}

static int annotate_sample(struct perf_tool *tool, struct perf_session *s,
			   const struct perf_event_header *rec, struct perf_sample *sample,
			   struct evsel *evsel)
{
	struct annotate_cmd *c = (struct annotate_cmd *)tool;
	struct addr_location al;
	struct hist_sample hs;

	if (c->cpus && cpu_map__idx(c->cpus, (int)sample->cpu) < 0)
		return 0;
	perf_session__resolve_sample(s, sample, &al);
	if (c->dump)
		raw_dump_sample_location(stdout, al.thread, &al);
	if (c->dsos && !(al.map && al.dso && dso_listed(c->dsos, al.dso)))
		return 0;	/* perf's dso filter: not counted at all */
	/* -s: perf counts nothing but the symbol's samples */
	if (c->symbol && !(al.map && al.sym && !strcmp(al.sym->name, c->symbol)))
		return 0;
	hs = hist_sample__resolved(al.thread, &al, sample, &c->strings);
	hists__add_sample(hists_of(c, evsel), &hs);
	if (al.map && al.sym)
		annotate_samples__add(&c->samples, al.dso, al.sym, evsel->idx, al.addr,
				      sample->period);
	return 0;
}

/* -D: every record dumped as perf annotate's handlers see it: report's
 * dump, but CGROUP and EVENT_UPDATE are left to stubs. */
static int annotate_dump(struct perf_tool *tool, struct perf_session *s,
			 const struct perf_event_header *rec, struct perf_sample *sample,
			 struct evsel *evsel, uint64_t off)
{
	enum raw_dump_end end = RAW_DUMP_HANDLED;

	if (rec->type == PERF_RECORD_CGROUP)
		end = RAW_DUMP_STUB;
	else if (raw_dump_left_to_stub(rec->type) || rec->type == PERF_RECORD_EVENT_UPDATE)
		end = RAW_DUMP_STUB_AFTER_DETAILS;
	raw_dump_record_as(stdout, s, rec, sample, evsel, off, end);
	return 0;
}

/* -D's closing counts: every record type, empty ones too, then each
 * event's samples (perf annotate shows no annotation after a dump). */
static void dump_stats(const struct annotate_cmd *c)
{
	const struct session_stats *st = &c->session->stats;

	printf("\nAggregated stats:\n");
	raw_dump_record_counts(stdout, st->nr_records, PERF_RECORD_HEADER_MAX, st->nr_events,
			       true, false);
	evlist__for_each(&c->session->evlist, pos) {
		uint64_t counts[PERF_RECORD_SAMPLE + 1] = { 0 };

		if (pos->idx < c->nr_hists && c->hists[pos->idx])
			counts[PERF_RECORD_SAMPLE] = c->hists[pos->idx]->stats.nr_samples;
		printf("%s stats:\n", pos->name);
		raw_dump_record_counts(stdout, counts, ARRAY_SIZE(counts), 0, false, true);
	}
}

/* perf's complaint about a kernel symbol without a vmlinux to read. */
static void no_vmlinux(struct dso *dso, const struct symbol *sym)
{
	fprintf(stderr, "Error:\nCouldn't annotate %s:\nNo vmlinux file", sym->name);
	if (dso->build_id_size) {
		char hex[2 * BUILD_ID_MAX + 1];

		build_id__hex(dso->build_id, dso->build_id_size, hex);
		fprintf(stderr, " with build id %s", hex);
	}
	fputs("\nwas found in the path.\n\n"
	      "Note that annotation using /proc/kcore requires CAP_SYS_RAWIO capability.\n\n"
	      "Please use:\n\n  perf buildid-cache -vu vmlinux\n\nor:\n\n  --vmlinux vmlinux\n",
	      stderr);
}

/* Without libopcodes nothing can be disassembled: why, once, in the words
 * perf has for a symbol it cannot annotate. */
static void no_disassembler(struct annotate_cmd *c, const struct symbol *sym)
{
	const char *why = disasm_unavailable();

	if (!why || c->no_disassembler)
		return;
	c->no_disassembler = true;
	tui__stop();
	fprintf(stderr, "Error:\nCouldn't annotate %s:\n%s\n", sym->name, why);
}

/* --group: the events shown with leader's (a file without groups is one
 * group, as perf forces it), their indexes in evidx; and perf's name of
 * the group in *desc (caller frees). */
static int group_members(const struct annotate_cmd *c, const struct evsel *leader, int *evidx,
			 char **desc)
{
	bool forced = !c->session->evlist.nr_groups;
	struct strbuf sb = { 0 };
	int nr = 0;

	if (!forced)
		strbuf_addf(&sb, "%s { ", leader->group_name ? leader->group_name : "anon group");
	evlist__for_each(&c->session->evlist, pos) {
		if (!forced && pos->leader != leader)
			continue;
		strbuf_addf(&sb, "%s%s", nr ? ", " : "", pos->name);
		evidx[nr++] = pos->idx;
	}
	if (!forced)
		strbuf_addstr(&sb, " }");
	*desc = strbuf_detach(&sb);
	return nr;
}

/* --stdio2's title: the samples and period of the event (or of the
 * group's events together), as perf's browsers head their screens. */
static char *stdio2_title(const struct annotate_cmd *c, const struct evsel *evsel,
			  const int *members, int nr, const char *group_name)
{
	unsigned long nr_samples = 0;
	uint64_t period = 0;

	for (int i = 0; i < nr; i++) {
		const struct hists *h = members[i] < c->nr_hists ? c->hists[members[i]] : NULL;

		nr_samples += h ? (unsigned long)h->stats.nr_samples : 0;
		period += h ? h->stats.total_period : 0;
	}
	return annotate_title(nr_samples, period, nr, nr > 1 ? group_name : evsel->name,
			      evsel->attr.sample_freq);
}

/* The browser on the entry's symbol (see annotate_entry()). */
static enum annotate_browser_exit browse_entry(struct annotate_cmd *c, struct annotated_sym *as,
					       struct disasm_file *f, const struct evsel *evsel,
					       const int *members, int nr, const char *name,
					       const struct annotate_totals *totals,
					       uint64_t unmap_shift)
{
	char *title = stdio2_title(c, evsel, members, nr, name);
	struct annotate_browser_source src = {
		.samples = &c->samples, .file = f, .dis = &c->dis, .evidx = members,
		.nr_events = nr, .totals = totals, .title = title,
		.event_name = name ? name : evsel->name, .cpuid = c->session->header.cpuid,
		.scripts = &c->scripts, .unmap_shift = unmap_shift,
	};
	enum annotate_browser_exit ret = annotate_browser__run(as->dso, as->sym, &src, c->browser);

	free(title);
	return ret;
}

/* Prints the entry's annotation, or browses it with the TUI. */
static enum annotate_browser_exit annotate_entry(struct annotate_cmd *c,
						 struct annotate_printer *p,
						 const struct hist_entry *he)
{
	enum annotate_browser_exit ret = ANNOTATE_BROWSER_ERROR;
	struct annotated_sym *as = annotate_samples__find(&c->samples, he->sym);
	struct annotate_totals *totals;
	struct annotation a;
	struct disasm_file *f;
	const struct evsel *evsel = he->hists->evsel;
	int evidx = evsel->idx, *members = xcalloc((size_t)c->nr_hists, sizeof(*members));
	int nr = 1;
	char *name = NULL;
	const char *base;

	members[0] = evidx;
	if (!as || (!c->browser && as->shown_for == evidx + 1))
		goto out;
	as->shown_for = evidx + 1;	/* once per event, whatever the comms */
	if (dso__symtab_origin(as->dso) == 'k') {
		hashmap_u64_put(&c->warned, (uint64_t)(uintptr_t)as->dso, as->dso);
		tui__stop();	/* perf's message ends the browsing */
		no_vmlinux(as->dso, as->sym);
		goto out;
	}
	/* modules are relocatable objects, whose disassembly needs their
	 * relocations: not done yet, they are left out */
	f = dso__symtab_origin(as->dso) == 'K' ? NULL : disasm_files__get(&c->files, as->dso, c->dis.source);
	if (!f) {
		no_disassembler(c, as->sym);
		goto out;
	}
	if (c->group)
		nr = group_members(c, evsel, members, &name);
	totals = xcalloc((size_t)c->nr_hists, sizeof(*totals));
	/* perf 6.1 counts its annotate samples as filtered ones: global
	 * hits are taken of nothing and show 0.00 */
	for (int i = 0; i < c->nr_hists; i++)
		totals[i].period = c->hists[i] ? c->hists[i]->stats.total_period : 0;
	if (c->browser) {
		ret = browse_entry(c, as, f, evsel, members, nr, name, totals, he->unmap_shift);
		free(totals);
		goto out;
	}
	annotation__build(&a, f, &c->dis, as, members, nr, totals);
	free(totals);
	if (c->print_line) {
		size_t nr_lines;
		struct annotate_summary *s =
			annotation__summary(&a, as, p->opts->percent_type, &nr_lines);

		annotate_stdio__print_summary(p, s, nr_lines, a.nr_data,
					      dso__shown_long_name(as->dso));
		annotation__free_summary(s, nr_lines);
	}
	if (c->stdio2) {
		char *title = stdio2_title(c, evsel, members, nr, name);

		annotate_stdio2__print(p, &a, as->dso, as->sym, title);
		free(title);
	} else {
		const char *long_name = dso__shown_long_name(as->dso);

		base = strrchr(long_name, '/');
		annotate_stdio__print(p, &a, c->full_paths || !base ? long_name : base + 1,
				      name ? name : evsel->name,
				      annotated_sym__hist(as, evidx)->nr_samples);
	}
	annotation__release(&a);
	ret = ANNOTATE_BROWSER_NEXT;
out:
	free(name);
	free(members);
	return ret;
}

static bool entry_shown(const struct annotate_cmd *c, const struct hist_entry *he, uint64_t total)
{
	if (!he->sym || !he->dso || hashmap_u64_get(&c->warned, (uint64_t)(uintptr_t)he->dso))
		return false;
	if (c->symbol && strcmp(he->sym->name, c->symbol))
		return false;
	return !c->percent_limit || !total ||
	       100.0 * (double)he->stat.period / (double)total >= c->percent_limit;
}

/* Every entry's annotation in turn; with the TUI, perf's walk: one symbol
 * at a time, the left arrow back to the previous, the right arrow (on a
 * return) on to the next, q on to the next event. */
static void annotate_hists(struct annotate_cmd *c, struct hists *h, struct annotate_printer *p)
{
	uint64_t total;
	size_t i = 0;

	hists__collapse(h);
	hists__output_resort(h);
	total = hists__total_period(h);
	while (i < h->nr_sorted) {
		enum annotate_browser_exit ret;
		size_t prev = i;

		if (!entry_shown(c, h->sorted[i], total)) {
			i++;
			continue;
		}
		ret = annotate_entry(c, p, h->sorted[i]);
		if (!c->browser || ret == ANNOTATE_BROWSER_NEXT ||
		    (ret == ANNOTATE_BROWSER_ERROR && c->skip_missing)) {
			i++;
		} else if (ret == ANNOTATE_BROWSER_BACK) {
			while (prev-- > 0)
				if (entry_shown(c, h->sorted[prev], total)) {
					i = prev;
					break;
				}
			continue;
		} else {
			return;
		}
		/* the last one stays open */
		while (c->browser && i < h->nr_sorted && !entry_shown(c, h->sorted[i], total))
			i++;
		if (c->browser && i == h->nr_sorted && ret == ANNOTATE_BROWSER_NEXT)
			i = prev;
	}
}

/* perf's settings for annotate: tui.annotate (whether the browser opens)
 * and the annotate.* defaults of its view; returns tui.annotate. */
static bool annotate_config(struct annotate_browser_opts *bo, struct annotate_print_opts *po)
{
	annotate_browser_opts__config(bo);
	po->show_nr_samples = perfconfig__default_bool("annotate.show_nr_samples",
						       po->show_nr_samples);
	po->show_total_period = perfconfig__default_bool("annotate.show_total_period",
							 po->show_total_period);
	return perfconfig__default_bool("tui.annotate", true);
}

int cmd_annotate(int argc, const char **argv)
{
	const char *input = NULL, *percent_type = NULL, *style = NULL, *kallsyms = NULL;
	const char **event_names = NULL;
	const char *symfs = NULL, *cpu_list = NULL, *stdio_color = NULL, *percent_limit = NULL;
	const char *vmlinux = NULL, *prefix = NULL, *prefix_strip = NULL, *itrace = NULL;
	bool force = false, asm_raw = false, source = true, demangle = true;
	bool use_stdio = false, use_tui = false;
	struct annotate_browser_opts browser_opts;
	/* perf's options pcl takes and has no use for: one interface (the
	 * text), no objdump to start */
	const char *unused_path = NULL;
	bool unused_flag = false, ignore_vmlinux = false;
	int unused_level = 0;
	struct annotate_print_opts po = { .percent_type = PERCENT_PERIOD_LOCAL };
	struct annotate_cmd c = { 0 };
	struct sort_setup ss = { .sort_order = "dso,symbol" };
	struct annotate_printer p = { .fp = stdout, .opts = &po };
	uint64_t total = 0;
	struct machine *machine;
	char *err = NULL;
	int ret = 0;
	const struct option opts[] = {
		OPT_STRING('C', "cpu", &cpu_list, "cpu", "list of cpus to profile"),
		OPT_STRING('d', "dsos", &c.dsos, "dso[,dso...]",
			   "only consider symbols in these dsos"),
		OPT_BOOLEAN('D', "dump-raw-trace", &c.dump, "dump raw trace in ASCII"),
		OPT_BOOLEAN('f', "force", &force, "don't complain, do it"),
		OPT_STRING('i', "input", &input, "file", "input file name"),
		OPT_STRING('k', "vmlinux", &vmlinux, "file", "vmlinux pathname"),
		OPT_BOOLEAN('l', "print-line", &c.print_line,
			    "print matching source lines (may be slow)"),
		OPT_STRING('M', "disassembler-style", &style, "disassembler style",
			   "Specify disassembler style (e.g. -M intel for intel syntax)"),
		{ .type = OPT_BOOL_T, .short_name = 'n', .long_name = "show-nr-samples",
		  .value = &po.show_nr_samples, .flags = OPTF_EXCLUSIVE,
		  .help = "Show a column with the number of samples" },
		OPT_BOOLEAN('m', "modules", &unused_flag,
			    "load module symbols - WARNING: use only with -k and LIVE kernel"),
		OPT_BOOLEAN('P', "full-paths", &c.full_paths, "Don't shorten the displayed pathnames"),
		OPT_INCR('q', "quiet", &unused_level, "do now show any warnings or messages"),
		OPT_STRING('s', "symbol", &c.symbol, "symbol", "symbol to annotate"),
		OPT_INCR('v', "verbose", &unused_level, "be more verbose (show symbol address, etc)"),
		OPT_BOOLEAN(0, "asm-raw", &asm_raw,
			    "Display raw encoding of assembly instructions (default)"),
		OPT_BOOLEAN(0, "demangle", &demangle, "Enable symbol demangling"),
		OPT_BOOLEAN(0, "demangle-kernel", &unused_flag, "Enable kernel symbol demangling"),
		OPT_BOOLEAN(0, "group", &c.group, "Show event group information together"),
		OPT_BOOLEAN(0, "ignore-vmlinux", &ignore_vmlinux, "don't load vmlinux even if found"),
		OPT_STRING_OPTARG(0, "itrace", &itrace, "opts", ITRACE_HELP, ""),
		{ .type = OPT_STRING_T, .long_name = "kallsyms", .value = &kallsyms, .argh = "file",
		  .flags = OPTF_HIDDEN, .help = "kallsyms pathname (pcl's own)" },
		OPT_STRING(0, "objdump", &unused_path, "path",
			   "objdump binary to use for disassembly and annotations"),
		OPT_STRING(0, "percent-limit", &percent_limit, "percent",
			   "Don't show entries under that percent"),
		OPT_STRING(0, "prefix", &prefix, "prefix",
			   "Add prefix to source file path names in programs (with --prefix-strip)"),
		OPT_STRING(0, "prefix-strip", &prefix_strip, "N",
			   "Strip first N entries of source file path name in programs (with --prefix)"),
		OPT_STRING(0, "percent-type", &percent_type, "local-period",
			   "Set percent type local/global-period/hits"),
		{ .type = OPT_BOOL_T, .long_name = "show-total-period",
		  .value = &po.show_total_period, .flags = OPTF_EXCLUSIVE,
		  .help = "Show a column with the sum of periods" },
		OPT_BOOLEAN(0, "skip-missing", &c.skip_missing,
			    "Skip symbols that cannot be annotated"),
		OPT_BOOLEAN(0, "source", &source, "Interleave source code with assembly code (default)"),
		OPT_BOOLEAN(0, "stdio", &use_stdio, "Use the stdio interface"),
		OPT_BOOLEAN(0, "stdio2", &c.stdio2, "Use the stdio interface"),
		{ .type = OPT_STRING_T, .long_name = "stdio-color", .value = &stdio_color,
		  .flags = OPTF_OPTARG | OPTF_LASTARG_DEFAULT, .defstr = "always", .argh = "mode",
		  .help = "'always' (default), 'never' or 'auto' only applicable to --stdio mode" },
		OPT_BOOLEAN(0, "tui", &use_tui, "Use the TUI interface"),
		OPT_STRING(0, "symfs", &symfs, "directory",
			   "Look for files with symbols relative to this directory"),
		OPT_END(),
	};

	annotate_browser_opts__init(&browser_opts);
	use_tui = annotate_config(&browser_opts, &po);
	argc = parse_options(argc, argv, opts, annotate_usage, 0);
	if (argc == 1 && !c.symbol)
		c.symbol = argv[0];	/* perf takes the symbol as an argument too */
	else if (argc)
		usage_with_options(annotate_usage, opts);
	if (!itrace_opts_check(itrace, annotate_usage[0]))
		return PCL_EXIT_USAGE;
	if (percent_type && annotate_percent__parse(percent_type, &po.percent_type) < 0) {
		parse_options_usage(annotate_usage, opts, "percent-type", false);
		return PCL_EXIT_USAGE;
	}
	if (percent_limit)
		c.percent_limit = strtod(percent_limit, NULL);
	po.color = percent_color_mode(stdio_color);
	/* perf's choice: --stdio or --stdio2 first, then --tui or tui.annotate
	 * (on by default), and a browser only on a terminal */
	if (!use_stdio && !c.stdio2 && use_tui && tui__usable()) {
		browser_opts.percent_type = po.percent_type;
		browser_opts.show_total_period = po.show_total_period;
		browser_opts.show_nr_samples = po.show_nr_samples;
		c.browser = &browser_opts;
	}
	c.dis = (struct disasm_opts){ .style = style, .raw = asm_raw, .source = source,
				      .prefix = prefix,
				      .prefix_strip = prefix_strip ? atoi(prefix_strip) : 0 };
	if (prefix_strip && !prefix) {
		fputs("--prefix-strip requires --prefix\n", stderr);
		return PCL_EXIT_EINVAL;
	}
	if (cpu_list && !(c.cpus = cpu_map__parse(cpu_list))) {
		fprintf(stderr, "Invalid cpu_list: %s\n", cpu_list);
		return PCL_EXIT_USAGE;
	}
	if (vmlinux && access(vmlinux, R_OK)) {
		fprintf(stderr, "Invalid file: %s\n", vmlinux);
		return PCL_EXIT_EINVAL;
	}
	if (!input)
		input = perf_data__default_path(false);
	c.session = perf_session__open(input, force, &err);
	if (!c.session) {
		session_warnings__open_failed(input, err);
		free(err);
		return PCL_EXIT_ERROR;
	}
	/* a file that recorded groups shows them, --no-group or not (perf 6.1) */
	c.group |= c.session->evlist.nr_groups > 0;
	if (c.cpus) {
		bool has_cpu = false;

		evlist__for_each(&c.session->evlist, pos)
			has_cpu |= (pos->attr.sample_type & PERF_SAMPLE_CPU) != 0;
		if (!has_cpu) {
			fputs("File does not contain CPU events. Remove -C option to proceed.\n",
			      stderr);
			ret = PCL_EXIT_ERROR;
			goto out;
		}
	}
	machine = perf_session__new_machine(c.session, kallsyms, symfs, force);
	machine__symbols_config(machine)->vmlinux = vmlinux;
	machine__symbols_config(machine)->ignore_vmlinux = ignore_vmlinux;
	/* -P: the source files of -l and of the annotation with their paths */
	machine__symbols_config(machine)->full_source_path = c.full_paths;
	/* the kernel's names are never mangled C++: --demangle-kernel changes
	 * nothing shown */
	machine__symbols_config(machine)->demangle = demangle;
	if (hist_layout__setup(&c.hopts.layout, &ss, &err) < 0) {
		fprintf(stderr, "%s\n", err);
		free(err);
		ret = PCL_EXIT_ERROR;
		goto out;
	}
	callchain_store__init(&c.store);
	annotate_samples__init(&c.samples);
	hashmap_init(&c.files, sizeof(void *));
	hashmap_init(&c.warned, sizeof(void *));
	c.scripts.input = input;
	c.scripts.events = event_names = xcalloc((size_t)c.session->evlist.nr_entries + 1,
						 sizeof(*event_names));
	evlist__for_each(&c.session->evlist, pos)
		event_names[c.scripts.nr_events++] = pos->name;
	c.tool.sample = annotate_sample;
	c.tool.record = c.dump ? annotate_dump : NULL;
	c.tool.stale_parent = c.dump ? raw_dump_stale_parent : NULL;
	c.tool.ordered = true;
	if (perf_session__process(c.session, &c.tool) < 0) {
		fprintf(stderr, "%s\n", c.session->err);
		ret = PCL_EXIT_ERROR;
		goto out_hists;
	}
	session_warnings__print(stderr, &c.session->stats, false);
	if (c.dump) {
		dump_stats(&c);
		goto out_hists;
	}
	evlist__for_each(&c.session->evlist, pos) {
		struct hists *h = pos->idx < c.nr_hists ? c.hists[pos->idx] : NULL;

		if (!h || !h->stats.nr_samples)
			continue;
		total += h->stats.nr_samples;
		/* a group's members are shown with its leader */
		if (c.group && c.session->evlist.nr_groups ? pos->leader != pos :
		    c.group && pos != c.session->evlist.first)
			continue;
		annotate_hists(&c, h, &p);
	}
	if (!total)
		fprintf(stderr, "Error:\nThe %s data has no samples!\n", input);
out_hists:
	tui__stop();
	disasm_files__close(&c.files);
	hashmap_release(&c.warned);
	annotate_samples__release(&c.samples);
	for (int i = 0; i < c.nr_hists; i++)
		if (c.hists[i])
			hists__delete(c.hists[i]);
	free(c.hists);
	callchain_store__exit(&c.store);
	strset_release(&c.strings);
	free(event_names);
out:
	cpu_map__delete(c.cpus);
	perf_session__delete(c.session);
	return ret;
}
