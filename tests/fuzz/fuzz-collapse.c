/* libFuzzer target for collapse's text parsers: any byte string is read
 * as `perf script` output (stackcollapse's rules), and as folded stacks,
 * and what was read is written back folded. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/hist/stacks.h"

static FILE *devnull;

static void read_as(const uint8_t *data, size_t size, bool folded)
{
	struct script_text_opts o = { .include_pid = folded, .annotate_kernel = !folded };
	struct stacks *st = stacks__new(false);
	FILE *in = fmemopen((void *)data, size, "r");
	char *err = NULL;
	int rc;

	if (!in)
		abort();
	rc = folded ? stacks__read_folded(st, in, false, &err)
		    : stacks__read_perf_script(st, in, &o, &err);
	if (!rc)
		stacks__write_folded(st, devnull);
	free(err);
	fclose(in);
	stacks__delete(st);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!devnull)
		devnull = fopen("/dev/null", "w");
	if (!size)
		return 0;	/* fmemopen refuses an empty buffer */
	read_as(data, size, false);
	read_as(data, size, true);
	return 0;
}
