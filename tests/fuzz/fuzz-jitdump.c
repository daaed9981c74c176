/* libFuzzer target for the jitdump reader and the jit ELF writer: any byte
 * string is read as a jit-PID.dump, and every function it loads is written
 * as an image (with the lines and unwinding tables before it) to a memfd. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "core/data/jitdump.h"
#include "core/symbols/jit-elf.h"

static void write_image(const struct jit_record *r, const struct jit_record *lines,
			const struct jit_record *unwind, const char *path)
{
	struct jit_function f = {
		.name = r->load.name, .machine = 62, .addr = r->load.code_addr,
		.code = r->load.code, .size = r->load.code_size,
	};
	char *err = NULL;

	if (lines) {
		f.lines = lines->debug.entries;
		f.nr_lines = lines->debug.nr_entries;
	}
	if (unwind) {
		f.unwind = unwind->unwind.data;
		f.unwind_size = unwind->unwind.unwinding_size;
		f.eh_frame_hdr_size = unwind->unwind.eh_frame_hdr_size;
	}
	if (jit_elf__write(path, &f, &err))
		abort();	/* a memfd takes any image */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct jit_record r, lines, unwind;
	bool have_lines = false, have_unwind = false;
	struct jitdump jd;
	char *err = NULL, path[64];
	int fd = memfd_create("image", 0);

	if (fd < 0)
		abort();
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	if (!jitdump__open(&jd, data, size, &err)) {
		while (jitdump__next(&jd, &r, &err) > 0) {
			if (r.id == JIT_CODE_DEBUG_INFO) {
				lines = r;	/* entries stay valid until the next DEBUG_INFO */
				have_lines = true;
			} else if (r.id == JIT_CODE_UNWINDING_INFO) {
				unwind = r;
				have_unwind = true;
			} else if (r.id == JIT_CODE_LOAD) {
				write_image(&r, have_lines ? &lines : NULL,
					    have_unwind ? &unwind : NULL, path);
				have_lines = have_unwind = false;
			}
		}
	}
	free(err);
	jitdump__exit(&jd);
	close(fd);
	return 0;
}
