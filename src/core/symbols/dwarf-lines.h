/* dwarf-lines: a compilation unit's line table, decoded from .debug_line
 * alone into 16 bytes a row, with the rows and file names libdw 0.188's
 * dwarf_getsrclines() and dwarf_getsrcfiles() give.
 *
 * libdw keeps 48 bytes a row (plus, while decoding, a list node a row):
 * CPython's big units made its tables 27 MB of a DWARF report's peak
 * memory.  Rows come out as libdw sorts them (by address, an end of
 * sequence before the other rows at its address, else in program order),
 * so that an address finds the row libdw finds.  A table this reader does
 * not cover (DW_LNE_define_file, string forms of another file, a unit
 * without DW_AT_comp_dir) is taken from libdw's own. */
#ifndef PCL_DWARF_LINES_H
#define PCL_DWARF_LINES_H

#include <elfutils/libdw.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct dwarf_line_row {
	uint64_t addr;		/* DWARF address (no bias) */
	int32_t line;
	uint16_t file;		/* index into the unit's file names */
	bool end_sequence;
};

struct dwarf_lines {
	size_t nr_rows, nr_files;
	struct dwarf_line_row *rows;
	char **files;		/* as dwarf_filesrc() names them */
};

/* The unit's table, or NULL when it has none libdw can read. */
struct dwarf_lines *dwarf_lines__read(Dwarf_Die *cu);
/* The same table copied from libdw's (the reference and the fallback). */
struct dwarf_lines *dwarf_lines__from_libdw(Dwarf_Die *cu);
void dwarf_lines__delete(struct dwarf_lines *dl);

/* The row holding addr, as dwarf_getsrc_die() picks it: the last row at
 * or below addr, unless that ends a sequence; NULL for none. */
const struct dwarf_line_row *dwarf_lines__find(const struct dwarf_lines *dl, Dwarf_Addr addr);

/* The name of file entry idx, NULL past the table. */
const char *dwarf_lines__file(const struct dwarf_lines *dl, size_t idx);

#endif
