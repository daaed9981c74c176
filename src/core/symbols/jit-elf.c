/* jit-elf: writes the ELF image of a jitted function (jit-elf.h). */
#include "core/symbols/jit-elf.h"

#include <dwarf.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/hashmap.h"
#include "util/strbuf.h"
#include "util/util.h"

#define BUILD_ID_SIZE	20

enum section {
	SEC_NULL, SEC_TEXT, SEC_EH_FRAME, SEC_EH_FRAME_HDR, SEC_BUILD_ID, SEC_SYMTAB, SEC_STRTAB,
	SEC_DEBUG_LINE, SEC_DEBUG_INFO, SEC_DEBUG_ABBREV, SEC_SHSTRTAB, NR_SECTIONS
};

static const char *const section_names[NR_SECTIONS] = {
	"", ".text", ".eh_frame", ".eh_frame_hdr", ".note.gnu.build-id", ".symtab", ".strtab",
	".debug_line", ".debug_info", ".debug_abbrev", ".shstrtab",
};

struct image {
	struct strbuf sb;
	Elf64_Shdr shdr[NR_SECTIONS];
	bool present[NR_SECTIONS];
	uint32_t shindex[NR_SECTIONS];	/* in the image's section table */
};

static void pad_to(struct strbuf *sb, size_t align)
{
	while (sb->len % align)
		strbuf_addch(sb, 0);
}

/* Appends a section's bytes; addr is 0 for sections not loaded. */
static void add_section(struct image *im, enum section sec, uint32_t type, uint64_t flags,
			uint64_t addr, const void *data, size_t size, size_t align)
{
	Elf64_Shdr *sh = &im->shdr[sec];

	pad_to(&im->sb, align);
	sh->sh_type = type;
	sh->sh_flags = flags;
	sh->sh_addr = addr;
	sh->sh_offset = im->sb.len;
	sh->sh_size = size;
	sh->sh_addralign = align;
	strbuf_add(&im->sb, data, size);
	im->present[sec] = true;
}

static void add_uleb(struct strbuf *sb, uint64_t v)
{
	do {
		uint8_t byte = v & 0x7f;

		v >>= 7;
		strbuf_addch(sb, (char)(byte | (v ? 0x80 : 0)));
	} while (v);
}

static void add_sleb(struct strbuf *sb, int64_t v)
{
	for (;;) {
		uint8_t byte = v & 0x7f;

		v >>= 7;	/* arithmetic: gcc and clang keep the sign */
		if ((v == 0 && !(byte & 0x40)) || (v == -1 && (byte & 0x40))) {
			strbuf_addch(sb, (char)byte);
			return;
		}
		strbuf_addch(sb, (char)(byte | 0x80));
	}
}

static void add_u16(struct strbuf *sb, uint16_t v) { strbuf_add(sb, &v, sizeof(v)); }
static void add_u32(struct strbuf *sb, uint32_t v) { strbuf_add(sb, &v, sizeof(v)); }
static void add_u64(struct strbuf *sb, uint64_t v) { strbuf_add(sb, &v, sizeof(v)); }

/* A length field filled in once what it counts is written. */
static void set_u32(struct strbuf *sb, size_t at, uint32_t v)
{
	memcpy(sb->buf + at, &v, sizeof(v));
}

static uint64_t image_addr(const struct jit_function *f, uint64_t runtime)
{
	return JIT_ELF_TEXT_OFFSET + (runtime - f->addr);
}

/* The line table's file number (from 1) of every entry, in first-use order. */
static uint32_t *number_files(const struct jit_function *f, uint32_t *nr_files)
{
	uint32_t *numbers = xcalloc(f->nr_lines, sizeof(*numbers));

	*nr_files = 0;
	for (size_t i = 0; i < f->nr_lines; i++) {
		const char *file = f->lines[i].file;

		/* JITs give a function's entries mostly one file: try the last first */
		if (i && !strcmp(f->lines[i - 1].file, file)) {
			numbers[i] = numbers[i - 1];
			continue;
		}
		for (size_t j = 0; j < i && !numbers[i]; j++)
			if (!strcmp(f->lines[j].file, file))
				numbers[i] = numbers[j];
		if (!numbers[i])
			numbers[i] = ++*nr_files;
	}
	return numbers;
}

