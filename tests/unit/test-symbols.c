/* Unit tests for the symbol engine: ELF symbols against nm and readelf,
 * srcline and function names against addr2line, kallsyms and perf-map
 * parsing from synthesized files, demangling against c++filt.
 * The ELF fixture is build/fixtures/symtab (tests run from the repo root).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <elf.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <sys/mman.h>
#include <unistd.h>

#include "core/symbols/symbols-int.h"

#define FIXTURE "build/fixtures/symtab"
#define USER PERF_RECORD_MISC_USER
#define KERNEL PERF_RECORD_MISC_KERNEL
#define BASE 0x555555550000ULL	/* where the fixture is "mapped" */

struct nm_sym {
	uint64_t vaddr, size;
	char type;
	char name[128];
};

struct load {
	uint64_t offset, vaddr, filesz;
};

static char fixture[4096];
static struct nm_sym syms[256];
static int nsyms;
static struct load loads[8];
static int nloads;

/* File offset of a vaddr, from readelf's PT_LOAD table. */
static uint64_t file_offset(uint64_t vaddr)
{
	for (int i = 0; i < nloads; i++)
		if (vaddr >= loads[i].vaddr && vaddr < loads[i].vaddr + loads[i].filesz)
			return vaddr - loads[i].vaddr + loads[i].offset;
	fail_msg("vaddr %#lx in no PT_LOAD", (unsigned long)vaddr);
	return 0;
}

static int read_oracles(void **state)
{
	char cmd[8192], line[512];
	FILE *p;

	if (!realpath(FIXTURE, fixture))
		fail_msg("%s missing: run make fixtures", FIXTURE);
	snprintf(cmd, sizeof(cmd), "nm -nS --defined-only %s", fixture);
	p = popen(cmd, "r");
	while (p && fgets(line, sizeof(line), p) && nsyms < 256) {
		struct nm_sym *s = &syms[nsyms];
		unsigned long v, sz;

		if (sscanf(line, "%lx %lx %c %127s", &v, &sz, &s->type, s->name) == 4) {
			s->vaddr = v;
			s->size = sz;
			nsyms++;
		} else if (sscanf(line, "%lx %c %127s", &v, &s->type, s->name) == 3) {
			s->vaddr = v;
			s->size = 0;
			nsyms++;
		}
	}
	pclose(p);
	snprintf(cmd, sizeof(cmd), "readelf -lW %s", fixture);
	p = popen(cmd, "r");
	while (p && fgets(line, sizeof(line), p) && nloads < 8) {
		unsigned long off, va, pa, fsz;

		if (sscanf(line, " LOAD %lx %lx %lx %lx", &off, &va, &pa, &fsz) == 4)
			loads[nloads++] = (struct load){ off, va, fsz };
	}
	pclose(p);
	assert_true(nsyms > 10);
	assert_true(nloads >= 2);
	return 0;
}

static const struct nm_sym *nm_find(const char *name)
{
	for (int i = 0; i < nsyms; i++)
		if (!strcmp(syms[i].name, name))
			return &syms[i];
	fail_msg("nm has no %s", name);
	return NULL;
}

static bool is_text(const struct nm_sym *s)
{
	return strchr("TtWw", s->type) != NULL;
}

/* A machine where pid 1 maps the whole fixture at BASE. */
/* A machine where process 1 has exe mapped at BASE. */
static struct machine *exe_machine(const char *exe, struct thread **t)
{
	struct machine *m = machine__new();

	machine__symbols_config(m)->buildid_dir = "/nonexistent";
	machine__process_mmap(m, 1, 1, BASE, 0x10000, 0, exe, USER, NULL, 0);
	*t = machine__findnew_thread(m, 1, 1);
	return m;
}

static struct machine *fixture_machine(struct thread **t)
{
	return exe_machine(fixture, t);
}

static struct symbol *lookup(struct machine *m, struct thread *t, uint64_t vaddr,
			     struct addr_location *al)
{
	assert_true(machine__resolve(m, t, USER, BASE + file_offset(vaddr), al));
	return al->sym;
}

