/* probe-dwarf: functions, lines and variables of a binary's DWARF, turned
 * into probe sites and tracefs fetch arguments as perf 6.1 does it.
 *
 * Line rules (perf's): a line table row counts when it begins a
 * statement and lies in the function; a line is "reversible" when the
 * address's first statement row (or, at a function's entry, the
 * function's declaration line) names it back.  -L numbers reversible
 * lines; probing a line whose row is not reversible is refused. */
#include "core/probe/probe-dwarf.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <gelf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/probe/probe-elf.h"
#include "core/probe/probe-trace.h"
#include "util/glob.h"
#include "util/util.h"

struct probe_debug {
	bool no_inlines;	   /* leave inlined instances out */
	const char *source_prefix;	/* -s: where -L finds the sources */
	int fd, image_fd;
	Dwarf *dw;
	Elf *image;	/* the binary itself, for its .eh_frame */
	Dwarf_CFI *cfi;
	/* a relocatable file (a kernel module): its DWARF relocated by
	 * libdwfl, sections laid out as perf's offline reading lays them */
	Dwfl *dwfl;
	Dwfl_Module *module;
	Dwarf_CFI *cfi_debug;	/* its .debug_frame */
	bool separate;	/* the DWARF is a separate debug file's */
	const char *symbol_note;	/* said when the symbol stands in */
	char *path;	/* the file the DWARF is read from */
};

static bool has_eh_frame(Elf *elf)
{
	size_t strndx;

	if (!elf || elf_getshdrstrndx(elf, &strndx))
		return false;
	for (Elf_Scn *scn = elf_nextscn(elf, NULL); scn; scn = elf_nextscn(elf, scn)) {
		GElf_Shdr shdr;
		const char *name;

		if (gelf_getshdr(scn, &shdr) && (name = elf_strptr(elf, strndx, shdr.sh_name)) &&
		    !strcmp(name, ".eh_frame"))
			return shdr.sh_type == SHT_PROGBITS;
	}
	return false;
}

static const Dwfl_Callbacks offline_callbacks = {
	.find_elf = dwfl_build_id_find_elf,
	.find_debuginfo = dwfl_standard_find_debuginfo,
	.section_address = dwfl_offline_section_address,
};

static bool is_relocatable(int fd)
{
	Elf *elf = elf_version(EV_CURRENT) != EV_NONE ? elf_begin(fd, ELF_C_READ_MMAP, NULL)
						       : NULL;
	GElf_Ehdr ehdr;
	bool rel = elf && gelf_getehdr(elf, &ehdr) && ehdr.e_type == ET_REL;

	if (elf)
		elf_end(elf);
	return rel;
}

/* A relocatable file's DWARF, relocated; fd is libdwfl's then. */
static Dwarf *open_relocated(struct probe_debug *dbg, const char *path, int fd)
{
	Dwarf_Addr bias;

	dbg->dwfl = dwfl_begin(&offline_callbacks);
	if (!dbg->dwfl) {
		close(fd);
		return NULL;
	}
	dwfl_report_begin(dbg->dwfl);
	dbg->module = dwfl_report_offline(dbg->dwfl, "", path, fd);
	dwfl_report_end(dbg->dwfl, NULL, NULL);
	return dbg->module ? dwfl_module_getdwarf(dbg->module, &bias) : NULL;
}

struct probe_debug *probe_debug__open(const char *path)
{
	int image_fd = open(path, O_RDONLY | O_CLOEXEC), fd;
	struct probe_debug *dbg;
	Dwarf *dw;

	if (image_fd < 0)
		return NULL;
	fd = dup(image_fd);
	dbg = xcalloc(1, sizeof(*dbg));
	if (is_relocatable(image_fd)) {
		dw = open_relocated(dbg, path, fd);
		fd = -1;
		if (!dw) {
			if (dbg->dwfl)
				dwfl_end(dbg->dwfl);
			free(dbg);
			close(image_fd);
			return NULL;
		}
		dbg->cfi_debug = dwarf_getcfi(dw);
	} else {
		dw = dwarf_begin(fd, DWARF_C_READ);
	}
	if (!dw) {
		/* a stripped binary: its debug file by build id */
		char *debug = probe_elf__debug_path(path, true);

		close(fd);
		fd = debug ? open(debug, O_RDONLY | O_CLOEXEC) : -1;
		dw = fd >= 0 ? dwarf_begin(fd, DWARF_C_READ) : NULL;
		dbg->separate = dw != NULL;
		if (dw)
			dbg->path = debug;
		else
			free(debug);
	}
	if (!dw) {
		if (fd >= 0)
			close(fd);
		close(image_fd);
		free(dbg);
		return NULL;
	}
	dbg->fd = fd;
	dbg->image_fd = image_fd;
	dbg->dw = dw;
	if (!dbg->path)
		dbg->path = xstrdup(path);
	dbg->image = elf_begin(image_fd, ELF_C_READ_MMAP, NULL);
	/* a module's .eh_frame as libdwfl relocated it; perf reads a debug
	 * file's call frames only (its .eh_frame is no data there) */
	if (dbg->separate) {
		dbg->cfi = has_eh_frame(dwarf_getelf(dw)) ? dwarf_getcfi_elf(dwarf_getelf(dw)) : NULL;
		dbg->cfi_debug = dwarf_getcfi(dw);
	} else {
		dbg->cfi = dbg->dwfl ? dwarf_getcfi_elf(dwarf_getelf(dw))
			   : dbg->image ? dwarf_getcfi_elf(dbg->image)
					: NULL;
	}
	return dbg;
}

void probe_debug__set_symbol_note(struct probe_debug *dbg, const char *note)
{
	dbg->symbol_note = note;
}

void probe_debug__set_no_inlines(struct probe_debug *dbg, bool no_inlines)
{
	dbg->no_inlines = no_inlines;
}

void probe_debug__set_source_prefix(struct probe_debug *dbg, const char *prefix)
{
	dbg->source_prefix = prefix;
}

void probe_debug__close(struct probe_debug *dbg)
{
	if (!dbg)
		return;
	if (dbg->cfi)
		dwarf_cfi_end(dbg->cfi);
	if (dbg->image)
		elf_end(dbg->image);
	if (dbg->dwfl)
		dwfl_end(dbg->dwfl);	/* its DWARF with it */
	else
		dwarf_end(dbg->dw);
	if (dbg->fd >= 0)
		close(dbg->fd);
	close(dbg->image_fd);
	free(dbg->path);
	free(dbg);
}

void probe_msg(struct probe_msgs *msgs, bool debug, const char *fmt, ...)
{
	va_list ap;

	if (debug && !msgs->verbose)
		return;
	va_start(ap, fmt);
	strbuf_vaddf(&msgs->text, fmt, ap);
	va_end(ap);
}

void probe_msgs__flush(struct probe_msgs *msgs)
{
	if (msgs->out && !msgs->quiet && msgs->text.len)
		msgs->out(PROBE_OUT_NOTE, strbuf_str(&msgs->text), msgs->ctx);
	if (msgs->out)
		strbuf_reset(&msgs->text);
}

static void say(struct probe_msgs *msgs, enum probe_out kind, const char *fmt, va_list ap)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_vaddf(&sb, fmt, ap);
	if (msgs->out)
		msgs->out(kind, strbuf_str(&sb), msgs->ctx);
	else if (kind == PROBE_OUT_NOTE)
		strbuf_addstr(&msgs->text, strbuf_str(&sb));
	strbuf_release(&sb);
}

void probe_say(struct probe_msgs *msgs, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	say(msgs, PROBE_OUT_NOTE, fmt, ap);
	va_end(ap);
}

void probe_result(struct probe_msgs *msgs, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	say(msgs, PROBE_OUT_RESULT, fmt, ap);
	va_end(ap);
}

static const char *const x86_64_regs[] = {
	"%ax", "%dx",  "%cx",  "%bx",  "%si",  "%di",  "%bp",  "%sp", "%r8",
	"%r9", "%r10", "%r11", "%r12", "%r13", "%r14", "%r15", "%ip",
};

static const char *reg_name(unsigned n)
{
	return n < sizeof(x86_64_regs) / sizeof(x86_64_regs[0]) ? x86_64_regs[n] : NULL;
}

/* Whether s ends with tail on a path boundary-free suffix (perf's
 * strtailcmp: "probe_prog.c" matches "/tmp/pp/probe_prog.c"). */
static bool tail_matches(const char *s, const char *tail)
{
	size_t ls = strlen(s), lt = strlen(tail);

	return ls >= lt && !strcmp(s + ls - lt, tail);
}

/* --- functions ------------------------------------------------------------ */

struct func_walk {
	const char *name;
	const char *file;
	int (*fn)(Dwarf_Die *cu, Dwarf_Die *func, void *arg);
	void *arg;
	Dwarf_Die *cu;
	int ret;
	bool no_inlines;	/* functions with code only */
	Dwarf_Off *visited;	/* out-of-line copies reached as instances */
	int nr_visited;
	struct probe_msgs *msgs;	/* perf -v's note of each match; NULL: none */
};

/* A function's entry: its entry_pc or low_pc, else (a function split in
 * hot and cold parts) the start of its first range, as perf takes it. */
static bool entry_pc(Dwarf_Die *func, Dwarf_Addr *pc)
{
	Dwarf_Attribute attr;
	Dwarf_Addr base, end;

	if (dwarf_entrypc(func, pc) == 0)
		return true;
	return dwarf_attr(func, DW_AT_ranges, &attr) && dwarf_ranges(func, 0, &base, pc, &end) > 0;
}

static bool has_entry(Dwarf_Die *func)
{
	Dwarf_Addr pc;

	return entry_pc(func, &pc);
}

static bool call_is_declaration(Dwarf_Die *instance, Dwarf_Die *origin)
{
	Dwarf_Attribute attr;
	Dwarf_Word call_line = 0, call_file = 0, decl_file = 0;
	int decl_line = 0;

	dwarf_formudata(dwarf_attr(instance, DW_AT_call_line, &attr), &call_line);
	dwarf_formudata(dwarf_attr(instance, DW_AT_call_file, &attr), &call_file);
	dwarf_formudata(dwarf_attr(origin, DW_AT_decl_file, &attr), &decl_file);
	dwarf_decl_line(origin, &decl_line);
	return (int)call_line == decl_line && call_file == decl_file;
}

/* perf's instances of an inline function: in the CU's order, the
 * inlined ones and the out-of-line copies (those with code) whose
 * abstract origin it is, but an inlined one "called" at its own
 * declaration. */