/* A DWARF 2 line program: one row per entry inside the code, each with its
 * own DW_LNE_set_address so that the JIT's order does not matter. */
static void build_debug_line(const struct jit_function *f, struct strbuf *sb)
{
	static const uint8_t std_opcode_lengths[12] = { 0, 1, 1, 1, 1, 0, 0, 0, 1, 0, 0, 1 };
	size_t header_len_at, program_at;
	uint32_t nr_files, cur_file = 1, *numbers = number_files(f, &nr_files), listed = 0;
	int64_t cur_line = 1;

	add_u32(sb, 0);			/* unit_length, set below */
	add_u16(sb, 2);
	header_len_at = sb->len;
	add_u32(sb, 0);			/* header_length, set below */
	strbuf_addch(sb, 1);		/* minimum_instruction_length */
	strbuf_addch(sb, 1);		/* default_is_stmt */
	strbuf_addch(sb, -5);		/* line_base */
	strbuf_addch(sb, 14);		/* line_range */
	strbuf_addch(sb, 13);		/* opcode_base */
	strbuf_add(sb, std_opcode_lengths, sizeof(std_opcode_lengths));
	strbuf_addch(sb, 0);		/* no include directories */
	for (size_t i = 0; i < f->nr_lines; i++) {
		if (numbers[i] <= listed)
			continue;
		listed++;
		strbuf_add(sb, f->lines[i].file, strlen(f->lines[i].file) + 1);
		add_uleb(sb, 0);	/* directory, mtime, length */
		add_uleb(sb, 0);
		add_uleb(sb, 0);
	}
	strbuf_addch(sb, 0);
	program_at = sb->len;
	for (size_t i = 0; i < f->nr_lines; i++) {
		const struct jit_debug_entry *e = &f->lines[i];
		uint32_t file = numbers[i];

		if (e->addr < f->addr || e->addr - f->addr >= f->size)
			continue;
		strbuf_addch(sb, 0);			/* DW_LNE_set_address */
		add_uleb(sb, 9);
		strbuf_addch(sb, DW_LNE_set_address);
		add_u64(sb, image_addr(f, e->addr));
		if (file != cur_file) {
			strbuf_addch(sb, DW_LNS_set_file);
			add_uleb(sb, file);
			cur_file = file;
		}
		if ((int64_t)e->line != cur_line) {
			strbuf_addch(sb, DW_LNS_advance_line);
			add_sleb(sb, (int64_t)e->line - cur_line);
			cur_line = e->line;
		}
		strbuf_addch(sb, DW_LNS_copy);
	}
	/* the sequence ends at the last row, which so covers no code: perf's
	 * images end there, and objdump -l shows the same lines for both */
	strbuf_addch(sb, 0);
	add_uleb(sb, 1);
	strbuf_addch(sb, DW_LNE_end_sequence);
	set_u32(sb, 0, (uint32_t)(sb->len - 4));
	set_u32(sb, header_len_at, (uint32_t)(program_at - header_len_at - 4));
	free(numbers);
}

/* The compile unit readers look up an address in: the code's range and the
 * line table (.debug_abbrev code 1: DW_TAG_compile_unit without children). */
static void build_debug_info(const struct jit_function *f, struct strbuf *info,
			     struct strbuf *abbrev)
{
	static const uint8_t abbrev_table[] = {
		1, DW_TAG_compile_unit, DW_CHILDREN_no,
		DW_AT_stmt_list, DW_FORM_data4, DW_AT_low_pc, DW_FORM_addr,
		DW_AT_high_pc, DW_FORM_addr, 0, 0, 0,
	};

