/* libFuzzer target for the build-id note readers: any byte string is read
 * as an ELF image for its NT_GNU_BUILD_ID note, and as a sysfs notes file
 * (/sys/kernel/notes, /sys/module/M/notes/...: bare notes). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "core/symbols/buildid.h"

enum { BUILD_ID_MAX = 20 };	/* what every caller passes */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t id[BUILD_ID_MAX];
	char hex[2 * BUILD_ID_MAX + 1], path[64];
	int n = elf_buf__read_build_id(data, size, id, sizeof(id));
	int fd = memfd_create("notes", 0);

	if (n > 0)
		build_id__hex(id, n, hex);
	if (fd < 0 || write(fd, data, size) != (ssize_t)size)
		abort();
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	n = sysfs__read_build_id(path, id, sizeof(id));
	if (n > 0)
		build_id__hex(id, n, hex);
	close(fd);
	return 0;
}
