/* symtree: perf's red-black tree of a DSO's symbols, for the addresses
 * where symbols overlap.
 *
 * perf inserts a file's symbols in table order into a tree keyed by start
 * (equal starts to the right), erases the duplicates it then finds, gives
 * size-less symbols the next one's start as end, and inserts the PLT
 * entries last.  A size-less _init thus covers .plt, and which of the two
 * names an address there depends on which the tree walk meets first.
 * Built only for DSOs where symbols overlap; elsewhere a binary search
 * gives the same answers.
 */
#ifndef PCL_SYMTREE_H
#define PCL_SYMTREE_H

#include <stddef.h>
#include <stdint.h>

#include "core/symbols/machine.h"
#include "core/symbols/symbols-int.h"

struct symtree;

/* pre: the table's symbols in insertion order (before duplicates go and
 * ends are fixed); late: the PLT entries; syms: the DSO's final, sorted
 * symbols, which the tree's nodes point at. */
struct symtree *symtree__new(const struct sym_raw *pre, size_t nr_pre,
			     const struct sym_raw *late, size_t nr_late,
			     struct symbol *syms, size_t nr_syms);
/* perf's symbols__find: the symbol the walk meets first, or NULL. */
struct symbol *symtree__find(const struct symtree *t, uint64_t addr);
void symtree__delete(struct symtree *t);

#endif