static void test_symbols_match_nm(void **state)
{
	struct thread *t;
	struct machine *m = fixture_machine(&t);
	struct addr_location al;
	int checked = 0;

	for (int i = 0; i < nsyms; i++) {
		const struct nm_sym *s = &syms[i];
		struct symbol *sym;
		bool alias = (i > 0 && syms[i - 1].vaddr == s->vaddr) ||
			     (i + 1 < nsyms && syms[i + 1].vaddr == s->vaddr);

		if (!is_text(s) || !s->size || alias)
			continue;
		sym = lookup(m, t, s->vaddr, &al);
		assert_non_null(sym);
		assert_string_equal(sym->name, s->name);
		assert_int_equal(sym->start, file_offset(s->vaddr));
		assert_int_equal(sym->end - sym->start, s->size);
		/* Its last byte is still it. */
		assert_ptr_equal(lookup(m, t, s->vaddr + s->size - 1, &al), sym);
		assert_int_equal(al.addr - sym->start, s->size - 1);
		checked++;
	}
	assert_true(checked >= 5);
	machine__delete(m);
}

static void test_zero_size_and_alias(void **state)
{
	struct thread *t;
	struct machine *m = fixture_machine(&t);
	struct addr_location al;
	const struct nm_sym *zero = nm_find("zero_size_fn"), *next = NULL;
	struct symbol *sym;

	assert_int_equal(zero->size, 0);
	for (int i = 0; i < nsyms; i++)
		if (syms[i].vaddr > zero->vaddr && !next)
			next = &syms[i];
	/* Without a size it reaches the next symbol, as in perf. */
	sym = lookup(m, t, zero->vaddr + 3, &al);
	assert_non_null(sym);
	assert_string_equal(sym->name, "zero_size_fn");
	assert_int_equal(sym->end, file_offset(next->vaddr));

	/* Two global names, same address and size: perf keeps the longer. */
	assert_int_equal(nm_find("chain_a")->vaddr, nm_find("chain_alias")->vaddr);
	sym = lookup(m, t, nm_find("chain_a")->vaddr, &al);
	assert_string_equal(sym->name, "chain_alias");
	/* A mangled name counts demangled: "A::foo" has no leading underscore */
	sym = lookup(m, t, nm_find("tripled")->vaddr, &al);
	assert_string_equal(sym->name, "A::foo");

	/* Data objects are symbols too (static table in .data). */
	sym = dso__find_symbol(al.dso, file_offset(nm_find("table")->vaddr) + 4);
	assert_non_null(sym);
	assert_string_equal(sym->name, "table");
	machine__delete(m);
}

/* 200 random addresses inside the fixture's functions: function name and
 * srcline as addr2line gives them. */
static void test_against_addr2line(void **state)
{
	struct thread *t;
	struct machine *m = fixture_machine(&t);
	uint64_t addrs[200];
	char *cmd = NULL, line[1024], fn[512];
	size_t cmdlen = 0;
	FILE *cmdf = open_memstream(&cmd, &cmdlen), *p;
	int text[256], ntext = 0;

	for (int i = 0; i < nsyms; i++)
		if (is_text(&syms[i]) && syms[i].size)
			text[ntext++] = i;
	assert_true(ntext > 3);
	srand(42);
	fprintf(cmdf, "addr2line -f -e %s", fixture);
	for (int i = 0; i < 200; i++) {
		const struct nm_sym *s = &syms[text[rand() % ntext]];

		addrs[i] = s->vaddr + (uint64_t)rand() % s->size;
		fprintf(cmdf, " %#lx", (unsigned long)addrs[i]);
	}
	fclose(cmdf);
	p = popen(cmd, "r");
	for (int i = 0; i < 200; i++) {
		struct addr_location al;
		struct symbol *sym = lookup(m, t, addrs[i], &al);
		const char *ours = dso__srcline(al.dso, al.addr);
		char *base, *disc;

		assert_non_null(fgets(fn, sizeof(fn), p));
		assert_non_null(fgets(line, sizeof(line), p));
		fn[strcspn(fn, "\n")] = '\0';
		line[strcspn(line, "\n")] = '\0';
		if ((disc = strstr(line, " (discriminator")))
			*disc = '\0';
		base = strrchr(line, '/');
		base = base ? base + 1 : line;
		/* DWARF names chain_a and tripled where the symbol table keeps
		 * an alias (nm lists A::foo mangled) */
		if (strcmp(sym->name, fn))
			assert_int_equal(nm_find(strcmp(sym->name, "A::foo") ? sym->name :
						 "_ZN1A3fooEv")->vaddr, nm_find(fn)->vaddr);
		/* a function without a line: perf reads addr2line's "??:?" as
		 * "??:0" (and prints no srcline in script) */
		if (!strcmp(base, "??:?") || !strcmp(base, "??:0"))
			assert_string_equal(ours, "??:0");
		else
			assert_string_equal(ours, base);
	}
	pclose(p);
	free(cmd);
	machine__delete(m);
}

