/* pcl probe: define, list and delete dynamic probes (uprobes on -x BINARY,
 * kprobes otherwise) from functions, lines and variables, and show what
 * can be probed (-F, -L, -V), with perf 6.1's texts. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "builtin.h"
#include "core/probe/probe-add.h"
#include "core/probe/probe-cache.h"
#include "core/probe/probe-dwarf.h"
#include "core/probe/probe-elf.h"
#include "core/probe/probe-kernel.h"
#include "core/probe/probe-spec.h"
#include "core/probe/probe-trace.h"
#include "core/symbols/buildid-cache.h"
#include "core/symbols/buildid.h"
#include "core/symbols/kernel-maps.h"
#include "core/symbols/machine.h"
#include "core/symbols/sdt-events.h"
#include "ui/session-warnings.h"
#include "util/exit-codes.h"
#include "util/glob.h"
#include "util/parse-options.h"
#include "util/strbuf.h"
#include "util/util.h"

static const char *const probe_usage[] = {
	"pcl probe [<options>] 'PROBEDEF' ['PROBEDEF' ...]",
	"pcl probe [<options>] --add 'PROBEDEF' [--add 'PROBEDEF' ...]",
	"pcl probe [<options>] --del '[GROUP:]EVENT' ...",
	"pcl probe --list [GROUP:]EVENT ...",
	"pcl probe [<options>] --line 'LINEDESC'",
	"pcl probe [<options>] --vars 'PROBEPOINT'",
	"pcl probe [<options>] --funcs",
	NULL,
};

/* perf's default of --max-probes */
#define MAX_PROBES 128

struct strlist {
	const char **items;
	int nr;
};

static void strlist_add(struct strlist *l, const char *s)
{
	l->items = xrealloc(l->items, (l->nr + 1) * sizeof(*l->items));
	l->items[l->nr++] = s;
}

struct probe_opts {
	struct strlist adds, dels, lists;
	bool *logged;		/* per definition: whether -v came before it */
	bool vars_logged;	/* whether -v came before -V */
	bool line_logged;	/* whether -v came before -L */
	bool list, funcs, dry_run, force, quiet, externs, no_inlines, range;
	bool demangle;			/* -F: C++/Rust names demangled */
	bool demangle_kernel;		/* kernel names: pcl lists none (-F needs -x) */
	const char *filter;		/* --filter: -V's variable names */
	bool definition;	/* -D: print the definitions instead of writing them */
	bool cache;		/* --cache: -a also stores, -l and -d work on the cache */
	bool bootconfig;	/* --bootconfig: -D in bootconfig's format (kprobes only) */
	char command;		/* the last command option's letter: words after the
				 * options are a definition only for 'a' or none */
	int verbose;
	const char *exec, *line, *vars, *funcs_filter, *source;
	const char *module;	/* -m NAME: a kernel module (none is loaded here) */
	const char *vmlinux, *symfs;
	char *read_exec;	/* where -x's file is read: through --target-ns's root */
	int target_ns;
	int max_probes;
	const struct option *table;	/* for the usage after a semantic error */
};

/* perf parses (and -v logs) a definition as it meets its option: only a
 * -v before it counts. */
static void add_definition(struct probe_opts *o, const char *def)
{
	o->logged = xrealloc(o->logged, (o->adds.nr + 1) * sizeof(*o->logged));
	o->logged[o->adds.nr] = o->verbose > 0;
	strlist_add(&o->adds, def);
}

static int opt_add(const struct option *opt, const char *arg, bool unset)
{
	add_definition(opt->value, arg);
	((struct probe_opts *)opt->value)->command = 'a';
	return 0;
}

static int opt_definition(const struct option *opt, const char *arg, bool unset)
{
	struct probe_opts *o = opt->value;

	add_definition(o, arg);
	o->definition = true;
	o->command = 'D';
	return 0;
}

/* -V's point is parsed (and -v logged) as its option is met, as -a's */
static int opt_vars(const struct option *opt, const char *arg, bool unset)
{
	struct probe_opts *o = opt->value;

	o->vars = arg;
	o->vars_logged = o->verbose > 0;
	o->command = 'V';
	return 0;
}

static int opt_line(const struct option *opt, const char *arg, bool unset)
{
	struct probe_opts *o = opt->value;

	o->line = arg;
	o->line_logged = o->verbose > 0;
	o->command = 'L';
	return 0;
}

static int opt_del(const struct option *opt, const char *arg, bool unset)
{
	strlist_add(&((struct probe_opts *)opt->value)->dels, arg);
	((struct probe_opts *)opt->value)->command = 'd';
	return 0;
}

static int opt_list(const struct option *opt, const char *arg, bool unset)
{
	struct probe_opts *o = opt->value;

	o->list = true;
	o->command = 'l';
	if (arg)
		strlist_add(&o->lists, arg);
	return 0;
}

