/* disasm: objdump's disassembly text of an address range, in process (see
 * disasm.h).  The rules below are objdump 2.40's, which perf 6.1 parses:
 * how it orders symbols to name an address, when it prints a symbol's
 * header, the "file:line" and "function():" markers of -l and the source
 * lines of -S, the raw bytes and the runs of zeroes it elides.
 */
#include "core/symbols/disasm.h"
#include "core/symbols/dwarf-funcs.h"
#include "util/strbuf.h"
#include "util/util.h"

#define PACKAGE "pcl"	/* bfd.h insists on a configured package */
#define PACKAGE_VERSION "0"
#include <bfd.h>
#include <dis-asm.h>
#include <libiberty/demangle.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* libopcodes, and libbfd with it, are opened on the first disassembly,
 * not linked: mapping and relocating them cost every other command 1.5
 * MB of memory.  OPCODES_SONAME comes from the Makefile. */
#ifndef OPCODES_SONAME
#define OPCODES_SONAME "libopcodes.so"
#endif
#define BINUTILS_FUNCTIONS(X) X(bfd_check_format) X(bfd_close) X(bfd_demangle) \
	X(bfd_errmsg) X(bfd_follow_build_id_debuglink) X(bfd_follow_gnu_debuglink) \
	X(bfd_get_arch) X(bfd_get_error) X(bfd_get_mach) X(bfd_init) \
	X(bfd_malloc_and_get_section) X(bfd_openr) X(bfd_printable_arch_mach) \
	X(bfd_sprintf_vma) X(disassemble_free_target) X(disassemble_init_for_target) \
	X(disassembler) X(init_disassemble_info)
#define BINUTILS_POINTER(name) __typeof__(name) *name;

static struct {
	BINUTILS_FUNCTIONS(BINUTILS_POINTER)
	asection *std_section;	/* _bfd_std_section, of bfd.h's section macros */
} binutils;

const char *disasm_unavailable(void)
{
#define BINUTILS_NAME(name) #name,
#define BINUTILS_SLOT(name) (void **)&binutils.name,
	static const char *const names[] = {
		BINUTILS_FUNCTIONS(BINUTILS_NAME) "_bfd_std_section"
	};
	void **const slots[] = {
		BINUTILS_FUNCTIONS(BINUTILS_SLOT) (void **)&binutils.std_section
	};
	static void *lib;
	static bool tried;
	static char *why;

	if (tried)
		return why;
	tried = true;
	why = dl_load_symbols(OPCODES_SONAME, "libopcodes (the GNU disassembler; Debian "
			      "package libbinutils)", names, slots, ARRAY_SIZE(names), &lib);
	if (!why)
		binutils.bfd_init();
	return why;
}

/* Every call below goes through the pointers loaded. */
#define bfd_check_format (*binutils.bfd_check_format)
#define bfd_close (*binutils.bfd_close)
#define bfd_demangle (*binutils.bfd_demangle)
#define bfd_errmsg (*binutils.bfd_errmsg)
#define bfd_follow_build_id_debuglink (*binutils.bfd_follow_build_id_debuglink)
#define bfd_follow_gnu_debuglink (*binutils.bfd_follow_gnu_debuglink)
#define bfd_get_arch (*binutils.bfd_get_arch)
#define bfd_get_error (*binutils.bfd_get_error)
#define bfd_get_mach (*binutils.bfd_get_mach)
#define bfd_malloc_and_get_section (*binutils.bfd_malloc_and_get_section)
#define bfd_openr (*binutils.bfd_openr)
#define bfd_printable_arch_mach (*binutils.bfd_printable_arch_mach)
#define bfd_sprintf_vma (*binutils.bfd_sprintf_vma)
#define disassemble_free_target (*binutils.disassemble_free_target)
#define disassemble_init_for_target (*binutils.disassemble_init_for_target)
#define disassembler (*binutils.disassembler)
#define init_disassemble_info (*binutils.init_disassemble_info)
#define _bfd_std_section (binutils.std_section)
/* bfd.h's inline tests, whose bodies name the linked array */
#define bfd_is_und_section(sec) ((sec) == bfd_und_section_ptr)
#define bfd_is_abs_section(sec) ((sec) == bfd_abs_section_ptr)