/* A unit whose first function comes from a header: gcc makes the header
 * line-table entry 1, which each sequence starts with, and bfd names that
 * initial entry by entry 0 (the .c file).  srcline says what addr2line
 * says, built and asked here. */
static void test_header_first_unit_like_addr2line(void **state)
{
	char dir[] = "/tmp/pcl-srcline-XXXXXX", cmd[2048], line[512], exe[600];
	FILE *f, *p;
	unsigned long fn = 0;
	struct machine *m;
	struct thread *t;

	assert_non_null(mkdtemp(dir));
	snprintf(cmd, sizeof(cmd), "%s/first.h", dir);
	f = fopen(cmd, "w");
	assert_non_null(f);
	fputs("static __attribute__((noinline)) int hfunc(int x)\n{\n\tint s = 0;\n\n"
	      "\tfor (int i = 0; i < x; i++)\n\t\ts += i * x;\n\treturn s;\n}\n", f);
	fclose(f);
	snprintf(cmd, sizeof(cmd), "%s/main.c", dir);
	f = fopen(cmd, "w");
	assert_non_null(f);
	fputs("#include \"first.h\"\nint main(int argc, char **argv)\n{\n"
	      "\treturn hfunc(argc * 1000) & 1;\n}\n", f);
	fclose(f);
	snprintf(exe, sizeof(exe), "%s/prog", dir);
	snprintf(cmd, sizeof(cmd), "cc -O1 -g -o %s %s/main.c && nm %s", exe, dir, exe);
	p = popen(cmd, "r");
	while (p && fgets(line, sizeof(line), p))
		if (strstr(line, " hfunc"))
			sscanf(line, "%lx", &fn);
	assert_int_equal(pclose(p), 0);
	assert_true(fn != 0);

	m = exe_machine(exe, &t);
	for (unsigned long off = 0; off < 8; off += 4) {
		struct addr_location al;
		const char *ours, *base;

		snprintf(cmd, sizeof(cmd), "addr2line -e %s %#lx", exe, fn + off);
		p = popen(cmd, "r");
		assert_non_null(fgets(line, sizeof(line), p));
		pclose(p);
		line[strcspn(line, "\n")] = '\0';
		base = strrchr(line, '/') ? strrchr(line, '/') + 1 : line;
		/* the mapping starts at file offset 0: vaddr = offset here */
		assert_true(machine__resolve(m, t, USER, BASE + fn + off, &al));
		ours = dso__srcline(al.dso, al.addr);
		assert_non_null(ours);
		assert_string_equal(ours, base);
		assert_non_null(strstr(ours, "main.c:"));
	}
	machine__delete(m);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	assert_int_equal(system(cmd), 0);
}

/* Code without DWARF: bfd names the file from the STT_FILE symbol before
 * the function, for a local one (addr2line "lfunc.s:?", perf "lfunc.s:0"),
 * not for a global one after other files' symbols ("??:?": nothing). */