static int opt_funcs(const struct option *opt, const char *arg, bool unset)
{
	struct probe_opts *o = opt->value;

	o->funcs = true;
	o->funcs_filter = arg;
	o->command = 'F';
	return 0;
}

/* -x and -m name one target: the last given wins, as in perf. */
static int opt_exec(const struct option *opt, const char *arg, bool unset)
{
	struct probe_opts *o = opt->value;

	o->exec = arg;
	o->module = NULL;
	return 0;
}

static int opt_module(const struct option *opt, const char *arg, bool unset)
{
	struct probe_opts *o = opt->value;

	o->module = arg;
	o->exec = NULL;
	return 0;
}

static int opt_target_ns(const struct option *opt, const char *arg, bool unset)
{
	/* perf reads the number as strtol does: "abc" is pid 0, no error */
	((struct probe_opts *)opt->value)->target_ns = (int)strtol(arg, NULL, 10);
	return 0;
}

/* perf's exit status for a negative errno: its low byte. */
static int exit_of(int err)
{
	return err < 0 ? (256 + err) & 0xff : err;
}

static void print_msgs(struct probe_msgs *msgs, const struct probe_opts *o)
{
	if (!o->quiet)
		fputs(strbuf_str(&msgs->text), stderr);
	strbuf_reset(&msgs->text);
}

/* A definition the parser refused; an empty one has no words in perf. */
static void semantic_error(const char *err)
{
	if (*err)
		fprintf(stderr, "Semantic error :%s\n", err);
}

/* perf's words when tracefs is there but closed to us; true if so. */
static bool no_permission(const char *file, bool write, const char *what)
{
	if (probe_tracefs_access(file, write) != -EACCES)
		return false;
	if (write)
		fputs("No permission to write tracefs.\nPlease run this command again with sudo.\n",
		      stderr);
	else
		fprintf(stderr,
			"No permission to read tracefs.\n"
			"Please try 'sudo mount -o remount,mode=755 %s/'\n",
			probe_tracefs_dir());
	fprintf(stderr, "  Error: Failed to %s.\n", what);
	return true;
}

/* --- -F ------------------------------------------------------------------- */

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void find_kernel(struct dso *dso, void *arg)
{
	if (!strcmp(dso->long_name, "[kernel.kallsyms]"))
		*(struct dso **)arg = dso;
}

/* -k VMLINUX -F: the kernel's symbols as perf reads them from the image
 * (placed where the running kernel is), by name, filtered. */
static int show_kernel_funcs(const struct probe_opts *o)
{
	struct machine *m = machine__new();
	struct symbols_config *config = machine__symbols_config(m);
	const char *filter = o->funcs_filter ? o->funcs_filter : "!_* & !*@plt";
	const struct symbol *syms;
	struct dso *kernel = NULL;
	const char **names;
	size_t nr = 0, n = 0;
	bool no_modules;

	config->vmlinux = o->vmlinux;
	config->symfs = o->symfs;
	config->allow_aliases = true;	/* perf probe lists every name */
	if (!machine__add_running_kernel_maps(m, &no_modules))
		machine__for_each_dso(m, find_kernel, &kernel);
	if (kernel && dso__symtab_origin(kernel) == 'v')
		nr = dso__symbols(kernel, &syms);
	if (!nr) {
		fputs("Failed to load symbols in kernel\n  Error: Failed to show functions.\n",
		      stderr);
		machine__delete(m);
		return PCL_EXIT_ERROR;
	}
	names = xcalloc(nr, sizeof(*names));
	for (size_t i = 0; i < nr; i++)
		if (probe_strfilter_match(filter, syms[i].name))
			names[n++] = syms[i].name;
	qsort(names, n, sizeof(*names), cmp_names);
	for (size_t i = 0; i < n; i++)
		puts(names[i]);
	free(names);
	machine__delete(m);
	return 0;
}

static int show_funcs(const struct probe_opts *o)
{
	struct probe_elf pe;
	char **names;
	int ret;

	if (!o->exec && o->vmlinux)
		return show_kernel_funcs(o);
	if (!o->exec) {
		fprintf(stderr,
			"  Error: -F needs -x BINARY here (kernel functions are not listed).\n");
		return PCL_EXIT_ERROR;
	}
	/* --symfs counts for the symbols -F lists, as in perf, not for -a */
	char *file = o->symfs ? xasprintf("%s%s", o->symfs, o->exec) : xstrdup(o->read_exec);

	ret = probe_elf__open(&pe, file);
	free(file);
	if (ret) {
		fprintf(stderr,
			"Failed to load symbols in %s\n  Error: Failed to show functions.\n",
			o->exec);
		/* perf finds no file under --symfs (or no ELF file) as it finds
		 * no symbols: -1 */
		return o->symfs || ret == -EINVAL ? PCL_EXIT_ERROR : exit_of(ret);
	}
	if (!pe.nr_table_syms) {
		fprintf(stderr,
			"Failed to load symbols in %s\n  Error: Failed to show functions.\n",
			o->exec);
		probe_elf__close(&pe);
		return PCL_EXIT_ERROR;
	}
	int n = probe_elf__filtered_names(&pe, o->funcs_filter, o->demangle, &names);

	for (int i = 0; i < n; i++) {
		puts(names[i]);
		free(names[i]);
	}
	free(names);
	probe_elf__close(&pe);
	return 0;
}