static bool walk_instances(struct func_walk *w, Dwarf_Die *parent, Dwarf_Die *origin)
{
	Dwarf_Die child;

	if (dwarf_child(parent, &child))
		return false;
	do {
		int tag = dwarf_tag(&child);
		Dwarf_Attribute attr;
		Dwarf_Die from;

		if ((tag == DW_TAG_inlined_subroutine ||
		     (tag == DW_TAG_subprogram && has_entry(&child))) &&
		    dwarf_attr(&child, DW_AT_abstract_origin, &attr) &&
		    dwarf_formref_die(&attr, &from) &&
		    dwarf_dieoffset(&from) == dwarf_dieoffset(origin) &&
		    !(tag == DW_TAG_inlined_subroutine && call_is_declaration(&child, origin))) {
			if (tag == DW_TAG_subprogram) {
				w->visited = xrealloc(w->visited,
						      (w->nr_visited + 1) * sizeof(*w->visited));
				w->visited[w->nr_visited++] = dwarf_dieoffset(&child);
			}
			w->ret = w->fn(w->cu, &child, w->arg);
			if (w->ret)
				return true;
		}
		if (walk_instances(w, &child, origin))
			return true;
	} while (!dwarf_siblingof(&child, &child));
	return false;
}

static bool visited_before(const struct func_walk *w, Dwarf_Die *func)
{
	for (int i = 0; i < w->nr_visited; i++)
		if (w->visited[i] == dwarf_dieoffset(func))
			return true;
	return false;
}

static int func_walk_cb(Dwarf_Die *func, void *arg)
{
	struct func_walk *w = arg;
	const char *name = dwarf_diename(func);
	const char *file;

	if (!name || (w->name && (is_glob(w->name) ? !glob_match(w->name, name)
						   : strcmp(w->name, name))))
		return DWARF_CB_OK;
	if (w->file && (!(file = dwarf_decl_file(func)) || !tail_matches(file, w->file)))
		return DWARF_CB_OK;
	/* perf notes every definition matched, an inline one's (whose
	 * instances it walks) and an out-of-line copy's seen before too */
	if (w->msgs && !dwarf_hasattr(func, DW_AT_declaration))
		probe_msg(w->msgs, true, "Matched function: %s [%lx]\n", name,
			  (unsigned long)dwarf_dieoffset(func));
	if (!has_entry(func)) {
		/* an inline function: its instances are the places, the
		 * inlined ones and an out-of-line copy, in their order */
		if (!w->no_inlines && dwarf_func_inline(func))
			walk_instances(w, w->cu, func);
	} else if (!visited_before(w, func)) {
		w->ret = w->fn(w->cu, func, w->arg);
	}
	/* perf's search for probe points takes a name's first match in a
	 * CU, a glob's every match */
	return w->ret || (w->msgs && w->name && !is_glob(w->name)) ? DWARF_CB_ABORT
								  : DWARF_CB_OK;
}

/* Calls fn on each function with code named name (a glob; NULL: any) and
 * declared in file (NULL: any), CU by CU; stops at a non-zero return. */
static int for_each_function(struct probe_debug *dbg, const char *name, const char *file,
			     int (*fn)(Dwarf_Die *cu, Dwarf_Die *func, void *arg), void *arg,
			     struct probe_msgs *msgs)
{
	Dwarf_Off off = 0, next;
	size_t hsize;
	struct func_walk w = { name, file, fn, arg, NULL, 0, dbg->no_inlines, NULL, 0, msgs };

	while (!w.ret && dwarf_nextcu(dbg->dw, off, &next, &hsize, NULL, NULL, NULL) == 0) {
		Dwarf_Die cu;

		/* perf walks the functions in their order */
		if (dwarf_offdie(dbg->dw, off + hsize, &cu)) {
			w.cu = &cu;
			dwarf_getfuncs(&cu, func_walk_cb, &w, 0);
		}
		off = next;
	}
	free(w.visited);
	return w.ret;
}

static Dwarf_Addr entry_of(Dwarf_Die *func)
{
	Dwarf_Addr pc = 0;

	entry_pc(func, &pc);
	return pc;
}

static int decl_line_of(Dwarf_Die *func)
{
	int line = 0;

	dwarf_decl_line(func, &line);
	return line;
}

struct func_at {
	Dwarf_Addr addr;
	Dwarf_Die found;
	bool ok;
};

static int func_at_cb(Dwarf_Die *func, void *arg)
{
	struct func_at *f = arg;

	if (has_entry(func) && dwarf_haspc(func, f->addr) > 0) {
		f->found = *func;
		f->ok = true;
		return DWARF_CB_ABORT;
	}
	return DWARF_CB_OK;
}

/* The function of the CU whose code holds addr. */
static bool function_at(Dwarf_Die *cu, Dwarf_Addr addr, Dwarf_Die *func)
{
	struct func_at f = { .addr = addr };

	dwarf_getfuncs(cu, func_at_cb, &f, 0);
	if (f.ok)
		*func = f.found;
	return f.ok;
}

/* The CU and function whose code holds addr, in any CU. */
static bool function_in_any_cu(struct probe_debug *dbg, Dwarf_Addr addr, Dwarf_Die *cu,
			       Dwarf_Die *func)
{
	Dwarf_Off off = 0, next;
	size_t hsize;

	/* the CU the address ranges name first, as perf looks */
	if (dwarf_addrdie(dbg->dw, addr, cu) && function_at(cu, addr, func))
		return true;
	while (dwarf_nextcu(dbg->dw, off, &next, &hsize, NULL, NULL, NULL) == 0) {
		if (dwarf_offdie(dbg->dw, off + hsize, cu) && function_at(cu, addr, func))
			return true;
		off = next;
	}
	return false;
}

/* gcc records its flags in DW_AT_producer: any -O but -O0 optimizes. */
static bool cu_is_optimized(Dwarf_Die *cu)
{
	Dwarf_Attribute attr;
	const char *producer = dwarf_formstring(dwarf_attr(cu, DW_AT_producer, &attr));

	for (const char *o = producer; o && (o = strstr(o, "-O")); o += 2)
		if (o[2] != '0')
			return true;
	return false;
}

/* A source file as perf shows it: relative names under the CU's
 * compilation directory.  Caller frees. */
static char *source_path(Dwarf_Die *cu, const char *file)
{
	Dwarf_Attribute attr;
	const char *dir = dwarf_formstring(dwarf_attr(cu, DW_AT_comp_dir, &attr));

	if (!file)
		return xstrdup("");
	return file[0] == '/' || !dir ? xstrdup(file) : xasprintf("%s/%s", dir, file);
}

/* --- lines ----------------------------------------------------------------- */

struct line_row {
	Dwarf_Addr addr;
	int line;
	const char *file;
	bool stmt;
};

static int cu_rows(Dwarf_Die *cu, struct line_row **rows)
{
	Dwarf_Lines *lines;
	size_t n;

	*rows = NULL;
	if (dwarf_getsrclines(cu, &lines, &n) || !n)
		return 0;
	*rows = xcalloc(n, sizeof(**rows));
	int nr = 0;

	for (size_t i = 0; i < n; i++) {
		Dwarf_Line *l = dwarf_onesrcline(lines, i);
		struct line_row *r = &(*rows)[nr];
		bool end = false;

		if (!l || dwarf_lineaddr(l, &r->addr) || dwarf_lineno(l, &r->line) ||
		    dwarf_lineendsequence(l, &end) || end)
			continue;
		dwarf_linebeginstatement(l, &r->stmt);
		r->file = dwarf_linesrc(l, NULL, NULL);
		if (r->file)
			nr++;
	}
	return nr;
}

/* The line an address names back: the declaration line at a function's
 * entry, else its first statement row's line; 0 when none. */
static int reverse_line(Dwarf_Die *cu, const struct line_row *rows, int nr, Dwarf_Addr addr,
			const char **file)
{
	Dwarf_Die func;

	if (function_at(cu, addr, &func) && entry_of(&func) == addr) {
		*file = dwarf_decl_file(&func);
		return decl_line_of(&func);
	}
	for (int i = 0; i < nr; i++)
		if (rows[i].addr == addr && rows[i].stmt) {
			*file = rows[i].file;
			return rows[i].line;
		}
	return 0;
}

static bool reversible(Dwarf_Die *cu, const struct line_row *rows, int nr,
		       const struct line_row *row)
{
	const char *file = NULL;
	int line = reverse_line(cu, rows, nr, row->addr, &file);

	return !line || (line == row->line && file && !strcmp(file, row->file));
}

/* perf's prologue skip: the row after the entry's, whatever its line
 * (a one-line function's second row too). */
static Dwarf_Addr skip_prologue(Dwarf_Die *cu, Dwarf_Die *func, Dwarf_Addr entry)
{
	struct line_row *rows;
	int nr = cu_rows(cu, &rows);
	bool seen_entry = false;
	Dwarf_Addr addr = entry;

	for (int i = 0; i < nr; i++) {
		if (rows[i].addr == entry) {
			seen_entry = true;
		} else if (seen_entry && rows[i].addr > entry &&
			   dwarf_haspc(func, rows[i].addr) > 0) {
			addr = rows[i].addr;
			break;
		}
	}
	free(rows);
	return addr;
}

/* --- types ----------------------------------------------------------------- */

static bool die_type(Dwarf_Die *die, Dwarf_Die *type)
{
	Dwarf_Attribute attr;

	return dwarf_attr_integrate(die, DW_AT_type, &attr) && dwarf_formref_die(&attr, type);
}

/* The type under typedefs and qualifiers. */
static bool real_type(Dwarf_Die *die, Dwarf_Die *type)
{
	if (!die_type(die, type))
		return false;
	for (;;) {
		int tag = dwarf_tag(type);

		if (tag != DW_TAG_typedef && tag != DW_TAG_const_type &&
		    tag != DW_TAG_volatile_type && tag != DW_TAG_restrict_type)
			return true;
		if (!die_type(type, type))
			return false;
	}
}

/* The type name -V shows: "int", "struct point*", "char**" (arrays as
 * pointers, qualifiers left out, as perf writes them); false when the type
 * ends in nothing (void). */
static bool add_type_name(struct strbuf *sb, Dwarf_Die *die)
{
	Dwarf_Die type;

	if (!die_type(die, &type))
		return false;
	int tag = dwarf_tag(&type);
	const char *name = dwarf_diename(&type);

	switch (tag) {
	case DW_TAG_pointer_type:
	case DW_TAG_array_type:
		if (!add_type_name(sb, &type))
			return false;
		strbuf_addch(sb, '*');
		return true;
	case DW_TAG_const_type:
	case DW_TAG_volatile_type:
		/* perf leaves the qualifiers out */
		return add_type_name(sb, &type);
	case DW_TAG_subroutine_type:
		strbuf_addstr(sb, "(function_type)");
		return true;
	case DW_TAG_structure_type:
		strbuf_addstr(sb, "struct ");
		break;
	case DW_TAG_union_type:
		strbuf_addstr(sb, "union ");
		break;
	case DW_TAG_enumeration_type:
		strbuf_addstr(sb, "enum ");
		break;
	}
	strbuf_addstr(sb, name ? name : "");
	return true;
}

