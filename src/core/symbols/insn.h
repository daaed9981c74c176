/* insn: the machine instruction at a sampled address, as perf script's
 * insn and insnlen fields show it: the bytes are read from the file
 * mapped there and the first instruction's length is decoded (x86).
 */
#ifndef PCL_INSN_H
#define PCL_INSN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/symbols/machine.h"

#define INSN_MAX_BYTES 16

/* Reads the code at ip in thread's address space into buf (user-space
 * files and the vdso only: perf has no image of the kernel's text) and
 * returns the length of the instruction there, or 0 when unknown. */
int machine__fetch_insn(struct machine *m, struct thread *thread, uint64_t ip,
			uint8_t buf[INSN_MAX_BYTES]);

/* The length of the x86 instruction at buf (64-bit or 32-bit code), or 0
 * when it does not decode within len bytes. */
int x86_insn_len(const uint8_t *buf, size_t len, bool mode64);
/* Whether it is a branch, as perf's Intel PT decoder classes them (jumps,
 * calls, returns, loops, interrupts, syscalls; not VEX-encoded ones). */
bool x86_insn_is_branch(const uint8_t *buf, size_t len, bool mode64);

/* Whether the DSO's image is 64-bit code (ELF class; true when unknown). */
bool dso__is_64bit(struct dso *dso);

#endif