/* --- -L and -V ------------------------------------------------------------ */
static void no_debug_info(const char *path)
{
	char *text = probe_no_debug_info_text(path);

	fputs(text, stderr);
	free(text);
}

static struct probe_debug *open_debug(const struct probe_opts *o)
{
	struct probe_debug *dbg = o->exec ? probe_debug__open(o->read_exec) : NULL;

	if (dbg) {
		probe_debug__set_no_inlines(dbg, o->no_inlines);
		probe_debug__set_source_prefix(dbg, o->source);
	}
	if (!dbg && o->exec)
		no_debug_info(o->exec);
	else if (!dbg)
		fprintf(stderr,
			"Failed to find the path for the kernel: No such file or directory\n");
	return dbg;
}

static int show_lines(const struct probe_opts *o)
{
	struct probe_debug *dbg = open_debug(o);
	struct probe_msgs msgs = { .text = STRBUF_INIT, .verbose = o->verbose > 0 };
	struct strbuf out = STRBUF_INIT;
	int ret;

	if (!dbg) {
		fputs("  Error: Failed to show lines.\n", stderr);
		return PCL_EXIT_ENOENT;
	}
	/* perf -v's lines as it parses the range and makes its maps */
	if (o->line_logged)
		probe_line_range__log(o->line, &msgs);
	if (o->module && access("/proc/modules", R_OK))
		probe_msg(&msgs, true, "Problems creating module maps, continuing anyway...\n");
	char *note;
	uint64_t symbol_addr = probe_symbol_address(o->read_exec, o->line, dbg, &note);

	ret = probe_debug__show_lines(dbg, o->line, symbol_addr, &out, &msgs);
	free(note);
	fputs(strbuf_str(&out), stdout);
	print_msgs(&msgs, o);
	if (ret && o->verbose)
		fprintf(stderr, "  Error: Failed to show lines. Reason: %s (Code: %d)\n",
			strerror(-ret), ret);
	else if (ret)
		fputs("  Error: Failed to show lines.\n", stderr);
	strbuf_release(&msgs.text);
	strbuf_release(&out);
	probe_debug__close(dbg);
	return exit_of(ret);
}

static int show_vars(const struct probe_opts *o)
{
	struct probe_debug *dbg = open_debug(o);
	struct probe_msgs msgs = { .text = STRBUF_INIT, .verbose = o->verbose > 0 };
	struct strbuf out = STRBUF_INIT;
	struct probe_spec spec;
	char err[256];
	int ret;

	if (!dbg) {
		fputs("  Error: Failed to show vars.\n", stderr);
		return PCL_EXIT_ENOENT;
	}
	if (probe_spec__parse(&spec, o->vars, err, sizeof(err))) {
		semantic_error(err);
		parse_options_usage(probe_usage, o->table, "V", true);
		probe_debug__close(dbg);
		return PCL_EXIT_USAGE;
	}
	/* perf -v's lines as it parses the point and opens the debug
	 * information */
	probe_defs__log(&o->vars, &o->vars_logged, 1, &msgs);
	if (o->module && access("/proc/modules", R_OK))
		probe_msg(&msgs, true, "Problems creating module maps, continuing anyway...\n");
	probe_debug__log_open(probe_debug__path(dbg), &msgs);
	char *note = NULL;
	uint64_t symbol_addr =
		spec.point.function
				       ? probe_symbol_address(o->read_exec, spec.point.function, dbg, &note)
				       : 0;

	ret = probe_debug__show_vars(dbg, &spec, o->externs, o->range, o->filter, symbol_addr,
				     o->max_probes, &out, &msgs);
	free(note);
	fputs(strbuf_str(&out), stdout);
	print_msgs(&msgs, o);
	if (ret && o->verbose)
		fprintf(stderr, "  Error: Failed to show vars. Reason: %s (Code: %d)\n",
			strerror(-ret), ret);
	else if (ret)
		fputs("  Error: Failed to show vars.\n", stderr);
	strbuf_release(&msgs.text);
	strbuf_release(&out);
	probe_spec__exit(&spec);
	probe_debug__close(dbg);
	return exit_of(ret);
}

/* --- -a ------------------------------------------------------------------- */