static bool type_is_signed(Dwarf_Die *type)
{
	Dwarf_Attribute attr;
	Dwarf_Word enc;

	if (dwarf_formudata(dwarf_attr(type, DW_AT_encoding, &attr), &enc))
		return false;
	return enc == DW_ATE_signed || enc == DW_ATE_signed_char;
}

/* --- variables to fetch arguments ----------------------------------------- */

/* Where a value is: in a register (base "%di"), or in memory at off(base)
 * where base is a register or the text of a pointer value. */
struct fetch {
	bool in_mem;
	long off;
	char *base;
	bool user;	/* in_mem through a pointer into user memory ("+uOFF(") */
	bool user_access;	/* "@user": the dereferences made are user ones */
};

static char *fetch_text(const struct fetch *f)
{
	/* a static variable is "@name+OFF" */
	if (f->in_mem && f->base[0] == '@')
		return xasprintf("%s%+ld", f->base, f->off);
	if (f->in_mem && f->user)
		return xasprintf("+u%ld(%s)", f->off, f->base);
	return f->in_mem ? xasprintf("%+ld(%s)", f->off, f->base) : xstrdup(f->base);
}

static int unsupported(struct probe_msgs *msgs, unsigned atom)
{
	probe_msg(msgs, true, "DW_OP %x is not supported.\n", atom);
	return -EOPNOTSUPP;
}

/* The CFA at addr as a register and offset (gcc's frame base). */
static int cfa_at(struct probe_debug *dbg, Dwarf_Addr addr, const char **reg, long *off)
{
	Dwarf_Frame *frame;
	Dwarf_Op *ops;
	size_t nops;

	if ((!dbg->cfi || dwarf_cfi_addrframe(dbg->cfi, addr, &frame)) &&
	    (!dbg->cfi_debug || dwarf_cfi_addrframe(dbg->cfi_debug, addr, &frame)))
		return -ENOENT;
	int ret = -ENOENT;

	if (!dwarf_frame_cfa(frame, &ops, &nops) && nops == 1) {
		if (ops[0].atom == DW_OP_bregx) {
			*reg = reg_name(ops[0].number);
			*off = (long)ops[0].number2;
			ret = *reg ? 0 : -ENOENT;
		} else if (ops[0].atom >= DW_OP_breg0 && ops[0].atom <= DW_OP_breg31) {
			*reg = reg_name(ops[0].atom - DW_OP_breg0);
			*off = (long)ops[0].number;
			ret = *reg ? 0 : -ENOENT;
		}
	}
	free(frame);
	return ret;
}

/* The frame base of func at addr, as a register and offset. */
static int frame_base(struct probe_debug *dbg, Dwarf_Die *func, Dwarf_Addr addr, const char **reg,
		      long *off, struct probe_msgs *msgs)
{
	Dwarf_Attribute attr;
	Dwarf_Op *ops;
	size_t nops;
	Dwarf_Die cu, real;

	/* an inlined instance's frame is its caller's */
	if (!dwarf_hasattr(func, DW_AT_frame_base) && dwarf_diecu(func, &cu, NULL, NULL) &&
	    function_at(&cu, addr, &real))
		func = &real;
	if (!dwarf_attr(func, DW_AT_frame_base, &attr) ||
	    dwarf_getlocation_addr(&attr, addr, &ops, &nops, 1) <= 0 || nops != 1)
		return -ENOENT;
	/* without call frame information perf knows no CFA */
	if (ops[0].atom == DW_OP_call_frame_cfa && !dbg->cfi && !dbg->cfi_debug)
		return unsupported(msgs, ops[0].atom);
	if (ops[0].atom == DW_OP_call_frame_cfa)
		return cfa_at(dbg, addr, reg, off);
	if (ops[0].atom >= DW_OP_breg0 && ops[0].atom <= DW_OP_breg31) {
		*reg = reg_name(ops[0].atom - DW_OP_breg0);
		*off = (long)ops[0].number;
		return *reg ? 0 : -ENOENT;
	}
	/* clang's frame base: the register holds it */
	if (ops[0].atom >= DW_OP_reg0 && ops[0].atom <= DW_OP_reg31) {
		*reg = reg_name(ops[0].atom - DW_OP_reg0);
		*off = 0;
		return *reg ? 0 : -ENOENT;
	}
	return unsupported(msgs, ops[0].atom);
}

/* The location of var at addr: -ENOENT when it has none there. */
static int var_location(struct probe_debug *dbg, Dwarf_Die *func, Dwarf_Die *var, Dwarf_Addr addr,
			struct fetch *f, struct probe_msgs *msgs)
{
	Dwarf_Attribute attr;
	Dwarf_Op *ops;
	size_t nops;
	const char *reg;
	long off;
	int ret;

	memset(f, 0, sizeof(*f));
	/* perf takes any external variable (a declaration too) by symbol */
	if (dwarf_attr(var, DW_AT_external, &attr)) {
		f->in_mem = true;
		f->base = xasprintf("@%s", dwarf_diename(var));
		return 0;
	}
	if (!dwarf_attr_integrate(var, DW_AT_location, &attr)) {
		Dwarf_Sword value;

		/* a constant: an immediate fetch argument */
		if (!dwarf_formsdata(dwarf_attr_integrate(var, DW_AT_const_value, &attr), &value)) {
			f->base = xasprintf("\\%ld", (long)value);
			return 0;
		}
		return -ENOENT;
	}
	if (dwarf_getlocation_addr(&attr, addr, &ops, &nops, 1) <= 0 || !nops)
		return -ENOENT;
	/* perf reads the first operation only */
	unsigned atom = ops[0].atom;

	if (atom == DW_OP_addr) {
		/* a static variable: perf names it by symbol */
		f->in_mem = true;
		f->base = xasprintf("@%s", dwarf_diename(var));
		return 0;
	}
	if (atom == DW_OP_fbreg) {
		ret = frame_base(dbg, func, addr, &reg, &off, msgs);
		if (ret)
			return ret;
		f->in_mem = true;
		f->off = off + (long)ops[0].number;
		f->base = xstrdup(reg);
		return 0;
	}
	if (atom >= DW_OP_breg0 && atom <= DW_OP_breg31)
		reg = reg_name(atom - DW_OP_breg0), f->in_mem = true, f->off = (long)ops[0].number;
	else if (atom == DW_OP_bregx)
		reg = reg_name(ops[0].number), f->in_mem = true, f->off = (long)ops[0].number2;
	else if (atom >= DW_OP_reg0 && atom <= DW_OP_reg31)
		reg = reg_name(atom - DW_OP_reg0);
	else if (atom == DW_OP_regx)
		reg = reg_name(ops[0].number);
	else
		return unsupported(msgs, atom);
	if (!reg)
		return unsupported(msgs, atom);
	f->base = xstrdup(reg);
	return 0;
}

/* perf's walk of the variables a site in scope sees: the scope's
 * children, descending first into the child scopes that hold addr (and
 * into none with descend false); stops when fn returns true. */
static bool walk_vars(Dwarf_Die *scope, Dwarf_Addr addr, bool descend,
		      bool (*fn)(Dwarf_Die *var, Dwarf_Die *scope, void *arg), void *arg)
{
	Dwarf_Die child;

	if (dwarf_child(scope, &child))
		return false;
	do {
		int tag = dwarf_tag(&child);

		if ((tag == DW_TAG_variable || tag == DW_TAG_formal_parameter) &&
		    fn(&child, scope, arg))
			return true;
		if (descend && dwarf_haspc(&child, addr) > 0 &&
		    walk_vars(&child, addr, descend, fn, arg))
			return true;
	} while (!dwarf_siblingof(&child, &child));
	return false;
}

struct var_by_name {
	const char *name;
	Dwarf_Die *found;
};

static bool var_named(Dwarf_Die *var, Dwarf_Die *scope, void *arg)
{
	struct var_by_name *v = arg;
	const char *name = dwarf_diename(var);
	Dwarf_Attribute attr;

	(void)scope;
	/* perf takes the first of the name that has a place or a value */
	if (!name || strcmp(name, v->name) ||
	    !(dwarf_attr(var, DW_AT_external, &attr) || dwarf_attr(var, DW_AT_location, &attr) ||
	      dwarf_attr(var, DW_AT_const_value, &attr)))
		return false;
	*v->found = *var;
	return true;
}

/* Finds a variable a site in func (a function or an inlined instance)
 * sees at addr: in func's scopes as perf searches them, else a global. */
static bool find_var(Dwarf_Die *cu, Dwarf_Die *func, Dwarf_Addr addr, const char *name,
		     Dwarf_Die *var)
{
	struct var_by_name v = { name, var };

	return walk_vars(func, addr, true, var_named, &v) || walk_vars(cu, 0, true, var_named, &v);
}

static bool member_of(Dwarf_Die *type, const char *name, Dwarf_Die *member)
{
	if (dwarf_child(type, member))
		return false;
	do {
		const char *n = dwarf_diename(member);

		if (dwarf_tag(member) == DW_TAG_member && n && !strcmp(n, name))
			return true;
	} while (!dwarf_siblingof(member, member));
	return false;
}

static long member_offset(Dwarf_Die *member)
{
	Dwarf_Attribute attr;
	Dwarf_Word off = 0;

	dwarf_formudata(dwarf_attr(member, DW_AT_data_member_location, &attr), &off);
	return (long)off;
}

