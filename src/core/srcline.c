/* srcline: "file.c:123" for an address, from the DWARF line table of the
 * file the DSO's symbols came from (as perf asks addr2line), read in
 * process with libdw and cached per address.
 */
#include "core/symbols.h"
#include "util/util.h"

#include <elfutils/libdwfl.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct srcline_cache {
	Dwfl *dwfl;
	Dwfl_Module *mod;
	struct u64map lines;	/* addr -> char* (or &no_line) */
	bool failed;
};

static char no_line;

static const Dwfl_Callbacks offline_callbacks = {
	.find_elf = dwfl_build_id_find_elf,
	.find_debuginfo = dwfl_standard_find_debuginfo,
	.section_address = dwfl_offline_section_address,
};

static struct srcline_cache *srcline_open(struct dso *dso)
{
	struct dso_priv *p = dso__priv(dso);
	struct srcline_cache *c = xcalloc(1, sizeof(*c));

	p->srcline = c;
	dso__load(dso);
	/* perf gives no source lines for the kernel, vdso or JIT code. */
	if (!p->debug_path || p->kind == DSO_KERNEL || p->kind == DSO_PERF_MAP ||
	    dso->long_name[0] == '[') {
		c->failed = true;
		return c;
	}
	c->dwfl = dwfl_begin(&offline_callbacks);
	if (c->dwfl) {
		dwfl_report_begin(c->dwfl);
		c->mod = dwfl_report_offline(c->dwfl, dso->short_name, p->debug_path, -1);
		dwfl_report_end(c->dwfl, NULL, NULL);
	}
	if (!c->mod)
		c->failed = true;
	return c;
}

static char *srcline_lookup(struct srcline_cache *c, uint64_t vaddr)
{
	Dwarf_Addr bias;
	Dwfl_Line *line;
	const char *file, *base;
	int lineno = 0;

	if (!dwfl_module_getdwarf(c->mod, &bias))
		return NULL;
	line = dwfl_module_getsrc(c->mod, vaddr + bias);
	if (!line)
		return NULL;
	file = dwfl_lineinfo(line, NULL, &lineno, NULL, NULL, NULL);
	if (!file)
		file = "";
	base = strrchr(file, '/');
	return xasprintf("%s:%d", base ? base + 1 : file, lineno);
}

const char *dso__srcline(struct dso *dso, uint64_t addr)
{
	struct dso_priv *p;
	struct srcline_cache *c;
	char *s;

	if (!dso)
		return NULL;
	p = dso__priv(dso);
	c = p->srcline ? p->srcline : srcline_open(dso);
	if (c->failed)
		return NULL;
	s = u64map_get(&c->lines, addr);
	if (!s) {
		s = srcline_lookup(c, dso__addr_to_vaddr(dso, addr));
		u64map_put(&c->lines, addr, s ? s : &no_line);
	}
	return s == &no_line ? NULL : s;
}

void dso__srcline_release(struct dso *dso)
{
	struct srcline_cache *c = dso__priv(dso)->srcline;

	if (!c)
		return;
	for (size_t i = 0; i < c->lines.cap; i++)
		if (c->lines.keys[i] && c->lines.vals[i] != &no_line)
			free(c->lines.vals[i]);
	u64map_release(&c->lines);
	if (c->dwfl)
		dwfl_end(c->dwfl);
	free(c);
	dso__priv(dso)->srcline = NULL;
}
