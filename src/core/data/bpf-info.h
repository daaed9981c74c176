/* bpf-info: the BPF programs and BTF a recording describes (perf.data's
 * HEADER_BPF_PROG_INFO and HEADER_BPF_BTF features: what was loaded when
 * perf record started), and the names perf gives their functions.
 */
#ifndef PCL_BPF_INFO_H
#define PCL_BPF_INFO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define BPF_PROG_TAG_LEN 8

struct bpf_prog_desc {
	uint32_t id, btf_id;
	char name[17];			/* the program's own, 16 bytes at most */
	uint8_t tag[BPF_PROG_TAG_LEN];	/* the program's (its BPF_EVENT's) */
	/* its functions (sub-programs); 0 when the arrays disagree on
	 * their number or lie outside the data: perf shows nothing then */
	uint32_t nr_funcs;
	uint64_t *addrs;		/* where each was JITed */
	uint32_t *lens;			/* and its length */
	uint8_t (*tags)[BPF_PROG_TAG_LEN];
	uint32_t *func_types;		/* each one's BTF FUNC type id, or NULL */
};

struct bpf_btf_desc {
	uint32_t id;
	uint32_t size;
	uint8_t *data;			/* raw BTF (header, types, strings) */
};

/* One program as HEADER_BPF_PROG_INFO holds it (perf's layout, see
 * bpf-info.c): what perf record learnt of it through bpf(2). */
struct bpf_prog_entry {
	uint32_t id;
	uint32_t len;
	uint8_t *bytes;
};

/* The programs and BTF a recording's header describes, by id, one of
 * each, as perf record gathers them while it runs. */
struct bpf_env {
	struct bpf_prog_entry *progs;
	uint32_t nr_progs;
	struct bpf_btf_desc *btfs;
	uint32_t nr_btfs;
};

struct data_cursor;
struct strbuf;

/* Reads a feature's payload (host byte order only: false, nothing kept,
 * for the other order) into a table sorted by id, as perf keeps them. */
bool bpf_prog_descs__parse(struct data_cursor *c, struct bpf_prog_desc **progs, uint32_t *nr);
bool bpf_btf_descs__parse(struct data_cursor *c, struct bpf_btf_desc **btfs, uint32_t *nr);
void bpf_prog_descs__free(struct bpf_prog_desc *progs, uint32_t nr);
void bpf_btf_descs__free(struct bpf_btf_desc *btfs, uint32_t nr);

/* Reads one program entry (bytes of perf's layout) into p; false if
 * it is damaged.  bpf_prog_desc__release() frees what p holds. */
bool bpf_prog_desc__from_entry(const uint8_t *bytes, size_t len, struct bpf_prog_desc *p);
void bpf_prog_desc__release(struct bpf_prog_desc *p);

/* Adds a program entry or a BTF, taking bytes/data; an id already known
 * keeps its first description (the new bytes are freed). */
void bpf_env__add_prog(struct bpf_env *env, uint32_t id, uint8_t *bytes, uint32_t len);
void bpf_env__add_btf(struct bpf_env *env, uint32_t id, uint8_t *data, uint32_t size);
bool bpf_env__has_prog(const struct bpf_env *env, uint32_t id);
bool bpf_env__has_btf(const struct bpf_env *env, uint32_t id);
/* The payloads of HEADER_BPF_PROG_INFO and HEADER_BPF_BTF, by id (an
 * empty env, or NULL, gives a zero count). */
void bpf_env__write_progs(const struct bpf_env *env, struct strbuf *sb);
void bpf_env__write_btfs(const struct bpf_env *env, struct strbuf *sb);
void bpf_env__free(struct bpf_env *env);

/* perf's symbol name of function i: bpf_prog_TAG, then _NAME: the
 * function's BTF name when the program's BTF is among btfs, else the
 * program's own name for a lone function (none when empty), else "F". */
void bpf_prog_desc__func_name(const struct bpf_prog_desc *p, uint32_t i,
			      const struct bpf_btf_desc *btfs, uint32_t nr_btfs,
			      char *buf, size_t size);

/* The name of BTF type id in raw BTF data, or NULL. */
const char *btf__type_name(const uint8_t *data, size_t size, uint32_t id);

#endif
