/* dwarf-lines: a unit's line table from .debug_line, compact (see the
 * header for what libdw-compatible means here). */
#include "core/symbols/dwarf-lines.h"
#include "util/util.h"

#include <dwarf.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>

struct cursor {
	const uint8_t *p, *end;
	bool bad;		/* read past the end */
};

static bool has(struct cursor *c, size_t n)
{
	if (c->bad || (size_t)(c->end - c->p) < n)
		c->bad = true;
	return !c->bad;
}

static uint64_t read_fixed(struct cursor *c, unsigned size)
{
	uint64_t v = 0;

	if (!has(c, size) || size > 8)
		return 0;
	for (unsigned i = 0; i < size; i++)	/* little-endian: checked by the caller */
		v |= (uint64_t)c->p[i] << (8 * i);
	c->p += size;
	return v;
}

static uint64_t read_uleb(struct cursor *c)
{
	uint64_t v = 0;
	unsigned shift = 0;

	while (has(c, 1)) {
		uint8_t b = *c->p++;

		if (shift < 64)
			v |= (uint64_t)(b & 0x7f) << shift;
		shift += 7;
		if (!(b & 0x80))
			return v;
	}
	return 0;
}

static int64_t read_sleb(struct cursor *c)
{
	uint64_t v = 0;
	unsigned shift = 0;
	uint8_t b = 0;

	while (has(c, 1)) {
		b = *c->p++;
		if (shift < 64)
			v |= (uint64_t)(b & 0x7f) << shift;
		shift += 7;
		if (!(b & 0x80))
			break;
	}
	if (shift < 64 && (b & 0x40))
		v |= ~(uint64_t)0 << shift;
	return (int64_t)v;
}

static const char *read_cstr(struct cursor *c)
{
	const uint8_t *nul = c->bad ? NULL : memchr(c->p, 0, (size_t)(c->end - c->p));
	const char *s = (const char *)c->p;

	if (!nul) {
		c->bad = true;
		return NULL;
	}
	c->p = nul + 1;
	return s;
}

struct section {
	const uint8_t *data;
	size_t size;
};

struct sections {
	struct section line, str, line_str;
};

static bool read_sections(Dwarf *dw, struct sections *s)
{
	Elf *elf = dwarf_getelf(dw);
	const char *ident = elf ? elf_getident(elf, NULL) : NULL;
	Elf_Scn *scn = NULL;
	size_t shstrndx;

	memset(s, 0, sizeof(*s));
	if (!ident || ident[EI_DATA] != ELFDATA2LSB || elf_getshdrstrndx(elf, &shstrndx))
		return false;
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr shdr;
		const char *name;
		struct section *to = NULL;
		Elf_Data *data;

		if (!gelf_getshdr(scn, &shdr) || shdr.sh_type == SHT_NOBITS ||
		    !(name = elf_strptr(elf, shstrndx, shdr.sh_name)))
			continue;
		if (!strcmp(name, ".debug_line"))
			to = &s->line;
		else if (!strcmp(name, ".debug_str"))
			to = &s->str;
		else if (!strcmp(name, ".debug_line_str"))
			to = &s->line_str;
		/* libdw inflated compressed sections when it opened the file */
		if (to && (data = elf_getdata(scn, NULL)) && data->d_buf) {
			to->data = data->d_buf;
			to->size = data->d_size;
		}
	}
	return s->line.data != NULL;
}

static const char *section_str(const struct section *s, uint64_t off)
{
	if (!s->data || off >= s->size || !memchr(s->data + off, 0, s->size - off))
		return NULL;
	return (const char *)s->data + off;
}

struct header {
	unsigned version, offset_size, address_size;
	unsigned min_inst_length, max_ops, line_range, opcode_base;
	int line_base;
	bool default_is_stmt;
	const uint8_t *opcode_lengths;	/* [opcode_base - 1] */
	const uint8_t *program;		/* where the file lists end */
	const char *comp_dir;
	const struct sections *sections;
};

/* A DWARF 5 entry's path or index, from the forms the header lists;
 * false for a form this reader leaves to libdw. */