/* The leading part of bfd 2.40's elf_symbol_type (elf-bfd.h, not
 * installed): objdump breaks ties between symbols by their ELF size. */
struct elf_symbol_head {
	asymbol symbol;
	bfd_vma st_value;
	bfd_vma st_size;
};

#define CONTEXT_LINES 5		/* objdump -S shows this much before a new file's line */
#define SKIP_ZEROES 8		/* a run of zero bytes this long is shown as "..." */
#define SKIP_ZEROES_AT_END 3	/* ... and a shorter one ending the range too */

struct source_file {
	char *path;
	char *text;
	char **lines;
	unsigned nr_lines;
	unsigned max_printed, last_line;
};

struct disasm_file {
	bfd *abfd;
	bfd *debug;		/* the separate debug file, whose symbols objdump adds */
	struct dwarf_funcs *funcs;	/* bfd's ties between functions, settled */
	bool funcs_tried;
	asymbol **syms, **dynsyms, *synth;
	long nr_syms, nr_dynsyms, nr_synth;
	asymbol **sorted;	/* the symbols that name addresses, objdump's order */
	long nr_sorted;
	arelent **dynrels;	/* by address */
	long nr_dynrels;
	disassembler_ftype disassemble;
	struct disassemble_info info;
	struct strbuf insn;	/* the current instruction's text */
	/* state of one dump, as of one objdump run */
	struct strbuf *out;
	bool require_sec;
	char *prev_function;
	unsigned prev_line, prev_discriminator;
	struct source_file *sources;
	size_t nr_sources;
};

static int insn_vprintf(struct disasm_file *f, const char *fmt, va_list ap)
{
	size_t before = f->insn.len;

	strbuf_vaddf(&f->insn, fmt, ap);
	return (int)(f->insn.len - before);
}

static int insn_printf(void *stream, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = insn_vprintf(stream, fmt, ap);
	va_end(ap);
	return n;
}

/* styles are for colours, which perf's objdump text has none of */
static int insn_styled_printf(void *stream, enum disassembler_style style, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = insn_vprintf(stream, fmt, ap);
	va_end(ap);
	return n;
}

static bfd_vma symbol_size(const asymbol *s)
{
	if (s->flags & (BSF_SECTION_SYM | BSF_SYNTHETIC) ||
	    bfd_get_flavour(bfd_asymbol_bfd(s)) != bfd_target_elf_flavour)
		return 0;
	return ((const struct elf_symbol_head *)(const void *)s)->st_size;
}

static bool names_object_file(const asymbol *s, const char *name)
{
	size_t len = strlen(name);

	return (s->flags & BSF_FILE) ||
	       (len > 2 && name[len - 2] == '.' && (name[len - 1] == 'o' || name[len - 1] == 'a'));
}

static bool compiler_marker(const char *name)
{
	return strstr(name, "gnu_compiled") || strstr(name, "gcc2_compiled");
}

/* Negative when a comes first: which of two symbols at one address
 * objdump prefers to name it with. */
static int prefer(bool a, bool b)
{
	return a == b ? 0 : a ? -1 : 1;
}