static void print_added(const struct probe_add_result *r)
{
	if (!r->nr_added)
		return;
	fprintf(stderr, "Added new event%s:\n", r->nr_added > 1 ? "s" : "");
	for (int i = 0; i < r->nr_added; i++) {
		const struct probe_added *a = &r->added[i];
		char *name = xasprintf("%s:%s", a->group, a->event);

		fprintf(stderr, "  %-20s (on %s in %s%s%s)\n", name, a->point, a->binary,
			*a->with ? " with" : "", a->with);
		free(name);
	}
	const struct probe_added *last = &r->added[r->nr_added - 1];

	fprintf(stderr,
		"\nYou can now use it in all pcl tools, such as:\n\n"
		"\tpcl record -e %s:%s -aR sleep 1\n\n",
		last->group, last->event);
}
/* The engine's messages as they come: perf's notes on stderr, -D's
 * definitions on stdout. */
static void show_msg(enum probe_out kind, const char *text, void *ctx)
{
	fputs(text, kind == PROBE_OUT_RESULT ? stdout : stderr);
}

/* perf -v's notes as it looks for the kernel's image, or reads kallsyms. */
static void kernel_notes(bool kallsyms)
{
	uint8_t id[20];

	if (kallsyms) {
		session_warnings__kallsyms_modules(NULL, 0);
		return;
	}
	int size = sysfs__read_kernel_build_id(id, sizeof(id));

	session_warnings__vmlinux_path(id, size);
}

static int add_probes(const struct probe_opts *o)
{
	struct probe_add_opts ao = {
		.defs = o->adds.items, .logged = o->logged, .nr_defs = o->adds.nr,
		.exec = o->exec, .read_exec = o->read_exec, .module = o->module,
		.dry_run = o->dry_run, .force = o->force, .quiet = o->quiet,
		.definition = o->definition, .cache = o->cache, .bootconfig = o->bootconfig,
		.no_inlines = o->no_inlines, .verbose = o->verbose, .max_probes = o->max_probes,
		.kernel_notes = kernel_notes,
	};
	struct probe_msgs msgs = { .text = STRBUF_INIT, .verbose = o->verbose > 0, .quiet = o->quiet,
				   .out = show_msg };
	struct probe_add_result res;
	bool uprobes = o->exec || probe_defs__all_cached(ao.defs, ao.nr_defs);
	int ret;

	if (uprobes && !o->definition && no_permission("uprobe_events", true, "add events"))
		return exit_of(-EACCES);
	ret = probe_add(&ao, &msgs, &res);
	if (res.semantic_error)
		parse_options_usage(probe_usage, o->table, res.semantic_error, true);
	else if (!ret && !o->definition && !o->quiet)
		print_added(&res);
	else if (!ret || res.reported || o->quiet) {
		/* -q silences perf's errors too */
	} else if (o->verbose && ret != -EEXIST)
		fprintf(stderr, "  Error: Failed to add events. Reason: %s (Code: %d)\n",
			strerror(-ret), ret);
	else
		fputs("  Error: Failed to add events.\n", stderr);
	bool semantic = res.semantic_error;

	probe_add_result__exit(&res);
	strbuf_release(&msgs.text);
	return semantic ? PCL_EXIT_USAGE : exit_of(ret);
}

/* --- -l and -d ------------------------------------------------------------ */

/* perf -v's notes as it opens the events files to read (-l) or to
 * delete from (-d), after the kernel's module maps it could not make. */
static void log_events_opened(bool write, struct probe_msgs *msgs)
{
	if (!write && access("/proc/modules", R_OK))
		probe_msg(msgs, true, "Problems creating module maps, continuing anyway...\n");
	probe_trace__log_open(msgs, "kprobe_events", write);
	probe_trace__log_open(msgs, "uprobe_events", write);
}

static bool matches_any(const struct probe_event *ev, const struct strlist *filters)
{
	if (!filters->nr)
		return true;
	for (int i = 0; i < filters->nr; i++)
		if (probe_event__matches(ev, filters->items[i]))
			return true;
	return false;
}

/* Where a listed uprobe is: "work:2@/src.c" from the binary's debug
 * information, else its offset. */
static char *uprobe_point(const struct probe_event *ev, bool log_open, struct probe_msgs *msgs)
{
	struct probe_debug *dbg = probe_debug__open(ev->target);

	probe_event__log_lookup(ev, msgs);
	if (dbg && log_open)
		probe_debug__log_open(probe_debug__path(dbg), msgs);
	struct probe_elf pe;
	char *point = NULL;

	if (!probe_elf__open(&pe, ev->target)) {
		uint64_t addr = probe_elf__vaddr(&pe, ev->offset);
		const struct probe_sym *sym = probe_elf__function_at(&pe, addr);

		if (dbg)
			point = probe_debug__describe(dbg, addr, ev->retprobe);
		/* without debug information: the function's symbol */
		if (!point && sym && ev->retprobe)
			point = xasprintf("%s%%return", sym->name);
		else if (!point && sym && addr > sym->addr)
			point = xasprintf("%s+%lu", sym->name, (unsigned long)(addr - sym->addr));
		else if (!point && sym)
			point = xstrdup(sym->name);
		probe_elf__close(&pe);
	}
	probe_debug__close(dbg);
	return point ? point : xasprintf("0x%lx", (unsigned long)ev->offset);
}

