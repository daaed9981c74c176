/* symbols-elf: a user DSO's symbols from ELF files, found where perf looks:
 * .gnu_debuglink targets, the build-id cache (~/.debug), /usr/lib/debug
 * (by path and by build id), the file itself under --symfs; for the vdso
 * the cache or the running kernel's image.  .symtab wins over .dynsym;
 * with only .dynsym, MiniDebugInfo (.gnu_debugdata, xz) adds the rest.
 * Addresses are moved into file-offset space, as perf 6.1 does.
 */
#include "core/symbols/symbols-int.h"
#include "util/util.h"

#include <elf.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <lzma.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

struct symsrc {
	char *path;		/* NULL for in-memory images */
	int fd;
	Elf *elf;
	void *mem;		/* owned buffer behind elf, if any */
	GElf_Ehdr ehdr;
	Elf_Scn *symtab, *dynsym;
	size_t dynsym_idx;
};

static void symsrc__close(struct symsrc *ss)
{
	if (ss->elf)
		elf_end(ss->elf);
	if (ss->fd >= 0)
		close(ss->fd);
	free(ss->mem);
	free(ss->path);
	memset(ss, 0, sizeof(*ss));
	ss->fd = -1;
}

static Elf_Scn *elf_section_by_name(Elf *elf, const char *name, GElf_Shdr *shdr_out,
				    size_t *idx)
{
	Elf_Scn *scn = NULL;
	size_t shstrndx;

	if (elf_getshdrstrndx(elf, &shstrndx))
		return NULL;
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr shdr;
		const char *n;

		if (!gelf_getshdr(scn, &shdr))
			continue;
		n = elf_strptr(elf, shstrndx, shdr.sh_name);
		if (n && !strcmp(n, name)) {
			if (shdr_out)
				*shdr_out = shdr;
			if (idx)
				*idx = elf_ndxscn(scn);
			return scn;
		}
	}
	return NULL;
}

static int symsrc__setup(struct symsrc *ss)
{
	GElf_Shdr shdr;

	if (!ss->elf || elf_kind(ss->elf) != ELF_K_ELF || !gelf_getehdr(ss->elf, &ss->ehdr))
		return -1;
	ss->symtab = elf_section_by_name(ss->elf, ".symtab", &shdr, NULL);
	if (ss->symtab && shdr.sh_type != SHT_SYMTAB)
		ss->symtab = NULL;
	ss->dynsym = elf_section_by_name(ss->elf, ".dynsym", &shdr, &ss->dynsym_idx);
	if (ss->dynsym && shdr.sh_type != SHT_DYNSYM)
		ss->dynsym = NULL;
	return 0;
}

/* Images whose build id differs from the one recorded are not this DSO. */
static bool build_id_matches(const struct dso *dso, Elf *elf)
{
	uint8_t id[20];
	size_t size;
	char *raw;
	int n;

	if (!dso->build_id_size)
		return true;
	raw = elf_rawfile(elf, &size);
	n = raw ? elf_buf__read_build_id(raw, size, id, sizeof(id)) : 0;
	return n == dso->build_id_size && !memcmp(id, dso->build_id, (size_t)n);
}

static int symsrc__open(struct symsrc *ss, struct dso *dso, const char *path)
{
	memset(ss, 0, sizeof(*ss));
	ss->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (ss->fd < 0)
		return -1;
	ss->elf = elf_begin(ss->fd, ELF_C_READ_MMAP, NULL);
	ss->path = xstrdup(path);
	if (symsrc__setup(ss) || !build_id_matches(dso, ss->elf)) {
		symsrc__close(ss);
		return -1;
	}
	return 0;
}

/* Takes ownership of buf. */
static int symsrc__open_mem(struct symsrc *ss, struct dso *dso, void *buf, size_t size)
{
	memset(ss, 0, sizeof(*ss));
	ss->fd = -1;
	ss->mem = buf;
	ss->elf = elf_memory(buf, size);
	if (symsrc__setup(ss) || !build_id_matches(dso, ss->elf)) {
		symsrc__close(ss);
		return -1;
	}
	return 0;
}