static int symbol_order(const void *pa, const void *pb)
{
	const asymbol *a = *(asymbol *const *)pa, *b = *(asymbol *const *)pb;
	const char *an = bfd_asymbol_name(a), *bn = bfd_asymbol_name(b);
	bfd_vma av = bfd_asymbol_value(a), bv = bfd_asymbol_value(b);
	int c;

	if (av != bv)
		return av < bv ? -1 : 1;
	if ((c = prefer(!compiler_marker(an), !compiler_marker(bn))) ||
	    (c = prefer(!names_object_file(a, an), !names_object_file(b, bn))) ||
	    (c = prefer(!(a->flags & BSF_DEBUGGING), !(b->flags & BSF_DEBUGGING))) ||
	    (c = prefer(!(a->flags & BSF_SECTION_SYM), !(b->flags & BSF_SECTION_SYM))) ||
	    (c = prefer(a->flags & BSF_FUNCTION, b->flags & BSF_FUNCTION)) ||
	    (c = prefer(a->flags & BSF_OBJECT, b->flags & BSF_OBJECT)) ||
	    (c = prefer(!(a->flags & BSF_LOCAL), !(b->flags & BSF_LOCAL))) ||
	    (c = prefer(a->flags & BSF_GLOBAL, b->flags & BSF_GLOBAL)))
		return c;
	if (symbol_size(a) != symbol_size(b))
		return symbol_size(a) > symbol_size(b) ? -1 : 1;
	if ((c = prefer(an[0] != '.', bn[0] != '.')))
		return c;
	return strcmp(an, bn);
}

static int reloc_order(const void *pa, const void *pb)
{
	const arelent *a = *(arelent *const *)pa, *b = *(arelent *const *)pb;

	if (a->address != b->address)
		return a->address < b->address ? -1 : 1;
	return a < b ? -1 : a > b;
}

static asymbol **read_symbols(bfd *abfd, bool dynamic, long *nr)
{
	long size = dynamic ? bfd_get_dynamic_symtab_upper_bound(abfd) :
			      bfd_get_symtab_upper_bound(abfd);
	asymbol **syms;

	*nr = 0;
	if (size <= 0)
		return NULL;
	syms = xmalloc((size_t)size);
	*nr = dynamic ? bfd_canonicalize_dynamic_symtab(abfd, syms) :
			bfd_canonicalize_symtab(abfd, syms);
	if (*nr < 0)
		*nr = 0;
	return syms;
}

/* The separate debug file bfd finds for a stripped file: by its debug
 * link, else by build id; NULL when none. */
static char *debug_file_path(bfd *abfd)
{
	char *path = bfd_follow_gnu_debuglink(abfd, NULL);

	return path ? path : bfd_follow_build_id_debuglink(abfd, NULL);
}

/* With -S objdump follows a stripped file's debug link (or build id) and
 * adds the debug file's symbols (locals included) to the file's own. */
static void add_debug_symbols(struct disasm_file *f)
{
	char *path = debug_file_path(f->abfd);
	asymbol **more;
	long nr;

	if (!path)
		return;
	f->debug = bfd_openr(path, NULL);
	free(path);
	if (!f->debug || !bfd_check_format(f->debug, bfd_object)) {
		if (f->debug)
			bfd_close(f->debug);
		f->debug = NULL;
		return;
	}
	more = read_symbols(f->debug, false, &nr);
	if (nr > 0) {
		f->syms = xrealloc(f->syms, (size_t)(f->nr_syms + nr + 1) * sizeof(*f->syms));
		memcpy(f->syms + f->nr_syms, more, (size_t)nr * sizeof(*more));
		f->nr_syms += nr;
		f->syms[f->nr_syms] = NULL;
	}
	free(more);
}

/* The symbols objdump keeps to name addresses with, then sorted. */
static void sort_symbols(struct disasm_file *f)
{
	asymbol **from = f->nr_syms ? f->syms : f->dynsyms;
	long nr = f->nr_syms ? f->nr_syms : f->nr_dynsyms;

	f->sorted = xmalloc((size_t)(nr + f->nr_synth + 1) * sizeof(*f->sorted));
	for (long i = 0; i < nr; i++) {
		asymbol *s = from[i];

		if (!s->name || !s->name[0] || (s->flags & (BSF_DEBUGGING | BSF_SECTION_SYM)) ||
		    bfd_is_und_section(s->section) || bfd_is_com_section(s->section))
			continue;
		f->sorted[f->nr_sorted++] = s;
	}
	for (long i = 0; i < f->nr_synth; i++)
		f->sorted[f->nr_sorted++] = &f->synth[i];
	qsort(f->sorted, (size_t)f->nr_sorted, sizeof(*f->sorted), symbol_order);
}

