/* probe-kernel: kprobe sites from kallsyms. */
#include "core/probe/probe-kernel.h"
#include "core/symbols/kernel-maps.h"
#include "util/util.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

struct function_sites {
	const char *name;
	uint64_t text, *addrs;
	bool have_text;
	int n;
};

static int collect_site(uint64_t addr, char type, const char *name, void *arg)
{
	struct function_sites *fs = arg;

	if (!strcmp(name, "_text")) {
		fs->text = addr;
		fs->have_text = true;
	}
	/* functions only: text symbols, weak ones included */
	if (strcmp(name, fs->name) || !strchr("tw", tolower((unsigned char)type)))
		return 0;
	fs->addrs = xrealloc(fs->addrs, (fs->n + 1) * sizeof(*fs->addrs));
	fs->addrs[fs->n++] = addr;
	return 0;
}

int probe_kallsyms__offsets(const char *path, const char *name, uint64_t **offsets)
{
	struct function_sites fs = { .name = name };

	*offsets = NULL;
	if (kallsyms__for_each(path, collect_site, &fs) < 0 || !fs.have_text) {
		free(fs.addrs);
		return -1;
	}
	for (int i = 0; i < fs.n; i++)
		fs.addrs[i] -= fs.text;
	*offsets = fs.addrs;
	return fs.n;
}