/* Moves f and *type through arg's fields (p->x, pt.y, a[2]). */
static int walk_fields(const struct probe_arg *arg, struct fetch *f, Dwarf_Die *type,
		       Dwarf_Die *holder, struct probe_msgs *msgs)
{
	for (int i = 0; i < arg->nr_fields; i++) {
		const struct probe_field *field = &arg->fields[i];
		int tag = dwarf_tag(type);
		bool through_pointer = tag == DW_TAG_pointer_type;

		if (field->name)
			probe_msg(msgs, true, "converting %s in %s\n", field->name,
				  i ? arg->fields[i - 1].name : arg->var);
		else
			probe_msg(msgs, true, "converting %s in %s\n", field->text, arg->var);
		if (field->name && field->ref != through_pointer) {
			probe_msg(msgs, false, "Semantic error: %s must be referred by '%s'\n",
				  field->name, through_pointer ? "->" : ".");
			return -EINVAL;
		}
		if (!field->name && !through_pointer && tag != DW_TAG_array_type) {
			probe_msg(msgs, false, "%s is not a data structure nor a union.\n",
				  arg->var);
			return -EINVAL;
		}
		if (field->name && !through_pointer && !f->in_mem) {
			probe_msg(msgs, false, "Structure on a register is not supported yet.\n");
			return -EOPNOTSUPP;
		}
		Dwarf_Die target = *type;

		if ((through_pointer || tag == DW_TAG_array_type) && !real_type(type, &target)) {
			probe_msg(msgs, false, "Failed to get the type of %s.\n", arg->var);
			return -ENOENT;
		}
		long off;

		if (field->name) {
			Dwarf_Die member;

			if (!member_of(&target, field->name, &member)) {
				const char *tn = dwarf_diename(&target);

				probe_msg(msgs, false, "%s(type:%s) has no member %s.\n",
					  i ? arg->fields[i - 1].name : arg->var, tn ? tn : "",
					  field->name);
				return -EINVAL;
			}
			Dwarf_Attribute loc;

			/* perf 6.1 knows no DWARF 5 bitfield (data_bit_offset) */
			if (dwarf_tag(&target) != DW_TAG_union_type &&
			    !dwarf_attr(&member, DW_AT_data_member_location, &loc)) {
				probe_msg(msgs, false, "Failed to get the offset of %s.\n",
					  field->name);
				return -ENOENT;
			}
			off = member_offset(&member);
			*holder = member;
			if (!real_type(&member, type))
				return -ENOENT;
		} else {
			int size = dwarf_bytesize(&target);

			off = field->index * (size > 0 ? size : 1);
			/* perf names an element by its array's (nameless) type */
			*holder = *type;
			*type = target;
		}
		if (through_pointer) {
			/* the pointer's value is the new base */
			char *base = fetch_text(f);

			free(f->base);
			f->base = base;
			f->in_mem = true;
			f->off = off;
			f->user = f->user_access;
		} else if (f->in_mem) {
			f->off += off;
			/* perf marks the reference a member is read through */
			f->user = f->user || f->user_access;
		} else {
			probe_msg(msgs, false, "Structure on a register is not supported yet.\n");
			return -EOPNOTSUPP;
		}
	}
	return 0;
}

/* The ":TYPE" perf writes for a value of type (or the cast asked for). */
static int type_suffix(const char *cast, Dwarf_Die *holder, Dwarf_Die *type, struct fetch *f,
		       struct strbuf *out, struct probe_msgs *msgs)
{
	if (cast && strcmp(cast, "string") && strcmp(cast, "ustring") && strcmp(cast, "x") &&
	    strcmp(cast, "s") && strcmp(cast, "u")) {
		strbuf_addf(out, ":%s", cast);
		return 0;
	}
	const char *vname = dwarf_diename(holder);
	int bits = dwarf_bitsize(holder);

	if (bits > 0) {
		/* a bitfield: perf writes DWARF 4's bit offset as it is (from
		 * the most significant bit) and the member's byte size */
		int offset = dwarf_bitoffset(holder), total = dwarf_bytesize(holder);

		if (offset < 0 || total < 0)
			return -ENOENT;
		strbuf_addf(out, ":b%d@%d/%d", bits, offset, total * 8);
		return 0;
	}
	probe_msg(msgs, true, "%s type is %s.\n", vname ? vname : "(null)",
		  dwarf_diename(type) ? dwarf_diename(type) : "(null)");
	if (cast && (!strcmp(cast, "string") || !strcmp(cast, "ustring"))) {
		int tag = dwarf_tag(type);
		Dwarf_Die elem;

		if (tag != DW_TAG_pointer_type && tag != DW_TAG_array_type) {
			probe_msg(
				msgs, false,
				"Failed to cast into string: %s(%s) is not a pointer nor array.\n",
				vname ? vname : "", dwarf_diename(type) ? dwarf_diename(type) : "");
			return -EINVAL;
		}
		if (!real_type(type, &elem) || !dwarf_diename(&elem) ||
		    (strcmp(dwarf_diename(&elem), "char") &&
		     strcmp(dwarf_diename(&elem), "unsigned char"))) {
			probe_msg(msgs, false,
				  "Failed to cast into string: %s is not (unsigned) char *.\n",
				  vname ? vname : "");
			return -EINVAL;
		}
		if (tag == DW_TAG_pointer_type) {
			/* the string is where the pointer points */
			char *base = fetch_text(f);

			free(f->base);
			*f = (struct fetch){ true, 0, base, f->user_access, f->user_access };
		}
		strbuf_addf(out, ":%s", cast);
		return 0;
	}
	char prefix = cast ? cast[0] : type_is_signed(type) ? 's' : 'x';
	int size = dwarf_bytesize(type);

	if (size <= 0)
		return 0;
	if (size * 8 > 64) {
		probe_msg(msgs, false, "%s exceeds max-bitwidth. Cut down to 64 bits.\n",
			  dwarf_diename(type) ? dwarf_diename(type) : "");
		size = 8;
	}
	strbuf_addf(out, ":%c%d", prefix, size * 8);
	return 0;
}

struct site_ctx {
	struct probe_debug *dbg;
	Dwarf_Die *cu;
	Dwarf_Die *func;
	Dwarf_Addr addr;
	struct probe_msgs *msgs;
};

static void push_arg(struct probe_site *site, char *text)
{
	site->args = xrealloc(site->args, (site->nr_args + 1) * sizeof(*site->args));
	site->args[site->nr_args++] = text;
}

static void missing_var(struct probe_msgs *msgs, const char *name)
{
	probe_msg(msgs, false,
		  "Failed to find the location of the '%s' variable at this address.\n"
		  " Perhaps it has been optimized out.\n"
		  " Use -V with the --range option to show '%s' location range.\n",
		  name, name);
}

/* One C-expression argument at the site: "name=LOC:TYPE". */
static int convert_arg(const struct site_ctx *c, const struct probe_arg *arg, char **text)
{
	Dwarf_Die var, type, holder;
	struct fetch f;
	int ret;

	probe_msg(c->msgs, true, "Searching '%s' variable in context.\n", arg->var);
	if (!find_var(c->cu, c->func, c->addr, arg->var, &var)) {
		missing_var(c->msgs, arg->var);
		return -ENOENT;
	}
	probe_msg(c->msgs, true, "Converting variable %s into trace event.\n", arg->var);
	ret = var_location(c->dbg, c->func, &var, c->addr, &f, c->msgs);
	if (ret == -ENOENT)
		missing_var(c->msgs, arg->var);
	if (ret == -EOPNOTSUPP)
		probe_msg(c->msgs, false, "Sorry, we don't support this variable location yet.\n");
	if (ret)
		return ret;
	holder = var;
	if (!real_type(&var, &type)) {
		probe_msg(c->msgs, false, "Failed to get a type information of %s.\n", arg->var);
		ret = -ENOENT;
		goto out;
	}
	f.user_access = arg->user_access;
	ret = walk_fields(arg, &f, &type, &holder, c->msgs);
	if (ret)
		goto out;
	struct strbuf suffix = STRBUF_INIT;

	ret = type_suffix(arg->type, &holder, &type, &f, &suffix, c->msgs);
	if (!ret) {
		char *name = arg->name ? xstrdup(arg->name) : probe_arg__field_name(arg);
		char *loc = fetch_text(&f);

		*text = xasprintf("%s=%s%s", name, loc, strbuf_str(&suffix));
		free(name);
		free(loc);
	}
	strbuf_release(&suffix);
out:
	free(f.base);
	return ret;
}

struct collected {
	const struct site_ctx *c;
	bool locals;
	char **names;
	int nr;
};

static bool collect_var(Dwarf_Die *var, Dwarf_Die *scope, void *arg)
{
	struct collected *col = arg;
	const char *name = dwarf_diename(var);
	struct fetch f;

	(void)scope;
	if (!name || (!col->locals && dwarf_tag(var) != DW_TAG_formal_parameter) ||
	    var_location(col->c->dbg, col->c->func, var, col->c->addr, &f, col->c->msgs))
		return false;
	free(f.base);
	probe_msg(col->c->msgs, true, " %s", name);
	col->names = xrealloc(col->names, (col->nr + 1) * sizeof(*col->names));
	col->names[col->nr++] = xstrdup(name);
	return false;
}

/* The parameters (and, for $vars, the variables) the site sees, in
 * perf's order, that have a location there. */
static void collect_vars(const struct site_ctx *c, bool locals, char ***names, int *nr)
{
	struct collected col = { c, locals, NULL, 0 };

	walk_vars(c->func, c->addr, true, collect_var, &col);
	*names = col.names;
	*nr = col.nr;
}

static int convert_args(const struct site_ctx *c, const struct probe_spec *spec,
			struct probe_site *site)
{
	for (int i = 0; i < spec->nr_args; i++) {
		const struct probe_arg *arg = &spec->args[i];
		char *text = NULL;
		int ret = 0;

		if (!probe_arg__is_c_expr(arg) && strcmp(arg->var, "$params") &&
		    strcmp(arg->var, "$vars")) {
			push_arg(site, probe_arg__as_written(arg));
			continue;
		}
		if (!strcmp(arg->var, "$params") || !strcmp(arg->var, "$vars")) {
			char **names = NULL;
			int nr = 0;

			/* perf's words come as it goes, its failures in between */
			probe_msg(c->msgs, true, "Expanding %s into:", arg->var);
			collect_vars(c, arg->var[1] == 'v', &names, &nr);
			probe_msg(c->msgs, true, " (%d)\n", nr);
			for (int k = 0; k < nr && !ret; k++) {
				struct probe_arg plain = { .var = names[k] };

				ret = convert_arg(c, &plain, &text);
				if (!ret)
					push_arg(site, text);
			}
			for (int k = 0; k < nr; k++)
				free(names[k]);
			free(names);
		} else {
			ret = convert_arg(c, arg, &text);
			if (!ret)
				push_arg(site, text);
		}
		if (ret)
			return ret;
	}
	return 0;
}

/* --- sites ----------------------------------------------------------------- */

struct site_search {
	struct probe_debug *dbg;
	const struct probe_spec *spec;
	struct probe_msgs *msgs;
	struct probe_site *sites;
	int nr;
	bool convert;	      /* false for -V: addresses only */
	bool not_found;	      /* no site at all */
	uint64_t symbol_addr;	/* where the function's symbol is, 0: unknown */
	size_t logged;	/* -V: how much of the messages earlier sites took */
	bool matched;	/* the debug information has the function by its name */
};

static bool spec_has_vars(const struct probe_spec *spec)
{
	for (int i = 0; i < spec->nr_args; i++)
		if (probe_arg__is_c_expr(&spec->args[i]))
			return true;
	return false;
}