static void read_dynamic_relocs(struct disasm_file *f)
{
	long size = bfd_get_dynamic_reloc_upper_bound(f->abfd);

	if (size <= 0)
		return;
	f->dynrels = xmalloc((size_t)size);
	f->nr_dynrels = bfd_canonicalize_dynamic_reloc(f->abfd, f->dynrels, f->dynsyms);
	if (f->nr_dynrels <= 0) {
		f->nr_dynrels = 0;
		return;
	}
	qsort(f->dynrels, (size_t)f->nr_dynrels, sizeof(*f->dynrels), reloc_order);
}

static bool symbol_in_section(const struct disasm_file *f, long i, bool want_section)
{
	const asection *sym_sec = f->sorted[i]->section, *sec = f->info.section;

	if (!want_section)
		return true;
	/* by name: the symbol may come from a separate debug file */
	if (sym_sec->owner == sec->owner && sym_sec != sec)
		return false;
	return !strcmp(bfd_section_name(sym_sec), bfd_section_name(sec));
}

/* A dynamic relocation at vma names what a GOT slot holds. */
static asymbol *reloc_symbol_at(const struct disasm_file *f, bfd_vma vma)
{
	long lo = 0, hi = f->nr_dynrels;

	while (lo < hi) {	/* the first relocation at or after vma */
		long mid = lo + (hi - lo) / 2;

		if (f->dynrels[mid]->address < vma)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < f->nr_dynrels && f->dynrels[lo]->address == vma; lo++) {
		arelent *r = f->dynrels[lo];

		if (r->sym_ptr_ptr && *r->sym_ptr_ptr && !bfd_is_abs_section((*r->sym_ptr_ptr)->section))
			return *r->sym_ptr_ptr;
	}
	return NULL;
}

/* objdump's choice of a symbol to name vma with, and its index. */
static asymbol *symbol_for(struct disasm_file *f, bfd_vma vma, long *place)
{
	long lo = 0, hi = f->nr_sorted, at, end;
	const asection *sec = f->info.section;
	bool want_section;

	if (f->nr_sorted < 1)
		return NULL;
	while (lo + 1 < hi) {	/* the last symbol at or below vma, else the first */
		long mid = (lo + hi) / 2;
		bfd_vma v = bfd_asymbol_value(f->sorted[mid]);

		if (v > vma) {
			hi = mid;
		} else if (v < vma) {
			lo = mid;
		} else {
			lo = mid;
			break;
		}
	}
	at = lo;
	while (at > 0 && bfd_asymbol_value(f->sorted[at]) == bfd_asymbol_value(f->sorted[at - 1]))
		at--;
	/* of several at that address, one in the section being disassembled */
	for (end = at; end < hi && bfd_asymbol_value(f->sorted[end]) ==
				     bfd_asymbol_value(f->sorted[at]); end++) {
		if (symbol_in_section(f, end, true)) {
			if (place)
				*place = end;
			return f->sorted[end];
		}
	}
	want_section = f->require_sec ||
		       ((f->abfd->flags & HAS_RELOC) && vma >= bfd_section_vma(sec) &&
			vma < bfd_section_vma(sec) + bfd_section_size(sec));
	if (!symbol_in_section(f, at, want_section)) {
		long found = -1;

		/* the first fitting one of the closest address below */
		for (long i = end - 1; i >= 0; i--) {
			if (!symbol_in_section(f, i, want_section))
				continue;
			if (found >= 0 &&
			    bfd_asymbol_value(f->sorted[i]) != bfd_asymbol_value(f->sorted[found]))
				break;
			found = i;
		}
		for (long i = at + 1; found < 0 && i < f->nr_sorted; i++)
			if (symbol_in_section(f, i, want_section))
				found = i;
		if (found < 0)
			return NULL;
		at = found;
	}
	if (!want_section && f->nr_dynrels &&
	    f->dynrels[0]->address <= vma && f->dynrels[f->nr_dynrels - 1]->address >= vma &&
	    !(f->sorted[at]->flags & BSF_SYNTHETIC)) {
		asymbol *r = reloc_symbol_at(f, vma);

		if (r) {
			if (place)
				*place = at;
			return r;
		}
	}
	if (place)
		*place = at;
	return f->sorted[at];
}

