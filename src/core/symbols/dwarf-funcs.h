/* dwarf-funcs: which function objdump names an address with, when DWARF
 * offers several whose ranges around it are equally small.
 *
 * bfd 2.40 names an address by the function (out-of-line or inlined) whose
 * range piece around it is the smallest.  Of equal pieces it takes the one
 * whose record it allocated last, by comparing pointers: in a fresh objdump
 * process that is the last in DIE order (an inlined call nested in another
 * that covers the same bytes), in a long-lived process it is wherever malloc
 * happened to put bfd's blocks.  This module applies the DIE-order rule with
 * libdw, so pcl's in-process disassembly names what objdump names whatever
 * the heap looks like.
 */
#ifndef PCL_DWARF_FUNCS_H
#define PCL_DWARF_FUNCS_H

#include <stdint.h>

struct dwarf_funcs;

/* The DWARF of an ELF file (NULL when it has none: callers keep bfd's
 * answers). */
struct dwarf_funcs *dwarf_funcs__open(const char *path);
void dwarf_funcs__close(struct dwarf_funcs *df);

/* The name objdump gives addr, given the one bfd chose (a linkage name or
 * DW_AT_name, as bfd reports it): when bfd's choice is one of the
 * functions tied for the smallest piece around addr, the last of them in
 * DIE order; otherwise bfd's choice itself. */
const char *dwarf_funcs__resolve_tie(struct dwarf_funcs *df, uint64_t addr,
				     const char *bfd_choice);

#endif
