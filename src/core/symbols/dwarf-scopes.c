/* dwarf-scopes: libdw's scope lookups answered from an index of each unit
 * (see dwarf-scopes.h).
 *
 * libdw's address walk (dwarf_getscopes) visits a unit's children in DIE
 * order, skips a DIE whose ranges miss the address, descends into one that
 * holds it when its tag may own scopes, and stops at the first DIE none of
 * whose visited children hold the address: the innermost scope.  When an
 * inlined call is on the way there it then walks the unit of the call's
 * abstract origin, all of it this time, and finds nothing at all unless
 * that walk reaches the origin.  The index keeps what the address walk can
 * see, the DIEs with ranges below DIEs with ranges, read as lookups first
 * reach them: a unit's children, then a DIE's children the first time a
 * lookup descends into it.  Origins are nearly always children of their
 * unit; for others the unit's subprograms are listed by one full walk.
 */
#include "core/symbols/dwarf-scopes.h"
#include "util/hashmap.h"
#include "util/util.h"

#include <dwarf.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#define NO_NODE UINT32_MAX
#define MAX_DEPTH 512		/* deeper nesting is left to libdw */

struct scope_node {
	Dwarf_Off offset;			/* the DIE's */
	int tag;
	uint32_t first_child, next_sibling;	/* nodes, in DIE order */
	uint32_t first_range, nr_ranges;	/* in unit_scopes.ranges */
	bool expanded;				/* its children are nodes (if any) */
};

struct unit_scopes {
	Dwarf *dw;
	struct scope_node *nodes;
	size_t nr_nodes, alloc_nodes;
	Dwarf_Addr (*ranges)[2];
	size_t nr_ranges, alloc_ranges;
	uint32_t first_root;
	struct hashmap top_subprograms;	/* offsets of the unit's children that are */
	struct hashmap subprograms;	/* of all the full walk reaches, once walked */
	bool walked, walk_failed;
	bool to_libdw;
};

struct dwarf_scopes {
	struct hashmap units;		/* unit DIE's address -> struct unit_scopes * */
	uint32_t *path;			/* the last lookup's nodes, outermost first */
	Dwarf_Die *chain;		/* and its answer */
	size_t alloc_path;
};

/* The tags libdw's walks descend into. */
static bool may_have_scopes(int tag)
{
	switch (tag) {
	case DW_TAG_compile_unit: case DW_TAG_module: case DW_TAG_lexical_block:
	case DW_TAG_with_stmt: case DW_TAG_catch_block: case DW_TAG_try_block:
	case DW_TAG_entry_point: case DW_TAG_inlined_subroutine: case DW_TAG_subprogram:
	case DW_TAG_namespace: case DW_TAG_class_type: case DW_TAG_structure_type:
		return true;
	default:
		return false;
	}
}

/* Appends die's address ranges; false where libdw reports an error. */
static bool read_ranges(struct unit_scopes *u, Dwarf_Die *die, uint32_t *nr)
{
	Dwarf_Addr base, lo, hi;
	ptrdiff_t it = 0;

	*nr = 0;
	while ((it = dwarf_ranges(die, it, &base, &lo, &hi)) > 0) {
		if (u->nr_ranges == u->alloc_ranges) {
			u->alloc_ranges = u->alloc_ranges ? 2 * u->alloc_ranges : 64;
			u->ranges = xrealloc(u->ranges, u->alloc_ranges * sizeof(*u->ranges));
		}
		u->ranges[u->nr_ranges][0] = lo;
		u->ranges[u->nr_ranges++][1] = hi;
		(*nr)++;
	}
	return it == 0;
}

