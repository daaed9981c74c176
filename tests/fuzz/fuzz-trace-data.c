/* libFuzzer target for the tracing data perf stores with tracepoint
 * recordings (ftrace header formats, event formats, kallsyms, printk
 * formats, saved cmdlines): any byte string is parsed as that blob. */
#include <stdint.h>
#include <traceevent/event-parse.h>

#include "core/data/trace-data.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *err = NULL;
	size_t off = 0;
	struct tep_handle *tep = trace_data__parse(data, size, &err, &off);

	if (tep)
		tep_free(tep);
	return 0;
}