static bool read_form(struct cursor *c, const struct header *h, uint64_t form,
		      const char **str, uint64_t *num)
{
	switch (form) {
	case DW_FORM_string:
		*str = read_cstr(c);
		return true;
	case DW_FORM_line_strp:
		*str = section_str(&h->sections->line_str, read_fixed(c, h->offset_size));
		return *str != NULL;
	case DW_FORM_strp:
		*str = section_str(&h->sections->str, read_fixed(c, h->offset_size));
		return *str != NULL;
	case DW_FORM_udata:
		*num = read_uleb(c);
		return true;
	case DW_FORM_data1:
	case DW_FORM_data2:
	case DW_FORM_data4:
	case DW_FORM_data8:
		*num = read_fixed(c, form == DW_FORM_data1 ? 1 : form == DW_FORM_data2 ? 2 :
				     form == DW_FORM_data4 ? 4 : 8);
		return true;
	case DW_FORM_data16:
		c->p += has(c, 16) ? 16 : 0;
		return true;
	case DW_FORM_block:
		*num = read_uleb(c);
		if (has(c, *num))
			c->p += *num;
		return true;
	default:
		return false;
	}
}

/* A DWARF 5 directory or file list: each entry's path and directory. */
static bool read_entries(struct cursor *c, const struct header *h, const char ***paths,
			 uint64_t **dirs, size_t *nr)
{
	uint64_t formats[2 * 16];
	unsigned nr_formats = (unsigned)read_fixed(c, 1);
	bool have_path = false;

	if (nr_formats > 16)
		return false;
	for (unsigned i = 0; i < 2 * nr_formats; i++)
		formats[i] = read_uleb(c);
	*nr = read_uleb(c);
	if (c->bad || *nr > (size_t)(c->end - c->p))
		return false;
	*paths = xcalloc(*nr + 1, sizeof(**paths));
	*dirs = xcalloc(*nr + 1, sizeof(**dirs));
	for (size_t e = 0; e < *nr; e++) {
		for (unsigned i = 0; i < nr_formats; i++) {
			const char *str = NULL;
			uint64_t num = 0;

			if (!read_form(c, h, formats[2 * i + 1], &str, &num))
				return false;
			if (formats[2 * i] == DW_LNCT_path) {
				(*paths)[e] = str;
				have_path = true;
			} else if (formats[2 * i] == DW_LNCT_directory_index) {
				(*dirs)[e] = num;
			}
		}
	}
	return !c->bad && (have_path || !*nr);
}

static char *join(const char *dir, const char *name)
{
	return name[0] == '/' ? xstrdup(name) : xasprintf("%s/%s", dir, name);
}

/* The file names: entry 0 is libdw's "???" before DWARF 5, the unit's
 * own entry from 5 on; a relative name joins its directory. */
static bool read_files(struct cursor *c, const struct header *h, struct dwarf_lines *dl)
{
	const char **dir_paths = NULL, **file_paths = NULL;
	uint64_t *dir_index = NULL, *file_dirs = NULL;
	size_t nr_dirs = 0, nr_files = 0;
	bool ok = false;

	if (h->version >= 5) {
		if (!read_entries(c, h, &dir_paths, &dir_index, &nr_dirs) ||
		    !read_entries(c, h, &file_paths, &file_dirs, &nr_files))
			goto out;
		dl->files = xcalloc(nr_files ? nr_files : 1, sizeof(*dl->files));
		dl->nr_files = nr_files ? nr_files : 1;
		if (!nr_files)
			dl->files[0] = xstrdup("???");
		for (size_t i = 0; i < nr_files; i++) {
			if (!file_paths[i] || file_dirs[i] >= nr_dirs || !dir_paths[file_dirs[i]])
				goto out;
			dl->files[i] = join(dir_paths[file_dirs[i]], file_paths[i]);
		}
		ok = true;
		goto out;
	}
	dir_paths = xcalloc(1, sizeof(*dir_paths));
	dir_paths[nr_dirs++] = h->comp_dir;
	while (has(c, 1) && *c->p) {
		dir_paths = xrealloc(dir_paths, (nr_dirs + 1) * sizeof(*dir_paths));
		dir_paths[nr_dirs++] = read_cstr(c);
	}
	c->p++;
	dl->files = xcalloc(1, sizeof(*dl->files));
	dl->files[dl->nr_files++] = xstrdup("???");
	while (has(c, 1) && *c->p) {
		const char *name = read_cstr(c);
		uint64_t dir = read_uleb(c);

		read_uleb(c);	/* mtime */
		read_uleb(c);	/* length */
		if (c->bad || dir >= nr_dirs || !dir_paths[dir])
			goto out;
		dl->files = xrealloc(dl->files, (dl->nr_files + 1) * sizeof(*dl->files));
		dl->files[dl->nr_files++] = join(dir_paths[dir], name);
	}
	c->p++;
	ok = !c->bad;
out:
	free(dir_paths);
	free(dir_index);
	free(file_paths);
	free(file_dirs);
	return ok;
}

