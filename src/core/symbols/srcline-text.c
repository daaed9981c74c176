/* srcline-text: perf's source-line strings (see srcline-text.h). */
#include "core/symbols/srcline-text.h"
#include "core/symbols/symbols-int.h"
#include "util/strbuf.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

const char *srcline_known(struct dso *dso, uint64_t addr)
{
	const char *line = dso__srcline(dso, addr);
	size_t n;

	if (!line)
		return NULL;
	/* dso__srcline() spells its own "don't know" as "dso[addr]" */
	n = strlen(dso->short_name);
	if (!strncmp(line, dso->short_name, n) && line[n] == '[')
		return NULL;
	return line;
}

bool srcline_lineless(const char *line)
{
	return line && !strcmp(line, "??:0");
}

void srcline_unknown(struct strbuf *sb, struct dso *dso, uint64_t addr)
{
	strbuf_addf(sb, "%s[%" PRIx64 "]", dso->short_name, dso__addr_to_vaddr(dso, addr));
}
