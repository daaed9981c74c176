/* unwind-dwarf: --call-graph dwarf samples unwound offline (libdw). */
#include "core/symbols.h"

#include <linux/perf_event.h>

void dso__unwind_release(struct dso *dso)
{
}

void maps__unwind_release(struct maps *maps)
{
}

int machine__unwind(struct machine *m, struct thread *thread,
		    uint64_t regs_mask, const uint64_t *regs,
		    const uint8_t *stack, uint64_t stack_size,
		    struct callchain_frame *frames, int max_frames)
{
	return 0;
}