static int list_probes(const struct probe_opts *o)
{
	struct probe_event *events;

	struct probe_msgs msgs = { .text = STRBUF_INIT, .verbose = o->verbose > 0 };
	const char *last_binary = NULL;

	if (no_permission("uprobe_events", false, "show event list"))
		return exit_of(-EACCES);
	log_events_opened(false, &msgs);
	int nr = probe_events__read(&events);

	for (int i = 0; i < nr; i++) {
		const struct probe_event *ev = &events[i];

		probe_event__log_parse(ev, &msgs);
		if (!matches_any(ev, &o->lists)) {
			print_msgs(&msgs, o);
			continue;
		}
		char *name = xasprintf("%s:%s", ev->group, ev->event);
		/* perf keeps the debug information of the last binary open */
		bool log_open = !last_binary || strcmp(last_binary, ev->target);
		char *point = ev->uprobe ? uprobe_point(ev, log_open, &msgs) : xstrdup(ev->target);

		if (ev->uprobe)
			last_binary = ev->target;

		print_msgs(&msgs, o);

		printf("  %-20s (on %s", name, point);
		if (ev->uprobe)
			printf(" in %s", ev->target);
		for (int k = 0; k < ev->nr_args; k++)
			printf("%s%s", k ? " " : " with ", ev->arg_names[k]);
		puts(")");
		free(name);
		free(point);
	}
	probe_events__free(events, nr);
	strbuf_release(&msgs.text);
	return 0;	/* perf lists nothing without complaint */
}

/* The filters of -l or -d as one strfilter: any of them. */
static char *joined_filter(const struct strlist *filters)
{
	struct strbuf sb = STRBUF_INIT;

	for (int i = 0; i < filters->nr; i++)
		strbuf_addf(&sb, "%s%s", i ? "|" : "", filters->items[i]);
	return filters->nr ? strbuf_detach(&sb) : NULL;
}

static int cmp_event_names(const void *a, const void *b)
{
	const struct probe_event *x = *(const struct probe_event *const *)a;
	const struct probe_event *y = *(const struct probe_event *const *)b;
	int c = strcmp(x->group, y->group);

	return c ? c : strcmp(x->event, y->event);
}

/* perf deletes the events any filter matches, as one filter: it names
 * them all, by name, then deletes each. */
static int del_probes(const struct probe_opts *o)
{
	struct probe_event *events;
	struct probe_msgs msgs = { .text = STRBUF_INIT, .verbose = o->verbose > 0 };
	char *filter = joined_filter(&o->dels);

	if (no_permission("uprobe_events", true, "delete events")) {
		free(filter);
		return exit_of(-EACCES);
	}
	probe_msg(&msgs, true, "Delete filter: '%s'\n", filter);
	log_events_opened(true, &msgs);
	int nr = probe_events__read(&events), ret = 0, nr_hits = 0;
	const struct probe_event **hits = xcalloc(nr ? nr : 1, sizeof(*hits));

	for (int i = 0; i < nr; i++) {
		const struct probe_event *ev = &events[i];
		bool seen = false;

		probe_event__log_parse(ev, &msgs);
		if (!matches_any(ev, &o->dels))
			continue;
		/* the probes of one event share its name: delete it once */
		for (int k = 0; k < nr_hits; k++)
			seen |= !strcmp(hits[k]->group, ev->group) && !strcmp(hits[k]->event, ev->event);
		if (!seen)
			hits[nr_hits++] = ev;
	}
	print_msgs(&msgs, o);
	qsort(hits, nr_hits, sizeof(*hits), cmp_event_names);
	for (int i = 0; i < nr_hits && !o->quiet; i++)
		fprintf(stderr, "Removed event: %s:%s\n", hits[i]->group, hits[i]->event);
	for (int i = 0; i < nr_hits && !ret; i++) {
		ret = probe_events__delete(hits[i]->uprobe ? "uprobe_events" : "kprobe_events",
					   hits[i]->group, hits[i]->event);
		if (!ret)
			probe_event__log_delete(hits[i], &msgs);
		print_msgs(&msgs, o);
	}
	if (!nr_hits) {
		fprintf(stderr, "\"%s\" does not hit any event.\n", filter);
		ret = -ENOENT;
	}
	if (ret && o->verbose)
		fprintf(stderr, "  Error: Failed to delete events. Reason: %s (Code: %d)\n",
			strerror(-ret), ret);
	else if (ret)
		fprintf(stderr, "  Error: Failed to delete events.\n");
	free(hits);
	free(filter);
	strbuf_release(&msgs.text);
	probe_events__free(events, nr);
	return exit_of(ret);
}

/* --- --cache ------------------------------------------------------------- */

