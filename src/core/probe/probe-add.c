/* probe-add: pcl probe's definition loop, as perf 6.1 parses, finds and
 * writes its definitions (see probe-add.h). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/probe/probe-add.h"
#include "core/probe/probe-cache.h"
#include "core/probe/probe-elf.h"
#include "core/probe/probe-kernel.h"
#include "core/probe/probe-trace.h"
#include "core/symbols/buildid-cache.h"
#include "core/symbols/buildid.h"
#include "core/symbols/kernel-maps.h"
#include "core/symbols/sdt-events.h"
#include "util/glob.h"
#include "util/strbuf.h"
#include "util/util.h"

static char *resolve_exec(const char *exec)
{
	char real[PATH_MAX];

	return realpath(exec, real) ? xstrdup(real) : xstrdup(exec);
}

/* perf's words for a file without debug information: a module (".ko")
 * wants the kernel's build option. */
char *probe_no_debug_info_text(const char *path)
{
	size_t len = strlen(path);
	bool module = len >= 3 && !strcmp(path + len - 3, ".ko");

	return xasprintf("The %s file has no debug information.\n"
			 "Rebuild with %s, or install an appropriate debuginfo package.\n",
			 path, module ? "CONFIG_DEBUG_INFO=y" : "-g");
}

static void no_debug_info(struct probe_msgs *msgs, const char *path)
{
	char *text = probe_no_debug_info_text(path);

	probe_say(msgs, "%s", text);
	free(text);
}


/* perf takes a symbol of data too, at its offset in the file.  An
 * indirect function gets perf's warning for when its symbol is used. */
