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
	bool list, funcs, dry_run, force, quiet, externs, no_inlines, range;
	bool demangle;			/* -F: C++/Rust names demangled */
	bool demangle_kernel;		/* kernel names: pcl lists none (-F needs -x) */
	const char *filter;		/* --filter: -V's variable names */
	bool definition;	/* -D: print the definitions instead of writing them */
	bool cache;		/* --cache: -a also stores, -l and -d work on the cache */
	bool bootconfig;	/* --bootconfig: -D in bootconfig's format (kprobes only) */
	int verbose;
	const char *exec, *line, *vars, *funcs_filter, *source;
	const char *module;	/* -m NAME: a kernel module (none is loaded here) */
	const char *vmlinux, *symfs;
	char *read_exec;	/* where -x's file is read: through --target-ns's root */
	int target_ns;
	int max_probes;
	const struct option *table;	/* for the usage after a semantic error */
};

static int opt_add(const struct option *opt, const char *arg, bool unset)
{
	strlist_add(&((struct probe_opts *)opt->value)->adds, arg);
	return 0;
}

static int opt_definition(const struct option *opt, const char *arg, bool unset)
{
	((struct probe_opts *)opt->value)->definition = true;
	return opt_add(opt, arg, unset);
}

static int opt_del(const struct option *opt, const char *arg, bool unset)
{
	strlist_add(&((struct probe_opts *)opt->value)->dels, arg);
	return 0;
}

static int opt_list(const struct option *opt, const char *arg, bool unset)
{
	struct probe_opts *o = opt->value;

	o->list = true;
	if (arg)
		strlist_add(&o->lists, arg);
	return 0;
}

