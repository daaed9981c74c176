/* sdt-notes: .note.stapsdt markers into perf's probes-file text. */
#include "core/symbols/sdt-notes.h"

#include <ctype.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/strbuf.h"
#include "util/util.h"

#define NT_STAPSDT 3

/* x86-64 register names as tracefs knows them: %rax and %eax are %ax,
 * %r8d and %r8w are %r8. */
static void add_register(struct strbuf *sb, const char *reg, size_t len)
{
	static const char *const wide[] = { "ax", "bx", "cx", "dx", "si", "di", "bp", "sp" };

	for (size_t i = 0; i < sizeof(wide) / sizeof(*wide); i++)
		if (len == 3 && (reg[0] == 'r' || reg[0] == 'e') && !strncmp(reg + 1, wide[i], 2)) {
			strbuf_addf(sb, "%%%s", wide[i]);
			return;
		}
	if (len > 2 && reg[0] == 'r' && isdigit((unsigned char)reg[1]) &&
	    strchr("dwb", reg[len - 1]))
		len--;
	strbuf_addf(sb, "%%%.*s", (int)len, reg);
}

char *sdt_notes__fetch_arg(const char *arg)
{
	const char *at = strchr(arg, '@'), *op;
	struct strbuf sb = STRBUF_INIT;
	long size;
	char *end;

	if (!at)
		return NULL;
	size = strtol(arg, &end, 10);
	if (end != at || !size)
		return NULL;
	op = at + 1;
	if (op[0] == '%') {
		add_register(&sb, op + 1, strlen(op + 1));
	} else {
		/* OFF(%reg): tracefs wants the sign written */
		const char *paren = strchr(op, '(');
		const char *close = paren ? strchr(paren, ')') : NULL;

		if (!paren || !close || paren[1] != '%' || close[1])
			return NULL;
		long off = strtol(op, &end, 10);

		if (end != paren)
			return NULL;
		strbuf_addf(&sb, "%+ld(", off);
		add_register(&sb, paren + 2, close - paren - 2);
		strbuf_addch(&sb, ')');
	}
	strbuf_addf(&sb, ":%c%ld", size < 0 ? 's' : 'u', labs(size) * 8);
	return strbuf_detach(&sb);
}

/* A virtual address as a file offset, through the PT_LOAD holding it. */
static uint64_t file_offset(Elf *elf, uint64_t addr)
{
	size_t nphdr;

	if (!elf_getphdrnum(elf, &nphdr))
		for (size_t i = 0; i < nphdr; i++) {
			GElf_Phdr ph;

			if (gelf_getphdr(elf, (int)i, &ph) && ph.p_type == PT_LOAD &&
			    addr >= ph.p_vaddr && addr < ph.p_vaddr + ph.p_memsz)
				return addr - ph.p_vaddr + ph.p_offset;
		}
	return addr;
}

struct marker {
	char *event;	/* "%sdt_python:gc__start=gc__start" */
	char **defs;	/* its "p:" lines */
	int nr_defs;
};