static void test_file_symbol_without_dwarf_like_addr2line(void **state)
{
	char dir[] = "/tmp/pcl-srcline-XXXXXX", cmd[2048], line[512], exe[600];
	const char *names[] = { "lfunc", "gfunc" };
	FILE *f, *p;
	struct machine *m;
	struct thread *t;

	assert_non_null(mkdtemp(dir));
	snprintf(cmd, sizeof(cmd), "%s/funcs.s", dir);
	f = fopen(cmd, "w");
	assert_non_null(f);
	fputs("\t.file \"funcs.s\"\n\t.text\n\t.type lfunc, @function\nlfunc:\n\tnop\n\tnop\n\tret\n"
	      "\t.size lfunc, .-lfunc\n\t.globl gfunc\n\t.type gfunc, @function\ngfunc:\n"
	      "\tcall lfunc\n\tret\n\t.size gfunc, .-gfunc\n"
	      "\t.section .note.GNU-stack,\"\",@progbits\n", f);
	fclose(f);
	snprintf(cmd, sizeof(cmd), "%s/main.c", dir);
	f = fopen(cmd, "w");
	assert_non_null(f);
	fputs("void gfunc(void);\nint main(void)\n{\n\tgfunc();\n\treturn 0;\n}\n", f);
	fclose(f);
	snprintf(exe, sizeof(exe), "%s/prog", dir);
	snprintf(cmd, sizeof(cmd), "cc -c -o %s/funcs.o %s/funcs.s && cc -O1 -g -o %s %s/main.c %s/funcs.o",
		 dir, dir, exe, dir, dir);
	assert_int_equal(system(cmd), 0);

	m = exe_machine(exe, &t);
	for (int i = 0; i < 2; i++) {
		struct addr_location al;
		unsigned long fn = 0;
		const char *ours;
		char want[512], *q;

		snprintf(cmd, sizeof(cmd), "nm %s | grep ' %s$'", exe, names[i]);
		p = popen(cmd, "r");
		assert_non_null(fgets(line, sizeof(line), p));
		pclose(p);
		sscanf(line, "%lx", &fn);
		snprintf(cmd, sizeof(cmd), "addr2line -e %s %#lx", exe, fn + 1);
		p = popen(cmd, "r");
		assert_non_null(fgets(line, sizeof(line), p));
		pclose(p);
		line[strcspn(line, "\n")] = '\0';
		snprintf(want, sizeof(want), "%s", line);
		if ((q = strstr(want, ":?")))
			strcpy(q, ":0");
		assert_true(machine__resolve(m, t, USER, BASE + fn + 1, &al));
		ours = dso__srcline(al.dso, al.addr);
		assert_string_equal(ours ? ours : "??:0", want);
		assert_string_equal(want, i ? "??:0" : "funcs.s:0");
	}
	machine__delete(m);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	assert_int_equal(system(cmd), 0);
}

/* gcc ends main with a row after its last call (exit does not return), at
 * the address of the sequence's end: the CRT's _start after it has no line,
 * for bfd as for the DWARF standard, not main's last one. */
static void test_row_at_sequence_end_covers_nothing(void **state)
{
	char dir[] = "/tmp/pcl-srcline-XXXXXX", cmd[2048], line[512], exe[600];
	unsigned long start = 0;
	FILE *f, *p;
	struct machine *m;
	struct thread *t;

	assert_non_null(mkdtemp(dir));
	snprintf(cmd, sizeof(cmd), "%s/main.c", dir);
	f = fopen(cmd, "w");
	assert_non_null(f);
	fputs("#include <stdlib.h>\n__attribute__((noinline)) int work(int n)\n{\n\tint s = 0;\n\n"
	      "\tfor (int i = 0; i < n; i++)\n\t\ts += i * n;\n\treturn s;\n}\n"
	      "int main(int argc, char **argv)\n{\n\texit(work(argc) & 1);\n}\n", f);
	fclose(f);
	snprintf(exe, sizeof(exe), "%s/prog", dir);
	snprintf(cmd, sizeof(cmd), "cc -O2 -g -o %s %s/main.c && nm %s", exe, dir, exe);
	p = popen(cmd, "r");
	while (p && fgets(line, sizeof(line), p))
		if (strstr(line, " T _start\n"))
			sscanf(line, "%lx", &start);
	assert_int_equal(pclose(p), 0);
	assert_true(start != 0);

	m = exe_machine(exe, &t);
	for (unsigned long off = 0; off < 8; off += 4) {
		struct addr_location al;
		const char *ours;

		snprintf(cmd, sizeof(cmd), "addr2line -e %s %#lx", exe, start + off);
		p = popen(cmd, "r");
		assert_non_null(fgets(line, sizeof(line), p));
		pclose(p);
		assert_string_equal(line, "??:?\n");
		assert_true(machine__resolve(m, t, USER, BASE + start + off, &al));
		assert_string_equal(al.sym->name, "_start");
		ours = dso__srcline(al.dso, al.addr);
		assert_string_equal(ours ? ours : "??:0", "??:0");
	}
	machine__delete(m);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	assert_int_equal(system(cmd), 0);
}

/* A library exporting nothing (.dynsym holds only its null entry): no
 * symbols to install, none named (and no memcpy from a NULL table: UBSan
 * in unit-asan). */
