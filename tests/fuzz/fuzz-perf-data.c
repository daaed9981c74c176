/* libFuzzer target for the perf.data reader: any byte string is opened as
 * a perf.data file (normal or pipe mode, either byte order), every record
 * is decoded, dumped the -D way and the header printed.  Built by
 * `make fuzz` (clang, ASan+UBSan); run with build/fuzz/fuzz-perf-data DIR. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "core/data/session.h"
#include "ui/header-print.h"
#include "ui/raw-dump.h"

static FILE *devnull;

static int dump(struct perf_tool *tool, struct perf_session *s,
		const struct perf_event_header *rec, struct perf_sample *sample,
		struct evsel *evsel, uint64_t off)
{
	raw_dump_record(devnull, s, NULL, rec, sample, evsel, off);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct perf_tool tool = { .record = dump, .ordered = true };
	struct perf_session *s;
	char path[64], *err = NULL;
	int fd = memfd_create("perf.data", 0);

	if (!devnull)
		devnull = fopen("/dev/null", "w");
	if (fd < 0 || write(fd, data, size) != (ssize_t)size)
		abort();
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	s = perf_session__open(path, false, &err);
	if (s) {
		s->warn = devnull;
		header_print(devnull, s, true);
		perf_session__process(s, &tool);
		perf_session__delete(s);
	}
	free(err);
	close(fd);
	return 0;
}