struct program_state {
	uint64_t addr;
	uint64_t file;
	int64_t line;
	unsigned op_index;
};

static void reset(struct program_state *s)
{
	*s = (struct program_state){ .file = 1, .line = 1 };
}

static void advance(struct program_state *s, const struct header *h, uint64_t ops)
{
	s->addr += h->min_inst_length * ((s->op_index + ops) / h->max_ops);
	s->op_index = (unsigned)((s->op_index + ops) % h->max_ops);
}

static bool add_row(struct dwarf_lines *dl, size_t *alloc, const struct program_state *s,
		    bool end)
{
	if (s->line < INT32_MIN || s->line > INT32_MAX || s->file > UINT16_MAX)
		return false;
	if (dl->nr_rows == *alloc) {
		*alloc = *alloc ? *alloc * 2 : 256;
		dl->rows = xrealloc(dl->rows, *alloc * sizeof(*dl->rows));
	}
	dl->rows[dl->nr_rows++] = (struct dwarf_line_row){
		.addr = s->addr, .line = (int32_t)s->line, .file = (uint16_t)s->file,
		.end_sequence = end,
	};
	return true;
}

/* The rows in program order; false where libdw's reading differs or fails. */
static bool run_program(struct cursor *c, const struct header *h, struct dwarf_lines *dl)
{
	struct program_state s;
	size_t alloc = 0;

	reset(&s);
	while (c->p < c->end && !c->bad) {
		unsigned op = *c->p++;

		if (op >= h->opcode_base) {
			unsigned adj = op - h->opcode_base;

			s.line += h->line_base + (int)(adj % h->line_range);
			advance(&s, h, adj / h->line_range);
			if (!add_row(dl, &alloc, &s, false))
				return false;
		} else if (op == 0) {
			unsigned len = (unsigned)read_fixed(c, 1), sub;

			if (!len || len >= 0x80 || !has(c, len))
				return false;
			sub = *c->p++;
			if (sub == DW_LNE_end_sequence) {
				if (!add_row(dl, &alloc, &s, true))
					return false;
				reset(&s);
			} else if (sub == DW_LNE_set_address) {
				if (len - 1 != h->address_size)
					return false;
				s.addr = read_fixed(c, h->address_size);
				s.op_index = 0;
			} else if (sub == DW_LNE_set_discriminator) {
				read_uleb(c);
			} else if (sub == DW_LNE_define_file) {
				return false;
			} else {
				c->p += len - 1;
			}
		} else if (op <= DW_LNS_set_isa) {
			static const uint8_t args[DW_LNS_set_isa + 1] = {
				[DW_LNS_advance_pc] = 1, [DW_LNS_advance_line] = 1,
				[DW_LNS_set_file] = 1, [DW_LNS_set_column] = 1,
				[DW_LNS_fixed_advance_pc] = 1, [DW_LNS_set_isa] = 1,
			};

			if (h->opcode_lengths[op - 1] != args[op])
				return false;
			switch (op) {
			case DW_LNS_copy:
				if (!add_row(dl, &alloc, &s, false))
					return false;
				break;
			case DW_LNS_advance_pc:
				advance(&s, h, read_uleb(c));
				break;
			case DW_LNS_advance_line:
				s.line += read_sleb(c);
				break;
			case DW_LNS_set_file:
				s.file = read_uleb(c);
				break;
			case DW_LNS_const_add_pc:
				advance(&s, h, (255 - h->opcode_base) / h->line_range);
				break;
			case DW_LNS_fixed_advance_pc:
				s.addr += read_fixed(c, 2);
				s.op_index = 0;
				break;
			case DW_LNS_set_column:
			case DW_LNS_set_isa:
				read_uleb(c);
				break;
			default:	/* negate_stmt, basic_block, prologue/epilogue marks */
				break;
			}
		} else {
			for (unsigned i = 0; i < h->opcode_lengths[op - 1]; i++)
				read_uleb(c);
		}
	}
	return !c->bad;
}

