/* oa-grow: growth of open-addressing hash tables kept at most half full. */
#ifndef PCL_OA_GROW_H
#define PCL_OA_GROW_H

#include <stddef.h>

/*
 * slots_ptr is the address of a table's slot array (of elem_size slots,
 * *cap of them, *used taken).  When one more entry would fill more than
 * half, the table gets a zeroed array twice as large (first_cap slots the
 * first time), *used becomes 0 and the old array is returned with its size
 * in *old_cap: the caller inserts its entries again, then frees it.
 * Returns NULL when nothing was held (no growth, or the first array).
 */
void *oa_grow(void *slots_ptr, size_t elem_size, size_t *cap, size_t *used, size_t first_cap,
	      size_t *old_cap);

#endif