/* --cache -l: every cached binary with entries, then its entries. */
static int list_caches(const struct probe_opts *o)
{
	char *dir = build_id_cache__dir(), *filter = joined_filter(&o->lists);
	struct probe_cache_ref *refs;
	int n = dir ? probe_caches__list(dir, &refs) : 0;

	for (int i = 0; i < n; i++) {
		struct probe_cache pc;

		probe_cache__load(&pc, refs[i].probes);
		if (pc.nr)
			printf("%s (%s):\n", refs[i].origin, refs[i].build_id);
		for (int k = 0; k < pc.nr; k++) {
			char *key = probe_cache_entry__key(&pc.entries[k]);

			if (!filter || probe_strfilter_match(filter, key))
				printf("%s\n", pc.entries[k].spev);
			free(key);
		}
		probe_cache__exit(&pc);
	}
	if (n)
		probe_caches__free(refs, n);
	free(filter);
	free(dir);
	return 0;
}

/* --cache -d: the matching entries of every cache; none is no error. */
static int del_caches(const struct probe_opts *o)
{
	char *dir = build_id_cache__dir(), *filter = joined_filter(&o->dels);
	struct probe_cache_ref *refs;
	int n = dir ? probe_caches__list(dir, &refs) : 0, ret = 0;

	for (int i = 0; i < n && !ret; i++) {
		struct probe_cache pc;
		int nr;

		probe_cache__load(&pc, refs[i].probes);
		char **removed = probe_cache__purge(&pc, filter, &nr);

		for (int k = 0; k < nr; k++) {
			if (!o->quiet)
				fprintf(stderr, "Removed cached event: %s\n", removed[k]);
			free(removed[k]);
		}
		free(removed);
		if (nr)
			ret = probe_cache__save(&pc, refs[i].probes);
		probe_cache__exit(&pc);
	}
	if (n)
		probe_caches__free(refs, n);
	free(filter);
	free(dir);
	return exit_of(ret);
}

/* --- -m, -k and --target-ns ---------------------------------------------- */

/* -m NAME: perf looks for a loaded module, and none is (no kprobes here). */
static int module_not_loaded(const struct probe_opts *o)
{
	bool verbose = o->verbose > 0 && !o->quiet;

	/* -V's point and -L's range are parsed (and logged) first */
	if (verbose && (o->vars || o->line)) {
		struct probe_msgs msgs = { .text = STRBUF_INIT, .verbose = true };

		if (o->vars)
			probe_defs__log(&o->vars, &o->vars_logged, 1, &msgs);
		if (o->line && o->line_logged)
			probe_line_range__log(o->line, &msgs);
		print_msgs(&msgs, o);
		strbuf_release(&msgs.text);
	}
	if (verbose && access("/proc/modules", R_OK))
		fputs("Problems creating module maps, continuing anyway...\n", stderr);
	if (o->funcs) {
		fprintf(stderr, "Failed to get a map for %s\n  Error: Failed to show functions.%s\n",
			o->module, verbose ? " Reason: Invalid argument (Code: -22)" : "");
		return PCL_EXIT_EINVAL;
	}
	if (verbose)
		fprintf(stderr, "Failed to find module %s.\n", o->module);
	fprintf(stderr,
		"Module %s is not loaded, please specify its full path name.\n"
		"  Error: Failed to show %s.%s\n",
		o->module, o->line ? "lines" : "vars",
		verbose ? " Reason: No such file or directory (Code: -2)" : "");
	return PCL_EXIT_ENOENT;
}

/* Whether -k's file is an ELF image (a directory or a text is not). */
static bool is_elf_file(const char *path)
{
	char magic[4] = { 0 };
	FILE *f = fopen(path, "rb");
	bool elf = f && fread(magic, 1, sizeof(magic), f) == sizeof(magic) &&
		   !memcmp(magic, "\177ELF", 4);

	if (f)
		fclose(f);
	return elf;
}

/* -k FILE that is no ELF image, for kernel commands: perf's failures. */
static int vmlinux_unusable(const struct probe_opts *o)
{
	if (o->funcs) {
		fputs("Failed to load symbols in kernel\n  Error: Failed to show functions.\n",
		      stderr);
		return PCL_EXIT_ERROR;
	}
	if (o->line || o->vars) {
		fprintf(stderr,
			"Failed to find the path for the kernel: Invalid ELF file\n"
			"  Error: Failed to show %s.\n",
			o->line ? "lines" : "vars");
		return PCL_EXIT_ENOENT;
	}
	/* perf falls back to kallsyms, and fails there too */
	fprintf(stderr, "Failed to load symbols from /proc/kallsyms\n%s  Error: Failed to add events.\n",
		probe_kallsyms_access_error);
	return PCL_EXIT_ENOENT;
}

/* Where files named in the target's mount namespace are read: through
 * /proc/PID/root when that namespace is not ours. */
static char *path_in_namespace(int pid, const char *path)
{
	struct stat mine, theirs;
	char *ns = xasprintf("/proc/%d/ns/mnt", pid);
	bool other = pid > 0 && !stat("/proc/self/ns/mnt", &mine) && !stat(ns, &theirs) &&
		     mine.st_ino != theirs.st_ino;

	free(ns);
	return other ? xasprintf("/proc/%d/root%s", pid, path) : xstrdup(path);
}