static void print_hex(struct disasm_file *f, struct strbuf *sb, bfd_vma v, bool skip_zeroes)
{
	char buf[32];
	const char *p = buf;

	bfd_sprintf_vma(f->abfd, buf, v);
	if (skip_zeroes) {
		while (*p == '0')
			p++;
		if (!*p)
			p--;
	}
	strbuf_addstr(sb, p);
}

static void print_symbol_name(struct disasm_file *f, struct strbuf *sb, asymbol *sym)
{
	const char *name = bfd_asymbol_name(sym), *version = NULL;
	char *demangled = name[0] ? bfd_demangle(f->abfd, name, DMGL_ANSI | DMGL_PARAMS) : NULL;
	bool hidden = false;

	if (!(sym->flags & (BSF_SECTION_SYM | BSF_SYNTHETIC)))
		version = bfd_get_symbol_version_string(f->abfd, sym, true, &hidden);
	if (bfd_is_und_section(bfd_asymbol_section(sym)))
		hidden = true;
	strbuf_addstr(sb, demangled ? demangled : name);
	if (version && *version)
		strbuf_addf(sb, hidden ? "@%s" : "@@%s", version);
	free(demangled);
}

/* "VMA <sym+0x12>": an address as objdump names it. */
static void print_addr_with_sym(struct disasm_file *f, struct strbuf *sb, asymbol *sym,
				bfd_vma vma, bool skip_zeroes)
{
	const asection *sec = f->info.section;
	bfd_vma base = sym ? bfd_asymbol_value(sym) : bfd_section_vma(sec);

	print_hex(f, sb, vma, skip_zeroes);
	strbuf_addstr(sb, " <");
	if (sym)
		print_symbol_name(f, sb, sym);
	else
		strbuf_addstr(sb, bfd_section_name(sec));
	if (sym && (bfd_get_file_flags(f->abfd) & (EXEC_P | DYNAMIC)) &&
	    bfd_is_und_section(sym->section)) {
		/* an undefined symbol has no value to count from */
	} else if (base > vma) {
		strbuf_addstr(sb, "-0x");
		print_hex(f, sb, base - vma, true);
	} else if (vma > base) {
		strbuf_addstr(sb, "+0x");
		print_hex(f, sb, vma - base, true);
	}
	strbuf_addch(sb, '>');
}

static void print_address(bfd_vma vma, struct disassemble_info *info)
{
	struct disasm_file *f = info->application_data;

	if (f->nr_sorted < 1) {
		strbuf_addstr(&f->insn, "0x");
		print_hex(f, &f->insn, vma, true);
		return;
	}
	print_addr_with_sym(f, &f->insn, symbol_for(f, vma, NULL), vma, true);
}

struct disasm_file *disasm_file__open(const char *path, bool source, char **err)
{
	struct disasm_file *f;
	bfd *abfd;

	if (disasm_unavailable()) {
		*err = xstrdup(disasm_unavailable());
		return NULL;
	}
	abfd = bfd_openr(path, NULL);
	if (!abfd || !bfd_check_format(abfd, bfd_object)) {
		*err = xasprintf("%s: %s", path, bfd_errmsg(bfd_get_error()));
		if (abfd)
			bfd_close(abfd);
		return NULL;
	}
	f = xcalloc(1, sizeof(*f));
	f->abfd = abfd;
	f->syms = read_symbols(abfd, false, &f->nr_syms);
	if (source)
		add_debug_symbols(f);
	if (bfd_get_dynamic_symtab_upper_bound(abfd) > 0)
		f->dynsyms = read_symbols(abfd, true, &f->nr_dynsyms);
	f->nr_synth = bfd_get_synthetic_symtab(abfd, f->nr_syms, f->syms, f->nr_dynsyms,
					       f->dynsyms, &f->synth);
	if (f->nr_synth < 0)
		f->nr_synth = 0;
	sort_symbols(f);
	read_dynamic_relocs(f);
	f->disassemble = disassembler(bfd_get_arch(abfd), bfd_big_endian(abfd),
				      bfd_get_mach(abfd), abfd);
	if (!f->disassemble) {
		*err = xasprintf("%s: can't disassemble for architecture %s", path,
				 bfd_printable_arch_mach(bfd_get_arch(abfd), 0));
		disasm_file__close(f);
		return NULL;
	}
	return f;
}