static void site__clear(struct probe_site *site)
{
	for (int k = 0; k < site->nr_args; k++)
		free(site->args[k]);
	free(site->args);
	free(site->function);
	free(site->log);
}

/* perf gives up on a site whose function's frame base is the CFA when
 * the call frame information there cannot be found (a module's .eh_frame
 * is read unrelocated). */
static int check_frame_of(struct site_search *s, Dwarf_Die *func, Dwarf_Addr addr)
{
	struct probe_debug *dbg = s->dbg;
	Dwarf_Attribute attr;
	Dwarf_Frame *frame = NULL;
	Dwarf_Op *ops;
	size_t nops;

	if ((!dbg->cfi && !dbg->cfi_debug) || !dwarf_attr(func, DW_AT_frame_base, &attr) ||
	    dwarf_getlocation_addr(&attr, addr, &ops, &nops, 1) <= 0 || nops != 1 ||
	    ops[0].atom != DW_OP_call_frame_cfa)
		return 0;
	if ((dbg->cfi && !dwarf_cfi_addrframe(dbg->cfi, addr, &frame)) ||
	    (dbg->cfi_debug && !dwarf_cfi_addrframe(dbg->cfi_debug, addr, &frame))) {
		free(frame);
		return 0;
	}
	probe_msg(s->msgs, false, "Failed to get call frame on 0x%lx\n", (unsigned long)addr);
	return -ENOENT;
}

static int check_call_frame(struct site_search *s, Dwarf_Die *cu, Dwarf_Addr addr)
{
	Dwarf_Die func;

	return function_at(cu, addr, &func) ? check_frame_of(s, &func, addr) : 0;
}

/* FUNC+OFF past the function's code: perf looks for the call frame with
 * the function's frame base, then finds the address out of it. */
static int check_offset(struct site_search *s, Dwarf_Die *func, Dwarf_Addr addr)
{
	int ret;

	if (dwarf_tag(func) != DW_TAG_subprogram || dwarf_haspc(func, addr) > 0)
		return 0;
	ret = check_frame_of(s, func, addr);
	if (ret)
		return ret;
	probe_msg(s->msgs, false, "Specified offset is out of %s\n", dwarf_diename(func));
	return -EINVAL;
}

static bool function_holding(const GElf_Sym *sym, const char *name, void *addr)
{
	Dwarf_Addr a = *(Dwarf_Addr *)addr;

	return GELF_ST_TYPE(sym->st_info) == STT_FUNC && a >= sym->st_value &&
	       a < sym->st_value + sym->st_size;
}

/* The symbol of the debug file's table holding addr: its name and addr's
 * offset in it; NULL when none does. */
static const char *symbol_holding(Elf *elf, Dwarf_Addr addr, Dwarf_Addr *offset)
{
	GElf_Sym sym;
	const char *name = probe_elf__symtab_find(elf, function_holding, &addr, &sym);

	if (name)
		*offset = addr - sym.st_value;
	return name;
}

/* perf -v's note of a site: the symbol holding it (from the symbol
 * table, else the function of the debug information) and the offset. */
static void log_site(struct site_search *s, Dwarf_Die *cu, Dwarf_Addr addr)
{
	Dwarf_Die real;
	Dwarf_Addr offset, entry;
	const char *name = NULL;

	/* perf names the function holding the site by its entry when it
	 * has one, else by the symbol table */
	if (function_at(cu, addr, &real) && !dwarf_entrypc(&real, &entry)) {
		name = dwarf_diename(&real);
		offset = addr - entry;
	}
	if (!name)
		name = symbol_holding(dwarf_getelf(s->dbg->dw), addr, &offset);
	if (name)
		probe_msg(s->msgs, true, "Probe point found: %s+%lu\n", name,
			  (unsigned long)offset);
}

static int add_site(struct site_search *s, Dwarf_Die *cu, Dwarf_Die *func, Dwarf_Addr addr)
{
	struct probe_site site = { .addr = addr,
				   .function = xstrdup(dwarf_diename(func)),
				   .scope = dwarf_dieoffset(func) };
	struct site_ctx c = { s->dbg, cu, func, addr, s->msgs };
	int ret = check_call_frame(s, cu, addr);

	if (ret) {
		free(site.function);
		return ret;
	}
	for (int i = 0; i < s->nr; i++)
		if (s->sites[i].addr == addr) {
			free(site.function);
			return 0;
		}
	if (s->convert) {
		log_site(s, cu, addr);
		ret = convert_args(&c, s->spec, &site);
		if (ret) {
			site__clear(&site);
			return ret;
		}
	} else if (s->msgs->text.len > s->logged) {
		/* -V: perf lists a site's variables as it finds it, after
		 * what it said finding it */
		site.log = xstrdup(s->msgs->text.buf + s->logged);
		strbuf_setlen(&s->msgs->text, s->logged);
	}
	s->sites = xrealloc(s->sites, (s->nr + 1) * sizeof(*s->sites));
	s->sites[s->nr++] = site;
	return 0;
}

/* The functions with code declared at file:line. */
struct declared {
	const char *file;
	int line;
	Dwarf_Off *offsets;
	int nr;
};

static int declared_cb(Dwarf_Die *func, void *arg)
{
	struct declared *d = arg;
	const char *file = dwarf_decl_file(func);

	if (has_entry(func) && file && tail_matches(file, d->file) &&
	    decl_line_of(func) == d->line) {
		d->offsets = xrealloc(d->offsets, (d->nr + 1) * sizeof(*d->offsets));
		d->offsets[d->nr++] = dwarf_dieoffset(func);
	}
	return DWARF_CB_OK;
}

/* Rows of line target in the CU (in func when given): each must name its
 * line back, or the probe is refused as perf refuses it. */
static int add_line_sites(struct site_search *s, Dwarf_Die *cu, Dwarf_Die *func, int target)
{
	struct line_row *rows;
	int nr = cu_rows(cu, &rows), ret = 0;
	const struct probe_point *pp = &s->spec->point;

	for (int i = 0; i < nr && !ret; i++) {
		const struct line_row *r = &rows[i];
		Dwarf_Die in;

		if (!r->stmt || r->line != target)
			continue;
		if (func ? dwarf_haspc(func, r->addr) <= 0 ||
				    strcmp(r->file,
					   dwarf_decl_file(func) ? dwarf_decl_file(func) : "")
			 : !tail_matches(r->file, pp->file))
			continue;
		if (!reversible(cu, rows, nr, r)) {
			const char *file = NULL;
			int line = reverse_line(cu, rows, nr, r->addr, &file);

			probe_msg(s->msgs, false,
				  "This line is sharing the address with other lines.\n");
			if (func)
				probe_msg(s->msgs, false, "Please try to probe at %s:%d instead.\n",
					  dwarf_diename(func), line - decl_line_of(func));
			else
				probe_msg(s->msgs, false, "Please try to probe at %s:%d instead.\n",
					  file, line);
			ret = -ENOENT;
			break;
		}
		if (func)
			ret = add_site(s, cu, func, r->addr);
		else if (function_at(cu, r->addr, &in))
			ret = add_site(s, cu, &in, r->addr);
	}
	free(rows);
	/* a function's declaration line is its entry, as perf walks lines */
	struct declared d = { pp->file, target, NULL, 0 };

	if (!func && !ret)
		dwarf_getfuncs(cu, declared_cb, &d, 0);
	for (int i = 0; i < d.nr && !ret; i++) {
		Dwarf_Die decl;

		if (dwarf_offdie(s->dbg->dw, d.offsets[i], &decl))
			ret = add_site(s, cu, &decl, entry_of(&decl));
	}
	free(d.offsets);
	return ret;
}

/* s with its blanks taken out: lazy patterns ignore spacing. */
static char *without_blanks(const char *s)
{
	char *out = xmalloc(strlen(s) + 1), *o = out;

	for (; *s; s++)
		if (*s != ' ' && *s != '\t' && *s != '\n' && *s != '\r')
			*o++ = *s;
	*o = 0;
	return out;
}

/* The lines of the function's source file that match its lazy pattern:
 * a table indexed by line number, NULL when none matches. */
static bool *lazy_lines(Dwarf_Die *cu, Dwarf_Die *func, const char *lazy, int *nr_lines)
{
	char *path = source_path(cu, dwarf_decl_file(func));
	FILE *src = fopen(path, "r");
	char *pattern = without_blanks(lazy), *line = NULL;
	size_t cap = 0;
	bool *match = NULL, any = false;

	*nr_lines = 0;
	for (int l = 1; src && getline(&line, &cap, src) > 0; l++) {
		char *text = without_blanks(line);

		match = xrealloc(match, (l + 1) * sizeof(*match));
		match[0] = false;
		match[l] = glob_match(pattern, text);
		any |= match[l];
		*nr_lines = l + 1;
		free(text);
	}
	if (src)
		fclose(src);
	free(line);
	free(pattern);
	free(path);
	if (!any) {
		free(match);
		return NULL;
	}
	return match;
}

static int lazy_sites(struct site_search *s, Dwarf_Die *cu, Dwarf_Die *func)
{
	int nr_lines, nr, ret = 0;
	bool *match = lazy_lines(cu, func, s->spec->point.lazy, &nr_lines);
	struct line_row *rows;
	const char *file = dwarf_decl_file(func);

	if (!match) {
		char *path = source_path(cu, file);

		probe_msg(s->msgs, true, "No matched lines found in %s.\n", path);
		free(path);
		return 0;
	}
	nr = cu_rows(cu, &rows);
	for (int i = 0; i < nr && !ret; i++) {
		const struct line_row *r = &rows[i];

		if (!r->stmt || r->line >= nr_lines || !match[r->line] || !file ||
		    strcmp(r->file, file) || dwarf_haspc(func, r->addr) <= 0)
			continue;
		probe_msg(s->msgs, true, "Probe line found: line:%d addr:0x%lx\n", r->line,
			  (unsigned long)r->addr);
		ret = add_site(s, cu, func, r->addr);
	}
	free(rows);
	free(match);
	return ret;
}

