/* buildid: reading GNU build-id notes (ELF files, /sys/kernel/notes) and
 * naming files in perf's build-id cache (~/.debug/.build-id/xx/rest).
 */
#include "core/symbols/symbols-int.h"
#include "util/util.h"

#include <elf.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void build_id__hex(const uint8_t *id, int size, char *out)
{
	for (int i = 0; i < size && i < 20; i++)
		sprintf(out + 2 * i, "%02x", id[i]);
	out[size > 0 ? 2 * (size < 20 ? size : 20) : 0] = '\0';
}

bool file__is_regular(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISREG(st.st_mode);
}

char *build_id__cache_path(const struct symbols_config *config, const uint8_t *id, int size,
			   const char *basename)
{
	const char *dir = config->buildid_dir;
	char hex[41], *link, *path;

	if (size <= 0 || !dir || !*dir)
		return NULL;
	build_id__hex(id, size, hex);
	link = xasprintf("%s/.build-id/%.2s/%s", dir, hex, hex + 2);
	/* Old caches link straight to the file; new ones to a directory. */
	if (file__is_regular(link) || !basename)
		return link;
	path = xasprintf("%s/%s", link, basename);
	free(link);
	return path;
}

/* Walks the notes in buf for NT_GNU_BUILD_ID; returns its size or 0. */
static int notes__find_build_id(const uint8_t *buf, size_t size, uint8_t *id, size_t max)
{
	size_t off = 0;

	while (off + 12 <= size) {
		uint32_t namesz, descsz, type;
		size_t name_off = off + 12, desc_off;

		memcpy(&namesz, buf + off, 4);
		memcpy(&descsz, buf + off + 4, 4);
		memcpy(&type, buf + off + 8, 4);
		desc_off = name_off + ((namesz + 3) & ~3U);
		if (desc_off < name_off || desc_off > size || descsz > size - desc_off)
			return 0;
		if (type == NT_GNU_BUILD_ID && namesz == 4 && !memcmp(buf + name_off, "GNU", 4)) {
			size_t n = descsz < max ? descsz : max;

			memcpy(id, buf + desc_off, n);
			return (int)n;
		}
		off = desc_off + ((descsz + 3) & ~3U);
	}
	return 0;
}

static int elf__read_build_id(Elf *elf, uint8_t *id, size_t max)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr shdr;
	size_t nphdr;

	while ((scn = elf_nextscn(elf, scn))) {
		Elf_Data *data;
		int n;

		if (!gelf_getshdr(scn, &shdr) || shdr.sh_type != SHT_NOTE)
			continue;
		data = elf_getdata(scn, NULL);
		if (data && data->d_buf &&
		    (n = notes__find_build_id(data->d_buf, data->d_size, id, max)) > 0)
			return n;
	}
	/* No section headers (e.g. a stripped vdso copy): try PT_NOTE. */
	if (elf_getphdrnum(elf, &nphdr))
		return 0;
	for (size_t i = 0; i < nphdr; i++) {
		GElf_Phdr ph;
		size_t fsize;
		const char *raw = elf_rawfile(elf, &fsize);
		int n;

		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_NOTE || !raw ||
		    ph.p_offset > fsize || ph.p_filesz > fsize - ph.p_offset)
			continue;
		n = notes__find_build_id((const uint8_t *)raw + ph.p_offset, ph.p_filesz, id, max);
		if (n > 0)
			return n;
	}
	return 0;
}

int elf_buf__read_build_id(const void *buf, size_t size, uint8_t *id, size_t max)
{
	Elf *elf;
	int n = 0;

	elf_version(EV_CURRENT);
	elf = elf_memory((char *)buf, size);
	if (elf && elf_kind(elf) == ELF_K_ELF)
		n = elf__read_build_id(elf, id, max);
	elf_end(elf);
	return n;
}

int elf_file__read_build_id(const char *path, uint8_t *id, size_t max)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	Elf *elf;
	int n = 0;

	if (fd < 0)
		return 0;
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (elf && elf_kind(elf) == ELF_K_ELF)
		n = elf__read_build_id(elf, id, max);
	elf_end(elf);
	close(fd);
	return n;
}

int sysfs__read_kernel_build_id(uint8_t *id, size_t max)
{
	return sysfs__read_build_id("/sys/kernel/notes", id, max);
}

int sysfs__read_build_id(const char *path, uint8_t *id, size_t max)
{
	uint8_t buf[4096];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf));
	close(fd);
	return n > 0 ? notes__find_build_id(buf, (size_t)n, id, max) : 0;
}

/* The vDSO is the same image in every process: read ours. */
int vdso__read_build_id(uint8_t *id, size_t max)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[512];
	int n = 0;

	if (!f)
		return 0;
	while (!n && fgets(line, sizeof(line), f)) {
		unsigned long long start, end;

		if (strstr(line, "[vdso]") && sscanf(line, "%llx-%llx", &start, &end) == 2)
			n = elf_buf__read_build_id((const void *)(uintptr_t)start,
						   (size_t)(end - start), id, max);
	}
	fclose(f);
	return n;
}

int dso__read_build_id(struct dso *dso)
{
	struct dso_priv *p = dso__priv(dso);
	uint8_t id[20];
	int n = 0;

	if (dso->build_id_size || p->build_id_read)
		return dso->build_id_size;
	p->build_id_read = true;
	if (p->kind == DSO_KERNEL) {
		n = sysfs__read_kernel_build_id(id, sizeof(id));
	} else if (p->kind == DSO_USER) {
		char *path = xasprintf("%s%s", symbols_config__symfs(p->config), dso->long_name);

		n = elf_file__read_build_id(path, id, sizeof(id));
		free(path);
	} else if (p->kind == DSO_VDSO) {
		n = vdso__read_build_id(id, sizeof(id));
	}
	if (n > 0)
		dso__set_build_id(dso, id, n);
	return dso->build_id_size;
}
