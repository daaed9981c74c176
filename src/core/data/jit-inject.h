/* jit-inject: inject -j, the jitdump files of a recording merged into it.
 *
 * A JIT that writes DIR/jit-PID.dump maps the file executable, so the
 * recording holds an MMAP of it.  When that map's record comes by (in time
 * order), the dump is read whole: every CODE_LOAD becomes an ELF image
 * DIR/jitted-PID-INDEX.so (jit-elf.h; the DEBUG_INFO and UNWINDING_INFO
 * records before it go into that image) and an MMAP2 of it at the code's
 * address stamped with the record's time; a CODE_MOVE becomes an MMAP2 of
 * the moved function's image at its new address.  The dump's own map and,
 * from then on, the process's anonymous maps (where the JIT's code lives)
 * are left out, and so are FINISHED_ROUND records: the injected maps do
 * not keep rounds' time order, a reader sorts the whole file.  This is
 * what perf 6.1's inject -j writes, field for field.
 *
 * The dump's timestamps must be the recording's clock: CLOCK_MONOTONIC on
 * every event (record -k mono), or TSC ticks (the dump's ARCH_TIMESTAMP
 * flag) converted with the recording's TIME_CONV.
 */
#ifndef PCL_JIT_INJECT_H
#define PCL_JIT_INJECT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "core/data/header-features.h"
#include "core/data/perf-record.h"

struct perf_session;

typedef int (*jit_emit_fn)(void *ctx, const struct perf_event_header *rec);

struct jit_inject {
	struct perf_session *session;
	jit_emit_fn emit;
	void *ctx;
	FILE *warn;		/* damaged dumps are warned about here */
	struct perf_rec_time_conv time_conv;
	bool has_time_conv;
	pid_t *pids;		/* processes whose dump was read */
	size_t nr_pids;
	struct hit_dso *images;	/* the ELF images written, with their build ids */
	size_t nr_images;
	char *err;		/* set when jit_inject__record fails */
};

void jit_inject__init(struct jit_inject *ji, struct perf_session *s, jit_emit_fn emit,
		      void *ctx, FILE *warn);

/* Takes the next record in delivery order.  Returns 1 when it is consumed
 * (injected maps emitted instead, or left out), 0 when it goes through
 * unchanged, or -1 with ji->err set. */
int jit_inject__record(struct jit_inject *ji, const struct perf_event_header *rec);

void jit_inject__exit(struct jit_inject *ji);

#endif