static uint32_t add_node(struct unit_scopes *u, Dwarf_Die *die, int tag, uint32_t nr_ranges)
{
	if (u->nr_nodes == u->alloc_nodes) {
		u->alloc_nodes = u->alloc_nodes ? 2 * u->alloc_nodes : 64;
		u->nodes = xrealloc(u->nodes, u->alloc_nodes * sizeof(*u->nodes));
	}
	u->nodes[u->nr_nodes] = (struct scope_node){
		.offset = dwarf_dieoffset(die), .tag = tag, .first_child = NO_NODE, .next_sibling = NO_NODE,
		.first_range = (uint32_t)(u->nr_ranges - nr_ranges), .nr_ranges = nr_ranges,
	};
	return (uint32_t)u->nr_nodes++;
}

/* Reads one level of the address walk: parent's children with ranges
 * become nodes under parent_node (NO_NODE: the roots), and at the top
 * level the subprograms are noted.  False when the unit is to be left to
 * libdw. */
static bool read_children(struct unit_scopes *u, Dwarf_Die *parent, uint32_t parent_node)
{
	uint32_t last = NO_NODE;
	Dwarf_Die child;
	int ret = dwarf_child(parent, &child);

	if (ret)
		return ret > 0;
	do {
		int tag = dwarf_tag(&child);
		uint32_t node, nr_ranges;

		if (tag == DW_TAG_imported_unit || !read_ranges(u, &child, &nr_ranges))
			return false;
		if (parent_node == NO_NODE && tag == DW_TAG_subprogram)
			hashmap_u64_findnew(&u->top_subprograms, dwarf_dieoffset(&child), NULL);
		if (!nr_ranges)
			continue;
		node = add_node(u, &child, tag, nr_ranges);
		u->nodes[node].expanded = !may_have_scopes(tag) || !dwarf_haschildren(&child);
		if (last != NO_NODE)
			u->nodes[last].next_sibling = node;
		else if (parent_node != NO_NODE)
			u->nodes[parent_node].first_child = node;
		else
			u->first_root = node;
		last = node;
	} while ((ret = dwarf_siblingof(&child, &child)) == 0);
	return ret > 0;
}

/* The children of node n, read the first time a lookup descends there.
 * False when the unit is now left to libdw. */
static bool expand(struct unit_scopes *u, uint32_t n)
{
	Dwarf_Die die;

	if (u->nodes[n].expanded)
		return true;
	u->nodes[n].expanded = true;
	u->to_libdw = !dwarf_offdie(u->dw, u->nodes[n].offset, &die) ||
		      !read_children(u, &die, n);
	return !u->to_libdw;
}

/* libdw's full walk: every subprogram it reaches, into u->subprograms. */
static bool walk_subprograms(struct unit_scopes *u, Dwarf_Die *parent, unsigned depth)
{
	Dwarf_Die child;
	int ret = dwarf_child(parent, &child);

	if (ret)
		return ret > 0;
	if (depth > MAX_DEPTH)
		return false;
	do {
		int tag = dwarf_tag(&child);

		if (tag == DW_TAG_imported_unit)
			return false;
		if (tag == DW_TAG_subprogram)
			hashmap_u64_findnew(&u->subprograms, dwarf_dieoffset(&child), NULL);
		if (may_have_scopes(tag) && dwarf_haschildren(&child) &&
		    !walk_subprograms(u, &child, depth + 1))
			return false;
	} while ((ret = dwarf_siblingof(&child, &child)) == 0);
	return ret > 0;
}

static struct unit_scopes *unit_scopes(struct dwarf_scopes *ds, Dwarf_Die *cu)
{
	struct unit_scopes *u = hashmap_u64_get(&ds->units, (uintptr_t)cu->addr);

	if (u)
		return u;
	u = xcalloc(1, sizeof(*u));
	hashmap_init(&u->top_subprograms, 0);
	hashmap_init(&u->subprograms, 0);
	u->dw = dwarf_cu_getdwarf(cu->cu);
	u->first_root = NO_NODE;
	u->to_libdw = !read_children(u, cu, NO_NODE);
	hashmap_u64_put(&ds->units, (uintptr_t)cu->addr, u);
	return u;
}