static int function_sites(Dwarf_Die *cu, Dwarf_Die *func, void *arg)
{
	struct site_search *s = arg;
	const struct probe_point *pp = &s->spec->point;
	Dwarf_Addr addr = entry_of(func);

	s->matched = true;
	/* perf's words for instances of inline functions, out-of-line too
	 * (the walk notes the functions it matches) */
	if (dwarf_hasattr(func, DW_AT_abstract_origin))
		probe_msg(s->msgs, true, "found inline addr: 0x%lx\n", (unsigned long)addr);
	if (pp->lazy)
		return lazy_sites(s, cu, func);
	if (pp->has_line && pp->line)
		return add_line_sites(s, cu, func, decl_line_of(func) + (int)pp->line);
	if (!pp->has_line && !pp->offset && !pp->retprobe && s->convert && spec_has_vars(s->spec) &&
	    !cu_is_optimized(cu)) {
		probe_msg(s->msgs, false,
			  "Target program is compiled without optimization. Skipping prologue.\n"
			  "Probe on address 0x%lx to force probing at the function entry.\n\n",
			  (unsigned long)addr);
		addr = skip_prologue(cu, func, addr);
	}
	int ret = pp->offset ? check_offset(s, func, addr + pp->offset) : 0;

	return ret ? ret : add_site(s, cu, func, addr + pp->offset);
}

static int file_line_sites(struct site_search *s)
{
	Dwarf_Off off = 0, next;
	size_t hsize;
	int ret = 0;

	while (!ret && dwarf_nextcu(s->dbg->dw, off, &next, &hsize, NULL, NULL, NULL) == 0) {
		Dwarf_Die cu;

		if (dwarf_offdie(s->dbg->dw, off + hsize, &cu))
			ret = add_line_sites(s, &cu, NULL, (int)s->spec->point.line);
		off = next;
	}
	return ret;
}

/* perf -v's line for the symbol it falls back to (a module's by its
 * offset in the file). */
static void log_symbol(struct probe_debug *dbg, const char *name, uint64_t addr,
		       struct probe_msgs *msgs)
{
	GElf_Ehdr ehdr;
	Elf *elf = dwarf_getelf(dbg->dw);
	bool rel = elf && gelf_getehdr(elf, &ehdr) && ehdr.e_type == ET_REL &&
		   addr >= LIBDWFL_REL_BASE;

	probe_msg(msgs, true, "Symbol %s address found : %lx\n", name,
		  (unsigned long)(addr - (rel ? LIBDWFL_REL_BASE : 0)));
}

/* A function known by another name in the debug information (libc's
 * malloc is __libc_malloc): the one holding its symbol's address. */
static int symbol_site(struct site_search *s)
{
	Dwarf_Die cu, func;

	if (s->dbg->symbol_note)
		probe_msg(s->msgs, false, "%s", s->dbg->symbol_note);
	log_symbol(s->dbg, s->spec->point.function, s->symbol_addr, s->msgs);
	if (!dwarf_addrdie(s->dbg->dw, s->symbol_addr, &cu)) {
		probe_msg(s->msgs, false, "Failed to find debug information for address %lx\n",
			  (unsigned long)s->symbol_addr);
		return -EINVAL;
	}
	if (!function_in_any_cu(s->dbg, s->symbol_addr, &cu, &func))
		return 0;
	/* perf looks again, by the name the debug information gives */
	probe_msg(s->msgs, true, "Matched function: %s [%lx]\n", dwarf_diename(&func),
		  (unsigned long)dwarf_dieoffset(&func));
	return function_sites(&cu, &func, s);
}

static int search_sites(struct site_search *s)
{
	const struct probe_point *pp = &s->spec->point;
	int ret;

	if (pp->lazy && !pp->function) {
		probe_msg(s->msgs, false, "Lazy patterns need a function here.\n");
		return -EOPNOTSUPP;
	}
	if (pp->function)
		ret = for_each_function(s->dbg, pp->function, pp->file, function_sites, s, s->msgs);
	else if (pp->file)
		ret = file_line_sites(s);
	else
		ret = 0;	/* ":LINE" names no place (perf reads garbage there) */
	if (ret)
		return ret;
	/* -V: perf looks for no symbol of a function in a given file */
	if (!s->nr && pp->function && pp->file && !s->convert)
		return -EOPNOTSUPP;
	/* only a function the debug information does not name by its
	 * symbol's name: a line of one it has with no code is no site */
	if (!s->nr && pp->function && s->symbol_addr && !s->matched)
		ret = symbol_site(s);
	if (ret)
		return ret;
	if (!s->nr) {
		s->not_found = true;
		return -ENOENT;
	}
	return s->nr;
}

char *probe_debug__function_at(struct probe_debug *dbg, uint64_t addr, struct probe_msgs *msgs)
{
	Dwarf_Die cu, func;

	if (!dwarf_addrdie(dbg->dw, addr, &cu)) {
		probe_msg(msgs, false, "Failed to find debug information for address %lx\n",
			  (unsigned long)addr);
		return NULL;
	}
	return function_in_any_cu(dbg, addr, &cu, &func) && dwarf_diename(&func)
		       ? xstrdup(dwarf_diename(&func))
		       : NULL;
}

int probe_debug__find_sites(struct probe_debug *dbg, const struct probe_spec *spec,
			    struct probe_msgs *msgs, struct probe_site **sites)
{
	struct site_search s = { .dbg = dbg, .spec = spec, .msgs = msgs, .convert = true };
	int ret = search_sites(&s);

	if (s.not_found)
		return 0;
	if (ret < 0) {
		/* perf names the failure of its debuginfo analysis */
		probe_msg(msgs, true, "An error occurred in debuginfo analysis (%d).\n", ret);
		probe_sites__free(s.sites, s.nr);
		return ret;
	}
	*sites = s.sites;
	return ret;
}

void probe_debug__log_open(const char *path, struct probe_msgs *msgs)
{
	probe_msg(msgs, true, "Open Debuginfo file: %s\n", path);
}

const char *probe_debug__path(const struct probe_debug *dbg)
{
	return dbg->path;
}

void probe_debug__log_search_start(const struct probe_debug *dbg, const char *binary,
				   struct probe_msgs *msgs)
{
	probe_debug__log_open(dbg->separate ? dbg->path : binary, msgs);
	probe_msg(msgs, true, "Try to find probe point from debuginfo.\n");
}

void probe_debug__log_search(const struct probe_debug *dbg, const char *binary,
			     const struct probe_spec *spec, struct probe_msgs *msgs)
{
	probe_debug__log_search_start(dbg, binary, msgs);
	/* perf learns what the tracer supports before converting arguments */
	if (spec->nr_args)
		probe_trace__log_readme(msgs);
}

void probe_debug__log_found(int nr, struct probe_msgs *msgs)
{
	probe_msg(msgs, true, "Found %d probe_trace_events.\n", nr);
}

void probe_sites__free(struct probe_site *sites, int nr)
{
	for (int i = 0; i < nr; i++)
		site__clear(&sites[i]);
	free(sites);
}

/* --- -V -------------------------------------------------------------------- */

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

struct vars_at {
	struct probe_debug *dbg;
	bool range;	/* --range: where each variable has a location */
	const char *filter;	/* --filter: the names shown */
	Dwarf_Die *func;
	char **lines;
	int nr;
};

/* --range: where the variable has a location, as offsets in the
 * function: its scope's ranges for a single location, else each entry of
 * its location list. */
static void add_ranges(struct strbuf *sb, Dwarf_Die *var, Dwarf_Die *scope, Dwarf_Die *func)
{
	Dwarf_Attribute attr;
	Dwarf_Addr low = entry_of(func), base, start, end;
	Dwarf_Op *expr;
	size_t len;
	ptrdiff_t off = 0;
	bool first = true, whole = false;

	strbuf_addf(sb, "\t@<%s+[", dwarf_diename(func));
	if (!dwarf_attr_integrate(var, DW_AT_location, &attr)) {
		strbuf_addstr(sb, "]>");
		return;
	}
	while ((off = dwarf_getlocations(&attr, off, &base, &start, &end, &expr, &len)) > 0) {
		if (start == 0 && end == (Dwarf_Addr)-1) {
			whole = true;
			break;
		}
		strbuf_addf(sb, "%s%lu-%lu", first ? "" : ",", (unsigned long)(start - low),
			    (unsigned long)(end - low));
		first = false;
	}
	for (off = 0; whole && (off = dwarf_ranges(scope, off, &base, &start, &end)) > 0;) {
		strbuf_addf(sb, "%s%lu-%lu", first ? "" : ",", (unsigned long)(start - low),
			    (unsigned long)(end - low));
		first = false;
	}
	strbuf_addstr(sb, "]>");
}

/* One -V line; with --range, its kind and (but for globals) its ranges. */
static void add_var_line(struct vars_at *v, Dwarf_Die *var, Dwarf_Die *scope, const char *kind,
			 struct probe_msgs *msgs)
{
	struct strbuf sb = STRBUF_INIT;
	const char *prefix = v->range ? kind : "";
	const char *sep = v->range ? "\t" : "";

	strbuf_addf(&sb, "\t\t%s%s", prefix, sep);
	if (!add_type_name(&sb, var)) {
		probe_msg(msgs, true, "Failed to get type, make it unknown.\n");
		strbuf_reset(&sb);
		strbuf_addf(&sb, "\t\t%s%s(unknown_type)", prefix, sep);
	}
	strbuf_addf(&sb, "\t%s", dwarf_diename(var));
	if (v->range && strcmp(kind, "[EXT]"))
		add_ranges(&sb, var, scope, v->func);
	strbuf_addch(&sb, '\n');
	for (int i = 0; i < v->nr; i++)
		if (!strcmp(v->lines[i], sb.buf)) {
			strbuf_release(&sb);
			return;
		}
	v->lines = xrealloc(v->lines, (v->nr + 1) * sizeof(*v->lines));
	v->lines[v->nr++] = strbuf_detach(&sb);
}

/* What -V says of a variable at addr: fetchable (VAL), located elsewhere
 * only (INV, shown with --range), or nothing. */
enum var_state {
	VAR_NONE,
	VAR_VAL,
	VAR_INV
};

/* Whether -V lists the variable at addr from its location's first
 * operation alone, as perf does: a fixed address (no symbol looked up)
 * or a register, whatever its number (xmm0 too, which no fetch names). */
static bool listed_as_is(Dwarf_Die *var, Dwarf_Addr addr)
{
	Dwarf_Attribute attr;
	Dwarf_Op *ops;
	size_t nops;
	unsigned atom;

	if (!dwarf_attr_integrate(var, DW_AT_location, &attr) ||
	    dwarf_getlocation_addr(&attr, addr, &ops, &nops, 1) <= 0 || !nops)
		return false;
	atom = ops[0].atom;
	return atom == DW_OP_addr || atom == DW_OP_regx || atom == DW_OP_bregx ||
	       (atom >= DW_OP_reg0 && atom <= DW_OP_reg31) ||
	       (atom >= DW_OP_breg0 && atom <= DW_OP_breg31);
}

static enum var_state var_state(struct vars_at *v, Dwarf_Die *var, Dwarf_Addr addr,
				struct probe_msgs *msgs)
{
	Dwarf_Attribute attr;
	Dwarf_Op *ops;
	size_t nops;
	struct fetch f;