/* --- where to look -------------------------------------------------------- */

static char *read_debuglink(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	char *name = NULL;
	GElf_Ehdr ehdr;
	Elf *elf;

	if (fd < 0)
		return NULL;
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (elf && gelf_getehdr(elf, &ehdr)) {
		Elf_Scn *scn = elf_section_by_name(elf, ".gnu_debuglink", NULL, NULL);
		Elf_Data *data = scn ? elf_getdata(scn, NULL) : NULL;

		if (data && data->d_buf && data->d_size > 1 &&
		    memchr(data->d_buf, '\0', data->d_size))
			name = xstrdup(data->d_buf);
	}
	elf_end(elf);
	close(fd);
	return name;
}

/* The first existing file named by the executable's .gnu_debuglink, in
 * the places gdb and perf look. */
static char *debuglink_target(struct dso *dso, const char *symfs, const char *self)
{
	const char *slash = strrchr(dso->long_name, '/');
	int dirlen = slash ? (int)(slash - dso->long_name) : 0;
	char *link = read_debuglink(self), *found = NULL;

	if (!link)
		return NULL;
	for (int i = 0; i < 4 && !found; i++) {
		char *path;

		switch (i) {
		case 0: path = xstrdup(link); break;
		case 1: path = xasprintf("%s%.*s/%s", symfs, dirlen, dso->long_name, link); break;
		case 2: path = xasprintf("%s%.*s/.debug/%s", symfs, dirlen, dso->long_name, link); break;
		default: path = xasprintf("%s/usr/lib/debug%.*s/%s", symfs, dirlen, dso->long_name, link);
		}
		if (file__is_regular(path))
			found = path;
		else
			free(path);
	}
	free(link);
	return found;
}

static const char *write_vdso_copy(void);

/* The files perf tries, in its order, for a DSO's symbols. */
static size_t dso__candidates(struct dso *dso, const struct symbols_config *config,
			      char **out, size_t max)
{
	struct dso_priv *p = dso__priv(dso);
	const char *symfs = symbols_config__symfs(config);
	char *self = xasprintf("%s%s", symfs, dso->long_name);
	char *c;
	size_t n = 0;

#define ADD(expr) do { char *s_ = (expr); if (s_ && n < max) out[n++] = s_; else free(s_); } while (0)
	if (p->kind == DSO_VDSO) {
		/* top's: the copy, by its build id in the cache, else itself */
		if (config->vdso_copy && write_vdso_copy())
			dso__read_build_id(dso);
		ADD(build_id__cache_path(config, dso->build_id, dso->build_id_size, "vdso"));
		if (vdso__copy_path())
			ADD(xstrdup(vdso__copy_path()));
		free(self);
		return n;
	}
	if (file__is_regular(self) && (c = debuglink_target(dso, symfs, self)))
		ADD(c);
	if (dso->build_id_size) {
		ADD(build_id__cache_path(config, dso->build_id, dso->build_id_size, "elf"));
		ADD(build_id__cache_path(config, dso->build_id, dso->build_id_size, "debug"));
	}
	ADD(xasprintf("%s/usr/lib/debug%s.debug", symfs, dso->long_name));
	ADD(xasprintf("%s/usr/lib/debug%s", symfs, dso->long_name));
	if (dso->build_id_size) {
		char hex[41];

		build_id__hex(dso->build_id, dso->build_id_size, hex);
		ADD(xasprintf("%s/usr/lib/debug/.build-id/%.2s/%s.debug", symfs, hex, hex + 2));
	}
	ADD(self);
#undef ADD
	return n;
}

/* --- the running vdso and MiniDebugInfo: ELF images in memory ------------- */

/* Copies this process's [vdso] (the same image every process of the
 * running kernel maps). */
static void *running_vdso(size_t *size)
{
	FILE *f = fopen("/proc/self/maps", "re");
	char line[512];
	void *copy = NULL;

	if (!f)
		return NULL;
	while (fgets(line, sizeof(line), f)) {
		unsigned long start, end;

		if (strstr(line, "[vdso]") && sscanf(line, "%lx-%lx", &start, &end) == 2 &&
		    end > start) {
			*size = end - start;
			copy = xmalloc(*size);
			memcpy(copy, (void *)start, *size);
			break;
		}
	}
	fclose(f);
	return copy;
}