/* Whether libdw's full walk of its unit reaches the abstract origin of
 * the inlined call inl: 1 yes, 0 no (or no origin), -1 left to libdw.
 * The walk visits every child of the unit, so it is taken (once per
 * unit) only for an origin deeper down.  A tree libdw would fail to walk
 * before a top-level origin is not looked for. */
static int origin_reached(struct dwarf_scopes *ds, Dwarf_Die *inl)
{
	Dwarf_Attribute attr;
	Dwarf_Die origin, cu;
	struct unit_scopes *u;
	Dwarf_Off offset;

	if (!dwarf_formref_die(dwarf_attr(inl, DW_AT_abstract_origin, &attr), &origin))
		return 0;
	if (dwarf_tag(&origin) != DW_TAG_subprogram || !dwarf_diecu(&origin, &cu, NULL, NULL))
		return -1;
	u = unit_scopes(ds, &cu);
	offset = dwarf_dieoffset(&origin);
	if (u->to_libdw)
		return -1;
	if (hashmap_u64_find(&u->top_subprograms, offset))
		return 1;
	if (!u->walked) {
		u->walked = true;
		u->walk_failed = !walk_subprograms(u, &cu, 0);
	}
	if (u->walk_failed)
		return -1;
	return hashmap_u64_find(&u->subprograms, offset) != NULL;
}

static bool node_holds(const struct unit_scopes *u, const struct scope_node *n, Dwarf_Addr pc)
{
	for (uint32_t i = 0; i < n->nr_ranges; i++) {
		const Dwarf_Addr *r = u->ranges[n->first_range + i];

		if (pc >= r[0] && pc < r[1])
			return true;
	}
	return false;
}

int dwarf_scopes__chain(struct dwarf_scopes *ds, Dwarf_Die *cu, Dwarf_Addr pc,
			const Dwarf_Die **chain)
{
	struct unit_scopes *u = unit_scopes(ds, cu);
	uint32_t n = u->first_root;
	size_t depth = 0, inlined = 0;	/* the innermost inlined call's depth + 1 */

	if (u->to_libdw)
		return -1;
	while (n != NO_NODE) {
		const struct scope_node *node = &u->nodes[n];

		if (!node_holds(u, node, pc)) {
			n = node->next_sibling;
			continue;
		}
		if (depth == ds->alloc_path) {
			ds->alloc_path = ds->alloc_path ? 2 * ds->alloc_path : 16;
			ds->path = xrealloc(ds->path, ds->alloc_path * sizeof(*ds->path));
			ds->chain = xrealloc(ds->chain, ds->alloc_path * sizeof(*ds->chain));
		}
		ds->path[depth++] = n;
		if (node->tag == DW_TAG_inlined_subroutine)
			inlined = depth;
		if (!expand(u, n))
			return -1;
		n = u->nodes[n].first_child;
	}
	if (!depth)
		return 0;
	for (size_t i = 0; i < depth; i++)
		if (!dwarf_offdie(u->dw, u->nodes[ds->path[depth - 1 - i]].offset, &ds->chain[i]))
			return -1;
	if (inlined) {
		int reached = origin_reached(ds, &ds->chain[depth - inlined]);

		if (reached <= 0)
			return reached;
	}
	*chain = ds->chain;
	return (int)depth;
}

struct dwarf_scopes *dwarf_scopes__new(void)
{
	return xcalloc(1, sizeof(struct dwarf_scopes));
}

void dwarf_scopes__delete(struct dwarf_scopes *ds)
{
	if (!ds)
		return;
	for (void **v = NULL; (v = hashmap_next(&ds->units, v));) {
		struct unit_scopes *u = *v;

		free(u->nodes);
		free(u->ranges);
		hashmap_release(&u->top_subprograms);
		hashmap_release(&u->subprograms);
		free(u);
	}
	hashmap_release(&ds->units);
	free(ds->path);
	free(ds->chain);
	free(ds);
}
