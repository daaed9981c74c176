/* buildid: reading GNU build-id notes from ELF files and images and from
 * sysfs, and printing them.
 *
 * Public: commands and the live side (record's DSO hits) read build ids
 * with these.  Looking files up in the build-id cache is the loaders'
 * business (symbols-int.h, src/core/symbols/ only).
 */
#ifndef PCL_BUILDID_H
#define PCL_BUILDID_H

#include <stddef.h>
#include <stdint.h>

/* out: 41 bytes (hex of at most 20 bytes and a NUL). */
void build_id__hex(const uint8_t *id, int size, char *out);

/* An ELF file's / in-memory image's build-id note; its size or 0. */
int elf_file__read_build_id(const char *path, uint8_t *id, size_t max);
int elf_buf__read_build_id(const void *buf, size_t size, uint8_t *id, size_t max);
/* The running vDSO's (the same image in every process); its size or 0. */
int vdso__read_build_id(uint8_t *id, size_t max);

/* The running kernel's build id from /sys/kernel/notes (0 if none). */
int sysfs__read_kernel_build_id(uint8_t *id, size_t max);
/* The build id in a sysfs note file (/sys/module/M/notes/.note.gnu.build-id). */
int sysfs__read_build_id(const char *path, uint8_t *id, size_t max);

#endif
