/* probe-kernel: kprobe sites from kallsyms. */
#include "core/probe/probe-kernel.h"
#include "util/util.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int probe_kallsyms__offsets(const char *path, const char *name, uint64_t **offsets)
{
	FILE *f = fopen(path ? path : "/proc/kallsyms", "r");
	char line[512];
	uint64_t text = 0, *addrs = NULL;
	bool have_text = false;
	int n = 0;

	*offsets = NULL;
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		char sym[256], type;
		unsigned long long a;

		if (sscanf(line, "%llx %c %255s", &a, &type, sym) != 3)
			continue;
		if (!strcmp(sym, "_text")) {
			text = a;
			have_text = true;
		}
		/* functions only: text symbols, weak ones included */
		if (strcmp(sym, name) || !strchr("tw", tolower((unsigned char)type)))
			continue;
		addrs = xrealloc(addrs, (n + 1) * sizeof(*addrs));
		addrs[n++] = a;
	}
	fclose(f);
	if (!have_text) {
		free(addrs);
		return -1;
	}
	for (int i = 0; i < n; i++)
		addrs[i] -= text;
	*offsets = addrs;
	return n;
}
