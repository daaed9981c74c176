/* build-id: GNU build ids of files, the kernel and the vDSO (see build-id.h). */
#include "core/build-id.h"
#include "util/util.h"

#include <elf.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <unistd.h>

#define NOTE_ALIGN(x)	(((x) + 3) & ~(size_t)3)

int build_id__from_notes(const void *notes, size_t len, struct build_id *bid)
{
	const unsigned char *p = notes, *end = p + len;

	while ((size_t)(end - p) >= 12) {
		uint32_t namesz, descsz, type;
		const unsigned char *name, *desc;

		memcpy(&namesz, p, 4);
		memcpy(&descsz, p + 4, 4);
		memcpy(&type, p + 8, 4);
		name = p + 12;
		if (NOTE_ALIGN(namesz) > (size_t)(end - name))
			break;
		desc = name + NOTE_ALIGN(namesz);
		if (descsz > (size_t)(end - desc))
			break;
		if (type == NT_GNU_BUILD_ID && namesz == 4 && !memcmp(name, "GNU", 4) &&
		    descsz > 0) {
			bid->size = descsz < BUILD_ID_SIZE_MAX ? descsz : BUILD_ID_SIZE_MAX;
			memset(bid->data, 0, sizeof(bid->data));
			memcpy(bid->data, desc, bid->size);
			return 0;
		}
		if (NOTE_ALIGN(descsz) >= (size_t)(end - desc))
			break;
		p = desc + NOTE_ALIGN(descsz);
	}
	return -1;
}

/* Walks the note sections (or, without sections, the note segments). */
static int elf_build_id(Elf *elf, struct build_id *bid)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	size_t nph;

	while ((scn = elf_nextscn(elf, scn))) {
		Elf_Data *d;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_NOTE)
			continue;
		d = elf_getdata(scn, NULL);
		if (d && d->d_buf && !build_id__from_notes(d->d_buf, d->d_size, bid))
			return 0;
	}
	if (elf_getphdrnum(elf, &nph))
		return -1;
	for (size_t i = 0; i < nph; i++) {
		GElf_Phdr ph;
		size_t len;
		char *raw;

		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_NOTE)
			continue;
		raw = elf_rawfile(elf, &len);
		if (raw && ph.p_offset < len && ph.p_filesz <= len - ph.p_offset &&
		    !build_id__from_notes(raw + ph.p_offset, ph.p_filesz, bid))
			return 0;
	}
	return -1;
}

int build_id__read_file(const char *path, struct build_id *bid)
{
	int fd, ret = -1;
	Elf *elf;

	bid->size = 0;
	if (elf_version(EV_CURRENT) == EV_NONE)
		return -1;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (elf && elf_kind(elf) == ELF_K_ELF)
		ret = elf_build_id(elf, bid);
	elf_end(elf);
	close(fd);
	return ret;
}

int build_id__read_kernel(struct build_id *bid)
{
	int fd = open("/sys/kernel/notes", O_RDONLY | O_CLOEXEC);
	unsigned char buf[8192];
	ssize_t n;

	bid->size = 0;
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf));
	close(fd);
	return n > 0 ? build_id__from_notes(buf, (size_t)n, bid) : -1;
}

int build_id__read_vdso(struct build_id *bid)
{
	const unsigned char *img = (const void *)getauxval(AT_SYSINFO_EHDR);
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)img;

	bid->size = 0;
	if (!img || memcmp(eh->e_ident, ELFMAG, SELFMAG) || eh->e_ident[EI_CLASS] != ELFCLASS64)
		return -1;
	/* The vDSO is mapped whole: its note segment is at p_offset. */
	for (int i = 0; i < eh->e_phnum; i++) {
		const Elf64_Phdr *ph = (const Elf64_Phdr *)(img + eh->e_phoff +
							    (size_t)i * eh->e_phentsize);

		if (ph->p_type == PT_NOTE &&
		    !build_id__from_notes(img + ph->p_offset, ph->p_filesz, bid))
			return 0;
	}
	return -1;
}

char *build_id__sprintf(const struct build_id *bid, char *buf)
{
	for (size_t i = 0; i < bid->size; i++)
		sprintf(buf + 2 * i, "%02x", bid->data[i]);
	buf[2 * bid->size] = 0;
	return buf;
}