/* libdw's order: by address, an end of sequence first, else as read */
static int row_order(const void *a, const void *b, void *rows)
{
	const struct dwarf_line_row *x = (const struct dwarf_line_row *)rows + *(const uint32_t *)a;
	const struct dwarf_line_row *y = (const struct dwarf_line_row *)rows + *(const uint32_t *)b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	if (x->end_sequence != y->end_sequence)
		return x->end_sequence ? -1 : 1;
	return *(const uint32_t *)a < *(const uint32_t *)b ? -1 : 1;
}

static void sort_like_libdw(struct dwarf_lines *dl)
{
	uint32_t *order;
	struct dwarf_line_row *sorted;
	bool in_order = true;

	for (size_t i = 1; i < dl->nr_rows && in_order; i++) {
		const struct dwarf_line_row *x = &dl->rows[i - 1], *y = &dl->rows[i];

		in_order = x->addr < y->addr ||
			   (x->addr == y->addr && (x->end_sequence || !y->end_sequence));
	}
	if (in_order) {
		/* the doubling's spare room back */
		dl->rows = xrealloc(dl->rows, (dl->nr_rows ? dl->nr_rows : 1) * sizeof(*dl->rows));
		goto last;
	}
	order = xmalloc(dl->nr_rows * sizeof(*order));
	for (size_t i = 0; i < dl->nr_rows; i++)
		order[i] = (uint32_t)i;
	qsort_r(order, dl->nr_rows, sizeof(*order), row_order, dl->rows);
	sorted = xmalloc(dl->nr_rows * sizeof(*sorted));
	for (size_t i = 0; i < dl->nr_rows; i++)
		sorted[i] = dl->rows[order[i]];
	free(order);
	free(dl->rows);
	dl->rows = sorted;
last:	/* libdw makes the highest row end a sequence, as lookups need */
	if (dl->nr_rows)
		dl->rows[dl->nr_rows - 1].end_sequence = true;
}

static bool read_header(struct cursor *c, struct header *h)
{
	uint64_t unit_length = read_fixed(c, 4), header_length;
	const uint8_t *program;

	h->offset_size = 4;
	if (unit_length == 0xffffffff) {
		unit_length = read_fixed(c, 8);
		h->offset_size = 8;
	}
	if (!has(c, unit_length))
		return false;
	c->end = c->p + unit_length;
	h->version = (unsigned)read_fixed(c, 2);
	if (h->version < 2 || h->version > 5)
		return false;
	if (h->version >= 5 && (read_fixed(c, 1) != h->address_size || read_fixed(c, 1) != 0))
		return false;
	header_length = read_fixed(c, h->offset_size);
	if (!has(c, header_length))
		return false;
	program = c->p + header_length;
	h->min_inst_length = (unsigned)read_fixed(c, 1);
	h->max_ops = h->version >= 4 ? (unsigned)read_fixed(c, 1) : 1;
	h->default_is_stmt = read_fixed(c, 1) != 0;
	h->line_base = (int8_t)read_fixed(c, 1);
	h->line_range = (unsigned)read_fixed(c, 1);
	h->opcode_base = (unsigned)read_fixed(c, 1);
	h->opcode_lengths = c->p;
	if (!h->max_ops || !h->line_range || !h->opcode_base || !has(c, h->opcode_base - 1))
		return false;
	c->p += h->opcode_base - 1;
	h->program = program;
	return program <= c->end;
}

