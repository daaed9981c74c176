/* insn: instruction bytes at an address and their decoded length. */
#include "core/insn.h"
#include "core/symbols.h"

#include <capstone.h>
#include <elf.h>
#include <linux/perf_event.h>
#include <stdbool.h>
#include <string.h>

/* Kernel addresses have the top bit set (x86-64). */
#define KERNEL_START (1ULL << 63)

static int decode_len(const uint8_t *buf, size_t len, uint64_t ip, bool is64)
{
	static csh handles[2];
	static bool opened[2], failed[2];
	cs_insn *insn = NULL;
	int n = 0;

	if (!opened[is64]) {
		opened[is64] = true;
		failed[is64] = cs_open(CS_ARCH_X86, is64 ? CS_MODE_64 : CS_MODE_32,
				       &handles[is64]) != CS_ERR_OK;
	}
	if (failed[is64])
		return 0;
	if (cs_disasm(handles[is64], buf, len, ip, 1, &insn) == 1)
		n = insn->size;
	if (insn)
		cs_free(insn, 1);
	return n;
}

static bool dso__is_64bit(struct dso *dso)
{
	unsigned char ident[EI_NIDENT];

	return dso__read(dso, 0, ident, sizeof(ident)) != (long)sizeof(ident) ||
	       ident[EI_CLASS] != ELFCLASS32;
}

int machine__fetch_insn(struct machine *m, struct thread *thread, uint64_t ip,
			uint8_t buf[INSN_MAX_BYTES])
{
	struct addr_location al;
	long len;

	if (!ip || ip >= KERNEL_START || !thread)
		return 0;
	memset(&al, 0, sizeof(al));
	if (!machine__resolve(m, thread, PERF_RECORD_MISC_USER, ip, &al) || !al.map ||
	    al.map->identity)
		return 0;
	len = dso__read(al.map->dso, al.addr, buf, INSN_MAX_BYTES);
	if (len <= 0)
		return 0;
	return decode_len(buf, (size_t)len, ip, dso__is_64bit(al.map->dso));
}
