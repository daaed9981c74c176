/* bpf-progs: the BPF programs the kernel has loaded, read through bpf(2)
 * (no library) the way perf record reads them: each program's info with
 * its JITed code, function addresses, lengths, tags, BTF function and
 * line info, laid out as HEADER_BPF_PROG_INFO keeps it, and the raw BTF
 * its functions are named by.
 */
#ifndef PCL_BPF_PROGS_H
#define PCL_BPF_PROGS_H

#include <stdbool.h>
#include <stdint.h>

#include "core/data/bpf-info.h"

/* The id of the first program after id (0: the first of all) in *next;
 * -ENOENT after the last, -errno when the kernel does not tell
 * (-EPERM without privileges). */
int bpf_progs__next_id(uint32_t id, uint32_t *next);

/* Program id as perf record reads it before it synthesizes its records:
 * its description in *p (bpf_prog_desc__release() it), the BTF naming its
 * functions added to env, and the program itself too when keep (perf
 * keeps it for the header unless --no-bpf-event).  -ENOENT: it is gone;
 * -EINVAL: its arrays disagree or its BTF cannot be read (perf stops
 * there); else -errno. */
int bpf_progs__read(struct bpf_env *env, uint32_t id, bool keep, struct bpf_prog_desc *p);

/* A program that a BPF_EVENT record says was loaded while recording:
 * added to env with its BTF, unless known or already gone (what perf's
 * side-band thread does). */
void bpf_progs__note_load(struct bpf_env *env, uint32_t id);

#endif