static void test_library_without_functions(void **state)
{
	char dir[] = "/tmp/pcl-symtab-XXXXXX", cmd[2048], lib[600];
	struct machine *m;
	struct thread *t;
	struct addr_location al;

	assert_non_null(mkdtemp(dir));
	snprintf(lib, sizeof(lib), "%s/libdata.so", dir);
	snprintf(cmd, sizeof(cmd), "echo 'static int hidden = 1;' > %s/data.c && "
		 "cc -shared -nostdlib -o %s %s/data.c && strip %s", dir, lib, dir, lib);
	assert_int_equal(system(cmd), 0);
	m = machine__new();
	machine__symbols_config(m)->buildid_dir = "/nonexistent";
	machine__process_mmap(m, 1, 1, BASE, 0x1000, 0, lib, USER, NULL, 0);
	t = machine__findnew_thread(m, 1, 1);
	assert_true(machine__resolve(m, t, USER, BASE + 0x10, &al));
	assert_non_null(al.dso);
	assert_null(al.sym);
	machine__delete(m);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	assert_int_equal(system(cmd), 0);
}

/* PLT entries are named "fn@plt" (or _init where perf's tree says so) and,
 * having no DWARF, are not expanded into inlined functions: bfd does not
 * name them after _init (the last function before them, but in another
 * section). */
static void test_plt_entries(void **state)
{
	struct thread *t;
	struct machine *m = fixture_machine(&t);
	char cmd[4200], line[512], name[256];
	unsigned long vaddr;
	int nplt = 0;
	bool in_plt = false;
	FILE *p;

	snprintf(cmd, sizeof(cmd), "objdump -d %s", fixture);
	p = popen(cmd, "r");
	while (p && fgets(line, sizeof(line), p)) {
		struct addr_location al;
		struct symbol *sym;
		int nr = -1;
		size_t len;

		if (!strncmp(line, "Disassembly of section ", 23))
			in_plt = !strcmp(line, "Disassembly of section .plt:\n");
		/* objdump labels .plt entries "<fn@plt>:" (and the header after
		 * one); .plt.got entries get no symbol of their own. */
		if (!in_plt || sscanf(line, "%lx <%255[^>]>:", &vaddr, name) != 2 ||
		    (len = strlen(name)) < 4 || strcmp(name + len - 4, "@plt"))
			continue;
		sym = lookup(m, t, vaddr, &al);
		assert_non_null(sym);
		/* perf's symbol tree may meet the size-less _init first, its end
		 * fixed past .plt (core/symtree.c): then _init covers the entry */
		if (strcmp(sym->name, name)) {
			assert_string_equal(sym->name, "_init");
			assert_true(sym->start < al.addr && al.addr < sym->end);
		}
		assert_null(dso__inlines(al.dso, al.addr, sym, &nr));
		assert_int_equal(nr, 0);
		nplt++;
	}
	pclose(p);
	assert_true(nplt > 0);
	machine__delete(m);
}

static char *write_temp(const char *content)
{
	char *path = strdup("/tmp/pcl-test-XXXXXX");
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, content, strlen(content)), (ssize_t)strlen(content));
	close(fd);
	return path;
}

static const char kallsyms_text[] =
	"ffffffff81000000 T _text\n"
	"ffffffff81000000 T startup_64\n"
	"ffffffff81000100 t local_fn\n"
	"ffffffff81000180 W weak_fn\n"
	"ffffffff81000200 r rodata_sym\n"
	"ffffffff81000300 D data_sym\n"
	"ffffffff81000400 T last_fn\n"
	"0000000000000000 A fixed_percpu\n"
	"garbage line\n"
	"ffffffffc0000000 t mod_fn\t[mymod]\n"
	"ffffffffc0000040 t mod_fn2\t[mymod]\n";

static const char *kresolve(struct machine *m, uint64_t ip, uint64_t *off)
{
	struct addr_location al;

	if (!machine__resolve(m, machine__findnew_thread(m, 0, 0), KERNEL, ip, &al) || !al.sym)
		return NULL;
	*off = al.addr - al.sym->start;
	return al.sym->name;
}