static int cmp_defs(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void add_def(struct marker **markers, int *nr, char *event, char *def)
{
	struct marker *m = NULL;

	for (int i = 0; i < *nr && !m; i++)
		if (!strcmp((*markers)[i].event, event))
			m = &(*markers)[i];
	if (!m) {
		*markers = xrealloc(*markers, (*nr + 1) * sizeof(**markers));
		m = &(*markers)[(*nr)++];
		*m = (struct marker){ event, NULL, 0 };
	} else {
		free(event);
	}
	for (int i = 0; i < m->nr_defs; i++)
		if (!strcmp(m->defs[i], def)) {
			free(def);
			return;
		}
	m->defs = xrealloc(m->defs, (m->nr_defs + 1) * sizeof(*m->defs));
	m->defs[m->nr_defs++] = def;
}

/* One note: pc, base, semaphore, then provider, name and arguments. */
static void read_note(Elf *elf, const char *path, const char *desc, size_t len, int64_t base_shift,
		      struct marker **markers, int *nr)
{
	uint64_t addr[3];

	if (len < sizeof(addr) + 3)
		return;
	memcpy(addr, desc, sizeof(addr));
	const char *provider = desc + sizeof(addr), *end = desc + len;
	const char *name = provider + strnlen(provider, end - provider) + 1;
	const char *args = name < end ? name + strnlen(name, end - name) + 1 : end;

	if (args > end)
		return;
	struct strbuf def = STRBUF_INIT;

	strbuf_addf(&def, "p:sdt_%s/%s %s:0x%lx", provider, name, path,
		    (unsigned long)file_offset(elf, addr[0] + base_shift));
	if (addr[2])
		strbuf_addf(&def, "(0x%lx)", (unsigned long)file_offset(elf, addr[2]));
	char *copy = xstrndup(args, end - args), *save = NULL;
	int n = 0;

	for (char *a = strtok_r(copy, " ", &save); a; a = strtok_r(NULL, " ", &save)) {
		char *fetch = sdt_notes__fetch_arg(a);

		n++;
		if (fetch)
			strbuf_addf(&def, " arg%d=%s", n, fetch);
		free(fetch);
	}
	free(copy);
	add_def(markers, nr, xasprintf("%%sdt_%s:%s=%s", provider, name, name),
		strbuf_detach(&def));
}

char *sdt_notes__probes_text(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	Elf *elf;
	size_t shstrndx;
	int64_t base_shift = 0;
	struct marker *markers = NULL;
	int nr = 0;

	if (fd < 0)
		return NULL;
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!elf || elf_getshdrstrndx(elf, &shstrndx)) {
		if (elf)
			elf_end(elf);
		close(fd);
		return NULL;
	}
	Elf_Scn *notes = NULL;
	GElf_Shdr base_shdr = { 0 };

	for (Elf_Scn *scn = elf_nextscn(elf, NULL); scn; scn = elf_nextscn(elf, scn)) {
		GElf_Shdr shdr;
		const char *name;

		if (!gelf_getshdr(scn, &shdr) || !(name = elf_strptr(elf, shstrndx, shdr.sh_name)))
			continue;
		if (!strcmp(name, ".note.stapsdt"))
			notes = scn;
		else if (!strcmp(name, ".stapsdt.base"))
			base_shdr = shdr;
	}
	Elf_Data *data = notes ? elf_getdata(notes, NULL) : NULL;
	size_t off = 0, name_off, desc_off;
	GElf_Nhdr nh;

	while (data && (off = gelf_getnote(data, off, &nh, &name_off, &desc_off)) > 0) {
		const char *owner = (const char *)data->d_buf + name_off;
		uint64_t base;

		if (nh.n_type != NT_STAPSDT || nh.n_namesz != 8 || strcmp(owner, "stapsdt") ||
		    nh.n_descsz < 3 * sizeof(uint64_t))
			continue;
		/* prelinking moves the code but not the recorded base */
		memcpy(&base, (const char *)data->d_buf + desc_off + sizeof(uint64_t),
		       sizeof(base));
		base_shift = base_shdr.sh_addr && base ? (int64_t)(base_shdr.sh_addr - base) : 0;
		read_note(elf, path, (const char *)data->d_buf + desc_off, nh.n_descsz, base_shift,
			  &markers, &nr);
	}
	elf_end(elf);
	close(fd);
	if (!nr)
		return NULL;
	struct strbuf sb = STRBUF_INIT;

	for (int i = 0; i < nr; i++) {
		qsort(markers[i].defs, markers[i].nr_defs, sizeof(char *), cmp_defs);
		strbuf_addf(&sb, "%s\n", markers[i].event);
		for (int k = 0; k < markers[i].nr_defs; k++) {
			strbuf_addf(&sb, "%s\n", markers[i].defs[k]);
			free(markers[i].defs[k]);
		}
		free(markers[i].defs);
		free(markers[i].event);
	}
	free(markers);
	return strbuf_detach(&sb);
}
