/* jitdump: reads the jit-PID.dump files JITs write for perf (node
 * --perf-prof, the JVM's perf agent, ...).
 *
 * A dump is a header (magic "JiTD", version, the JIT's pid and ELF machine,
 * flags) and records, each a prefix (id, total size, timestamp) and a body:
 * CODE_LOAD (a function: address, size, index, name, machine code),
 * CODE_MOVE (a function moved), DEBUG_INFO (address -> file:line entries of
 * the next loaded function), UNWINDING_INFO (.eh_frame bytes of the next
 * loaded function) and CODE_CLOSE.  A dump written on a machine of the
 * other byte order is read too.  The reader works on a buffer holding the
 * whole dump; records point into it.  Every malformed spot is reported as
 * "offset 0xN: reason", never read past.
 */
#ifndef PCL_JITDUMP_H
#define PCL_JITDUMP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/symbols/jit-elf.h"	/* struct jit_debug_entry */

#define JITDUMP_MAGIC		0x4A695444u	/* "JiTD" as a native u32 */
#define JITDUMP_VERSION		1
#define JITDUMP_FLAGS_ARCH_TIMESTAMP	1ull	/* timestamps are TSC ticks */

enum jit_record_id {
	JIT_CODE_LOAD = 0,
	JIT_CODE_MOVE = 1,
	JIT_CODE_DEBUG_INFO = 2,
	JIT_CODE_CLOSE = 3,
	JIT_CODE_UNWINDING_INFO = 4,
};

struct jit_record {
	uint32_t id;		/* enum jit_record_id, or an unknown one (skipped) */
	uint64_t timestamp;
	uint64_t offset;	/* of the record in the dump */
	union {
		struct {
			uint32_t pid, tid;
			uint64_t vma, code_addr, code_size, code_index;
			const char *name;
			const uint8_t *code;
		} load;
		struct {
			uint32_t pid, tid;
			uint64_t vma, old_code_addr, new_code_addr, code_size, code_index;
		} move;
		struct {
			uint64_t code_addr;
			size_t nr_entries;
			const struct jit_debug_entry *entries;	/* the reader's, until next */
		} debug;
		struct {
			uint64_t unwinding_size, eh_frame_hdr_size, mapped_size;
			const uint8_t *data;	/* unwinding_size bytes */
		} unwind;
	};
};

struct jitdump {
	const uint8_t *buf;
	size_t len;
	bool swapped;		/* written in the other byte order */
	uint32_t version, elf_mach, pid;
	uint64_t timestamp, flags;
	size_t pos;		/* the next record */
	struct jit_debug_entry *entries;	/* DEBUG_INFO entries, reused */
	size_t entries_alloc;
};

/* Reads the header of the dump in buf (len bytes, kept by the caller).
 * Returns 0, or -1 with *err "offset 0xN: reason" (caller frees). */
int jitdump__open(struct jitdump *jd, const void *buf, size_t len, char **err);

/* The next record into *rec: 1, 0 at the end, or -1 with *err (a malformed
 * or truncated record; the records before it were good). */
int jitdump__next(struct jitdump *jd, struct jit_record *rec, char **err);

void jitdump__exit(struct jitdump *jd);

#endif