static void test_kallsyms(void **state)
{
	char *path = write_temp(kallsyms_text);
	struct machine *m = machine__new();
	struct addr_location al;
	uint64_t off;

	machine__symbols_config(m)->kallsyms = path;
	machine__process_mmap(m, -1, 0, 0xffffffff81000000, 0x1000, 0xffffffff81000000,
			      "[kernel.kallsyms]_text", KERNEL, NULL, 0);
	machine__process_mmap(m, -1, 0, 0xffffffffc0000000, 0x1000, 0, "[mymod]", KERNEL, NULL, 0);
	assert_string_equal(kresolve(m, 0xffffffff81000110, &off), "local_fn");
	assert_int_equal(off, 0x10);
	/* _text and startup_64 share an address: the one with a size wins. */
	assert_string_equal(kresolve(m, 0xffffffff81000010, &off), "startup_64");
	/* 'r' symbols are not kept: weak_fn runs up to data_sym. */
	assert_string_equal(kresolve(m, 0xffffffff81000250, &off), "weak_fn");
	assert_int_equal(off, 0xd0);
	assert_string_equal(kresolve(m, 0xffffffff81000310, &off), "data_sym");
	assert_string_equal(kresolve(m, 0xffffffff81000ff0, &off), "last_fn");
	/* Module symbols land in the module, relative to its map. */
	assert_true(machine__resolve(m, NULL, KERNEL, 0xffffffffc0000050, &al));
	assert_string_equal(al.dso->short_name, "[mymod]");
	assert_string_equal(al.sym->name, "mod_fn2");
	assert_int_equal(al.addr - al.sym->start, 0x10);
	machine__delete(m);

	/* Recorded at another KASLR offset: _text in the record moves all. */
	m = machine__new();
	machine__symbols_config(m)->kallsyms = path;
	machine__process_mmap(m, -1, 0, 0xffffffff80000000, 0x1000, 0xffffffff80000000,
			      "[kernel.kallsyms]_text", KERNEL, NULL, 0);
	assert_string_equal(kresolve(m, 0xffffffff80000110, &off), "local_fn");
	assert_int_equal(off, 0x10);
	machine__delete(m);
	unlink(path);
	free(path);
}

/* The kernel MMAP record ends at _etext; init text past it still belongs
 * to the kernel, up to its last symbol or the next map. */
static void test_kallsyms_init_text(void **state)
{
	char *path = write_temp("ffffffff81000000 T _text\n"
				"ffffffff81000100 T text_fn\n"
				"ffffffff82000000 T _sinittext\n"
				"ffffffff82000100 T start_kernel\n"
				"ffffffff82000200 T x86_64_start_kernel\n"
				"ffffffffc0000000 t mod_fn\t[mymod]\n");
	struct machine *m = machine__new();
	struct addr_location al;
	uint64_t off;

	machine__symbols_config(m)->kallsyms = path;
	machine__process_mmap(m, -1, 0, 0xffffffff81000000, 0x1000, 0xffffffff81000000,
			      "[kernel.kallsyms]_text", KERNEL, NULL, 0);
	/* The first lookup is outside the recorded map: it loads kallsyms. */
	assert_string_equal(kresolve(m, 0xffffffff82000110, &off), "start_kernel");
	assert_int_equal(off, 0x10);
	assert_string_equal(kresolve(m, 0xffffffff82000200, &off), "x86_64_start_kernel");
	assert_string_equal(kresolve(m, 0xffffffff81000110, &off), "text_fn");
	/* Beyond the last kernel symbol nothing is mapped. */
	assert_false(machine__resolve(m, NULL, KERNEL, 0xffffffff90000000, &al));
	machine__delete(m);

	/* A module mapped right after start_kernel bounds the kernel map. */
	m = machine__new();
	machine__symbols_config(m)->kallsyms = path;
	machine__process_mmap(m, -1, 0, 0xffffffff81000000, 0x1000, 0xffffffff81000000,
			      "[kernel.kallsyms]_text", KERNEL, NULL, 0);
	machine__process_mmap(m, -1, 0, 0xffffffff82000180, 0x1000, 0, "[mymod]", KERNEL, NULL, 0);
	assert_true(machine__resolve(m, NULL, KERNEL, 0xffffffff82000110, &al));
	assert_string_equal(al.dso->short_name, "[kernel.kallsyms]");
	assert_true(machine__resolve(m, NULL, KERNEL, 0xffffffff82000200, &al));
	assert_string_equal(al.dso->short_name, "[mymod]");
	machine__delete(m);
	unlink(path);
	free(path);
}

