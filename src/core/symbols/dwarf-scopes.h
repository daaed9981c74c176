/* dwarf-scopes: the DIEs nested around an address, as libdw 0.188's
 * dwarf_getscopes() finds the innermost one and dwarf_getscopes_die()
 * lists it with its parents, from an index of each compilation unit.
 *
 * libdw walks the unit's DIE tree again for each of the two calls (and a
 * third time to find an inlined function's abstract origin), which made
 * inlined-frame lookups the bulk of a DWARF report's time in big units
 * (CPython's ceval.c).  Here the DIEs with address ranges are read once,
 * as lookups first reach them, into a tree, and an address is looked up
 * by the same rules:
 * depth first, the first child whose ranges hold it wins, descending only
 * into the tags libdw descends into.  A unit this cannot mirror exactly
 * (imported units, DWARF libdw reports errors in) is left to libdw.
 */
#ifndef PCL_DWARF_SCOPES_H
#define PCL_DWARF_SCOPES_H

#include <elfutils/libdw.h>

struct dwarf_scopes;

struct dwarf_scopes *dwarf_scopes__new(void);
void dwarf_scopes__delete(struct dwarf_scopes *ds);

/* The chain of DIEs around pc (a DWARF address) in unit cu, innermost
 * first, up to the unit's child holding it: what dwarf_getscopes_die()
 * returns for the innermost scope dwarf_getscopes() finds, without the
 * unit itself.  0 when dwarf_getscopes() finds nothing or fails; -1 when
 * this unit is left to libdw.  *chain stays valid until ds is deleted. */
int dwarf_scopes__chain(struct dwarf_scopes *ds, Dwarf_Die *cu, Dwarf_Addr pc,
			const Dwarf_Die **chain);

#endif