	strbuf_add(abbrev, abbrev_table, sizeof(abbrev_table));
	add_u32(info, 0);		/* unit_length, set below */
	add_u16(info, 2);
	add_u32(info, 0);		/* abbrev offset */
	strbuf_addch(info, 8);		/* address size */
	add_uleb(info, 1);
	add_u32(info, 0);		/* the .debug_line unit */
	add_u64(info, JIT_ELF_TEXT_OFFSET);
	add_u64(info, JIT_ELF_TEXT_OFFSET + f->size);
	set_u32(info, 0, (uint32_t)(info->len - 4));
}

static void build_id(const struct jit_function *f, uint8_t id[BUILD_ID_SIZE])
{
	uint64_t h[3];

	for (int i = 0; i < 3; i++) {
		h[i] = hash_add(hash_string(f->name, strlen(f->name)), (uint64_t)i);
		h[i] = hash_add(h[i], f->addr);
		h[i] = hash_add(h[i], hash_string((const char *)f->code, (size_t)f->size));
	}
	memcpy(id, h, BUILD_ID_SIZE);
}

static void add_build_id_note(struct image *im, const struct jit_function *f)
{
	struct { Elf64_Nhdr nhdr; char name[4]; uint8_t id[BUILD_ID_SIZE]; } note = {
		.nhdr = { .n_namesz = 4, .n_descsz = BUILD_ID_SIZE, .n_type = NT_GNU_BUILD_ID },
		.name = "GNU",
	};

	build_id(f, note.id);
	add_section(im, SEC_BUILD_ID, SHT_NOTE, SHF_ALLOC, 0, &note, sizeof(note), 4);
}

static void add_symbols(struct image *im, const struct jit_function *f)
{
	Elf64_Sym syms[2] = {
		{ 0 },
		{ .st_name = 1, .st_info = ELF64_ST_INFO(STB_GLOBAL, STT_FUNC),
		  .st_shndx = SEC_TEXT,	/* always there, first: its index is its enum */
		  .st_value = JIT_ELF_TEXT_OFFSET, .st_size = f->size },
	};
	struct strbuf names = STRBUF_INIT;

	strbuf_addch(&names, 0);
	strbuf_add(&names, f->name, strlen(f->name) + 1);
	add_section(im, SEC_SYMTAB, SHT_SYMTAB, 0, 0, syms, sizeof(syms), 8);
	im->shdr[SEC_SYMTAB].sh_entsize = sizeof(Elf64_Sym);
	im->shdr[SEC_SYMTAB].sh_info = 1;	/* the first global */
	add_section(im, SEC_STRTAB, SHT_STRTAB, 0, 0, names.buf, names.len, 1);
	strbuf_release(&names);
}

static void add_debug_sections(struct image *im, const struct jit_function *f)
{
	struct strbuf line = STRBUF_INIT, info = STRBUF_INIT, abbrev = STRBUF_INIT;

	build_debug_line(f, &line);
	build_debug_info(f, &info, &abbrev);
	add_section(im, SEC_DEBUG_LINE, SHT_PROGBITS, 0, 0, line.buf, line.len, 1);
	add_section(im, SEC_DEBUG_INFO, SHT_PROGBITS, 0, 0, info.buf, info.len, 1);
	add_section(im, SEC_DEBUG_ABBREV, SHT_PROGBITS, 0, 0, abbrev.buf, abbrev.len, 1);
	strbuf_release(&line);
	strbuf_release(&info);
	strbuf_release(&abbrev);
}

