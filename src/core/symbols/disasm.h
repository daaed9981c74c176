/* disasm: the text `objdump -d -l [-S] -C --start-address --stop-address`
 * prints for an address range of an ELF file, produced in process.
 *
 * perf 6.1's annotate runs objdump per symbol and parses its output; this
 * module makes the same text with objdump's own libraries (libopcodes for
 * the instructions, libbfd for symbols, relocations and line tables), so
 * every byte of it matches: AT&T or Intel syntax, "<sym+0x12>" targets,
 * "# 4050 <sink>" comments, file:line markers and the source lines with
 * objdump's five lines of leading context.
 */
#ifndef PCL_DISASM_H
#define PCL_DISASM_H

#include <stdbool.h>
#include <stdint.h>

struct strbuf;
struct disasm_file;

struct disasm_opts {
	const char *style;	/* -M: "intel", "att", ... or NULL */
	bool raw;		/* the instruction bytes (no --no-show-raw-insn) */
	bool source;		/* -S: source lines */
	/* objdump's --prefix and --prefix-strip: absolute source paths read
	 * as prefix + the path without its first prefix_strip directories */
	const char *prefix;
	int prefix_strip;
};

/* NULL when the disassembler's libraries (libopcodes and libbfd, opened
 * with dlopen on first use) are there; else why they cannot be loaded, a
 * message kept for the run.  disasm_file__open() fails with it. */
const char *disasm_unavailable(void);

/* Opens an ELF file for disassembly, for dumps with source lines (-S: the
 * symbols of a separate debug file name addresses too) or without; NULL
 * (and *err, which the caller frees) when bfd cannot read it. */
struct disasm_file *disasm_file__open(const char *path, bool source, char **err);
void disasm_file__close(struct disasm_file *f);

/* Appends to out what objdump prints on stdout for [start, stop) (file
 * addresses), except its "FILE:     file format" line.  Source and line
 * state start afresh, as with one objdump run per range. */
void disasm_file__dump(struct disasm_file *f, const struct disasm_opts *o, uint64_t start,
		       uint64_t stop, struct strbuf *out);

#endif