static void forget_sources(struct disasm_file *f)
{
	for (size_t i = 0; i < f->nr_sources; i++) {
		free(f->sources[i].path);
		free(f->sources[i].text);
		free(f->sources[i].lines);
	}
	free(f->sources);
	f->sources = NULL;
	f->nr_sources = 0;
	free(f->prev_function);
	f->prev_function = NULL;
	f->prev_line = f->prev_discriminator = 0;
}

void disasm_file__close(struct disasm_file *f)
{
	if (!f)
		return;
	forget_sources(f);
	free(f->syms);
	free(f->dynsyms);
	free(f->synth);
	free(f->sorted);
	free(f->dynrels);
	strbuf_release(&f->insn);
	dwarf_funcs__close(f->funcs);
	bfd_close(f->abfd);
	if (f->debug)
		bfd_close(f->debug);
	free(f);
}

/* A source file's lines, read once per dump; NULL when unreadable (and
 * then tried again, as objdump does). */
static struct source_file *source_file(struct disasm_file *f, const char *path)
{
	struct source_file *s;
	char *text;

	for (size_t i = 0; i < f->nr_sources; i++)
		if (!strcmp(f->sources[i].path, path))
			return &f->sources[i];
	text = read_file_str(path);
	if (!text)
		return NULL;
	f->sources = xrealloc(f->sources, (f->nr_sources + 1) * sizeof(*f->sources));
	s = &f->sources[f->nr_sources++];
	*s = (struct source_file){ .path = xstrdup(path), .text = text };
	for (const char *p = text; *p; p++)
		s->nr_lines += *p == '\n';
	s->lines = xmalloc((s->nr_lines + 1) * sizeof(*s->lines));
	s->nr_lines = 0;
	for (char *p = text; *p;) {
		char *nl = strchr(p, '\n');

		s->lines[s->nr_lines++] = p;
		if (!nl)
			break;
		*nl = '\0';
		p = nl + 1;
	}
	return s;
}

/* --prefix: where a source file is read from, as objdump finds it. */
static char *relocated_source(const struct disasm_opts *o, const char *path)
{
	const char *rest = path;
	int level = 0;

	for (const char *p = path + 1; *p && level < o->prefix_strip; p++)
		if (*p == '/') {
			rest = p;
			level++;
		}
	return xasprintf("%s%s", o->prefix, rest);
}

static void show_source(struct disasm_file *f, const char *path, unsigned line)
{
	struct source_file *s = source_file(f, path);
	unsigned from;

	if (!s || line == s->last_line)
		return;
	from = line > CONTEXT_LINES ? line - CONTEXT_LINES : 1;
	if (s->max_printed >= from)
		from = s->max_printed < line ? s->max_printed + 1 : line;
	for (unsigned l = from; l <= line && l <= s->nr_lines; l++) {
		strbuf_addstr(f->out, s->lines[l - 1]);
		strbuf_addch(f->out, '\n');
	}
	if (s->max_printed < line)
		s->max_printed = line;
	s->last_line = line;
}

/* The function DWARF names for offset, as a fresh objdump would. */
static const char *function_at(struct disasm_file *f, bfd_vma offset, const char *bfd_choice)
{
	if (!f->funcs_tried) {
		f->funcs_tried = true;
		f->funcs = dwarf_funcs__open(bfd_get_filename(f->abfd));
		if (!f->funcs) {
			char *path = debug_file_path(f->abfd);

			f->funcs = path ? dwarf_funcs__open(path) : NULL;
			free(path);
		}
	}
	return dwarf_funcs__resolve_tie(f->funcs, offset, bfd_choice);
}

