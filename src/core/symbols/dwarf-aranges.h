/* dwarf-aranges: the compilation unit holding an address, found in
 * .debug_aranges the way libdwfl 0.188's dwfl_module_addrdie() finds it.
 *
 * libdwfl reads the table through dwarf_getaranges(), which makes libdw's
 * record of every unit (3.6 MB for libc's 2,000 units); here the section
 * is read directly: the ranges sorted by address (ties in file order),
 * runs of consecutive ranges of one unit merged into one that reaches the
 * next run (libdwfl counts the gaps between a unit's ranges as its own),
 * and nothing past the end of the last range.  dwarf_offdie() then makes
 * libdw's records only up to the unit looked up.
 */
#ifndef PCL_DWARF_ARANGES_H
#define PCL_DWARF_ARANGES_H

#include <elfutils/libdw.h>
#include <stdbool.h>

struct dwarf_aranges;

/* The table of dw's file; NULL where libdw would refuse the section (then
 * libdwfl's own lookup gives its answer).  No section: an empty table. */
struct dwarf_aranges *dwarf_aranges__read(Dwarf *dw);
void dwarf_aranges__delete(struct dwarf_aranges *a);

/* The DIE offset of the unit holding addr (a DWARF address, no bias). */
bool dwarf_aranges__find(const struct dwarf_aranges *a, Dwarf_Addr addr, Dwarf_Off *die);

#endif