static void test_perf_map(void **state)
{
	struct machine *m = machine__new();
	pid_t pid = 4194000 + (getpid() % 300);
	char path[64];
	struct addr_location al;
	struct thread *t;
	int fd;

	snprintf(path, sizeof(path), "/tmp/perf-%d.map", (int)pid);
	unlink(path);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0600);
	assert_true(fd >= 0);
	dprintf(fd, "1000 20 jit one\n1020 10 LazyCompile:*two foo.js:1\nnot a line\n"
		    "2000 0 zero\n");
	close(fd);

	machine__process_mmap2(m, pid, pid, 0x1000, 0x2000, 0, "//anon", USER, NULL, 0,
			       PROT_READ | PROT_EXEC, MAP_PRIVATE);
	t = machine__findnew_thread(m, pid, pid);
	assert_true(machine__resolve(m, t, USER, 0x1005, &al));
	assert_string_equal(al.dso->long_name, path);
	assert_string_equal(al.sym->name, "jit one");
	assert_int_equal(al.addr - al.sym->start, 5);
	assert_true(machine__resolve(m, t, USER, 0x102f, &al));
	assert_string_equal(al.sym->name, "LazyCompile:*two foo.js:1");
	/* Sizes are taken as written: zero covers its first byte only. */
	assert_true(machine__resolve(m, t, USER, 0x2000, &al));
	assert_string_equal(al.sym->name, "zero");
	assert_true(machine__resolve(m, t, USER, 0x2001, &al));
	assert_null(al.sym);
	machine__delete(m);

	/* Someone else's map is refused (we are that someone when root). */
	if (geteuid() == 0 && chown(path, 12345, 12345) == 0) {
		assert_false(perf_map__owner_ok(path, 0));
		assert_true(perf_map__owner_ok(path, 12345));
		m = machine__new();
		machine__process_mmap2(m, pid, pid, 0x1000, 0x2000, 0, "//anon", USER, NULL, 0,
				       PROT_READ | PROT_EXEC, MAP_PRIVATE);
		t = machine__findnew_thread(m, pid, pid);
		assert_true(machine__resolve(m, t, USER, 0x1005, &al));
		assert_null(al.sym);
		machine__delete(m);
	} else {
		assert_true(perf_map__owner_ok(path, geteuid()));
		assert_false(perf_map__owner_ok(path, geteuid() + 1) && geteuid() != 0);
	}
	unlink(path);
}

static void test_demangle(void **state)
{
	const char *cxx[] = {
		"_ZN2ns3Foo4workIlEElT_RSt6vectorIiSaIiEE",
		"_ZNKSt6vectorIiSaIiEE4sizeEv",
		"_ZN9__gnu_cxx13new_allocatorIcED2Ev",
		"_Z3fooPKc",
	};
	char *d;

	for (size_t i = 0; i < sizeof(cxx) / sizeof(cxx[0]); i++) {
		char cmd[256], want[512];
		FILE *p;

		/* perf shows names without parameter lists: c++filt -p. */
		snprintf(cmd, sizeof(cmd), "c++filt -p '%s'", cxx[i]);
		p = popen(cmd, "r");
		assert_non_null(fgets(want, sizeof(want), p));
		pclose(p);
		want[strcspn(want, "\n")] = '\0';
		d = sym_demangle(cxx[i]);
		assert_non_null(d);
		assert_string_equal(d, want);
		free(d);
	}
	/* Rust legacy (hash dropped) and v0. */
	d = sym_demangle("_ZN4core3fmt5write17h0123456789abcdefE");
	assert_string_equal(d, "core::fmt::write");
	free(d);
	d = sym_demangle("_RNvCs1234_7mycrate3foo");
	assert_string_equal(d, "mycrate::foo");
	free(d);
	assert_null(sym_demangle("main"));
	assert_null(sym_demangle("_Z"));
}

