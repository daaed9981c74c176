/* jit-elf: an ELF image of one jitted function, for perf inject -j.
 *
 * The image is a small ET_DYN file whose .text holds the function's code at
 * file offset and address JIT_ELF_TEXT_OFFSET, named by one FUNC symbol, so
 * that a map of the code at its runtime address with page offset
 * JIT_ELF_TEXT_OFFSET resolves to the symbol as any file-backed map does.
 * It carries a GNU build id (a hash of the function's name, address and
 * code, so the same function gets the same id), the JIT's source lines as
 * a DWARF 2 .debug_line (with the compile unit that points at it) and the
 * JIT's unwinding tables as .eh_frame and .eh_frame_hdr, placed right after
 * the code (8-byte aligned) as the JIT had them in memory.
 */
#ifndef PCL_JIT_ELF_H
#define PCL_JIT_ELF_H

#include <stddef.h>
#include <stdint.h>

#define JIT_ELF_TEXT_OFFSET	0x80	/* after the ELF header and one program header */

/* One source line of jitted code (a jitdump DEBUG_INFO entry). */
struct jit_debug_entry {
	uint64_t addr;		/* runtime address */
	uint32_t line, discrim;
	const char *file;
};

struct jit_function {
	const char *name;
	uint16_t machine;	/* EM_* */
	uint64_t addr;		/* runtime address of the code */
	const uint8_t *code;
	uint64_t size;
	const struct jit_debug_entry *lines;	/* may be NULL */
	size_t nr_lines;
	const uint8_t *unwind;	/* .eh_frame then .eh_frame_hdr, or NULL */
	uint64_t unwind_size, eh_frame_hdr_size;
};

/* Writes the image to path (created or truncated).  Returns 0, or -1 with
 * *err "path: reason" (caller frees). */
int jit_elf__write(const char *path, const struct jit_function *f, char **err);

#endif
