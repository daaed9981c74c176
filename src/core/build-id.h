/* build-id: reading GNU build ids (NT_GNU_BUILD_ID notes) of ELF files, of
 * the running kernel (/sys/kernel/notes) and of the vDSO (in our own memory).
 */
#ifndef PCL_BUILD_ID_H
#define PCL_BUILD_ID_H

#include <stddef.h>
#include <stdint.h>

#define BUILD_ID_SIZE_MAX	20

struct build_id {
	uint8_t data[BUILD_ID_SIZE_MAX];
	size_t size;		/* 0: none */
};

/* Scans a buffer of ELF notes (as in a PT_NOTE segment or /sys/kernel/notes)
 * for the GNU build id.  Returns 0, or -1 if there is none. */
int build_id__from_notes(const void *notes, size_t len, struct build_id *bid);

/* The build id of an ELF file.  Returns 0, or -1 (not ELF, no note). */
int build_id__read_file(const char *path, struct build_id *bid);

/* The running kernel's build id (/sys/kernel/notes).  Returns 0 or -1. */
int build_id__read_kernel(struct build_id *bid);

/* The vDSO's build id, read from the image mapped into this process. */
int build_id__read_vdso(struct build_id *bid);

/* Lower-case hex of the id into buf (2 * size + 1 bytes); returns buf. */
char *build_id__sprintf(const struct build_id *bid, char *buf);

#endif