/* objdump's -l markers and -S source before the instruction at offset. */
static void show_line(struct disasm_file *f, const struct disasm_opts *o, asection *sec,
		      bfd_vma offset)
{
	const char *file = NULL, *function = NULL;
	unsigned line = 0, discriminator = 0;
	bool new_function;

	if (!bfd_find_nearest_line_discriminator(f->abfd, sec, f->syms, offset, &file, &function,
						 &line, &discriminator))
		return;
	if (file && !*file)
		file = NULL;
	if (function && !*function)
		function = NULL;
	function = function_at(f, bfd_section_vma(sec) + offset, function);
	new_function = function && (!f->prev_function || strcmp(function, f->prev_function));
	if (new_function) {
		char *demangled = bfd_demangle(f->abfd, function, DMGL_ANSI | DMGL_PARAMS);

		if (demangled)
			strbuf_addf(f->out, "%s:\n", demangled);
		else
			strbuf_addf(f->out, "%s():\n", function);
		free(demangled);
		f->prev_line = (unsigned)-1;
	}
	if (line > 0 && (line != f->prev_line || discriminator != f->prev_discriminator)) {
		strbuf_addf(f->out, "%s:%u", file ? file : "???", line);
		if (discriminator > 0)
			strbuf_addf(f->out, " (discriminator %u)", discriminator);
		strbuf_addch(f->out, '\n');
	}
	if (o->source && file && line > 0) {
		char *moved = o->prefix && *file == '/' ? relocated_source(o, file) : NULL;

		show_source(f, moved ? moved : file, line);
		free(moved);
	}
	if (new_function) {
		free(f->prev_function);
		f->prev_function = xstrdup(function);
	}
	if (line > 0)
		f->prev_line = line;
	f->prev_discriminator = discriminator;
}

static void print_raw_bytes(struct strbuf *out, const bfd_byte *data, bfd_vma from, bfd_vma to,
			    bfd_vma stop)
{
	for (bfd_vma j = from; j < to && j < stop; j++)
		strbuf_addf(out, "%02x ", data[j]);
}

/* Instructions of [from, to) of the section, objdump's disassemble_bytes. */
static void dump_bytes(struct disasm_file *f, const struct disasm_opts *o, asection *sec,
		       const bfd_byte *data, bfd_vma from, bfd_vma to)
{
	int per_line = 4;

	for (bfd_vma at = from; at < to;) {
		bfd_vma zeroes = at;
		int size, shown;

		while (zeroes < to && !data[zeroes])
			zeroes++;
		if (zeroes - at >= SKIP_ZEROES || (zeroes == to && zeroes - at < SKIP_ZEROES_AT_END)) {
			if (zeroes != to)
				zeroes = at + ((zeroes - at) & ~(bfd_vma)3);
			strbuf_addstr(f->out, "\t...\n");
			at = zeroes;
			continue;
		}
		show_line(f, o, sec, at);
		print_hex(f, f->out, bfd_section_vma(sec) + at, true);
		strbuf_addstr(f->out, ":\t");
		strbuf_reset(&f->insn);
		f->info.bytes_per_line = 0;
		f->info.bytes_per_chunk = 0;
		f->info.stop_vma = bfd_section_vma(sec) + to;
		f->info.stop_offset = to;
		size = f->disassemble(bfd_section_vma(sec) + at, &f->info);
		f->info.stop_vma = 0;
		if (f->info.bytes_per_line)
			per_line = f->info.bytes_per_line;
		if (size < 1) {
			if (f->insn.len)
				strbuf_addf(f->out, "%s\n", strbuf_str(&f->insn));
			break;
		}
		shown = size;
		if (o->raw) {
			if (shown > per_line)
				shown = per_line;
			print_raw_bytes(f->out, data, at, at + (bfd_vma)shown, to);
			for (int pad = shown; pad < per_line; pad++)
				strbuf_addstr(f->out, "   ");
			strbuf_addch(f->out, '\t');
		}
		strbuf_add(f->out, f->insn.buf, f->insn.len);
		while (o->raw && shown < size) {	/* the bytes that did not fit */
			int next = shown + per_line < size ? shown + per_line : size;

			strbuf_addch(f->out, '\n');
			print_hex(f, f->out, bfd_section_vma(sec) + at + (bfd_vma)shown, true);
			strbuf_addstr(f->out, ":\t");
			print_raw_bytes(f->out, data, at + (bfd_vma)shown, at + (bfd_vma)next, to);
			shown = next;
		}
		strbuf_addch(f->out, '\n');
		at += (bfd_vma)size;
	}
}