static int opt_funcs(const struct option *opt, const char *arg, bool unset)
{
	struct probe_opts *o = opt->value;

	o->funcs = true;
	o->funcs_filter = arg;
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

static char *resolve_exec(const char *exec)
{
	char real[PATH_MAX];

	return realpath(exec, real) ? xstrdup(real) : xstrdup(exec);
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

/* perf's words for a file without debug information: a module (".ko")
 * wants the kernel's build option. */
static void no_debug_info(const char *path)
{
	size_t len = strlen(path);
	bool module = len >= 3 && !strcmp(path + len - 3, ".ko");

	fprintf(stderr,
		"The %s file has no debug information.\n"
		"Rebuild with %s, or install an appropriate debuginfo package.\n",
		path, module ? "CONFIG_DEBUG_INFO=y" : "-g");
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

/* Where libdwfl puts a relocatable file (a module) it reads offline */
#define LIBDWFL_REL_BASE 0x10000

/* Where the function named at the start of text ("malloc:3") has its
 * symbol in -x's binary, 0 when it has none; perf takes a symbol of data
 * too, at its offset in the file.  An indirect function gets perf's
 * warning for when its symbol is used. */
static uint64_t symbol_address(const struct probe_opts *o, const char *text,
			       struct probe_debug *dbg, char **note)
{
	struct probe_elf pe;
	uint64_t addr = 0;
	char *name = xstrndup(text, strcspn(text, ":+@%;"));

	*note = NULL;
	if (!probe_elf__open(&pe, o->read_exec)) {
		const struct probe_sym *sym = probe_elf__find_function(&pe, name), *data;

		if (sym && sym->ifunc)
			*note = xasprintf("Warning: The probe function (%s) is a GNU indirect "
					  "function.\nConsider identifying the final function used "
					  "at run time and set the probe directly on that.\n",
					  name);
		probe_debug__set_symbol_note(dbg, *note);
		uint64_t rel = sym ? 0 : probe_elf__rel_data_offset(&pe, name);

		if (sym)
			addr = sym->addr;
		else if (rel)	/* a module's: where libdwfl places the file, on */
			addr = LIBDWFL_REL_BASE + rel;
		else if ((data = probe_elf__find_data(&pe, name)))
			addr = probe_elf__section_offset(&pe, data->addr);
		probe_elf__close(&pe);
	}
	free(name);
	return addr;
}

static int show_lines(const struct probe_opts *o)
{
	struct probe_debug *dbg = open_debug(o);
	struct probe_msgs msgs = { STRBUF_INIT, o->verbose > 0 };
	struct strbuf out = STRBUF_INIT;
	int ret;

	if (!dbg) {
		fputs("  Error: Failed to show lines.\n", stderr);
		return PCL_EXIT_ENOENT;
	}
	char *note;
	uint64_t symbol_addr = symbol_address(o, o->line, dbg, &note);

	ret = probe_debug__show_lines(dbg, o->line, symbol_addr, &out, &msgs);
	free(note);
	fputs(strbuf_str(&out), stdout);
	print_msgs(&msgs, o);
	if (ret)
		fputs("  Error: Failed to show lines.\n", stderr);
	strbuf_release(&msgs.text);
	strbuf_release(&out);
	probe_debug__close(dbg);
	return exit_of(ret);
}

static int show_vars(const struct probe_opts *o)
{
	struct probe_debug *dbg = open_debug(o);
	struct probe_msgs msgs = { STRBUF_INIT, o->verbose > 0 };
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
	char *note = NULL;
	uint64_t symbol_addr =
		spec.point.function ? symbol_address(o, spec.point.function, dbg, &note) : 0;

	ret = probe_debug__show_vars(dbg, &spec, o->externs, o->range, o->filter, symbol_addr,
				     &out, &msgs);
	free(note);
	fputs(strbuf_str(&out), stdout);
	print_msgs(&msgs, o);
	if (ret)
		fputs("  Error: Failed to show vars.\n", stderr);
	strbuf_release(&msgs.text);
	strbuf_release(&out);
	probe_spec__exit(&spec);
	probe_debug__close(dbg);
	return exit_of(ret);
}

/* --- -a ------------------------------------------------------------------- */

/* perf's room for an event name, its terminating NUL included */
#define MAX_EVENT_NAME_LEN 64

/* An event added (or, with -n, that would be): what the summary lists. */
struct added {
	char *group, *event, *point, *with, *binary;
};

struct add_run {
	const struct probe_opts *o;
	struct probe_event *existing;
	int nr_existing;
	struct added *added;
	int nr_added;
	struct probe_msgs msgs;
	bool semantic_error;	/* reported with the usage already */
	int def_first;	/* the first of added made by the definition at hand */
};

/* Whether an event defined before this run, or one of the first nr_added
 * of it, has the name (the sites of one definition share theirs).  perf
 * reads the names from the kernel for each definition: with -n, those of
 * the definitions before are not there. */
static bool name_taken_before(const struct add_run *r, int nr_added, const char *group,
			      const char *event)
{
	for (int i = 0; i < r->nr_existing; i++)
		if (!strcmp(r->existing[i].group, group) && !strcmp(r->existing[i].event, event))
			return true;
	for (int i = r->o->dry_run ? r->def_first : 0; i < nr_added; i++)
		if (!strcmp(r->added[i].group, group) && !strcmp(r->added[i].event, event))
			return true;
	return false;
}

static bool name_taken(const struct add_run *r, const char *group, const char *event)
{
	return name_taken_before(r, r->nr_added, group, event);
}

/* The event name of a spec's site: EVENT=, else the function with
 * "_L<line>" for a line and "__return" for a return probe. */
static char *event_name(const struct probe_spec *spec, const char *function)
{
	const struct probe_point *pp = &spec->point;
	struct strbuf sb = STRBUF_INIT;

	if (spec->event)
		strbuf_addstr(&sb, spec->event);
	else if (pp->absolute)
		strbuf_addf(&sb, "abs_%llx", pp->address);
	else
		strbuf_addstr(&sb, function);
	if (!spec->event && pp->function && pp->has_line && pp->line)
		strbuf_addf(&sb, "_L%d", pp->line);
	if (pp->retprobe)
		strbuf_addstr(&sb, "__return");
	return strbuf_detach(&sb);
}

static void event_exists(const char *event)
{
	fprintf(stderr,
		"Error: event \"%s\" already exists.\n"
		" Hint: Remove existing event by 'pcl probe -d'\n"
		"       or force duplicates by 'pcl probe -f'\n"
		"       or set 'force=yes' in BPF source.\n",
		event);
}

/* The event of one site: sites of one function share it; a name taken
 * before is refused, or with -f numbered (_1, _2, ...). */
static char *site_event(struct add_run *r, int first, const struct probe_spec *spec,
			const char *group, const struct probe_site *sites, int site, char **chosen,
			int *err)
{
	for (int i = 0; i < site; i++)
		if (!strcmp(sites[i].function, sites[site].function))
			return xstrdup(chosen[i]);
	char *base = event_name(spec, sites[site].function), *event = NULL;

	/* perf makes the name in a buffer of 64 and gives up past it */
	if (strlen(base) >= MAX_EVENT_NAME_LEN) {
		probe_msg(&r->msgs, true, "snprintf() failed: %d\n", -E2BIG);
		free(base);
		*err = -E2BIG;
		return NULL;
	}
	if (!name_taken_before(r, first, group, base))
		return base;
	if (!r->o->force) {
		event_exists(base);
		free(base);
		*err = -EEXIST;
		return NULL;
	}
	for (int k = 1; !event || name_taken(r, group, event); k++) {
		free(event);
		event = xasprintf("%s_%d", base, k);
	}
	if (strlen(event) >= MAX_EVENT_NAME_LEN) {
		probe_msg(&r->msgs, true, "snprintf() failed: %d\n", -E2BIG);
		free(event);
		event = NULL;
		*err = -E2BIG;
	}
	free(base);
	return event;
}

/* The arguments of a definition, each after a space, in a form text
 * gives (as listed after "with", or as written for tracefs); caller
 * frees. */
static char *joined_args(const struct probe_spec *spec, char *(*text)(const struct probe_arg *))
{
	struct strbuf sb = STRBUF_INIT;

	for (int i = 0; i < spec->nr_args; i++) {
		char *t = text(&spec->args[i]);

		strbuf_addf(&sb, " %s", t);
		free(t);
	}
	return strbuf_detach(&sb);
}

static bool spec_has_c_args(const struct probe_spec *spec)
{
	for (int i = 0; i < spec->nr_args; i++)
		if (probe_arg__is_c_expr(&spec->args[i]))
			return true;
	return false;
}

/* The sites from symbols alone: FUNC[+OFF] and its raw arguments, as
 * perf finds them in the binary's symbol table. */
static int symbol_sites(const struct probe_elf *pe, const struct probe_spec *spec,
			const char *binary, struct probe_msgs *msgs, struct probe_site **sites)
{
	const char *function = spec->point.function;
	const struct probe_sym *sym = function ? probe_elf__find_function(pe, function) : NULL;

	if (!sym) {
		/* a symbol of data is found, and silently no place to probe */
		if (!function || !probe_elf__find_data(pe, function))
			probe_msg(msgs, false, "Failed to find symbol %s in %s\n",
				  function ? function : "(null)", binary);
		return -ENOENT;
	}
	if (spec->point.offset > sym->size) {
		probe_msg(msgs, false, "Offset %ld is bigger than the size of %s\n",
			  (long)spec->point.offset, sym->name);
		return -ENOENT;
	}
	struct probe_site *site = xcalloc(1, sizeof(*site));

	site->addr = sym->addr + spec->point.offset;
	site->function = xstrdup(sym->name);
	for (int i = 0; i < spec->nr_args; i++) {
		const struct probe_arg *arg = &spec->args[i];

		site->args = xrealloc(site->args, (site->nr_args + 1) * sizeof(char *));
		site->args[site->nr_args++] = probe_arg__as_written(arg);
	}
	*sites = site;
	return 1;
}

static void point_not_found(const struct probe_spec *spec, struct probe_msgs *msgs)
{
	char *point = probe_spec__point_text(spec);

	probe_msg(msgs, false, "Probe point '%s' not found.\n", point);
	free(point);
}

/* A function the debug information does not name: perf looks for its
 * symbol, and for the debug information at the symbol's address, where
 * the function is known by another name (libc's malloc is
 * __libc_malloc); without any there, the point is not found. */
static int alternative_sites(const struct probe_opts *o, struct probe_elf *pe,
			     struct probe_debug *dbg, const struct probe_spec *spec,
			     const char *binary, struct probe_msgs *msgs, struct probe_site **sites)
{
	const char *function = spec->point.function;
	char *note = NULL;
	uint64_t addr = function && !spec->point.file ? symbol_address(o, function, dbg, &note)
						      : 0;
	int ret = -ENOENT;

	probe_debug__set_symbol_note(dbg, NULL);
	free(note);
	char *name = NULL;

	if (addr) {
		probe_msg(msgs, true, "Symbol %s address found : %lx\n", function,
			  (unsigned long)addr);
		name = probe_debug__function_at(dbg, addr, msgs);
	}
	if (name) {
		/* perf looks again, by the name the debug information gives */
		struct probe_spec alt = *spec;

		alt.point.function = name;
		alt.point.lazy = NULL;	/* perf's second look keeps no lazy pattern */
		ret = probe_debug__find_sites(dbg, &alt, msgs, sites);
		if (!ret)
			point_not_found(&alt, msgs);
		/* the events are named after the symbol asked for */
		for (int i = 0; i < ret; i++) {
			free((*sites)[i].function);
			(*sites)[i].function = xstrdup(function);
		}
		free(name);
		return ret ? ret : -ENOENT;
	}
	point_not_found(spec, msgs);
	return ret;
}

/* 0xADDR: the address as given (perf writes it unconverted, any offset
 * dropped), with the raw arguments. */
static int absolute_site(const struct probe_spec *spec, struct probe_site **sites)
{
	struct probe_site *site = xcalloc(1, sizeof(*site));

	site->addr = spec->point.address;
	site->function = xstrdup(spec->point.function);
	for (int i = 0; i < spec->nr_args; i++) {
		site->args = xrealloc(site->args, (site->nr_args + 1) * sizeof(char *));
		site->args[site->nr_args++] = probe_arg__as_written(&spec->args[i]);
	}
	*sites = site;
	return 1;
}

/* The sites of a definition on -x's binary: from the debug information,
 * else from the symbols where perf falls back to them. */
static int uprobe_sites(const struct probe_opts *o, struct probe_elf *pe, struct probe_debug *dbg,
			const struct probe_spec *spec, const char *binary, struct probe_msgs *msgs,
			struct probe_site **sites)
{
	int nr;

	/* a return probe is placed by its symbol alone */
	if (!dbg || spec->point.retprobe)
		return symbol_sites(pe, spec, binary, msgs, sites);
	probe_debug__log_search(dbg, binary, spec, msgs);
	nr = probe_debug__find_sites(dbg, spec, msgs, sites);
	if (!nr && spec->nr_args) {
		/* perf has no site to give the arguments to: an error */
		probe_msg(msgs, true, "An error occurred in debuginfo analysis (%d).\n", -ENOENT);
		nr = -ENOENT;
	}
	if (nr < 0 && probe_spec__needs_dwarf(spec))
		return nr;
	if (nr < 0) {
		/* perf falls back to the symbols where it may */
		probe_msg(msgs, true, "Trying to use symbols.\n");
		return symbol_sites(pe, spec, binary, msgs, sites);
	}
	if (!nr)
		nr = alternative_sites(o, pe, dbg, spec, binary, msgs, sites);
	if (nr > 0)
		probe_debug__log_found(nr, msgs);
	return nr;
}

static void forget_added(struct add_run *r, int from)
{
	for (int i = from; i < r->nr_added; i++) {
		free(r->added[i].group);
		free(r->added[i].event);
		free(r->added[i].point);
		free(r->added[i].with);
		free(r->added[i].binary);
	}
	r->nr_added = from;
}

/* The binary's probes file in the build-id cache, the binary cached
 * first and the file made (empty) if need be, as perf opens it before
 * anything is found; NULL when it cannot be.  Caller frees. */
static char *cache_probes_file(const struct probe_opts *o, const char *binary)
{
	char *dir = build_id_cache__dir(), *entry = NULL, *probes = NULL;
	uint8_t id[20];
	/* the file as --target-ns's process sees it */
	int size = elf_file__read_build_id(o->read_exec, id, sizeof(id));

	if (dir && size > 0 && !build_id_cache__add_from(dir, binary, o->read_exec, id, size))
		entry = build_id_cache__entry(dir, binary, id, size);
	if (entry) {
		int fd;

		probes = xasprintf("%s/probes", entry);
		fd = open(probes, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
		if (fd >= 0)
			close(fd);
	}
	free(entry);
	free(dir);
	return probes;
}

/* -a --cache: the definition and its uprobes into the binary's probes
 * file in the build-id cache (perf writes it on -n too). */
static void cache_definition(const struct probe_opts *o, const char *binary, const char *spev,
			     char **defs, int nr_defs)
{
	char *probes = cache_probes_file(o, binary);
	int ret = -ENOENT;
	struct probe_cache pc;

	if (probes)
		ret = probe_cache__load(&pc, probes);
	if (!ret) {
		probe_cache__add(&pc, spev, defs, nr_defs);
		ret = probe_cache__save(&pc, probes);
		if (o->verbose)
			fprintf(stderr, "Added probe cache: %d\n", nr_defs);
		for (int i = 0; i < pc.nr && o->verbose; i++)
			fprintf(stderr, "Writing cache: %c%s\nCache committed: %d\n",
				pc.entries[i].sdt ? '%' : '#', pc.entries[i].spev, ret);
		probe_cache__exit(&pc);
	}
	if (ret)
		fputs("Failed to add event to probe cache\n", stderr);
	free(probes);
}

/* perf -v's line for an argument (len bytes of word) as parsed: perf
 * learns whether the tracer reads user memory (README) in its middle. */
static void log_parsed_arg(const char *word, int len, const struct probe_arg *arg,
			   struct probe_msgs *msgs)
{
	char *parsed = probe_arg__debug_text(arg);
	int head = arg->user_access ? (arg->named ? (int)strlen(arg->name) + 6 : 0)
				    : (int)strlen(parsed);

	probe_msg(msgs, true, "parsing arg: %.*s into %.*s", len, word, head, parsed);
	if (arg->user_access)
		probe_trace__log_readme(msgs);
	probe_msg(msgs, true, "%s\n", parsed + head);
	free(parsed);
}

/* perf -v's lines for the i-th definition as it parses it. */
static void log_definition(int i, const char *def, const struct probe_spec *spec,
			   struct probe_msgs *msgs)
{
	char *point = probe_point__debug_text(&spec->point);

	probe_msg(msgs, true, "probe-definition(%d): %s\n%s\n", i, def, point);
	free(point);
	/* each argument as written: the words after the probe point */
	const char *word = def + strcspn(def, " \t");

	for (int k = 0; k < spec->nr_args; k++) {
		word += strspn(word, " \t");
		int len = (int)strcspn(word, " \t");

		log_parsed_arg(word, len, &spec->args[k], msgs);
		word += len;
	}
	probe_msg(msgs, true, "%d arguments\n", spec->nr_args);
}

/* perf -v's lines for a definition it refuses: its point and the
 * arguments it parsed before the error.  Returns the count of arguments
 * perf gives after the error (0 when the point was refused). */
static int log_refused(int i, const char *def, struct probe_msgs *msgs)
{
	char *copy = xstrdup(def), *save = NULL, *word = strtok_r(copy, " \t", &save);
	struct probe_spec spec;
	char err[256];
	int nargs = 0;
	bool parsing = true;

	probe_msg(msgs, true, "probe-definition(%d): %s\n", i, def);
	if (!word || probe_spec__parse(&spec, word, err, sizeof(err))) {
		free(copy);
		return 0;
	}
	char *point = probe_point__debug_text(&spec.point);

	probe_msg(msgs, true, "%s\n", point);
	free(point);
	for (; (word = strtok_r(NULL, " \t", &save)); nargs++) {
		struct probe_arg arg;

		if (!parsing)
			continue;
		parsing = !probe_arg__parse(&arg, word, err, sizeof(err));
		if (parsing)
			log_parsed_arg(word, (int)strlen(word), &arg, msgs);
		probe_arg__exit(&arg);
	}
	probe_spec__exit(&spec);
	free(copy);
	return nargs;
}

/* A definition of -x's binary as parsed, and its sites once found. */
struct uprobe_def {
	struct probe_spec spec;
	char *group;
	struct probe_site *sites;
	int nr;
};

static void uprobe_def__exit(struct uprobe_def *d)
{
	probe_spec__exit(&d->spec);
	free(d->group);
	probe_sites__free(d->sites, d->nr);
}

/* Finds the sites of a definition (perf finds every definition's before
 * it writes any); 0 or -errno after perf's message. */
static int find_uprobe(struct add_run *r, struct uprobe_def *d, const char *binary,
		       struct probe_elf *pe, struct probe_debug *dbg)
{
	const struct probe_opts *o = r->o;
	const struct probe_spec *spec = &d->spec;
	int nr;

	d->group = spec->group ? xstrdup(spec->group) : probe_default_group(binary);
	if (!spec->group && strlen(d->group) >= MAX_EVENT_NAME_LEN) {
		/* perf makes the group's name in a buffer of 64 too */
		probe_msg(&r->msgs, false, "Failed to make a group name.\n");
		nr = -E2BIG;
		goto out;
	}
	/* an address needs no symbol: perf takes it before anything else */
	if (spec->point.absolute && !probe_spec__needs_dwarf(spec)) {
		nr = absolute_site(spec, &d->sites);
		goto found;
	}
	/* perf looks for the definition in the binary's probe cache first */
	free(probe_cache__open_probes(binary, o->read_exec, &r->msgs));
	if (o->cache && !o->definition)
		free(cache_probes_file(o, binary));
	if (!dbg && probe_spec__needs_dwarf(spec)) {
		print_msgs(&r->msgs, o);
		no_debug_info(binary);
		return -ENOENT;
	}
	if (!dbg && !spec->point.retprobe)
		probe_msg(&r->msgs, true, "Could not open debuginfo. Try to use symbols.\n");
	if (!dbg && !pe->nr_table_syms) {
		probe_msg(&r->msgs, true, "no symbols found in %s, maybe install a debug package?\n",
			  binary);
		probe_msg(&r->msgs, false,
			  "Failed to load symbols from %s\nPlease ensure the file is not stripped.\n",
			  binary);
		nr = -ENOENT;
		goto out;
	}
	nr = uprobe_sites(o, pe, dbg, spec, binary, &r->msgs, &d->sites);
found:
	if (nr > o->max_probes) {
		probe_msg(&r->msgs, false, "Too many( > %d) probe point found.\n", o->max_probes);
		probe_sites__free(d->sites, nr);
		d->sites = NULL;
		nr = -ERANGE;
	}
out:
	print_msgs(&r->msgs, o);
	if (nr < 0)
		return nr;
	d->nr = nr;
	return 0;
}

/* Writes the uprobes of one definition found; a failure removes what it
 * added. */
static int write_uprobe(struct add_run *r, const struct uprobe_def *d, const char *binary,
			struct probe_elf *pe)
{
	const struct probe_opts *o = r->o;
	const struct probe_spec *spec = &d->spec;
	const struct probe_site *sites = d->sites;
	const char *group = d->group;
	int nr = d->nr, ret = 0, first = r->nr_added;

	r->def_first = first;
	char *point = probe_spec__point_text(spec);
	char *with = joined_args(spec, probe_arg__text);
	char **events = xcalloc(nr, sizeof(*events));
	char **written = xcalloc(nr, sizeof(*written));

	/* perf opens the events file once per definition, before it names
	 * the events */
	if (!o->definition)
		probe_trace__log_open(&r->msgs, "uprobe_events", true);
	for (int i = 0; i < nr && !ret; i++) {
		events[i] = site_event(r, first, spec, group, sites, i, events, &ret);
		if (ret)
			break;
		struct strbuf line = STRBUF_INIT;

		strbuf_addf(&line, "%c:%s/%s %s:0x%lx", spec->point.retprobe ? 'r' : 'p', group,
			    events[i], binary,
			    (unsigned long)(spec->point.absolute && !probe_spec__needs_dwarf(spec)
						    ? sites[i].addr
						    : probe_elf__file_offset(pe, sites[i].addr)));
		for (int k = 0; k < sites[i].nr_args; k++)
			strbuf_addf(&line, " %s", sites[i].args[k]);
		/* perf learns what the tracer supports as it writes the first */
		probe_trace__log_readme(&r->msgs);
		print_msgs(&r->msgs, o);
		if (o->definition) {
			/* -D: the definition is the output */
			puts(line.buf);
		} else {
			probe_msg(&r->msgs, true, "Writing event: %s\n", line.buf);
			print_msgs(&r->msgs, o);
			if (!o->dry_run)
				ret = probe_events__write("uprobe_events", line.buf);
			if (ret)
				fprintf(stderr, "Failed to write event: %s\n", strerror(-ret));
		}
		written[i] = strbuf_detach(&line);
		if (ret)
			break;
		r->added = xrealloc(r->added, (r->nr_added + 1) * sizeof(*r->added));
		r->added[r->nr_added++] = (struct added){ xstrdup(group), xstrdup(events[i]),
							  xstrdup(point), xstrdup(with),
							  xstrdup(binary) };
	}
	if (!ret && o->cache && !o->definition) {
		char *spev = spec->event ? xasprintf("%s:%s=%s%s", group, spec->event, point, with)
					: xasprintf("%s%s", point, with);

		cache_definition(o, binary, spev, written, nr);
		free(spev);
	}
	if (ret) {
		/* a failed definition leaves nothing behind */
		for (int i = first; i < r->nr_added && !o->dry_run && !o->definition; i++)
			if (i == first || strcmp(r->added[i].event, r->added[i - 1].event))
				probe_events__delete("uprobe_events", group, r->added[i].event);
		if (ret != -EEXIST)
			forget_added(r, first);
	}
	for (int i = 0; i < nr; i++) {
		free(events[i]);
		free(written[i]);
	}
	free(events);
	free(written);
	free(point);
	free(with);
	print_msgs(&r->msgs, o);
	return ret;
}

static void print_added(const struct add_run *r)
{
	if (!r->nr_added || r->o->quiet)
		return;
	fprintf(stderr, "Added new event%s:\n", r->nr_added > 1 ? "s" : "");
	for (int i = 0; i < r->nr_added; i++) {
		const struct added *a = &r->added[i];
		char *name = xasprintf("%s:%s", a->group, a->event);

		fprintf(stderr, "  %-20s (on %s in %s%s%s)\n", name, a->point, a->binary,
			*a->with ? " with" : "", a->with);
		free(name);
	}
	const struct added *last = &r->added[r->nr_added - 1];

	fprintf(stderr,
		"\nYou can now use it in all pcl tools, such as:\n\n"
		"\tpcl record -e %s:%s -aR sleep 1\n\n",
		last->group, last->event);
}

/* "p:GROUP/EVENT /path:0x..." (or "r:...") -> its group, event and path. */
static bool split_definition(const char *def, char **group, char **event, char **path)
{
	const char *slash = strchr(def, '/'), *space = strchr(def, ' ');
	const char *colon = space ? strchr(space, ':') : NULL;

	if ((strncmp(def, "p:", 2) && strncmp(def, "r:", 2)) || !slash || !space ||
	    slash > space || !colon)
		return false;
	*group = xstrndup(def + 2, slash - def - 2);
	*event = xstrndup(slash + 1, space - slash - 1);
	*path = xstrndup(space + 1, colon - space - 1);
	return true;
}

static void add_definition(char ***defs, int *nr, char *def)
{
	*defs = xrealloc(*defs, (*nr + 1) * sizeof(**defs));
	(*defs)[(*nr)++] = def;
}

/* The parser gives %GROUP:EVENT's group perf's SDT prefix ("sdt_GROUP"):
 * a stored group matches with or without it. */
static bool group_matches(const char *glob, const char *group)
{
	char *prefixed = xasprintf("sdt_%s", group);
	bool hit = !glob || glob_match(glob, group) || glob_match(glob, prefixed);

	free(prefixed);
	return hit;
}

/* The definitions --cache stored under a GROUP:EVENT matching the spec's
 * globs, every cache in build-id order. */
static int stored_definitions(const struct probe_spec *spec, char ***defs)
{
	char *dir = build_id_cache__dir();
	struct probe_cache_ref *refs;
	int n = dir ? probe_caches__list(dir, &refs) : 0, nr = 0;

	*defs = NULL;
	for (int i = 0; i < n; i++) {
		struct probe_cache pc;

		probe_cache__load(&pc, refs[i].probes);
		for (int k = 0; k < pc.nr; k++) {
			const struct probe_cache_entry *e = &pc.entries[k];
			char *key = probe_cache_entry__key(e), *colon = strchr(key, ':');
			/* only entries naming their event ("GROUP:EVENT=...") */
			bool hit = colon && !e->sdt && strcmp(key, e->spev);

			if (hit) {
				*colon = '\0';
				hit = group_matches(spec->group, key) &&
				      glob_match(spec->event, colon + 1);
			}
			for (int d = 0; hit && d < e->nr_defs; d++)
				add_definition(defs, &nr, xstrdup(e->defs[d]));
			free(key);
		}
		probe_cache__exit(&pc);
	}
	if (n)
		probe_caches__free(refs, n);
	free(dir);
	return nr;
}

/* The cached uprobes of %[GROUP:]EVENT: an SDT marker's (each binary that
 * has it), else definitions stored by --cache. */
static int cached_definitions(const struct probe_spec *spec, char ***defs)
{
	struct sdt_event *evs;
	int n = sdt_events__by_binary(spec->group, spec->event, &evs), nr = 0;

	*defs = NULL;
	for (int i = 0; i < n; i++) {
		char **more;
		int k = sdt_event__definitions(&evs[i], &more);

		for (int d = 0; d < k; d++)
			add_definition(defs, &nr, more[d]);
		free(more);
	}
	sdt_events__free(evs, n);
	if (!nr) {
		free(*defs);
		nr = stored_definitions(spec, defs);
	}
	return nr;
}

/* Adds cached uprobes as the cache defines them (SDT markers with their
 * semaphore: the kernel counts it up, so guarded markers fire). */
static int add_sdt(struct add_run *r, const struct probe_spec *spec)
{
	const struct probe_opts *o = r->o;
	char **defs;
	int nr = cached_definitions(spec, &defs), ret = 0;

	for (int k = 0; k < nr; k++) {
		char *group, *event, *path;

		if (!ret && split_definition(defs[k], &group, &event, &path)) {
			/* perf 6.1 names a cached return probe once more "__return" */
			if (defs[k][0] == 'r') {
				char *renamed = xasprintf("%s__return", event);
				char *def = xasprintf("r:%s/%s%s", group, renamed,
						      strchr(defs[k], ' '));

				free(event);
				event = renamed;
				free(defs[k]);
				defs[k] = def;
			}
			/* perf checks the events defined before, not this run's */
			if (!o->definition && name_taken_before(r, 0, group, event) && !o->force) {
				event_exists(event);
				ret = -EEXIST;
			}
			if (o->definition)
				puts(defs[k]);	/* -D: the definition is the output */
			else
				probe_msg(&r->msgs, true, "Writing event: %s\n", defs[k]);
			print_msgs(&r->msgs, o);
			if (!ret && !o->dry_run && !o->definition) {
				ret = probe_events__write("uprobe_events", defs[k]);
				if (ret)
					fprintf(stderr, "Failed to write event: %s\n", strerror(-ret));
			}
			if (!ret) {
				/* perf shows the marker as asked for */
				char *point = xasprintf("%%%s", spec->event);

				r->added = xrealloc(r->added, (r->nr_added + 1) * sizeof(*r->added));
				r->added[r->nr_added++] =
					(struct added){ group, event, point, xstrdup(""), path };
				group = event = path = NULL;
			}
			free(group);
			free(event);
			free(path);
		}
		free(defs[k]);
	}
	free(defs);
	if (!nr)
		ret = -ENOENT;	/* not cached: perf says no more than that */
	print_msgs(&r->msgs, o);
	return ret;
}

/* One kprobe site of -D: its event and where it goes ("_text+N"). */
struct kprobe_site {
	char *event, *target;
};

/* A module file's site of function (perf names it "PATH:FUNC+OFF"): 1
 * with a zero offset when the file has the symbol, else 0. */
static int module_has_function(const char *path, const char *function, uint64_t **offsets)
{
	struct probe_elf pe;
	int n = 0;

	if (!probe_elf__open(&pe, path)) {
		n = probe_elf__find_function(&pe, function) ? 1 : 0;
		probe_elf__close(&pe);
	}
	*offsets = n ? xcalloc(1, sizeof(**offsets)) : NULL;
	return n;
}

/* One kprobe: into the bootconfig list, or a definition line. */
static void add_kprobe(const struct probe_opts *o, const struct probe_spec *spec,
		       const char *event, char *target, struct kprobe_site **sites, int *nr,
		       struct strbuf *lines)
{
	if (o->bootconfig) {
		*sites = xrealloc(*sites, (*nr + 1) * sizeof(**sites));
		(*sites)[(*nr)++] = (struct kprobe_site){ xstrdup(event), target };
		return;
	}
	strbuf_addf(lines, "%c:%s/%s %s\n", spec->point.retprobe ? 'r' : 'p',
		    spec->group ? spec->group : "probe", event, target);
	free(target);
}

/* The module's name in definitions: its own (struct module's), else its
 * path. */
static char *module_name(const char *path)
{
	struct probe_elf pe;
	char *name = NULL;

	if (!probe_elf__open(&pe, path)) {
		name = probe_elf__module_name(&pe);
		probe_elf__close(&pe);
	}
	return name ? name : xstrdup(path);
}

/* The kprobes of a module file from its debug information, placed as
 * "MODULE:FUNC+OFF" by the module's symbols: their count, 0 when the
 * debug information has no site, or -errno after perf's message. */
static int module_dwarf_sites(const struct probe_opts *o, struct probe_debug *dbg,
			      const struct probe_spec *spec, struct kprobe_site **ksites, int *knr,
			      struct strbuf *lines, struct probe_msgs *msgs)
{
	struct probe_site *sites;
	int nr = probe_debug__find_sites(dbg, spec, msgs, &sites);

	if (nr > o->max_probes) {
		probe_msg(msgs, false, "Too many( > %d) probe point found.\n", o->max_probes);
		probe_sites__free(sites, nr);
		return -ERANGE;
	}
	if (nr <= 0)
		return nr;
	char *module = module_name(o->module);
	struct probe_elf pe;
	bool have_elf = !probe_elf__open(&pe, o->module);

	for (int i = 0; i < nr; i++) {
		uint64_t off = 0;
		char *symbol = probe_debug__symbol_at(dbg, sites[i].addr, &off);
		const struct probe_sym *sym =
			symbol || !have_elf ? NULL : probe_elf__function_at(&pe, sites[i].addr);

		/* a file that is no relocatable one: placed by its symbols */
		if (sym) {
			symbol = xstrdup(sym->name);
			off = sites[i].addr - sym->addr;
		}
		char *event = event_name(spec, sites[i].function);
		struct strbuf target = STRBUF_INIT;

		strbuf_addf(&target, "%s:%s+%lu", module, symbol ? symbol : sites[i].function,
			    (unsigned long)off);
		for (int k = 0; k < sites[i].nr_args; k++)
			strbuf_addf(&target, " %s", sites[i].args[k]);
		add_kprobe(o, spec, event, strbuf_detach(&target), ksites, knr, lines);
		free(event);
		free(symbol);
	}
	free(module);
	if (have_elf)
		probe_elf__close(&pe);
	probe_sites__free(sites, nr);
	return nr;
}

/* A module's symbol of data named as a function: perf's second look
 * finds no code at its address (and says so when no debug information
 * covers it). */
static void module_data_symbol(const char *path, struct probe_debug *dbg, const char *name,
			       struct probe_msgs *msgs)
{
	struct probe_elf pe;
	uint64_t rel;

	if (probe_elf__open(&pe, path))
		return;
	rel = probe_elf__rel_data_offset(&pe, name);
	if (rel) {
		probe_msg(msgs, true, "Symbol %s address found : %lx\n", name,
			  (unsigned long)(LIBDWFL_REL_BASE + rel));
		free(probe_debug__function_at(dbg, LIBDWFL_REL_BASE + rel, msgs));
	}
	probe_elf__close(&pe);
}

/* Where perf reads the functions kprobes refuse (none here). */
#define KPROBE_BLACKLIST "/sys/kernel/debug/kprobes/blacklist"

/* perf -v's notes as it looks for the kernel's image (for its debug
 * information, or its symbols before it settles for kallsyms). */
static void log_vmlinux_path(const struct probe_opts *o, struct probe_msgs *msgs)
{
	uint8_t id[20];
	int size = sysfs__read_kernel_build_id(id, sizeof(id));

	print_msgs(msgs, o);
	if (o->verbose > 0 && !o->quiet)
		session_warnings__vmlinux_path(id, size);
}

/* A module file's probe on a symbol (no debug information for it): perf
 * names it "MODULE:FUNC+OFF". */
static int module_symbol_sites(const struct probe_opts *o, struct probe_debug *dbg,
			       const struct probe_spec *spec, struct kprobe_site **sites,
			       int *nr, struct strbuf *lines, struct probe_msgs *msgs)
{
	const char *function = spec->point.function;
	uint64_t *offsets;

	struct probe_elf pe;

	if (!dbg && function) {
		/* no debug information: perf goes to the file's symbols */
		bool symbols = !probe_elf__open(&pe, o->module);

		if (symbols && !pe.nr_table_syms)
			probe_elf__close(&pe);
		if (!symbols)
			probe_msg(msgs, true,
				  "symsrc__init: cannot get elf header.\n"
				  "Failed to open %s, continuing without symbols\n", o->module);
		if (!symbols || !pe.nr_table_syms) {
			probe_msg(msgs, false,
				  "Failed to load symbols from %s\nPlease ensure the file is not "
				  "stripped.\n", o->module);
			return -ENOENT;
		}
		probe_elf__close(&pe);
	}
	if (!function || module_has_function(o->module, function, &offsets) <= 0) {
		if (!dbg && function) {
			probe_msg(msgs, false, "Failed to find symbol %s in %s\n", function,
				  o->module);
			return -ENOENT;
		}
		if (dbg && function && !spec->point.file && !spec->nr_args)
			module_data_symbol(o->module, dbg, function, msgs);
		char *point = probe_spec__point_text(spec);

		probe_msg(msgs, false, "Probe point '%s' not found.\n", point);
		free(point);
		return -ENOENT;
	}
	char *event = event_name(spec, function), *args = joined_args(spec, probe_arg__as_written);
	char *module = module_name(o->module);

	add_kprobe(o, spec, event,
		   xasprintf("%s:%s+%lu%s", module, function, spec->point.offset, args), sites,
		   nr, lines);
	free(module);
	free(args);
	free(event);
	free(offsets);
	return 0;
}

/* perf -v's notes as it opens a module file's probe cache (which it
 * finds by build id, and creates the file of where the entry is). */
static void log_module_cache(const char *path, struct probe_msgs *msgs)
{
	uint8_t id[20];
	int size = elf_file__read_build_id(path, id, sizeof(id));

	if (size <= 0) {
		probe_msg(msgs, true, "Failed to get build-id from %s.\nCache open error: -1\n",
			  path);
		return;
	}
	char *dir = build_id_cache__dir(), *entry = build_id_cache__entry(dir, path, id, size);
	struct stat st;

	if (stat(entry, &st))
		probe_msg(msgs, true, "Failed to open cache(-1): %s/probes\nCache open error: -1\n",
			  entry);
	free(entry);
	free(dir);
}

/* -m NAME: a module perf looks for among the loaded ones (none here);
 * -m PATH is a file, read offline. */
static bool module_by_name(const struct probe_opts *o)
{
	return o->module && !strchr(o->module, '/');
}

/* A definition on a module not loaded: perf finds no probe cache, no
 * module for debug information (which only a line or variable needs) and
 * no map for its symbols. */
static int unloaded_module(const struct probe_opts *o, const struct probe_spec *spec,
			   struct probe_msgs *msgs)
{
	probe_msg(msgs, true, "Failed to get build-id from %s.\nCache open error: -1\n",
		  o->module);
	if (spec->point.retprobe && !probe_spec__needs_dwarf(spec))
		return -EINVAL;
	probe_msg(msgs, true, "Failed to find module %s.\n", o->module);
	if (probe_spec__needs_dwarf(spec)) {
		probe_msg(msgs, false,
			  "Module %s is not loaded, please specify its full path name.\n",
			  o->module);
		return -ENOENT;
	}
	probe_msg(msgs, true, "Could not open debuginfo. Try to use symbols.\n");
	return -EINVAL;
}

/* An address in the kernel: perf takes it before anything else when it
 * lies in the text ("0xADDR", event abs_ADDR), else warns and goes on to
 * look for a symbol of that name.  Whether it was taken. */
static bool kernel_address_site(const struct probe_opts *o, struct probe_kernel *k,
				const struct probe_spec *spec, struct kprobe_site **sites, int *nr,
				struct strbuf *lines, struct probe_msgs *msgs)
{
	unsigned long long addr = spec->point.address;

	if (probe_kernel__out_of_text(k, addr)) {
		probe_msg(msgs, false, "0x%llx is out of .text, skip it.\n", addr);
		return false;
	}
	char *event = event_name(spec, NULL), *args = joined_args(spec, probe_arg__as_written);

	/* a module's is named after it (a loaded one perf did not find) */
	add_kprobe(o, spec, event,
		   xasprintf("%s%s0x%llx%s", o->module ? o->module : "", o->module ? ":" : "",
			     addr, args),
		   sites, nr, lines);
	free(args);
	free(event);
	return true;
}

/* The sites of one -D definition from kallsyms (perf's way without a
 * vmlinux), or from a module file; 0, or -errno after perf's message. */
static int kprobe_sites(const struct probe_opts *o, struct probe_kernel *k,
			struct probe_debug *dbg, const struct probe_spec *spec,
			struct kprobe_site **sites, int *nr, struct strbuf *lines,
			struct probe_msgs *msgs)
{
	const char *function = spec->point.function;
	bool needs_dwarf = probe_spec__needs_dwarf(spec);
	int n;

	if (spec->point.absolute && !needs_dwarf &&
	    kernel_address_site(o, k, spec, sites, nr, lines, msgs))
		return 0;
	if (module_by_name(o))
		return unloaded_module(o, spec, msgs);
	/* perf looks for a module file's probe cache by its build id */
	if (o->module)
		log_module_cache(o->module, msgs);
	if (o->module && !dbg && !needs_dwarf && !spec->point.retprobe)
		probe_msg(msgs, true, "Could not open debuginfo. Try to use symbols.\n");
	if (o->module && !dbg && needs_dwarf) {
		print_msgs(msgs, o);
		if (!o->quiet)
			no_debug_info(o->module);
		return -ENOENT;
	}
	if (dbg) {
		n = module_dwarf_sites(o, dbg, spec, sites, nr, lines, msgs);
		if (n > 0)
			return 0;
		/* with variables to fetch, perf only says the add failed */
		if (spec_has_c_args(spec) || (n < 0 && needs_dwarf))
			return n < 0 ? n : -ENOENT;
		if (needs_dwarf) {
			char *point = probe_spec__point_text(spec);

			probe_msg(msgs, false, "Probe point '%s' not found.\n", point);
			free(point);
			return -ENOENT;
		}
	}
	/* a return probe on a symbol needs no debug information */
	if (!o->module && (needs_dwarf || !spec->point.retprobe))
		log_vmlinux_path(o, msgs);
	if (!dbg && !o->module && !needs_dwarf && !spec->point.retprobe)
		probe_msg(msgs, true, "Could not open debuginfo. Try to use symbols.\n");
	if (!o->module && (needs_dwarf || !function)) {
		probe_msg(msgs, false, "Failed to find the path for the kernel: Invalid ELF file\n");
		return -ENOENT;
	}
	if (o->module)
		return module_symbol_sites(o, dbg, spec, sites, nr, lines, msgs);

	struct probe_kernel_site *ks;
	char *args = joined_args(spec, probe_arg__as_written);

	if (!k->spanned) {
		/* perf reads the kernel's symbols at its first function */
		log_vmlinux_path(o, msgs);
		if (o->verbose > 0 && !o->quiet) {
			session_warnings__kallsyms_modules(NULL, 0);
			fputs("Using /proc/kallsyms for symbols\n", stderr);
		}
	}
	n = probe_kernel__function_sites(k, function, spec->point.offset, o->max_probes, msgs,
					 &ks);
	if (spec->point.retprobe && k->nr_matched > 0 && k->nr_matched <= o->max_probes)
		probe_trace__log_readme(msgs);
	for (int i = 0; i < n; i++) {
		char *event = event_name(spec, ks[i].name);

		/* a return probe is placed on the symbol, an entry on _text */
		add_kprobe(o, spec, event,
			   spec->point.retprobe
				   ? xasprintf("%s+%lu%s", ks[i].name, spec->point.offset, args)
				   : xasprintf("_text+%lu%s", (unsigned long)ks[i].offset, args),
			   sites, nr, lines);
		free(event);
	}
	free(args);
	free(ks);
	return n < 0 ? n : 0;
}

/* bootconfig: one line per event, its sites joined. */
static void add_bootconfig(struct strbuf *out, const struct kprobe_site *sites, int nr)
{
	for (int i = 0; i < nr; i++) {
		bool seen = false;

		for (int k = 0; k < i; k++)
			seen |= !strcmp(sites[k].event, sites[i].event);
		if (seen)
			continue;
		strbuf_addf(out, "ftrace.event.kprobes.%s.probe = ", sites[i].event);
		for (int k = i, first = 1; k < nr; k++)
			if (!strcmp(sites[k].event, sites[i].event)) {
				strbuf_addf(out, "%s'%s'", first ? "" : ", ", sites[k].target);
				first = 0;
			}
		strbuf_addch(out, '\n');
	}
}

/* The kprobe definitions made (NULL: none yet) into kprobe_events: perf's
 * words where the kernel has none. */
static int write_kprobes(const struct probe_opts *o, const char *lines)
{
	if (o->verbose > 0 && !o->quiet)
		fprintf(stderr, "Opening %s//kprobe_events write=1\n",
			probe_tracefs_dir() ? probe_tracefs_dir() : "/sys/kernel/tracing");
	if (!probe_tracefs_has("kprobe_events")) {
		if (o->quiet)	/* perf's -q silences this too */
			return PCL_EXIT_ENOENT;
		fprintf(stderr,
			"%s//kprobe_events does not exist.\n"
			"Please rebuild kernel with CONFIG_KPROBE_EVENTS=y.\n",
			probe_tracefs_dir() ? probe_tracefs_dir() : "/sys/kernel/tracing");
		fprintf(stderr, "  Error: Failed to add events.%s\n",
			o->verbose ? " Reason: No such file or directory (Code: -2)" : "");
		return PCL_EXIT_ENOENT;
	}
	if (!lines) {
		fprintf(stderr, "  Error: kernel probes need the kernel's debug information, "
				"which pcl does not read yet.\n");
		return PCL_EXIT_ENOENT;
	}
	fprintf(stderr, "  Error: pcl writes no kprobes yet.\n");
	return PCL_EXIT_ENOENT;
}

/* Kprobe definitions of kernel functions (kallsyms) or of a module file:
 * printed for -D, all or nothing, as perf prints them; otherwise written
 * to kprobe_events, which perf opens only once they are all made. */
static int kprobe_definitions(const struct probe_opts *o)
{
	struct strbuf out = STRBUF_INIT;
	struct probe_msgs msgs = { STRBUF_INIT, o->verbose > 0 };
	struct kprobe_site *sites = NULL;
	struct probe_kernel kernel = { 0 };
	struct probe_spec *specs = xcalloc(o->adds.nr, sizeof(*specs));
	int nr = 0, ret = 0, nr_specs = 0;
	bool offline = o->module && !module_by_name(o);	/* a module file */

	/* perf parses (and -v logs) every definition before anything else */
	for (; nr_specs < o->adds.nr; nr_specs++) {
		char err[256];

		if (probe_spec__parse(&specs[nr_specs], o->adds.items[nr_specs], err,
				      sizeof(err))) {
			int nargs = log_refused(nr_specs, o->adds.items[nr_specs], &msgs);

			print_msgs(&msgs, o);
			semantic_error(err);
			probe_msg(&msgs, true, "%d arguments\n", nargs);
			print_msgs(&msgs, o);
			parse_options_usage(probe_usage, o->table, o->definition ? "D" : "a",
					    true);
			ret = PCL_EXIT_USAGE;
			goto out;
		}
		log_definition(nr_specs, o->adds.items[nr_specs], &specs[nr_specs], &msgs);
	}
	struct probe_debug *dbg = offline ? probe_debug__open(o->module) : NULL;

	probe_kernel__init(&kernel, NULL);
	if (access("/proc/modules", R_OK))
		probe_msg(&msgs, true, "Problems creating module maps, continuing anyway...\n");
	for (int i = 0; i < nr_specs && !ret; i++) {
		const struct probe_spec *spec = &specs[i];

		if (o->bootconfig && spec->group && !o->quiet)
			fprintf(stderr, "WARN: Group name %s is ignored\n", spec->group);

		if (access(KPROBE_BLACKLIST, R_OK))
			probe_msg(&msgs, true, "No kprobe blacklist support, ignored\n");
		ret = kprobe_sites(o, &kernel, dbg, spec, &sites, &nr, &out, &msgs);
		print_msgs(&msgs, o);
	}
	probe_debug__close(dbg);
	/* perf reads what tracefs supports as it writes out arguments (or
	 * bootconfig's lines) */
	for (int i = 0; i < nr_specs && !ret && o->definition; i++)
		if (o->bootconfig || specs[i].nr_args || specs[i].point.absolute)
			probe_trace__log_readme(&msgs);
	print_msgs(&msgs, o);
	if (!ret && o->definition) {
		add_bootconfig(&out, sites, nr);
		fputs(strbuf_str(&out), stdout);
	} else if (!ret) {
		ret = write_kprobes(o, strbuf_str(&out));
	} else {
		if (!o->quiet && o->verbose)
			fprintf(stderr, "  Error: Failed to add events. Reason: %s (Code: %d)\n",
				strerror(-ret), ret);
		else if (!o->quiet)
			fputs("  Error: Failed to add events.\n", stderr);
		ret = exit_of(ret);
	}
out:
	for (int i = 0; i < nr_specs; i++)
		probe_spec__exit(&specs[i]);
	free(specs);
	for (int i = 0; i < nr; i++) {
		free(sites[i].event);
		free(sites[i].target);
	}
	free(sites);
	strbuf_release(&out);
	strbuf_release(&msgs.text);
	probe_kernel__exit(&kernel);
	return ret;
}

static int add_kprobes(const struct probe_opts *o)
{
	/* perf makes every definition first (from kallsyms or a module
	 * file), and opens kprobe_events only then, even for -n */
	return kprobe_definitions(o);
}

static bool is_sdt(const char *def)
{
	struct probe_spec spec;
	char err[256];
	bool sdt = false;

	if (!probe_spec__parse(&spec, def, err, sizeof(err))) {
		sdt = spec.sdt;
		probe_spec__exit(&spec);
	}
	return sdt;
}

/* Parses the definitions, all before perf looks for any, with -v's log
 * of each; 0, or -EINVAL after perf's semantic error and usage. */
static int parse_definitions(struct add_run *r, struct uprobe_def *defs)
{
	const struct probe_opts *o = r->o;

	for (int i = 0; i < o->adds.nr; i++) {
		const char *def = o->adds.items[i];
		char err[256];

		if (probe_spec__parse(&defs[i].spec, def, err, sizeof(err))) {
			int nargs = log_refused(i, def, &r->msgs);

			print_msgs(&r->msgs, o);
			semantic_error(err);
			probe_msg(&r->msgs, true, "%d arguments\n", nargs);
			print_msgs(&r->msgs, o);
			parse_options_usage(probe_usage, o->table, "a", true);
			r->semantic_error = true;
			return -EINVAL;
		}
		if (!defs[i].spec.sdt)
			log_definition(i, def, &defs[i].spec, &r->msgs);
		else	/* perf parses a marker's name with no point to log */
			probe_msg(&r->msgs, true, "probe-definition(%d): %s\n%d arguments\n", i, def,
				  defs[i].spec.nr_args);
	}
	print_msgs(&r->msgs, o);
	return 0;
}

/* The uprobes of -x's binary, or SDT markers from the build-id cache. */
static int add_uprobes(struct add_run *r, const char *exec)
{
	const struct probe_opts *o = r->o;
	struct probe_elf pe = { .fd = -1 };
	struct probe_debug *dbg = NULL;
	struct uprobe_def *defs = xcalloc(o->adds.nr, sizeof(*defs));
	char *binary = exec ? resolve_exec(exec) : NULL;
	int ret = parse_definitions(r, defs);

	if (ret)
		goto out;
	ret = binary ? probe_elf__open(&pe, o->read_exec) : 0;
	if (ret == -EINVAL) {
		/* no ELF file: perf finds no symbols in it */
		fprintf(stderr,
			"Failed to load symbols from %s\nPlease ensure the file is not stripped.\n",
			binary);
		ret = -ENOENT;
		goto out;
	}
	if (ret) {
		fprintf(stderr, "Failed to open %s: %s\n", binary, strerror(-ret));
		goto out;
	}
	if (!probe_tracefs_has("uprobe_events")) {
		fprintf(stderr,
			"%s//uprobe_events does not exist.\n"
			"Please rebuild kernel with CONFIG_UPROBE_EVENTS=y.\n",
			probe_tracefs_dir() ? probe_tracefs_dir() : "/sys/kernel/tracing");
		ret = -ENOENT;
		goto out;
	}
	dbg = binary ? probe_debug__open(o->read_exec) : NULL;
	if (dbg)
		probe_debug__set_no_inlines(dbg, o->no_inlines);
	r->nr_existing = probe_events__read(&r->existing);
	/* perf finds the sites of every definition, then writes them */
	for (int i = 0; i < o->adds.nr && !ret; i++)
		if (!defs[i].spec.sdt && binary)
			ret = find_uprobe(r, &defs[i], binary, &pe, dbg);
	for (int i = 0; i < o->adds.nr && !ret; i++) {
		if (defs[i].spec.sdt)
			ret = add_sdt(r, &defs[i].spec);
		else if (binary)
			ret = write_uprobe(r, &defs[i], binary, &pe);
	}
out:
	for (int i = 0; i < o->adds.nr; i++)
		uprobe_def__exit(&defs[i]);
	free(defs);
	probe_debug__close(dbg);
	if (binary)
		probe_elf__close(&pe);
	free(binary);
	return ret;
}

/* Whether every definition names a cached event (%EVENT, sdt_...): no
 * kprobes then without -x. */
static bool all_cached(const struct probe_opts *o)
{
	bool all = true;

	for (int i = 0; i < o->adds.nr; i++)
		all &= is_sdt(o->adds.items[i]);
	return all;
}

static int add_probes(const struct probe_opts *o)
{
	struct add_run r = { .o = o, .msgs = { STRBUF_INIT, o->verbose > 0 } };
	int ret;

	if (!o->exec && !all_cached(o))
		return add_kprobes(o);
	if (!o->definition && no_permission("uprobe_events", true, "add events"))
		return exit_of(-EACCES);
	ret = add_uprobes(&r, o->exec);
	if (!ret) {
		if (!o->definition)
			print_added(&r);
	} else if (r.semantic_error || o->quiet) {
		/* -q silences perf's errors too */
	} else if (o->verbose && ret != -EEXIST)
		fprintf(stderr, "  Error: Failed to add events. Reason: %s (Code: %d)\n",
			strerror(-ret), ret);
	else
		fputs("  Error: Failed to add events.\n", stderr);
	forget_added(&r, 0);
	free(r.added);
	probe_events__free(r.existing, r.nr_existing);
	strbuf_release(&r.msgs.text);
	return r.semantic_error ? PCL_EXIT_USAGE : exit_of(ret);
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

	struct probe_msgs msgs = { STRBUF_INIT, o->verbose > 0 };
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
	struct probe_msgs msgs = { STRBUF_INIT, o->verbose > 0 };
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
	struct probe_spec spec;
	char err[256];

	/* -V's point is parsed (and logged) first */
	if (verbose && o->vars && !probe_spec__parse(&spec, o->vars, err, sizeof(err))) {
		struct probe_msgs msgs = { STRBUF_INIT, true };

		log_definition(0, o->vars, &spec, &msgs);
		print_msgs(&msgs, o);
		strbuf_release(&msgs.text);
		probe_spec__exit(&spec);
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
	free(o->dels.items);
	free(o->lists.items);
}

int cmd_probe(int argc, const char **argv)
{
	struct probe_opts o = { .max_probes = 128, .demangle = true };
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
		  .flags = OPTF_OPTARG | OPTF_LASTARG_DEFAULT },
		OPT_CALLBACK('d', "del", &o, "[GROUP:]EVENT", "delete a probe event.", opt_del),
		OPT_CALLBACK(
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
		OPT_CALLBACK(
			'D', "definition", &o,
			"[EVENT=]FUNC[@SRC][+OFF|%return|:RL|;PT]|SRC:AL|SRC;PT [[NAME=]ARG ...]",
			"Show trace event definition of given traceevent for k/uprobe_events.",
			opt_definition),
		OPT_BOOLEAN('f', "force", &o.force, "forcibly add events with existing name"),
		OPT_STRING('L', "line", &o.line, "FUNC[:RLN[+NUM|-RLN2]]|SRC:ALN[+NUM|-ALN2]",
			   "Show source code lines."),
		OPT_STRING('V', "vars", &o.vars, "FUNC[@SRC][+OFF|%return|:RL|;PT]|SRC:AL|SRC;PT",
			   "Show accessible variables on PROBEDEF"),
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
		  .flags = OPTF_OPTARG | OPTF_LASTARG_DEFAULT },
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

	o.table = opts;
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
		struct probe_msgs msgs = { STRBUF_INIT, true };

		o.quiet = false;
		for (int i = 0; i < o.adds.nr; i++) {
			struct probe_spec spec;
			char err[256];

			if (probe_spec__parse(&spec, o.adds.items[i], err, sizeof(err)))
				break;
			log_definition(i, o.adds.items[i], &spec, &msgs);
			probe_spec__exit(&spec);
		}
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

		for (int i = 0; i < nargs; i++)
			strbuf_addf(&def, "%s%s", i ? " " : "", argv[i]);
		strlist_add(&o.adds, strbuf_detach(&def));
	}
	/* a module file is read as -x's would be; its probes are kprobes */
	struct probe_opts readers = o;

	if (o.module && exec) {
		readers.exec = exec;
		o.module = exec;
	}
	bool adding = !o.funcs && !o.line && !o.vars && !o.list && !o.dels.nr && o.adds.nr;
	bool kernel_cmd = o.funcs || o.line || o.vars || (adding && !all_cached(&o));

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