static void test_build_ids(void **state)
{
	struct thread *t;
	struct machine *m = fixture_machine(&t);
	struct addr_location al;
	char cmd[4200], line[256], hex[41] = "";
	FILE *p;

	snprintf(cmd, sizeof(cmd), "readelf -n %s", fixture);
	p = popen(cmd, "r");
	while (fgets(line, sizeof(line), p))
		if (sscanf(line, " Build ID: %40s", hex) == 1)
			break;
	pclose(p);
	assert_int_equal(strlen(hex), 40);
	assert_true(machine__resolve(m, t, USER, BASE + 0x1000, &al));
	assert_int_equal(dso__read_build_id(al.dso), 20);
	{
		char got[41];

		build_id__hex(al.dso->build_id, al.dso->build_id_size, got);
		assert_string_equal(got, hex);
	}
	machine__delete(m);

	/* A recorded build id that differs: the file is not that DSO. */
	m = machine__new();
	{
		uint8_t other[20] = { 1, 2, 3 };

		machine__symbols_config(m)->buildid_dir = "/nonexistent";
		machine__set_build_id(m, fixture, other, 20);
		machine__process_mmap(m, 1, 1, BASE, 0x10000, 0, fixture, USER, NULL, 0);
		t = machine__findnew_thread(m, 1, 1);
		assert_true(machine__resolve(m, t, USER, BASE + file_offset(nm_find("spin")->vaddr),
					     &al));
		assert_null(al.sym);
	}
	machine__delete(m);
}

/* Tables come in runs (kallsyms: kernel, then modules): any mix of runs,
 * ties included, ends sorted by address with one symbol per address, the
 * first pushed of equals kept. */
static void test_symtab_runs_sorted(void **state)
{
	static const int lens[] = { 1, 2, 3, 500, 7, 1000, 1 };
	struct arena pool = { 0 };
	struct symtab_builder b = { .pool = &pool };
	uint32_t first_seq[4096];
	size_t distinct = 0;
	uint64_t x = 12345;

	(void)state;
	memset(first_seq, 0xff, sizeof(first_seq));
	for (size_t r = 0; r < sizeof(lens) / sizeof(lens[0]); r++) {
		uint64_t base = (x = x * 6364136223846793005ULL + 1) >> 52;

		for (int i = 0; i < lens[r]; i++) {
			uint64_t addr = (base + (uint64_t)i * 3) % 4096;
			struct sym_raw *s = symtab_add(&b, addr * 16, 8, STB_GLOBAL, "f", 1);

			if (first_seq[addr] == UINT32_MAX) {
				first_seq[addr] = s->seq;
				distinct++;
			}
		}
	}
	symtab_fixup(&b, false);
	assert_int_equal(b.nr, distinct);
	for (size_t i = 0; i < b.nr; i++) {
		if (i)
			assert_true(b.v[i - 1].start < b.v[i].start);
		assert_int_equal(b.v[i].seq, first_seq[b.v[i].start / 16]);
	}
	free(b.v);
	arena_release(&pool);
}

/* A table in no order over a 40-bit range (hash-ordered globals, kernel
 * and modules far apart), sorted again after more symbols came: by address,
 * equals in the order they were added. */
static void test_symtab_scattered_sorted(void **state)
{
	struct arena pool = { 0 };
	struct symtab_builder b = { .pool = &pool };
	uint64_t x = 777;

	(void)state;
	for (int round = 0; round < 2; round++) {
		for (int i = 0; i < 5000; i++) {
			x = x * 6364136223846793005ULL + 1442695040888963407ULL;
			/* few distinct addresses in the low bits: many ties */
			symtab_add(&b, (x >> 24) & 0xff00000070ULL, 0, STB_GLOBAL, "f", 1);
		}
		symtab_fix_ends(&b, false);
		for (size_t i = 1; i < b.nr; i++) {
			assert_true(b.v[i - 1].start <= b.v[i].start);
			if (b.v[i - 1].start == b.v[i].start)
				assert_true(b.v[i - 1].seq < b.v[i].seq);
		}
	}
	assert_int_equal(b.nr, 10000);
	free(b.v);
	arena_release(&pool);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_symbols_match_nm),
		cmocka_unit_test(test_zero_size_and_alias),
		cmocka_unit_test(test_against_addr2line),
		cmocka_unit_test(test_header_first_unit_like_addr2line),
		cmocka_unit_test(test_file_symbol_without_dwarf_like_addr2line),
		cmocka_unit_test(test_row_at_sequence_end_covers_nothing),
		cmocka_unit_test(test_library_without_functions),
		cmocka_unit_test(test_plt_entries),
		cmocka_unit_test(test_kallsyms),
		cmocka_unit_test(test_kallsyms_init_text),
		cmocka_unit_test(test_perf_map),
		cmocka_unit_test(test_demangle),
		cmocka_unit_test(test_build_ids),
		cmocka_unit_test(test_symtab_runs_sorted),
		cmocka_unit_test(test_symtab_scattered_sorted),
	};

	return cmocka_run_group_tests(tests, read_oracles, NULL);
}