/* The section headers in image order, names and links resolved. */
static void add_section_headers(struct image *im, Elf64_Ehdr *eh)
{
	struct strbuf names = STRBUF_INIT;
	Elf64_Shdr out[NR_SECTIONS];
	uint32_t nr = 0, name_at[NR_SECTIONS];

	for (int s = 0; s < NR_SECTIONS; s++) {
		name_at[s] = (uint32_t)names.len;
		strbuf_add(&names, section_names[s], strlen(section_names[s]) + 1);
	}
	add_section(im, SEC_SHSTRTAB, SHT_STRTAB, 0, 0, names.buf, names.len, 1);
	strbuf_release(&names);
	im->present[SEC_NULL] = true;
	for (int s = 0; s < NR_SECTIONS; s++)
		if (im->present[s])
			im->shindex[s] = nr++;
	im->shdr[SEC_SYMTAB].sh_link = im->shindex[SEC_STRTAB];
	nr = 0;
	for (int s = 0; s < NR_SECTIONS; s++) {
		if (!im->present[s])
			continue;
		out[nr] = im->shdr[s];
		out[nr].sh_name = name_at[s];
		nr++;
	}
	pad_to(&im->sb, 8);
	eh->e_shoff = im->sb.len;
	eh->e_shnum = (uint16_t)nr;
	eh->e_shstrndx = (uint16_t)im->shindex[SEC_SHSTRTAB];
	strbuf_add(&im->sb, out, nr * sizeof(*out));
}

static void build_image(struct image *im, const struct jit_function *f)
{
	Elf64_Ehdr eh = {
		.e_ident = { ELFMAG0, ELFMAG1, ELFMAG2, ELFMAG3, ELFCLASS64,
			     __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ ? ELFDATA2LSB : ELFDATA2MSB,
			     EV_CURRENT },
		.e_type = ET_DYN, .e_machine = f->machine, .e_version = EV_CURRENT,
		.e_entry = JIT_ELF_TEXT_OFFSET, .e_phoff = sizeof(Elf64_Ehdr),
		.e_ehsize = sizeof(Elf64_Ehdr), .e_phentsize = sizeof(Elf64_Phdr), .e_phnum = 1,
		.e_shentsize = sizeof(Elf64_Shdr),
	};
	Elf64_Phdr ph = { .p_type = PT_LOAD, .p_flags = PF_R | PF_X, .p_align = 8 };
	uint64_t loaded_end;

	strbuf_grow(&im->sb, JIT_ELF_TEXT_OFFSET);
	strbuf_setlen(&im->sb, JIT_ELF_TEXT_OFFSET);
	memset(im->sb.buf, 0, JIT_ELF_TEXT_OFFSET);
	add_section(im, SEC_TEXT, SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR, JIT_ELF_TEXT_OFFSET,
		    f->code, (size_t)f->size, 16);
	loaded_end = JIT_ELF_TEXT_OFFSET + f->size;
	if (f->unwind && f->unwind_size) {
		uint64_t frames = f->unwind_size - f->eh_frame_hdr_size;
		uint64_t at = JIT_ELF_TEXT_OFFSET + ((f->size + 7) & ~7ull);

		add_section(im, SEC_EH_FRAME, SHT_PROGBITS, SHF_ALLOC, at, f->unwind,
			    (size_t)frames, 8);
		add_section(im, SEC_EH_FRAME_HDR, SHT_PROGBITS, SHF_ALLOC, at + frames,
			    f->unwind + frames, (size_t)f->eh_frame_hdr_size, 1);
		loaded_end = at + f->unwind_size;
	}
	ph.p_offset = ph.p_vaddr = ph.p_paddr = JIT_ELF_TEXT_OFFSET;
	ph.p_filesz = ph.p_memsz = loaded_end - JIT_ELF_TEXT_OFFSET;
	add_build_id_note(im, f);
	add_symbols(im, f);
	if (f->nr_lines)
		add_debug_sections(im, f);
	add_section_headers(im, &eh);
	memcpy(im->sb.buf, &eh, sizeof(eh));
	memcpy(im->sb.buf + sizeof(eh), &ph, sizeof(ph));
}

int jit_elf__write(const char *path, const struct jit_function *f, char **err)
{
	struct image im = { .sb = STRBUF_INIT };
	int fd, rc = 0;

	build_image(&im, f);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || write(fd, im.sb.buf, im.sb.len) != (ssize_t)im.sb.len) {
		*err = xasprintf("%s: %s", path, strerror(errno));
		rc = -1;
	}
	if (fd >= 0 && close(fd) && !rc) {
		*err = xasprintf("%s: %s", path, strerror(errno));
		rc = -1;
	}
	strbuf_release(&im.sb);
	return rc;
}
