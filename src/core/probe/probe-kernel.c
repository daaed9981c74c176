/* probe-kernel: kprobe sites from kallsyms. */
#include "core/probe/probe-kernel.h"
#include "core/probe/probe-dwarf.h"
#include "util/glob.h"
#include "util/util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

void probe_kernel__init(struct probe_kernel *k, const char *path)
{
	memset(k, 0, sizeof(*k));
	/* perf's kernel map before it reads the symbols: _text to _etext;
	 * where kallsyms hides the addresses, all of them */
	k->have_text = !kernel_text__range(path, &k->start, &k->end) && k->start;
	if (!k->have_text) {
		k->start = 0;
		k->end = UINT64_MAX;
	}
	k->text = k->start;
	if (k->have_text && kallsyms_table__load(&k->syms, path) == 0 && k->syms.nr) {
		/* once they are read, it spans them (map__fixup_start/end) */
		k->loaded = true;
	}
}

void probe_kernel__exit(struct probe_kernel *k)
{
	kallsyms_table__exit(&k->syms);
}

const char probe_kallsyms_access_error[] =
	"Please ensure you can read the /proc/kallsyms symbol addresses.\n"
	"If /proc/sys/kernel/kptr_restrict is '2', you can not read\n"
	"kernel symbol addresses even if you are a superuser. Please change\n"
	"it to '1'. If kptr_restrict is '1', the superuser can read the\n"
	"symbol addresses.\n"
	"In that case, please run this command again with sudo.\n";

bool probe_kernel__out_of_text(const struct probe_kernel *k, uint64_t addr)
{
	return addr <= k->start || k->end < addr;
}

/* perf reads the symbols when it first looks a function up: its map then
 * spans them. */
static void span_symbols(struct probe_kernel *k)
{
	k->start = k->syms.v[0].start;
	k->end = k->syms.v[k->syms.nr - 1].end;
	k->spanned = true;
}

int probe_kernel__function_sites(struct probe_kernel *k, const char *pattern,
				 unsigned long offset, int max_probes, struct probe_msgs *msgs,
				 struct probe_kernel_site **sites)
{
	const struct kallsyms_entry **matched = NULL;
	int nr_matched = 0, nr = 0;

	*sites = NULL;
	if (!k->loaded) {
		probe_msg(msgs, false, "Failed to load symbols from /proc/kallsyms\n%s",
			  probe_kallsyms_access_error);
		return -ENOENT;
	}
	span_symbols(k);
	for (size_t i = 0; i < k->syms.nr; i++) {
		if (!glob_match(pattern, k->syms.v[i].name))
			continue;
		matched = xrealloc(matched, (nr_matched + 1) * sizeof(*matched));
		matched[nr_matched++] = &k->syms.v[i];
	}
	k->nr_matched = nr_matched;
	if (!nr_matched) {
		probe_msg(msgs, false, "Failed to find symbol %s in kernel\n", pattern);
		return -ENOENT;
	}
	if (nr_matched > max_probes) {
		probe_msg(msgs, false, "Too many functions matched in kernel\n");
		free(matched);
		return -E2BIG;
	}
	*sites = xcalloc(nr_matched, sizeof(**sites));
	for (int j = 0; j < nr_matched; j++) {
		const struct kallsyms_entry *sym = matched[j];
		int i = 0;

		if (!sym->function)
			continue;
		while (i < j && matched[i]->start != sym->start)
			i++;
		if (i < j) {
			probe_msg(msgs, true, "Found duplicated symbol %s @ %lx\n", sym->name,
				  (unsigned long)sym->start);
			continue;
		}
		if (offset > sym->end - sym->start) {
			probe_msg(msgs, false, "Offset %ld is bigger than the size of %s\n",
				  (long)offset, sym->name);
			free(matched);
			free(*sites);
			*sites = NULL;
			return -ENOENT;
		}
		if (probe_kernel__out_of_text(k, sym->start + offset)) {
			probe_msg(msgs, false, "%s is out of .text, skip it.\n", sym->name);
			continue;
		}
		(*sites)[nr++] = (struct probe_kernel_site){ sym->start + offset - k->text,
							     sym->name };
	}
	free(matched);
	k->nr_matched = nr_matched;
	if (!nr) {
		/* perf fails without a word when no function was left */
		free(*sites);
		*sites = NULL;
		return -ENOENT;
	}
	return nr;
}