/* perf top's copy of the running vdso, made once and removed at exit. */
static char vdso_copy[] = "/tmp/perf-vdso.so-XXXXXX";
static bool vdso_copied;

static void remove_vdso_copy(void)
{
	unlink(vdso_copy);
}

const char *vdso__copy_path(void)
{
	return vdso_copied ? vdso_copy : NULL;
}

/* The copy's path, written at the first call; NULL when it cannot be. */
static const char *write_vdso_copy(void)
{
	static bool tried;
	size_t size = 0;
	void *image;
	int fd;

	if (tried)
		return vdso__copy_path();
	tried = true;
	image = running_vdso(&size);
	fd = image ? mkstemp(vdso_copy) : -1;
	if (fd >= 0) {
		vdso_copied = write_full(fd, image, size, 0) == 0;
		close(fd);
		if (vdso_copied)
			atexit(remove_vdso_copy);
		else
			unlink(vdso_copy);
	}
	free(image);
	return vdso__copy_path();
}

/* .gnu_debugdata: an xz-compressed ELF holding the .symtab that was
 * stripped from the file (Fedora's MiniDebugInfo). */
static void *minidebuginfo(Elf *elf, size_t *out_size)
{
	GElf_Shdr shdr;
	Elf_Scn *scn = elf_section_by_name(elf, ".gnu_debugdata", &shdr, NULL);
	Elf_Data *data = scn && shdr.sh_type == SHT_PROGBITS ? elf_getdata(scn, NULL) : NULL;
	lzma_stream strm = LZMA_STREAM_INIT;
	size_t cap = 0;
	uint8_t *out = NULL;
	lzma_ret ret;

	if (!data || !data->d_buf || !data->d_size)
		return NULL;
	if (lzma_stream_decoder(&strm, 256u << 20, 0) != LZMA_OK)
		return NULL;
	strm.next_in = data->d_buf;
	strm.avail_in = data->d_size;
	do {
		if (strm.avail_out == 0) {
			size_t used = cap;

			cap = cap ? cap * 2 : data->d_size * 4 + 4096;
			out = xrealloc(out, cap);
			strm.next_out = out + used;
			strm.avail_out = cap - used;
		}
		ret = lzma_code(&strm, LZMA_FINISH);
	} while (ret == LZMA_OK);
	*out_size = cap - strm.avail_out;
	lzma_end(&strm);
	if (ret != LZMA_STREAM_END) {
		free(out);
		return NULL;
	}
	return out;
}

/* --- reading symbols ------------------------------------------------------- */

bool elf_sym__is_label(const GElf_Sym *sym)
{
	return GELF_ST_TYPE(sym->st_info) == STT_NOTYPE && sym->st_name &&
	       sym->st_shndx != SHN_UNDEF && sym->st_shndx != SHN_ABS &&
	       GELF_ST_VISIBILITY(sym->st_other) != STV_HIDDEN &&
	       GELF_ST_VISIBILITY(sym->st_other) != STV_INTERNAL;
}

bool elf_sym__is_wanted(const GElf_Sym *sym)
{
	int type = GELF_ST_TYPE(sym->st_info);

	return (type == STT_FUNC || type == STT_GNU_IFUNC || type == STT_OBJECT) &&
	       sym->st_name && sym->st_shndx != SHN_UNDEF;
}

/* A PT_LOAD's addresses: [vaddr, vaddr + size) at file offset. */
struct load_seg {
	uint64_t vaddr, size, offset;
};

/* The runtime image's PT_LOADs, read once for all its symbols. */
static struct load_seg *load_segs(Elf *runtime, size_t *nr)
{
	size_t nphdr;
	struct load_seg *v;