static void free_lists(struct probe_opts *o)
{
	free(o->adds.items);
	free(o->logged);
	free(o->dels.items);
	free(o->lists.items);
}

int cmd_probe(int argc, const char **argv)
{
	struct probe_opts o = { .max_probes = MAX_PROBES, .demangle = true };
	const struct option opts[] = {
		OPT_INCR('v', "verbose", &o.verbose,
			 "be more verbose (show parsed arguments, etc)"),
		OPT_BOOLEAN('q', "quiet", &o.quiet, "be quiet (do not show any warnings or messages)"),
		{ .type = OPT_CALLBACK_T,
		  .short_name = 'l',
		  .long_name = "list",
		  .value = &o,
		  .argh = "[GROUP:]EVENT",
		  .help = "list up probe events",
		  .callback = opt_list,
		  .flags = OPTF_OPTARG | OPTF_LASTARG_DEFAULT | OPTF_EXCLUSIVE },
		OPT_CALLBACK_EXCLUSIVE('d', "del", &o, "[GROUP:]EVENT", "delete a probe event.", opt_del),
		OPT_CALLBACK_EXCLUSIVE(
			'a', "add", &o,
			"[EVENT=]FUNC[@SRC][+OFF|%return|:RL|;PT]|SRC:AL|SRC;PT [[NAME=]ARG ...]",
			"probe point definition, where\n"
			"\t\tGROUP:\tGroup name (optional)\n"
			"\t\tEVENT:\tEvent name\n"
			"\t\tFUNC:\tFunction name\n"
			"\t\tOFF:\tOffset from function entry (in byte)\n"
			"\t\t%return:\tPut the probe at function return\n"
			"\t\tSRC:\tSource code path\n"
			"\t\tRL:\tRelative line number from function entry.\n"
			"\t\tAL:\tAbsolute line number in file.\n"
			"\t\tPT:\tLazy expression of line code.\n"
			"\t\tARG:\tProbe argument (local variable name or\n"
			"\t\t\tkprobe-tracer argument format.)\n",
			opt_add),
		OPT_CALLBACK_EXCLUSIVE(
			'D', "definition", &o,
			"[EVENT=]FUNC[@SRC][+OFF|%return|:RL|;PT]|SRC:AL|SRC;PT [[NAME=]ARG ...]",
			"Show trace event definition of given traceevent for k/uprobe_events.",
			opt_definition),
		OPT_BOOLEAN('f', "force", &o.force, "forcibly add events with existing name"),
		OPT_CALLBACK_EXCLUSIVE('L', "line", &o, "FUNC[:RLN[+NUM|-RLN2]]|SRC:ALN[+NUM|-ALN2]",
			     "Show source code lines.", opt_line),
		OPT_CALLBACK_EXCLUSIVE('V', "vars", &o, "FUNC[@SRC][+OFF|%return|:RL|;PT]|SRC:AL|SRC;PT",
			     "Show accessible variables on PROBEDEF", opt_vars),
		OPT_BOOLEAN(0, "externs", &o.externs,
			    "Show external variables too (with --vars only)"),
		OPT_BOOLEAN(0, "range", &o.range, "Show variables location range in scope (with --vars only)"),
		OPT_STRING('k', "vmlinux", &o.vmlinux, "file", "vmlinux pathname"),
		OPT_STRING('s', "source", &o.source, "directory", "path to kernel source"),
		OPT_BOOLEAN(0, "no-inlines", &o.no_inlines, "Don't search inlined functions"),
		OPT_BOOLEAN('n', "dry-run", &o.dry_run, "dry run"),
		OPT_INTEGER(0, "max-probes", &o.max_probes,
			    "Set how many probe points can be found for a probe."),
		{ .type = OPT_CALLBACK_T,
		  .short_name = 'F',
		  .long_name = "funcs",
		  .value = &o,
		  .argh = "[FILTER]",
		  .help = "Show potential probe-able functions.",
		  .callback = opt_funcs,
		  .flags = OPTF_OPTARG | OPTF_LASTARG_DEFAULT | OPTF_EXCLUSIVE },
		OPT_STRING(0, "filter", &o.filter, "[!]FILTER",
			   "Set a filter (with --vars/funcs only)\n"
			   "\t\t\t(default: \"!__k???tab_* & !__crc_*\" for --vars,\n"
			   "\t\t\t \"!_* & !*@plt\" for --funcs)"),
		OPT_CALLBACK('x', "exec", &o, "executable|path", "target executable name or path",
			     opt_exec),
		OPT_CALLBACK('m', "module", &o, "modname|path",
			     "target module name (for online) or path (for offline)", opt_module),
		OPT_BOOLEAN(0, "demangle", &o.demangle, "Enable symbol demangling"),
		OPT_BOOLEAN(0, "demangle-kernel", &o.demangle_kernel,
			    "Enable kernel symbol demangling"),
		OPT_BOOLEAN(0, "cache", &o.cache, "Manipulate probe cache"),
		OPT_STRING(0, "symfs", &o.symfs, "directory",
			   "Look for files with symbols relative to this directory"),
		OPT_CALLBACK(0, "target-ns", &o, "pid", "target pid for namespace contexts",
			     opt_target_ns),
		OPT_BOOLEAN(0, "bootconfig", &o.bootconfig,
			    "Output probe definition with bootconfig format"),
		OPT_END(),
	};
	int nargs = parse_options(argc, argv, opts, probe_usage, 0);

	if (nargs && (!strcmp(argv[0], "-") || (o.command && o.command != 'a'))) {
		fprintf(stderr, "  Error: %s\n\n", !strcmp(argv[0], "-") ? "'-' is not supported." :
			"another command except --add is set.");
		usage_with_options_msg(probe_usage, opts);
		free_lists(&o);
		return PCL_EXIT_USAGE;
	}

	o.table = opts;
	/* perf takes 0 for "not given": the default */
	if (!o.max_probes)
		o.max_probes = MAX_PROBES;
	/* perf names the binary (and a module given by path) by its real path */
	const char *target = o.exec ? o.exec : o.module && strchr(o.module, '/') ? o.module : NULL;
	char real[PATH_MAX], *exec = NULL;

	if (target && !realpath(target, real)) {
		fprintf(stderr, "Failed to get the absolute path of %s: %s\n", target,
			strerror(errno));
		parse_options_usage(probe_usage, opts, o.exec ? "x" : "m", true);
		free_lists(&o);
		return PCL_EXIT_USAGE;
	}
	if (o.quiet && o.verbose) {
		/* perf refuses the pair once it has parsed (and logged) the
		 * definitions */
		struct probe_msgs msgs = { .text = STRBUF_INIT, .verbose = true };

		o.quiet = false;
		probe_defs__log(o.adds.items, o.logged, o.adds.nr, &msgs);
		print_msgs(&msgs, &o);
		strbuf_release(&msgs.text);
		fputs("  Error: -v and -q are exclusive.\n", stderr);
		free_lists(&o);
		return PCL_EXIT_EINVAL;
	}
	if (o.list && o.exec) {
		fputs("  Error: Don't use --list with --exec.\n", stderr);
		parse_options_usage(probe_usage, opts, "l", true);
		parse_options_usage(NULL, opts, "x", true);
		free_lists(&o);
		return PCL_EXIT_EINVAL;
	}
	struct stat st;

	if (o.vmlinux && stat(o.vmlinux, &st)) {
		fprintf(stderr, "Invalid file: %s\n", o.vmlinux);
		free_lists(&o);
		return PCL_EXIT_EINVAL;
	}
	exec = target ? xstrdup(real) : NULL;
	if (o.exec)
		o.exec = exec;
	o.read_exec = exec ? path_in_namespace(o.target_ns, exec) : NULL;
	int ret;

	/* words after the options are one definition, as in perf */
	if (nargs) {
		struct strbuf def = STRBUF_INIT;

		/* each followed by a space, as perf joins them */
		for (int i = 0; i < nargs; i++)
			strbuf_addf(&def, "%s ", argv[i]);
		add_definition(&o, strbuf_detach(&def));
	}
	/* a module file is read as -x's would be; its probes are kprobes */
	struct probe_opts readers = o;

	if (o.module && exec) {
		readers.exec = exec;
		o.module = exec;
	}
	bool adding = !o.funcs && !o.line && !o.vars && !o.list && !o.dels.nr && o.adds.nr;
	bool kernel_cmd = o.funcs || o.line || o.vars || (adding && !probe_defs__all_cached(o.adds.items, o.adds.nr));

	if (o.module && !exec && (o.funcs || o.line || o.vars))
		ret = module_not_loaded(&o);
	else if (o.vmlinux && !target && kernel_cmd && !is_elf_file(o.vmlinux))
		ret = vmlinux_unusable(&o);
	else if (o.funcs)
		ret = show_funcs(&readers);
	else if (o.line)
		ret = show_lines(&readers);
	else if (o.vars)
		ret = show_vars(&readers);
	else if (o.list)
		ret = o.cache ? list_caches(&o) : list_probes(&o);
	else if (o.dels.nr)
		ret = o.cache ? del_caches(&o) : del_probes(&o);
	else if (o.adds.nr && o.bootconfig && o.definition && o.exec) {
		fputs("  Error: --bootconfig doesn't support uprobes.\n", stderr);
		ret = PCL_EXIT_EINVAL;
	} else if (o.adds.nr)
		ret = add_probes(&o);
	else
		usage_with_options(probe_usage, opts);
	if (nargs)
		free((char *)o.adds.items[o.adds.nr - 1]);
	free(exec);
	free(o.read_exec);
	free_lists(&o);
	return ret;
}