struct dwarf_lines *dwarf_lines__read(Dwarf_Die *cu)
{
	Dwarf_Attribute attr;
	Dwarf_Word offset;
	Dwarf_Die cu_die;
	struct sections sections;
	struct header h = { .sections = &sections };
	struct dwarf_lines *dl;
	struct cursor c;
	uint8_t address_size, offset_size;

	if (!dwarf_attr(cu, DW_AT_stmt_list, &attr) || dwarf_formudata(&attr, &offset) ||
	    !dwarf_diecu(cu, &cu_die, &address_size, &offset_size) ||
	    !read_sections(dwarf_cu_getdwarf(cu->cu), &sections) || offset >= sections.line.size)
		return dwarf_lines__from_libdw(cu);
	h.address_size = address_size;
	h.comp_dir = dwarf_formstring(dwarf_attr(cu, DW_AT_comp_dir, &attr));
	c = (struct cursor){ .p = sections.line.data + offset,
			    .end = sections.line.data + sections.line.size };
	dl = xcalloc(1, sizeof(*dl));
	if (read_header(&c, &h) && read_files(&c, &h, dl) && c.p == h.program &&
	    run_program(&c, &h, dl)) {
		sort_like_libdw(dl);
		return dl;
	}
	dwarf_lines__delete(dl);
	return dwarf_lines__from_libdw(cu);
}

struct dwarf_lines *dwarf_lines__from_libdw(Dwarf_Die *cu)
{
	Dwarf_Lines *lines;
	Dwarf_Files *files;
	size_t nr_rows, nr_files;
	struct dwarf_lines *dl;

	if (dwarf_getsrclines(cu, &lines, &nr_rows) || dwarf_getsrcfiles(cu, &files, &nr_files))
		return NULL;
	dl = xcalloc(1, sizeof(*dl));
	dl->rows = xcalloc(nr_rows ? nr_rows : 1, sizeof(*dl->rows));
	dl->files = xcalloc(nr_files ? nr_files : 1, sizeof(*dl->files));
	for (size_t i = 0; i < nr_rows; i++) {
		Dwarf_Line *line = dwarf_onesrcline(lines, i);
		struct dwarf_line_row *row = &dl->rows[dl->nr_rows++];
		Dwarf_Files *unused;
		size_t idx = 0;
		int lineno = 0;

		dwarf_lineaddr(line, &row->addr);
		dwarf_lineno(line, &lineno);
		dwarf_lineendsequence(line, &row->end_sequence);
		dwarf_line_file(line, &unused, &idx);
		row->line = lineno;
		row->file = (uint16_t)(idx > UINT16_MAX ? UINT16_MAX : idx);
	}
	for (size_t i = 0; i < nr_files; i++) {
		const char *name = dwarf_filesrc(files, i, NULL, NULL);

		dl->files[dl->nr_files++] = name ? xstrdup(name) : NULL;
	}
	return dl;
}

void dwarf_lines__delete(struct dwarf_lines *dl)
{
	if (!dl)
		return;
	for (size_t i = 0; i < dl->nr_files; i++)
		free(dl->files[i]);
	free(dl->files);
	free(dl->rows);
	free(dl);
}

const struct dwarf_line_row *dwarf_lines__find(const struct dwarf_lines *dl, Dwarf_Addr addr)
{
	size_t lo = 0, hi = dl->nr_rows;
	const struct dwarf_line_row *row;

	while (lo < hi) {	/* the first row above addr */
		size_t mid = lo + (hi - lo) / 2;

		if (dl->rows[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return NULL;
	row = &dl->rows[lo - 1];
	return row->end_sequence ? NULL : row;
}

const char *dwarf_lines__file(const struct dwarf_lines *dl, size_t idx)
{
	return idx < dl->nr_files ? dl->files[idx] : NULL;
}