uint64_t probe_symbol_address(const char *path, const char *text, struct probe_debug *dbg,
			      char **note)
{
	struct probe_elf pe;
	uint64_t addr = 0;
	char *name = xstrndup(text, strcspn(text, ":+@%;"));

	*note = NULL;
	if (!probe_elf__open(&pe, path)) {
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

/* --- uprobes ------------------------------------------------------------------ */

/* Where perf reads the functions kprobes refuse (none here). */
#define KPROBE_BLACKLIST "/sys/kernel/debug/kprobes/blacklist"

/* perf's room for an event name, its terminating NUL included */
#define MAX_EVENT_NAME_LEN 64

struct add_run {
	const struct probe_add_opts *o;
	struct probe_event *existing;
	int nr_existing;
	struct probe_added *added;
	int nr_added;
	struct probe_msgs *msgs;
	const char *semantic_error;	/* the option whose usage perf shows */
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

/* How much of a function's name an event takes: perf cuts it at a '.'
 * or '@' ("vfs_get_tree.cold", "memcpy@GLIBC") that does not start it. */
static size_t base_len(const char *function)
{
	const char *cut = strpbrk(function, ".@");

	return cut && cut != function ? (size_t)(cut - function) : strlen(function);
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
		strbuf_add(&sb, function, base_len(function));
	if (!spec->event && pp->function && pp->has_line && pp->line)
		strbuf_addf(&sb, "_L%d", pp->line);
	if (pp->retprobe)
		strbuf_addstr(&sb, "__return");
	return strbuf_detach(&sb);
}

static void event_exists(struct probe_msgs *msgs, const char *event)
{
	probe_say(msgs,
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
		probe_msg(r->msgs, true, "snprintf() failed: %d\n", -E2BIG);
		free(base);
		*err = -E2BIG;
		return NULL;
	}
	if (!name_taken_before(r, first, group, base))
		return base;
	if (!r->o->force) {
		event_exists(r->msgs, base);
		free(base);
		*err = -EEXIST;
		return NULL;
	}
	for (int k = 1; !event || name_taken(r, group, event); k++) {
		free(event);
		event = xasprintf("%s_%d", base, k);
	}
	if (strlen(event) >= MAX_EVENT_NAME_LEN) {
		probe_msg(r->msgs, true, "snprintf() failed: %d\n", -E2BIG);
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
static int alternative_sites(const struct probe_add_opts *o, struct probe_elf *pe,
			     struct probe_debug *dbg, const struct probe_spec *spec,
			     const char *binary, struct probe_msgs *msgs, struct probe_site **sites)
{
	const char *function = spec->point.function;
	char *note = NULL;
	uint64_t addr = function && !spec->point.file ? probe_symbol_address(o->read_exec, function, dbg,
									   &note)
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
static int uprobe_sites(const struct probe_add_opts *o, struct probe_elf *pe, struct probe_debug *dbg,
			const struct probe_spec *spec, const char *binary, struct probe_msgs *msgs,
			struct probe_site **sites)
{
	int nr;

	/* perf makes room for --max-probes sites before it searches the
	 * debug information or the symbols: a negative count fails there */
	if (o->max_probes < 0) {
		if (dbg && !spec->point.retprobe) {
			probe_debug__log_search_start(dbg, binary, msgs);
			probe_msg(msgs, true, "An error occurred in debuginfo analysis (%d).\n",
				  -ENOMEM);
			if (!probe_spec__needs_dwarf(spec))
				probe_msg(msgs, true, "Trying to use symbols.\n");
		}
		return -ENOMEM;
	}
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
static char *cache_probes_file(const struct probe_add_opts *o, const char *binary)
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
static void cache_definition(const struct probe_add_opts *o, struct probe_msgs *msgs,
			     const char *binary, const char *spev, char **defs, int nr_defs)
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
			probe_say(msgs, "Added probe cache: %d\n", nr_defs);
		for (int i = 0; i < pc.nr && o->verbose; i++)
			probe_say(msgs, "Writing cache: %c%s\nCache committed: %d\n",
				  pc.entries[i].sdt ? '%' : '#', pc.entries[i].spev, ret);
		probe_cache__exit(&pc);
	}
	if (ret)
		probe_say(msgs, "Failed to add event to probe cache\n");
	free(probes);
}

/* perf -v's line for an argument (len bytes of word) as parsed, ended by
 * end: perf learns whether the tracer reads user memory (README) in its
 * middle. */
static void log_arg(const char *word, int len, const struct probe_arg *arg, const char *end,
		    struct probe_msgs *msgs)
{
	char *parsed = probe_arg__debug_text(arg);
	int head = arg->user_access ? (arg->named ? (int)strlen(arg->name) + 6 : 0)
				    : (int)strlen(parsed);

	probe_msg(msgs, true, "parsing arg: %.*s into %.*s", len, word, head, parsed);
	if (arg->user_access)
		probe_trace__log_readme(msgs);
	probe_msg(msgs, true, "%s%s", parsed + head, end);
	free(parsed);
}

static void log_parsed_arg(const char *word, int len, const struct probe_arg *arg,
			   struct probe_msgs *msgs)
{
	log_arg(word, len, arg, "\n", msgs);
}

/* perf -v's lines for the arguments of a definition as it parses them. */
static void log_args(const char *def, const struct probe_spec *spec, struct probe_msgs *msgs)
{
	/* each argument as written: the words after the probe point */
	const char *word = def + strcspn(def, " \t");

	for (int k = 0; k < spec->nr_args; k++) {
		word += strspn(word, " \t");
		int len = (int)strcspn(word, " \t");

		log_parsed_arg(word, len, &spec->args[k], msgs);
		word += len;
	}
}

/* perf -v's lines for the i-th definition as it parses it. */
static void log_definition(int i, const char *def, const struct probe_spec *spec,
			   struct probe_msgs *msgs)
{
	char *point = probe_point__debug_text(&spec->point);

	probe_msg(msgs, true, "probe-definition(%d): %s\n%s\n", i, def, point);
	free(point);
	log_args(def, spec, msgs);
	probe_msg(msgs, true, "%d arguments\n", spec->nr_args);
}

/* perf -v's lines for a definition it refuses: its point and the
 * arguments it parsed before the error, the one refused up to where perf
 * stopped.  Returns the count of arguments perf gives after the error (0
 * when the point was refused). */
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
		/* refused among its fields: perf's line stops there, its
		 * semantic error following on it */
		log_arg(word, (int)strlen(word), &arg, parsing ? "\n" : ", ", msgs);
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
	char **cached;	/* a marker's (or stored event's) uprobes from the cache */
	int nr_cached;
};

static void uprobe_def__exit(struct uprobe_def *d)
{
	for (int i = 0; i < d->nr_cached; i++)
		free(d->cached[i]);
	free(d->cached);
	probe_spec__exit(&d->spec);
	free(d->group);
	probe_sites__free(d->sites, d->nr);
}

/* Finds the sites of a definition (perf finds every definition's before
 * it writes any); 0 or -errno after perf's message. */
static int find_uprobe(struct add_run *r, struct uprobe_def *d, const char *binary,
		       struct probe_elf *pe, struct probe_debug *dbg)
{
	const struct probe_add_opts *o = r->o;
	const struct probe_spec *spec = &d->spec;
	int nr;

	d->group = spec->group ? xstrdup(spec->group) : probe_default_group(binary);
	if (!spec->group && strlen(d->group) >= MAX_EVENT_NAME_LEN) {
		/* perf makes the group's name in a buffer of 64 too */
		probe_msg(r->msgs, false, "Failed to make a group name.\n");
		nr = -E2BIG;
		goto out;
	}
	/* an address needs no symbol: perf takes it before anything else */
	if (spec->point.absolute && !probe_spec__needs_dwarf(spec)) {
		nr = absolute_site(spec, &d->sites);
		goto out;	/* one site: perf counts none */
	}
	/* perf looks for the definition in the binary's probe cache first */
	free(probe_cache__open_probes(binary, o->read_exec, r->msgs));
	if (o->cache && !o->definition)
		free(cache_probes_file(o, binary));
	if (!dbg && probe_spec__needs_dwarf(spec)) {
		probe_msgs__flush(r->msgs);
		no_debug_info(r->msgs, binary);
		return -ENOENT;
	}
	if (!dbg && !spec->point.retprobe)
		probe_msg(r->msgs, true, "Could not open debuginfo. Try to use symbols.\n");
	if (!dbg && !pe->nr_table_syms) {
		probe_msg(r->msgs, true, "no symbols found in %s, maybe install a debug package?\n",
			  binary);
		probe_msg(r->msgs, false,
			  "Failed to load symbols from %s\nPlease ensure the file is not stripped.\n",
			  binary);
		nr = -ENOENT;
		goto out;
	}
	nr = uprobe_sites(o, pe, dbg, spec, binary, r->msgs, &d->sites);
	if (nr > o->max_probes) {
		probe_msg(r->msgs, false, "Too many( > %d) probe point found.\n", o->max_probes);
		probe_sites__free(d->sites, nr);
		d->sites = NULL;
		nr = -ERANGE;
	}
out:
	probe_msgs__flush(r->msgs);
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
	const struct probe_add_opts *o = r->o;
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
		probe_trace__log_open(r->msgs, "uprobe_events", true);
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
		probe_trace__log_readme(r->msgs);
		probe_msgs__flush(r->msgs);
		if (o->definition) {
			/* -D: the definition is the output */
			probe_result(r->msgs, "%s\n", line.buf);
		} else {
			probe_msg(r->msgs, true, "Writing event: %s\n", line.buf);
			probe_msgs__flush(r->msgs);
			if (!o->dry_run)
				ret = probe_events__write("uprobe_events", line.buf);
			if (ret)
				probe_say(r->msgs, "Failed to write event: %s\n", strerror(-ret));
		}
		written[i] = strbuf_detach(&line);
		if (ret)
			break;
		r->added = xrealloc(r->added, (r->nr_added + 1) * sizeof(*r->added));
		r->added[r->nr_added++] = (struct probe_added){ xstrdup(group), xstrdup(events[i]),
							  xstrdup(point), xstrdup(with),
							  xstrdup(binary) };
	}
	if (!ret && o->cache && !o->definition) {
		char *spev = spec->event ? xasprintf("%s:%s=%s%s", group, spec->event, point, with)
					: xasprintf("%s%s", point, with);

		cache_definition(o, r->msgs, binary, spev, written, nr);
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
	probe_msgs__flush(r->msgs);
	return ret;
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

/* perf -v's lines for a cache entry as perf parses it on loading the
 * cache: its point, and a stored definition's arguments. */
static void log_cache_entry(const struct probe_cache_entry *e, struct probe_msgs *msgs)
{
	struct probe_spec spec;
	char err[256];

	if (!msgs->verbose || probe_spec__parse(&spec, e->spev, err, sizeof(err)))
		return;
	char *point = probe_point__debug_text(&spec.point);

	probe_msg(msgs, true, "%s\n", point);
	free(point);
	log_args(e->spev, &spec, msgs);
	probe_spec__exit(&spec);
}

/* Whether a cache entry is %[GROUP:]EVENT's: a marker, or a definition
 * stored under its GROUP:EVENT. */
static bool entry_matches(const struct probe_cache_entry *e, const struct probe_spec *spec)
{
	char *key = probe_cache_entry__key(e), *colon = strchr(key, ':');
	bool hit = colon && (e->sdt || strcmp(key, e->spev));

	if (hit) {
		*colon = '\0';
		hit = group_matches(spec->group, key) && glob_match(spec->event, colon + 1);
	}
	free(key);
	return hit;
}

/* The uprobes of the cache's entries matching the spec, with perf -v's
 * lines as it loads the cache and parses what it takes; an entry named
 * twice counts once. */
static void scan_cache(const char *probes, const struct probe_spec *spec, char ***defs, int *nr,
		       struct probe_msgs *msgs)
{
	struct probe_cache pc;

	probe_cache__load(&pc, probes);
	for (int k = 0; k < pc.nr; k++)
		log_cache_entry(&pc.entries[k], msgs);
	for (int k = 0; k < pc.nr; k++) {
		const struct probe_cache_entry *e = &pc.entries[k];
		bool seen = false;

		for (int i = 0; i < k; i++)
			seen |= !strcmp(pc.entries[i].spev, e->spev);
		if (seen || !entry_matches(e, spec))
			continue;
		for (int d = 0; d < e->nr_defs; d++) {
			char *group, *event, *path;

			if (split_definition(e->defs[d], &group, &event, &path)) {
				probe_msg(msgs, true,
					  "Parsing probe_events: %s\nGroup:%s Event:%s probe:%c\n",
					  e->defs[d], group, event, e->defs[d][0]);
				free(group);
				free(event);
				free(path);
			}
			add_definition(defs, nr, xstrdup(e->defs[d]));
		}
	}
	probe_cache__exit(&pc);
}

/* The cached uprobes of %[GROUP:]EVENT as perf finds them: -x's binary's
 * cache, else every cache in build-id order. */
static int cached_definitions(const struct add_run *r, const struct probe_spec *spec,
			      const char *binary, char ***defs)
{
	int nr = 0;

	*defs = NULL;
	if (binary) {
		char *probes = probe_cache__open_probes(binary, r->o->read_exec, r->msgs);

		if (probes)
			scan_cache(probes, spec, defs, &nr, r->msgs);
		free(probes);
		return nr;
	}
	char *dir = build_id_cache__dir();
	struct probe_cache_ref *refs;
	int n = dir ? probe_caches__list(dir, &refs) : 0;

	for (int i = 0; i < n; i++)
		scan_cache(refs[i].probes, spec, defs, &nr, r->msgs);
	if (n)
		probe_caches__free(refs, n);
	free(dir);
	return nr;
}

/* Finds the cached uprobes of a marker (or of an event --cache stored);
 * none is an error that perf says no more of. */
static int find_cached(struct add_run *r, struct uprobe_def *d, const char *binary)
{
	if (!binary && access(KPROBE_BLACKLIST, R_OK))
		probe_msg(r->msgs, true, "No kprobe blacklist support, ignored\n");
	d->nr_cached = cached_definitions(r, &d->spec, binary, &d->cached);
	probe_msgs__flush(r->msgs);
	return d->nr_cached ? 0 : -ENOENT;
}

/* Adds cached uprobes as the cache defines them (SDT markers with their
 * semaphore: the kernel counts it up, so guarded markers fire). */
static int add_sdt(struct add_run *r, struct uprobe_def *d)
{
	const struct probe_add_opts *o = r->o;
	const struct probe_spec *spec = &d->spec;
	char **defs = d->cached;
	int nr = d->nr_cached, ret = 0;

	/* perf opens the events file once per definition */
	if (!o->definition)
		probe_trace__log_open(r->msgs, "uprobe_events", true);

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
				event_exists(r->msgs, event);
				ret = -EEXIST;
			}
			/* perf learns what the tracer supports as it writes the first */
			probe_trace__log_readme(r->msgs);
			probe_msgs__flush(r->msgs);
			if (o->definition)
				probe_result(r->msgs, "%s\n", defs[k]);	/* -D: the output */
			else
				probe_msg(r->msgs, true, "Writing event: %s\n", defs[k]);
			probe_msgs__flush(r->msgs);
			if (!ret && !o->dry_run && !o->definition) {
				ret = probe_events__write("uprobe_events", defs[k]);
				if (ret)
					probe_say(r->msgs, "Failed to write event: %s\n", strerror(-ret));
			}
			if (!ret) {
				/* perf shows the marker as asked for */
				char *point = xasprintf("%%%s", spec->event);

				r->added = xrealloc(r->added, (r->nr_added + 1) * sizeof(*r->added));
				r->added[r->nr_added++] =
					(struct probe_added){ group, event, point, xstrdup(""), path };
				group = event = path = NULL;
			}
			free(group);
			free(event);
			free(path);
		}
	}
	probe_msgs__flush(r->msgs);
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

/* Whether a module file has a symbol of data by the name. */
static bool module_has_data(const char *path, const char *name)
{
	struct probe_elf pe;
	bool found = false;

	if (!probe_elf__open(&pe, path)) {
		found = probe_elf__find_data(&pe, name) != NULL;
		probe_elf__close(&pe);
	}
	return found;
}

/* One kprobe: into the bootconfig list, or a definition line. */
static void add_kprobe(const struct probe_add_opts *o, const struct probe_spec *spec,
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
static int module_dwarf_sites(const struct probe_add_opts *o, struct probe_debug *dbg,
			      const struct probe_spec *spec, struct kprobe_site **ksites, int *knr,
			      struct strbuf *lines, struct probe_msgs *msgs)
{
	struct probe_site *sites;

	probe_debug__log_search(dbg, o->module, spec, msgs);
	int nr = probe_debug__find_sites(dbg, spec, msgs, &sites);

	if (nr > 0)
		probe_debug__log_found(nr, msgs);
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
		/* perf logs its offset in the file, and looks where libdwfl put it */
		probe_msg(msgs, true, "Symbol %s address found : %lx\n", name, (unsigned long)rel);
		free(probe_debug__function_at(dbg, LIBDWFL_REL_BASE + rel, msgs));
	}
	probe_elf__close(&pe);
}


/* perf -v's notes as it looks for the kernel's image (for its debug
 * information, or its symbols before it settles for kallsyms). */
static void log_vmlinux_path(const struct probe_add_opts *o, struct probe_msgs *msgs)
{
	probe_msgs__flush(msgs);
	if (o->verbose > 0 && !o->quiet && o->kernel_notes)
		o->kernel_notes(false);
}

/* A module file's probe on a symbol (no debug information for it): perf
 * names it "MODULE:FUNC+OFF". */
static int module_symbol_sites(const struct probe_add_opts *o, struct probe_debug *dbg,
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
		/* a return probe's symbol: one of data is silently no place */
		if (function && dbg && spec->point.retprobe) {
			if (!module_has_data(o->module, function))
				probe_msg(msgs, false, "Failed to find symbol %s in %s\n", function,
					  o->module);
			return -ENOENT;
		}
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
static bool module_by_name(const struct probe_add_opts *o)
{
	return o->module && !strchr(o->module, '/');
}

/* A definition on a module not loaded: perf finds no probe cache, no
 * module for debug information (which only a line or variable needs) and
 * no map for its symbols. */
static int unloaded_module(const struct probe_add_opts *o, const struct probe_spec *spec,
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
static bool kernel_address_site(const struct probe_add_opts *o, struct probe_kernel *k,
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
static int kprobe_sites(const struct probe_add_opts *o, struct probe_kernel *k,
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
		probe_msgs__flush(msgs);
		if (!o->quiet)
			no_debug_info(msgs, o->module);
		return -ENOENT;
	}
	/* a return probe is placed by its symbol alone, as for uprobes */
	if (dbg && (needs_dwarf || !spec->point.retprobe)) {
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
		if (o->verbose > 0 && !o->quiet && o->kernel_notes) {
			o->kernel_notes(true);
			probe_say(msgs, "Using /proc/kallsyms for symbols\n");
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
static int write_kprobes(const struct probe_add_opts *o, struct probe_msgs *msgs,
			 const char *lines)
{
	const char *dir = probe_tracefs_dir() ? probe_tracefs_dir() : "/sys/kernel/tracing";

	if (o->verbose > 0 && !o->quiet)
		probe_say(msgs, "Opening %s//kprobe_events write=1\n", dir);
	if (!probe_tracefs_has("kprobe_events")) {
		if (o->quiet)	/* perf's -q silences this too */
			return -ENOENT;
		probe_say(msgs,
			  "%s//kprobe_events does not exist.\n"
			  "Please rebuild kernel with CONFIG_KPROBE_EVENTS=y.\n", dir);
		probe_say(msgs, "  Error: Failed to add events.%s\n",
			  o->verbose ? " Reason: No such file or directory (Code: -2)" : "");
		return -ENOENT;
	}
	if (!lines) {
		probe_say(msgs, "  Error: kernel probes need the kernel's debug information, "
				"which pcl does not read yet.\n");
		return -ENOENT;
	}
	probe_say(msgs, "  Error: pcl writes no kprobes yet.\n");
	return -ENOENT;
}

/* perf's words for a definition it refuses, its -v log first. */
static void refused(int i, const char *def, const char *err, struct probe_msgs *msgs)
{
	int nargs = log_refused(i, def, msgs);

	probe_msgs__flush(msgs);
	if (*err)	/* an empty definition has no words in perf */
		probe_say(msgs, "Semantic error :%s\n", err);
	probe_msg(msgs, true, "%d arguments\n", nargs);
	probe_msgs__flush(msgs);
}

/* Parses the i-th definition with perf -v's log of it (when a -v came
 * before it); -EINVAL after perf's semantic error. */
static int parse_definition(const struct probe_add_opts *o, int i, struct probe_spec *spec,
			    struct probe_msgs *msgs)
{
	const char *def = o->defs[i];
	bool verbose = msgs->verbose;
	char err[256];
	int ret = probe_spec__parse(spec, def, err, sizeof(err)) ? -EINVAL : 0;

	msgs->verbose = verbose && (!o->logged || o->logged[i]);
	if (ret)
		refused(i, def, err, msgs);
	else if (!spec->sdt)
		log_definition(i, def, spec, msgs);
	else	/* perf parses a marker's name with no point to log */
		probe_msg(msgs, true, "probe-definition(%d): %s\n%d arguments\n", i, def,
			  spec->nr_args);
	msgs->verbose = verbose;
	return ret;
}

/* Kprobe definitions of kernel functions (kallsyms) or of a module file:
 * printed for -D, all or nothing, as perf prints them; otherwise written
 * to kprobe_events, which perf opens only once they are all made. */
static int kprobe_definitions(const struct probe_add_opts *o, struct probe_msgs *msgs,
			      struct probe_add_result *res)
{
	struct strbuf out = STRBUF_INIT;
	struct kprobe_site *sites = NULL;
	struct probe_kernel kernel = { 0 };
	struct probe_spec *specs = xcalloc(o->nr_defs, sizeof(*specs));
	int nr = 0, ret = 0, nr_specs = 0;
	bool offline = o->module && !module_by_name(o);	/* a module file */

	/* perf parses (and -v logs) every definition before anything else */
	for (; nr_specs < o->nr_defs; nr_specs++) {
		if (parse_definition(o, nr_specs, &specs[nr_specs], msgs)) {
			res->semantic_error = o->definition ? "D" : "a";
			ret = -EINVAL;
			goto out;
		}
	}
	struct probe_debug *dbg = offline ? probe_debug__open(o->module) : NULL;

	probe_kernel__init(&kernel, NULL);
	if (access("/proc/modules", R_OK))
		probe_msg(msgs, true, "Problems creating module maps, continuing anyway...\n");
	for (int i = 0; i < nr_specs && !ret; i++) {
		const struct probe_spec *spec = &specs[i];

		if (o->bootconfig && spec->group && !o->quiet)
			probe_say(msgs, "WARN: Group name %s is ignored\n", spec->group);

		if (access(KPROBE_BLACKLIST, R_OK))
			probe_msg(msgs, true, "No kprobe blacklist support, ignored\n");
		ret = kprobe_sites(o, &kernel, dbg, spec, &sites, &nr, &out, msgs);
		probe_msgs__flush(msgs);
	}
	probe_debug__close(dbg);
	/* perf reads what tracefs supports as it writes out arguments (or
	 * bootconfig's lines) */
	for (int i = 0; i < nr_specs && !ret && o->definition; i++)
		if (o->bootconfig || specs[i].nr_args || specs[i].point.absolute || offline)
			probe_trace__log_readme(msgs);
	probe_msgs__flush(msgs);
	if (!ret && o->definition) {
		add_bootconfig(&out, sites, nr);
		probe_result(msgs, "%s", strbuf_str(&out));
	} else if (!ret) {
		ret = write_kprobes(o, msgs, strbuf_str(&out));
		res->reported = true;
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
	probe_kernel__exit(&kernel);
	return ret;
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
	const struct probe_add_opts *o = r->o;

	for (int i = 0; i < o->nr_defs; i++) {
		if (parse_definition(o, i, &defs[i].spec, r->msgs)) {
			r->semantic_error = "a";
			return -EINVAL;
		}
	}
	probe_msgs__flush(r->msgs);
	return 0;
}

/* The uprobes of -x's binary, or SDT markers from the build-id cache. */
static int add_uprobes(struct add_run *r, const char *exec)
{
	const struct probe_add_opts *o = r->o;
	struct probe_elf pe = { .fd = -1 };
	struct probe_debug *dbg = NULL;
	struct uprobe_def *defs = xcalloc(o->nr_defs, sizeof(*defs));
	char *binary = exec ? resolve_exec(exec) : NULL;
	int ret = parse_definitions(r, defs);

	if (ret)
		goto out;
	ret = binary ? probe_elf__open(&pe, o->read_exec) : 0;
	if (ret == -EINVAL) {
		/* no ELF file: perf finds no symbols in it */
		probe_say(r->msgs,
			  "Failed to load symbols from %s\nPlease ensure the file is not stripped.\n",
			  binary);
		ret = -ENOENT;
		goto out;
	}
	if (ret) {
		probe_say(r->msgs, "Failed to open %s: %s\n", binary, strerror(-ret));
		goto out;
	}
	if (!probe_tracefs_has("uprobe_events")) {
		probe_say(r->msgs,
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
	if (!binary && access("/proc/modules", R_OK))
		probe_msg(r->msgs, true, "Problems creating module maps, continuing anyway...\n");
	for (int i = 0; i < o->nr_defs && !ret; i++)
		if (defs[i].spec.sdt)
			ret = find_cached(r, &defs[i], binary);
		else if (binary)
			ret = find_uprobe(r, &defs[i], binary, &pe, dbg);
	for (int i = 0; i < o->nr_defs && !ret; i++) {
		if (defs[i].spec.sdt)
			ret = add_sdt(r, &defs[i]);
		else if (binary)
			ret = write_uprobe(r, &defs[i], binary, &pe);
	}
out:
	for (int i = 0; i < o->nr_defs; i++)
		uprobe_def__exit(&defs[i]);
	free(defs);
	probe_debug__close(dbg);
	if (binary)
		probe_elf__close(&pe);
	free(binary);
	return ret;
}

bool probe_defs__all_cached(const char *const *defs, int nr)
{
	bool all = true;

	for (int i = 0; i < nr; i++)
		all &= is_sdt(defs[i]);
	return all;
}

void probe_defs__log(const char *const *defs, const bool *logged, int nr,
		     struct probe_msgs *msgs)
{
	bool verbose = msgs->verbose;

	for (int i = 0; i < nr; i++) {
		struct probe_spec spec;
		char err[256];

		if (probe_spec__parse(&spec, defs[i], err, sizeof(err)))
			break;
		msgs->verbose = verbose && (!logged || logged[i]);
		log_definition(i, defs[i], &spec, msgs);
		msgs->verbose = verbose;
		probe_spec__exit(&spec);
	}
}

int probe_add(const struct probe_add_opts *o, struct probe_msgs *msgs,
	      struct probe_add_result *res)
{
	struct add_run r = { .o = o, .msgs = msgs };
	int ret;

	*res = (struct probe_add_result){ 0 };
	/* perf makes every kprobe first (from kallsyms or a module file),
	 * and opens kprobe_events only then, even for -n */
	if (!o->exec && !probe_defs__all_cached(o->defs, o->nr_defs))
		return kprobe_definitions(o, msgs, res);
	ret = add_uprobes(&r, o->exec);
	res->added = r.added;
	res->nr_added = r.nr_added;
	res->semantic_error = r.semantic_error;
	probe_events__free(r.existing, r.nr_existing);
	return ret;
}

void probe_add_result__exit(struct probe_add_result *res)
{
	for (int i = 0; i < res->nr_added; i++) {
		free(res->added[i].group);
		free(res->added[i].event);
		free(res->added[i].point);
		free(res->added[i].with);
		free(res->added[i].binary);
	}
	free(res->added);
	*res = (struct probe_add_result){ 0 };
}
