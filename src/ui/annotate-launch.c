/* annotate-launch: opening the annotate browser (annotate-launch.h). */
#include "ui/annotate-launch.h"

#include <inttypes.h>
#include <stdlib.h>

#include "core/events/evsel.h"
#include "ui/report-stdio.h"
#include "util/perfconfig.h"
#include "util/util.h"

struct disasm_file *disasm_files__get(struct hashmap *files, struct dso *dso, bool source)
{
	bool added;
	struct disasm_file **f = hashmap_u64_findnew(files, (uint64_t)(uintptr_t)dso, &added);

	if (added) {
		const char *path = dso__image_path(dso);
		char *err = NULL;

		*f = path ? disasm_file__open(path, source, &err) : NULL;
		free(err);
	}
	return *f;
}

void disasm_files__close(struct hashmap *files)
{
	for (void **v = NULL; (v = hashmap_next(files, v));)
		disasm_file__close(*v);
	hashmap_release(files);
}

void annotate_browser_opts__config(struct annotate_browser_opts *o)
{
	const char *level = perfconfig__default("annotate.offset_level");

	o->hide_src_code = perfconfig__default_bool("annotate.hide_src_code", o->hide_src_code);
	o->use_offset = perfconfig__default_bool("annotate.use_offset", o->use_offset);
	o->jump_arrows = perfconfig__default_bool("annotate.jump_arrows", o->jump_arrows);
	o->show_linenr = perfconfig__default_bool("annotate.show_linenr", o->show_linenr);
	o->show_nr_jumps = perfconfig__default_bool("annotate.show_nr_jumps", o->show_nr_jumps);
	if (level) {
		int n = atoi(level);

		o->offset_level = n < 1 ? 1 : n > 3 ? 3 : n;
	}
}

char *annotate_title(unsigned long nr_samples, uint64_t period, int nr_events, const char *name,
		     uint64_t freq)
{
	char unit;

	nr_samples = convert_unit(nr_samples, &unit);
	return xasprintf("Samples: %lu%c of event%s '%s', %d Hz, Event count (approx.): %" PRIu64,
			 nr_samples, unit, nr_events > 1 ? "s" : "", name, (int)freq, period);
}

void annotate_launcher__init(struct annotate_launcher *l, const char *cpuid)
{
	annotate_samples__init(&l->samples);
	hashmap_init(&l->files, sizeof(void *));
	l->dis = (struct disasm_opts){ .source = true };
	annotate_browser_opts__init(&l->opts);
	annotate_browser_opts__config(&l->opts);
	l->cpuid = cpuid;
}

void annotate_launcher__exit(struct annotate_launcher *l)
{
	disasm_files__close(&l->files);
	annotate_samples__release(&l->samples);
}

bool annotate_launcher__has_samples(void *launcher, const struct symbol *sym)
{
	struct annotate_launcher *l = launcher;

	return annotate_samples__find(&l->samples, sym) != NULL;
}

const char *annotate_launcher__browse(struct annotate_launcher *l, const struct hist_entry *he)
{
	const struct evsel *evsel = he->hists->evsel;
	struct annotated_sym *as = he->sym ? annotate_samples__find(&l->samples, he->sym) : NULL;
	struct annotate_totals *totals;
	struct disasm_file *f;
	int evidx = evsel->idx;
	char *title;

	if (!as)
		return "No samples for this symbol to annotate";
	if (dso__symtab_origin(as->dso) == 'k')
		return "Couldn't annotate: no vmlinux file was found in the path";
	/* modules are relocatable objects: their disassembly needs relocations */
	f = dso__symtab_origin(as->dso) == 'K' ? NULL :
		disasm_files__get(&l->files, as->dso, l->dis.source);
	if (!f)
		return disasm_unavailable() ? disasm_unavailable() :
		       "Couldn't annotate: the symbol's file cannot be read";
	totals = xcalloc((size_t)evidx + 1, sizeof(*totals));
	totals[evidx].period = he->hists->stats.total_period;
	title = annotate_title((unsigned long)he->hists->stats.nr_samples,
			       he->hists->stats.total_period, 1, evsel->name,
			       evsel->attr.sample_freq);

	struct annotate_browser_source src = {
		.samples = &l->samples, .file = f, .dis = &l->dis, .evidx = &evidx,
		.nr_events = 1, .totals = totals, .title = title, .event_name = evsel->name,
		.cpuid = l->cpuid, .scripts = l->scripts, .unmap_shift = he->unmap_shift,
	};

	annotate_browser__run(as->dso, as->sym, &src, &l->opts);
	free(title);
	free(totals);
	return NULL;
}