	*nr = 0;
	if (elf_getphdrnum(runtime, &nphdr) || !nphdr)
		return NULL;
	v = xmalloc(nphdr * sizeof(*v));
	for (size_t i = 0; i < nphdr; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(runtime, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		v[(*nr)++] = (struct load_seg){
			ph.p_vaddr, ph.p_memsz > ph.p_filesz ? ph.p_memsz : ph.p_filesz,
			ph.p_offset
		};
	}
	return v;
}

/* perf 6.1 moves ELF symbols by the PT_LOAD that holds them so that
 * (ip - map start + pgoff) finds them. */
static uint64_t sym_file_offset(const struct load_seg *segs, size_t nr_segs, uint64_t value,
				const GElf_Shdr *shdr)
{
	for (size_t i = 0; i < nr_segs; i++)
		if (segs[i].size && value >= segs[i].vaddr &&
		    value < segs[i].vaddr + segs[i].size)
			return value - (segs[i].vaddr - segs[i].offset);
	return value - (shdr->sh_addr - shdr->sh_offset);
}

/* The string table strndx of ss mapped for the dso's lifetime, its size
 * in *size; NULL when it cannot be (in-memory images, compressed tables),
 * then names are read through libelf and copied. */
static const char *map_strtab(struct dso_priv *p, struct symsrc *ss, size_t strndx,
			      size_t *size)
{
	Elf_Scn *scn = elf_getscn(ss->elf, strndx);
	uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE), start;
	size_t file_size = 0, len;
	const char *text;
	GElf_Shdr sh;
	void *base;

	if (ss->fd < 0 || !scn || !gelf_getshdr(scn, &sh) || sh.sh_type != SHT_STRTAB ||
	    (sh.sh_flags & SHF_COMPRESSED) || !sh.sh_size || !elf_rawfile(ss->elf, &file_size) ||
	    sh.sh_offset > file_size || sh.sh_size > file_size - sh.sh_offset)
		return NULL;
	start = sh.sh_offset & ~(page - 1);
	len = (size_t)(sh.sh_offset - start + sh.sh_size);
	base = mmap(NULL, len, PROT_READ, MAP_PRIVATE, ss->fd, (off_t)start);
	if (base == MAP_FAILED)
		return NULL;
	text = (const char *)base + (sh.sh_offset - start);
	if (text[sh.sh_size - 1]) {	/* its last name must end in it */
		munmap(base, len);
		return NULL;
	}
	p->strtabs = xrealloc(p->strtabs, (p->nr_strtabs + 1) * sizeof(*p->strtabs));
	p->strtabs[p->nr_strtabs++] = (struct mapped_strtab){ base, len };
	*size = sh.sh_size;
	return text;
}

static void read_symbols(struct symtab_builder *b, struct dso_priv *p, struct symsrc *syms,
			 Elf_Scn *symsec, struct symsrc *runtime)
{
	GElf_Shdr symshdr;
	Elf_Data *data = elf_getdata(symsec, NULL);
	size_t shstrndx, rt_shstrndx, nr, nr_segs, strtab_size = 0;
	struct load_seg *segs;
	const char *strtab;

	if (!data || !gelf_getshdr(symsec, &symshdr) || !symshdr.sh_entsize ||
	    elf_getshdrstrndx(syms->elf, &shstrndx) ||
	    elf_getshdrstrndx(runtime->elf, &rt_shstrndx))
		return;
	nr = symshdr.sh_size / symshdr.sh_entsize;
	segs = load_segs(runtime->elf, &nr_segs);
	strtab = map_strtab(p, syms, symshdr.sh_link, &strtab_size);
	for (size_t i = 0; i < nr; i++) {
		GElf_Sym sym;
		GElf_Shdr shdr;
		Elf_Scn *sec;
		const char *name;
		bool label;
		size_t strndx = shstrndx;
		struct sym_raw *raw;
		uint64_t start;

		if (!gelf_getsym(data, (int)i, &sym))
			break;
		label = elf_sym__is_label(&sym);
		if (!label && !elf_sym__is_wanted(&sym))
			continue;
		if (sym.st_shndx >= SHN_LORESERVE)
			continue;
		sec = elf_getscn(syms->elf, sym.st_shndx);
		if (!sec || !gelf_getshdr(sec, &shdr) || !(shdr.sh_flags & SHF_ALLOC))
			continue;
		/* Debug files keep section headers but not contents (NOBITS);
		 * the runtime image has the real offsets. */
		if (shdr.sh_type == SHT_NOBITS) {
			sec = elf_getscn(runtime->elf, sym.st_shndx);
			if (!sec || !gelf_getshdr(sec, &shdr))
				continue;
			strndx = rt_shstrndx;
		}
		if (label) {
			const char *secname = elf_strptr(strndx == shstrndx ? syms->elf : runtime->elf,
							 strndx, shdr.sh_name);

			if (!secname || !strstr(secname, "text"))
				continue;
		}
		if (strtab)
			name = sym.st_name < strtab_size ? strtab + sym.st_name : NULL;
		else
			name = elf_strptr(syms->elf, symshdr.sh_link, sym.st_name);
		if (!name)
			continue;
		start = sym_file_offset(segs, nr_segs, sym.st_value, &shdr);
		raw = strtab ? symtab_add_ref(b, start, sym.st_size, GELF_ST_BIND(sym.st_info), name) :
			       symtab_add(b, start, sym.st_size, GELF_ST_BIND(sym.st_info), name,
					  strlen(name));
		/* demangled when shown: most names of a big DSO never are, nor
		 * read (sym_demangle() looks at the name then: a C name stays) */
		raw->mangled = p->config->demangle;
		raw->object = GELF_ST_TYPE(sym.st_info) == STT_OBJECT;
	}
	free(segs);
}

