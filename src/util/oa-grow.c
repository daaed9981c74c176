/* oa-grow: see oa-grow.h. */
#include "util/oa-grow.h"
#include "util/util.h"

#include <string.h>

void *oa_grow(void *slots_ptr, size_t elem_size, size_t *cap, size_t *used, size_t first_cap,
	      size_t *old_cap)
{
	void *old, *fresh;

	*old_cap = *cap;
	if ((*used + 1) * 2 <= *cap)
		return NULL;
	memcpy(&old, slots_ptr, sizeof(old));
	*cap = *cap ? *cap * 2 : first_cap;
	fresh = xcalloc(*cap, elem_size);
	memcpy(slots_ptr, &fresh, sizeof(fresh));
	*used = 0;
	return old;
}