	/* perf lists what is marked external as it stands (a declaration
	 * too), before any location */
	if (dwarf_attr(var, DW_AT_external, &attr))
		return VAR_VAL;
	if (v->range && !dwarf_attr_integrate(var, DW_AT_location, &attr))
		return VAR_NONE;	/* constants have no range to show */
	if (v->range && dwarf_getlocation_addr(&attr, addr, &ops, &nops, 1) <= 0) {
		/* perf looks further on for the variable's next location and
		 * lists it if that one could be fetched */
		Dwarf_Addr base, start, end, next = (Dwarf_Addr)-1;
		Dwarf_Op *expr;
		size_t len;

		Dwarf_Addr entry, high;

		for (ptrdiff_t off = 0;
		     (off = dwarf_getlocations(&attr, off, &base, &start, &end, &expr, &len)) > 0;)
			if (start > addr && start < next)
				next = start;
		/* within the function's own [entry, high_pc] (none for one
		 * split in parts), as perf searches */
		if (next == (Dwarf_Addr)-1 || dwarf_entrypc(v->func, &entry) ||
		    dwarf_highpc(v->func, &high) || next > high)
			return VAR_NONE;
		if (listed_as_is(var, next))
			return VAR_INV;
		if (var_location(v->dbg, v->func, var, next, &f, msgs))
			return VAR_NONE;
		free(f.base);
		return VAR_INV;
	}
	if (listed_as_is(var, addr))
		return VAR_VAL;
	if (var_location(v->dbg, v->func, var, addr, &f, msgs))
		return VAR_NONE;
	free(f.base);
	return VAR_VAL;
}

struct shown_vars {
	struct vars_at *v;
	Dwarf_Addr addr;
	bool global;
	struct probe_msgs *msgs;
};

static bool show_var(Dwarf_Die *var, Dwarf_Die *scope, void *arg)
{
	struct shown_vars *sv = arg;
	enum var_state state;

	if (!dwarf_diename(var) || !probe_strfilter_match(sv->v->filter, dwarf_diename(var)))
		return false;
	/* a local constant (the parameter a clone was specialized on): perf
	 * asks the tracer about immediates (README); with --range it has no
	 * range to show, notes so and leaves it out */
	bool constant = !sv->global && dwarf_hasattr(var, DW_AT_const_value) &&
			!dwarf_hasattr(var, DW_AT_location);

	if (constant)
		probe_trace__log_readme(sv->msgs);
	if (constant && sv->v->range) {
		if (sv->msgs->verbose) {
			struct strbuf sb = STRBUF_INIT;

			strbuf_addstr(&sb, "[VAL]\t");
			if (!add_type_name(&sb, var))
				strbuf_addstr(&sb, "(unknown_type)");
			probe_msg(sv->msgs, true, "Add new var: %s\t%s\t\n", sb.buf,
				  dwarf_diename(var));
			strbuf_release(&sb);
		}
		return false;
	}
	/* perf lists a constant of the file's scope as it lists an extern */
	state = sv->global && dwarf_hasattr(var, DW_AT_const_value)
			? VAR_VAL
			: var_state(sv->v, var, sv->addr, sv->msgs);
	int nr = sv->v->nr;

	if (state != VAR_NONE)
		add_var_line(sv->v, var, scope,
			     sv->global		? "[EXT]"
			     : state == VAR_VAL ? "[VAL]"
						: "[INV]",
			     sv->msgs);
	/* perf -v logs each variable it lists ("TYPE\tNAME") */
	if (sv->v->nr > nr)
		probe_msg(sv->msgs, true, "Add new var: %s", sv->v->lines[nr] + 2);
	return false;
}

/* -V's "@<FUNC+OFF>" of a site.  perf names a function without an entry
 * address of its own (one split in hot and cold parts) by libdwfl's
 * symbol lookup, which it asks without the bias libdwfl gave a shared
 * object (0x10000): the symbol that far below, as perf shows it. */
static void add_site_label(struct strbuf *out, struct probe_debug *dbg, Dwarf_Die *func,
			   Dwarf_Addr addr, struct probe_msgs *msgs)
{
	Dwarf_Addr pc, offset = 0;
	Elf *elf = dwarf_getelf(dbg->dw);
	GElf_Ehdr ehdr;
	const char *name = NULL;

	if (dwarf_entrypc(func, &pc) && elf && gelf_getehdr(elf, &ehdr))
		name = symbol_holding(elf, addr - (ehdr.e_type == ET_DYN ? 0x10000 : 0), &offset);
	if (!name) {
		name = dwarf_diename(func);
		offset = addr - entry_of(func);
	}
	/* perf -v names the site as it labels it */
	probe_msg(msgs, true, "Probe point found: %s+%lu\n", name, (unsigned long)offset);
	strbuf_addf(out, "\t@<%s+%lu>\n", name, (unsigned long)offset);
}

int probe_debug__show_vars(struct probe_debug *dbg, const struct probe_spec *spec, bool externs,
			   bool range, const char *filter, uint64_t symbol_addr, int max_probes,
			   struct strbuf *out, struct probe_msgs *msgs)
{
	struct site_search s = { .dbg = dbg, .spec = spec, .msgs = msgs,
				 .symbol_addr = symbol_addr };
	char *point = probe_spec__point_text(spec);

	probe_msg(msgs, true, "Searching variables at %s\n", point);
	s.logged = msgs->text.len;
	/* perf makes room for max_probes sites first: a negative count fails */
	int ret = max_probes < 0 ? -ENOMEM : search_sites(&s);
	/* what was said after the last site comes after its variables */
	char *after = xstrdup(strbuf_str(&msgs->text) + s.logged);

	strbuf_setlen(&msgs->text, s.logged);
	for (int i = 0; i < s.nr && ret < 0; i++)
		if (s.sites[i].log)
			strbuf_addstr(&msgs->text, s.sites[i].log);
	if (ret < 0) {
		strbuf_addstr(&msgs->text, after);
		free(after);
	}

	if (ret == -ENOENT)
		probe_msg(msgs, false, "Failed to find the address of %s\n", point);
	else if (ret < 0)
		probe_msg(msgs, false, "Debuginfo analysis failed.\n");
	if (ret < 0) {
		free(point);
		return ret;
	}

	strbuf_addf(out, "Available variables at %s\n", point);
	free(point);
	for (int i = 0; i < s.nr; i++) {
		struct vars_at v = { dbg, range, filter ? filter : "!__k???tab_* & !__crc_*", NULL,
				     NULL, 0 };
		Dwarf_Die scope, func;
		Dwarf_Off off = 0, next;
		size_t hsize;
		Dwarf_Die cu;
		bool found = false;

		if (s.sites[i].log)
			strbuf_addstr(&msgs->text, s.sites[i].log);
		while (!found && dwarf_nextcu(dbg->dw, off, &next, &hsize, NULL, NULL, NULL) == 0) {
			found = dwarf_offdie(dbg->dw, off + hsize, &cu) &&
				function_at(&cu, s.sites[i].addr, &func);
			off = next;
		}
		if (!found)
			continue;
		v.func = &func;
		/* the site's scope (an inlined instance's own), then globals */
		struct shown_vars sv = { &v, s.sites[i].addr, false, msgs };

		if (!dwarf_offdie(dbg->dw, s.sites[i].scope, &scope))
			scope = func;
		/* a function is named as matched (an alias at its address
		 * too), an inlined instance by the function holding it */
		add_site_label(out, dbg, dwarf_tag(&scope) == DW_TAG_subprogram ? &scope : &func,
			       s.sites[i].addr, msgs);
		walk_vars(&scope, s.sites[i].addr, true, show_var, &sv);
		sv.global = true;
		if (externs)
			walk_vars(&cu, s.sites[i].addr, false, show_var, &sv);
		if (v.nr)	/* qsort takes no NULL array, even empty */
			qsort(v.lines, v.nr, sizeof(*v.lines), cmp_str);
		else
			strbuf_addstr(out, "\t\t(No matched variables)\n");
		for (int k = 0; k < v.nr; k++) {
			strbuf_addstr(out, v.lines[k]);
			free(v.lines[k]);
		}
		free(v.lines);
	}
	strbuf_addstr(&msgs->text, after);
	free(after);
	probe_sites__free(s.sites, s.nr);
	return 0;
}

/* --- -L -------------------------------------------------------------------- */

struct line_range {
	struct probe_msgs *msgs;	/* perf -v's lines as the range is found */
	char *function;
	char *file;
	int start, end;	/* relative to offset; end INT_MAX: open */
	int offset;	/* the function's declaration line, or 0 */
	char *path;	/* source found, as the line table names it */
	char *shown;	/* the same, as perf shows it (and where it is read) */
	bool *numbered;	/* by absolute line */
	int nr_lines;
};

static void mark_line(struct line_range *lr, int line)
{
	if (line <= 0)
		return;
	if (line >= lr->nr_lines) {
		lr->numbered = xrealloc(lr->numbered, (line + 1) * sizeof(bool));
		memset(lr->numbered + lr->nr_lines, 0, (line + 1 - lr->nr_lines) * sizeof(bool));
		lr->nr_lines = line + 1;
	}
	lr->numbered[line] = true;
}

static bool in_range(const struct line_range *lr, int line)
{
	return line >= lr->offset + lr->start &&
	       (lr->end == INT_MAX || line <= lr->offset + lr->end);
}

/* Marks the reversible lines of cu (of func when given) in the range. */
static void mark_cu_lines(struct line_range *lr, Dwarf_Die *cu, Dwarf_Die *func)
{
	struct line_row *rows;
	int nr = cu_rows(cu, &rows);

	for (int i = 0; i < nr; i++) {
		const struct line_row *r = &rows[i];

		if (!r->stmt || !in_range(lr, r->line) || strcmp(r->file, lr->path))
			continue;
		if (func && dwarf_haspc(func, r->addr) <= 0)
			continue;
		if (reversible(cu, rows, nr, r))
			mark_line(lr, r->line);
	}
	free(rows);
}

/* Whether a function's entry names its declaration line back (an
 * inlined instance's need not). */
static bool entry_names_declaration(Dwarf_Die *cu, Dwarf_Die *func)
{
	struct line_row *rows;
	int nr = cu_rows(cu, &rows);
	const char *file = NULL, *decl = dwarf_decl_file(func);
	int line = reverse_line(cu, rows, nr, entry_of(func), &file);
	bool named = line == decl_line_of(func) && file && decl && !strcmp(file, decl);

	free(rows);
	return named;
}

/* Marks the lines of a function, or of every instance of an inline one
 * (perf takes them all). */