static void add_plt_name(struct symtab_builder *b, const struct symbols_config *config,
			 uint64_t start, uint64_t size, const char *name)
{
	char *demangled = sym_demangle_as(config, name);
	char *full = xasprintf("%s@plt", demangled ? demangled : name);

	symtab_add(b, start, size, STB_GLOBAL, full, strlen(full));
	free(full);
	free(demangled);
}

/* "name@plt" for each .rela.plt slot, .plt entries after its header, as
 * perf 6.1 synthesizes them. */
static void read_plt_symbols(struct symtab_builder *b, const struct symbols_config *config,
			     struct symsrc *ss)
{
	GElf_Shdr plt, rel, dynshdr;
	Elf_Scn *relscn;
	Elf_Data *reldata, *dyndata;
	uint64_t offset, entsize;
	size_t nr;

	if (!ss->dynsym || !elf_section_by_name(ss->elf, ".plt", &plt, NULL))
		return;
	relscn = elf_section_by_name(ss->elf, ".rela.plt", &rel, NULL);
	if (!relscn)
		relscn = elf_section_by_name(ss->elf, ".rel.plt", &rel, NULL);
	if (!relscn || rel.sh_link != ss->dynsym_idx || !rel.sh_entsize ||
	    (rel.sh_type != SHT_RELA && rel.sh_type != SHT_REL))
		return;
	reldata = elf_getdata(relscn, NULL);
	dyndata = elf_getdata(ss->dynsym, NULL);
	if (!reldata || !dyndata || !gelf_getshdr(ss->dynsym, &dynshdr))
		return;
	entsize = plt.sh_entsize;
	offset = plt.sh_offset + entsize;
	nr = rel.sh_size / rel.sh_entsize;
	for (size_t i = 0; i < nr; i++, offset += entsize) {
		GElf_Rela rela;
		GElf_Rel r;
		GElf_Sym sym;
		uint64_t info;
		const char *name;

		if (rel.sh_type == SHT_RELA) {
			if (!gelf_getrela(reldata, (int)i, &rela))
				break;
			info = rela.r_info;
		} else {
			if (!gelf_getrel(reldata, (int)i, &r))
				break;
			info = r.r_info;
		}
		if (!gelf_getsym(dyndata, (int)GELF_R_SYM(info), &sym))
			continue;
		name = elf_strptr(ss->elf, dynshdr.sh_link, sym.st_name);
		if (name)
			add_plt_name(b, config, offset, entsize, name);
	}
}