static void dump_section(struct disasm_file *f, const struct disasm_opts *o, asection *sec,
			 bfd_vma start, bfd_vma stop)
{
	bfd_vma vma = bfd_section_vma(sec), size = bfd_section_size(sec), from, to;
	bfd_byte *data = NULL;
	asymbol *sym;
	long place = 0;

	if ((sec->flags & (SEC_CODE | SEC_HAS_CONTENTS)) != (SEC_CODE | SEC_HAS_CONTENTS) || !size)
		return;
	from = start < vma ? 0 : start - vma;
	to = stop < vma ? 0 : stop - vma;
	if (to > size)
		to = size;
	if (from >= to || !bfd_malloc_and_get_section(f->abfd, sec, &data))
		return;
	strbuf_addf(f->out, "\nDisassembly of section %s:\n", bfd_section_name(sec));
	f->info.section = sec;
	f->info.buffer = data;
	f->info.buffer_vma = vma;
	f->info.buffer_length = size;
	f->require_sec = true;
	sym = symbol_for(f, vma + from, &place);
	f->require_sec = false;
	while (from < to) {
		bfd_vma addr = vma + from, next_stop;
		asymbol *next;

		strbuf_addch(f->out, '\n');
		print_addr_with_sym(f, f->out, sym, addr, false);
		strbuf_addstr(f->out, ":\n");
		if (sym && bfd_asymbol_value(sym) > addr) {
			next = sym;
		} else if (!sym) {
			next = NULL;
		} else {
			/* the next symbol of this section further on */
			while (place < f->nr_sorted &&
			       (strcmp(bfd_section_name(f->sorted[place]->section),
				       bfd_section_name(sec)) ||
				bfd_asymbol_value(f->sorted[place]) <= bfd_asymbol_value(sym)))
				place++;
			next = place < f->nr_sorted ? f->sorted[place] : NULL;
		}
		if (sym && bfd_asymbol_value(sym) > addr)
			next_stop = bfd_asymbol_value(sym) - vma;
		else
			next_stop = next ? bfd_asymbol_value(next) - vma : to;
		if (next_stop > to || next_stop <= from)
			next_stop = to;
		dump_bytes(f, o, sec, data, from, next_stop);
		from = next_stop;
		sym = next;
	}
	free(data);
}

void disasm_file__dump(struct disasm_file *f, const struct disasm_opts *o, uint64_t start,
		       uint64_t stop, struct strbuf *out)
{
	forget_sources(f);
	f->out = out;
	init_disassemble_info(&f->info, f, insn_printf, insn_styled_printf);
	f->info.application_data = f;
	f->info.print_address_func = print_address;
	f->info.arch = bfd_get_arch(f->abfd);
	f->info.mach = bfd_get_mach(f->abfd);
	f->info.flavour = bfd_get_flavour(f->abfd);
	f->info.endian = bfd_big_endian(f->abfd) ? BFD_ENDIAN_BIG : BFD_ENDIAN_LITTLE;
	f->info.endian_code = f->info.endian;
	f->info.octets_per_byte = 1;
	f->info.disassembler_options = o->style;
	disassemble_init_for_target(&f->info);
	/* objdump's file header, less the "FILE:     file format" line */
	strbuf_addstr(out, "\n\n");
	for (asection *sec = f->abfd->sections; sec; sec = sec->next)
		dump_section(f, o, sec, start, stop);
	disassemble_free_target(&f->info);
	f->out = NULL;
}