/* perf -v's lines as it takes a function's range, offset from base */
static void log_new_range(const struct line_range *lr, int base)
{
	if (!lr->msgs)
		return;
	probe_msg(lr->msgs, true, "fname: %s, lineno:%d\n", *lr->path ? lr->path : "(null)",
		  lr->offset);
	probe_msg(lr->msgs, true, "New line range: %d to %d\n", base + lr->start,
		  lr->end == INT_MAX ? INT_MAX : base + lr->end);
}

static int range_function_cb(Dwarf_Die *cu, Dwarf_Die *func, void *arg)
{
	struct line_range *lr = arg;
	bool instance = dwarf_hasattr(func, DW_AT_abstract_origin);

	if (!lr->path) {
		lr->path = xstrdup(dwarf_decl_file(func) ? dwarf_decl_file(func) : "");
		lr->shown = source_path(cu, lr->path);
		lr->offset = decl_line_of(func);
		log_new_range(lr, lr->offset);
	}
	if (in_range(lr, lr->offset) && (!instance || entry_names_declaration(cu, func)))
		mark_line(lr, lr->offset);
	mark_cu_lines(lr, cu, func);
	return instance ? 0 : 1;
}

static int decl_lines_cb(Dwarf_Die *func, void *arg)
{
	struct line_range *lr = arg;
	const char *file = dwarf_decl_file(func);

	if (has_entry(func) && file && !strcmp(file, lr->path) && in_range(lr, decl_line_of(func)))
		mark_line(lr, decl_line_of(func));
	return DWARF_CB_OK;
}

/* The CU holding file lr->file: its full path becomes lr->path. */
static bool range_file(struct probe_debug *dbg, struct line_range *lr)
{
	Dwarf_Off off = 0, next;
	size_t hsize;

	while (dwarf_nextcu(dbg->dw, off, &next, &hsize, NULL, NULL, NULL) == 0) {
		Dwarf_Die cu;
		Dwarf_Files *files;
		size_t nfiles;

		if (dwarf_offdie(dbg->dw, off + hsize, &cu) &&
		    !dwarf_getsrcfiles(&cu, &files, &nfiles)) {
			for (size_t i = 0; i < nfiles; i++) {
				const char *f = dwarf_filesrc(files, i, NULL, NULL);

				if (f && tail_matches(f, lr->file)) {
					lr->path = xstrdup(f);
					lr->shown = source_path(&cu, f);
					mark_cu_lines(lr, &cu, NULL);
					dwarf_getfuncs(&cu, decl_lines_cb, lr, 0);
					return true;
				}
			}
		}
		off = next;
	}
	return false;
}

/* -s DIR: the source under DIR, as perf looks for it: DIR/PATH, then
 * with PATH's leading directories dropped one by one. */
static bool with_source_prefix(const char *prefix, const char *path, char **shown)
{
	for (const char *p = path; p; p = strchr(p + 1, '/')) {
		char *candidate = xasprintf("%s/%s", prefix, p);

		if (!access(candidate, R_OK)) {
			free(*shown);
			*shown = candidate;
			return true;
		}
		free(candidate);
	}
	return false;
}

/* "NAME[:START[+NUM|-END]][@SRC]" into lr. */
static int parse_range(struct line_range *lr, const char *text)
{
	char *copy = xstrdup(text);
	char *at = strchr(copy, '@');
	char *colon, *end;

	if (at) {
		*at = 0;
		lr->file = xstrdup(at + 1);
	}
	lr->end = INT_MAX;
	colon = strchr(copy, ':');
	if (colon) {
		*colon = 0;
		lr->start = (int)strtol(colon + 1, &end, 10);
		if (*end == '+')
			lr->end = lr->start + (int)strtol(end + 1, &end, 10) - 1;
		else if (*end == '-')
			lr->end = (int)strtol(end + 1, &end, 10);
		if (*end) {
			free(copy);
			return -EINVAL;
		}
	}
	if (strchr(copy, '.') && !at)
		lr->file = xstrdup(copy);
	else
		lr->function = xstrdup(copy);
	free(copy);
	return 0;
}

static void print_source(const struct line_range *lr, FILE *src, struct strbuf *out)
{
	char *line = NULL;
	size_t cap = 0;
	int first = lr->offset + lr->start, lastnum = 0;
	int last = lr->end == INT_MAX ? INT_MAX : lr->offset + lr->end;

	if (first < 1)
		first = 1;
	for (int l = lr->nr_lines - 1; l > 0; l--)
		if (lr->numbered[l]) {
			lastnum = l;
			break;
		}
	if (lr->end == INT_MAX)
		last = (lastnum >= first ? lastnum + 1 : first) + 2;
	for (int l = 1; getline(&line, &cap, src) > 0 && l <= last; l++) {
		if (l < first)
			continue;
		if (l < lr->nr_lines && lr->numbered[l])
			strbuf_addf(out, "%7d  %s", l - lr->offset, line);
		else
			strbuf_addf(out, "         %s", line);
	}
	free(line);
}

static bool range_numbered(const struct line_range *lr)
{
	bool numbered = false;

	for (int l = 0; l < lr->nr_lines; l++)
		numbered |= lr->numbered[l];
	return numbered;
}

/* perf -v's line once it has looked for the range: the source's path,
 * "(null)" when no line was found there. */
static void log_range_path(const struct line_range *lr, bool found)
{
	probe_msg(lr->msgs, true, "path: %s\n",
		  found && range_numbered(lr) && lr->path ? lr->path : "(null)");
}

void probe_line_range__log(const char *range, struct probe_msgs *msgs)
{
	struct line_range lr = { 0 };

	if (!parse_range(&lr, range) && strchr(range, ':'))
		probe_msg(msgs, true, "Line range is %d to %d\n", lr.start, lr.end);
	free(lr.function);
	free(lr.file);
}

int probe_debug__show_lines(struct probe_debug *dbg, const char *range, uint64_t symbol_addr,
			    struct strbuf *out, struct probe_msgs *msgs)
{
	struct line_range lr = { .msgs = msgs };
	bool found;
	int ret = 0;

	if (parse_range(&lr, range)) {
		ret = -EINVAL;
		goto out;
	}
	probe_debug__log_open(probe_debug__path(dbg), msgs);
	if (lr.function) {
		Dwarf_Die cu, func;

		for_each_function(dbg, lr.function, lr.file, range_function_cb, &lr, NULL);
		found = lr.path != NULL;
		log_range_path(&lr, found);
		if (found && !range_numbered(&lr) && !lr.file && symbol_addr) {
			/* perf looks again from the symbol, offsetting the
			 * range by the declaration's line once more */
			log_symbol(dbg, lr.function, symbol_addr, msgs);
			log_new_range(&lr, 2 * lr.offset);
			log_range_path(&lr, false);
		}
		/* a function the debug information names otherwise */
		if (!found && lr.file)
			symbol_addr = 0;	/* perf looks for no symbol then */
		if (!found && symbol_addr && dbg->symbol_note)
			probe_msg(msgs, false, "%s", dbg->symbol_note);
		if (!found && symbol_addr)
			log_symbol(dbg, lr.function, symbol_addr, msgs);
		if (!found && symbol_addr && !dwarf_addrdie(dbg->dw, symbol_addr, &cu)) {
			probe_msg(msgs, false,
				  "Failed to find debug information for address %lx\n"
				  "Debuginfo analysis failed.\n",
				  (unsigned long)symbol_addr);
			ret = -EINVAL;
			goto out;
		}
		if (!found && symbol_addr && function_in_any_cu(dbg, symbol_addr, &cu, &func)) {
			range_function_cb(&cu, &func, &lr);
			found = true;
			log_range_path(&lr, found);
		}
	} else {
		found = range_file(dbg, &lr);
		log_range_path(&lr, found);
	}
	bool numbered = range_numbered(&lr);

	if ((!found || !numbered) && lr.file) {
		/* perf looks no further for a file's lines: its analysis fails */
		probe_msg(msgs, false, "Debuginfo analysis failed.\n");
		ret = -EOPNOTSUPP;
		goto out;
	}
	if (!found || !numbered) {
		probe_msg(msgs, false, "Specified source line is not found.\n");
		ret = -ENOENT;
		goto out;
	}
	FILE *src = NULL;

	if (!dbg->source_prefix || with_source_prefix(dbg->source_prefix, lr.path, &lr.shown))
		src = fopen(lr.shown, "r");
	if (!src) {
		probe_msg(msgs, false, "Failed to find source file path.\n");
		ret = -ENOENT;
		goto out;
	}
	if (lr.function)
		strbuf_addf(out, "<%s@%s:%d>\n", lr.function, lr.shown, lr.start);
	else
		strbuf_addf(out, "<%s:%d>\n", lr.shown, lr.start);
	print_source(&lr, src, out);
	fclose(src);
out:
	free(lr.function);
	free(lr.file);
	free(lr.path);
	free(lr.shown);
	free(lr.numbered);
	return ret;
}

/* --- -l -------------------------------------------------------------------- */

char *probe_debug__describe(struct probe_debug *dbg, uint64_t addr, bool retprobe)
{
	Dwarf_Off off = 0, next;
	size_t hsize;

	while (dwarf_nextcu(dbg->dw, off, &next, &hsize, NULL, NULL, NULL) == 0) {
		Dwarf_Die cu, func;

		if (dwarf_offdie(dbg->dw, off + hsize, &cu) && function_at(&cu, addr, &func)) {
			struct line_row *rows;
			int nr = cu_rows(&cu, &rows);
			const char *file = NULL;
			int line = reverse_line(&cu, rows, nr, addr, &file);
			/* -l shows the file as the line table names it */
			char *decl = xstrdup(dwarf_decl_file(&func) ? dwarf_decl_file(&func) : "");
			const char *name = dwarf_diename(&func);
			char *text;

			if (retprobe)
				text = xasprintf("%s%%return@%s", name, decl);
			else if (line && file && line != decl_line_of(&func))
				text = xasprintf("%s:%d@%s", name, line - decl_line_of(&func),
						 decl);
			else if (line && file)
				text = xasprintf("%s@%s", name, decl);
			else
				text = xasprintf("%s+%lu@%s", name,
						 (unsigned long)(addr - entry_of(&func)), decl);
			free(decl);
			free(rows);
			return text;
		}
		off = next;
	}
	return NULL;
}

/* --- modules --------------------------------------------------------------- */

char *probe_debug__symbol_at(struct probe_debug *dbg, uint64_t addr, uint64_t *offset)
{
	GElf_Sym sym;
	GElf_Off off = 0;
	const char *name = dbg->module ? dwfl_module_addrinfo(dbg->module, addr, &off, &sym,
							     NULL, NULL, NULL)
				       : NULL;

	*offset = off;
	return name ? xstrdup(name) : NULL;
}