static void dso__read_layout(struct dso *dso, struct symsrc *runtime)
{
	struct dso_priv *p = dso__priv(dso);
	GElf_Shdr text;
	size_t nphdr;

	if (elf_section_by_name(runtime->elf, ".text", &text, NULL))
		p->text_offset = text.sh_addr - text.sh_offset;
	free(p->loads);
	p->loads = NULL;
	p->nr_loads = 0;
	if (elf_getphdrnum(runtime->elf, &nphdr))
		return;
	p->loads = xcalloc(nphdr ? nphdr : 1, sizeof(*p->loads));
	for (size_t i = 0; i < nphdr; i++) {
		GElf_Phdr ph;

		if (gelf_getphdr(runtime->elf, (int)i, &ph) && ph.p_type == PT_LOAD) {
			p->loads[p->nr_loads].offset = ph.p_offset;
			p->loads[p->nr_loads].vaddr = ph.p_vaddr;
			p->loads[p->nr_loads].filesz = ph.p_filesz;
			p->nr_loads++;
		}
	}
}

uint64_t dso__addr_to_vaddr(struct dso *dso, uint64_t addr)
{
	struct dso_priv *p = dso__priv(dso);

	if (p->kind == DSO_PERF_MAP)
		return addr;
	dso__load(dso);
	/* the kernel's text_offset is 0 with kallsyms (absolute addresses) */
	return addr + p->text_offset;
}

int dso__load_elf(struct dso *dso, const struct symbols_config *config)
{
	struct dso_priv *p = dso__priv(dso);
	struct symtab_builder b = { .pool = &p->pool }, plt = { .pool = &p->pool };
	struct symsrc found[8], *syms = NULL, *runtime = NULL, mini;
	char *cands[8];
	size_t ncand, nfound = 0;
	bool have_mini = false;

	elf_version(EV_CURRENT);
	if (p->kind == DSO_USER)
		dso__read_build_id(dso);
	ncand = dso__candidates(dso, config, cands, 8);
	for (size_t i = 0; i < ncand; i++) {
		struct symsrc *ss = &found[nfound];
		bool used = false;

		if (syms && runtime)
			break;
		if (symsrc__open(ss, dso, cands[i]))
			continue;
		if (!syms && ss->symtab)
			syms = ss, used = true;
		if (!runtime && ss->dynsym)
			runtime = ss, used = true;
		if (used)
			nfound++;
		else
			symsrc__close(ss);
	}
	for (size_t i = 0; i < ncand; i++)
		free(cands[i]);
	if (!syms && !runtime && p->kind == DSO_VDSO) {
		size_t size = 0;
		void *image = running_vdso(&size);

		if (image && !symsrc__open_mem(&found[0], dso, image, size)) {
			/* Keep a copy: the unwinder reads the image too. */
			p->image = xmalloc(size);
			memcpy(p->image, image, size);
			p->image_size = size;
			syms = runtime = &found[0];
			nfound = 1;
		}
	}
	if (!runtime)
		runtime = syms;
	if (!syms)
		syms = runtime;
	if (!syms)
		return -1;

	if (!syms->symtab && runtime) {
		size_t size;
		void *buf = minidebuginfo(runtime->elf, &size);

		if (buf && !symsrc__open_mem(&mini, dso, buf, size) && mini.symtab)
			have_mini = true;
		else if (buf)
			symsrc__close(&mini);
	}
	dso__read_layout(dso, runtime);
	read_symbols(&b, p, syms, syms->symtab ? syms->symtab : syms->dynsym, runtime);
	if (have_mini) {
		/* Its symbols complete .dynsym (gdb's reading of it). */
		read_symbols(&b, p, &mini, mini.symtab, runtime);
		symsrc__close(&mini);
	}
	if (b.nr)
		read_plt_symbols(&plt, config, runtime);
	if (syms->path) {
		free(p->debug_path);
		p->debug_path = xstrdup(syms->path);
	}
	if (runtime->path) {
		free(p->elf_path);
		p->elf_path = xstrdup(runtime->path);
	}
	dso__install_symbols(dso, &b, &plt, false);
	for (size_t i = 0; i < nfound; i++)
		symsrc__close(&found[i]);
	return 0;
}
