/* insn: instruction bytes at an address and their decoded length.
 *
 * The length decoder reads x86 encodings the way perf's decoder (the
 * kernel's insn.c) measures them: legacy prefixes, REX, VEX/EVEX, one- to
 * three-byte opcodes, ModRM, SIB, displacement and immediate.  It needs
 * no opcode names, only which opcodes take a ModRM byte and how big an
 * immediate they carry.
 */
#include "core/symbols/insn.h"

#include <elf.h>
#include <linux/perf_event.h>
#include <stdbool.h>
#include <string.h>

/* Kernel addresses have the top bit set (x86-64). */
#define KERNEL_START (1ULL << 63)
#define MAX_INSN_LEN 15

struct x86_insn {
	bool mode64, rex_w;
	int opnd_size, addr_size;	/* bytes: 2, 4 or 8 */
	int map;			/* 0: one-byte, 1: 0f, 2: 0f38, 3: 0f3a */
	bool vex;			/* VEX or EVEX */
	uint8_t op;
	int modrm;			/* -1: none */
};

/* One-byte opcodes perf's decoder takes as invalid in 64-bit code: it
 * measures them as the opcode alone. */
static bool invalid64(uint8_t op)
{
	switch (op) {
	case 0x06: case 0x07: case 0x0e: case 0x16: case 0x17: case 0x1e: case 0x1f:
	case 0x27: case 0x2f: case 0x37: case 0x3f: case 0x60: case 0x61: case 0x82:
	case 0x9a: case 0xce: case 0xd4: case 0xd5: case 0xd6: case 0xea:
		return true;
	default:
		return false;
	}
}

static bool is_legacy_prefix(uint8_t b)
{
	switch (b) {
	case 0x26: case 0x2e: case 0x36: case 0x3e: case 0x64: case 0x65:
	case 0x66: case 0x67: case 0xf0: case 0xf2: case 0xf3:
		return true;
	default:
		return false;
	}
}

static bool has_modrm(const struct x86_insn *in)
{
	uint8_t op = in->op;

	if (in->vex)
		return !(in->map == 1 && op == 0x77);	/* vzeroupper/vzeroall */
	switch (in->map) {
	case 0:
		if (op < 0x40)
			return (op & 7) < 4;	/* ALU r/m forms */
		return op == 0x62 || op == 0x63 || op == 0x69 || op == 0x6b ||
		       (op >= 0x80 && op <= 0x8f) || (op >= 0xc0 && op <= 0xc1) ||
		       (op >= 0xc4 && op <= 0xc7) || (op >= 0xd0 && op <= 0xd3) ||
		       (op >= 0xd8 && op <= 0xdf) || op == 0xf6 || op == 0xf7 ||
		       op == 0xfe || op == 0xff;
	case 1:
		switch (op) {
		case 0x04: case 0x05: case 0x06: case 0x07: case 0x08: case 0x09:
		case 0x0a: case 0x0b: case 0x0c: case 0x0e: case 0x0f:
		case 0x77: case 0x7a: case 0x7b:
		case 0xa0: case 0xa1: case 0xa2: case 0xa6: case 0xa7: case 0xa8:
		case 0xa9: case 0xaa:
			return false;
		default:
			return !(op >= 0x24 && op <= 0x27) && !(op >= 0x30 && op <= 0x3f) &&
			       !(op >= 0x80 && op <= 0x8f) && !(op >= 0xc8 && op <= 0xcf);
		}
	default:
		return true;
	}
}

/* The immediate's size; modrm is the ModRM byte (for group 3). */
static int imm_size(const struct x86_insn *in, uint8_t modrm)
{
	int z = in->opnd_size == 2 ? 2 : 4;	/* word or dword, never qword */
	int rel = in->mode64 ? 4 : z;		/* near branches: 64-bit ignores 66 */
	uint8_t op = in->op;

	if (in->map == 3)
		return 1;
	if (in->map == 1) {
		if ((op >= 0x70 && op <= 0x73) || op == 0xc2 || (op >= 0xc4 && op <= 0xc6))
			return 1;
		if (in->vex)
			return 0;
		if (op == 0xa4 || op == 0xac || op == 0xba)
			return 1;
		return op >= 0x80 && op <= 0x8f ? rel : 0;
	}
	if (in->map != 0)
		return 0;
	if (op < 0x40)
		return (op & 7) == 4 ? 1 : (op & 7) == 5 ? z : 0;
	if ((op >= 0x70 && op <= 0x7f) || (op >= 0xb0 && op <= 0xb7) ||
	    (op >= 0xe0 && op <= 0xe7))
		return 1;
	if (op >= 0xb8 && op <= 0xbf)
		return in->rex_w ? 8 : z;
	if (op >= 0xa0 && op <= 0xa3)
		return in->addr_size;		/* moffs */
	switch (op) {
	case 0x6a: case 0x6b: case 0x80: case 0x82: case 0x83: case 0xa8: case 0xc0:
	case 0xc1: case 0xc6: case 0xcd: case 0xd4: case 0xd5: case 0xeb:
		return 1;
	case 0x68: case 0x69: case 0x81: case 0xa9: case 0xc7:
		return z;
	case 0xc2: case 0xca:
		return 2;
	case 0xc8:
		return 3;			/* enter iw, ib */
	case 0xe8: case 0xe9:
		return rel;
	case 0x9a: case 0xea:
		return z + 2;			/* far pointer */
	case 0xf6:
		return (modrm >> 3 & 7) < 2 ? 1 : 0;	/* test r/m, imm */
	case 0xf7:
		return (modrm >> 3 & 7) < 2 ? z : 0;
	default:
		return 0;
	}
}

/* Bytes of ModRM, SIB and displacement starting at p, or -1 past end. */
static int modrm_size(const struct x86_insn *in, const uint8_t *p, const uint8_t *end)
{
	uint8_t modrm, mod, rm;
	int n = 1;

	if (p >= end)
		return -1;
	modrm = *p;
	mod = modrm >> 6;
	rm = modrm & 7;
	if (mod == 3)
		return 1;
	if (in->addr_size == 2)
		return 1 + (mod == 1 ? 1 : mod == 2 || rm == 6 ? 2 : 0);
	if (rm == 4) {
		if (p + 1 >= end)
			return -1;
		n++;
		if (mod == 0 && (p[1] & 7) == 5)
			return n + 4;
	}
	return n + (mod == 1 ? 1 : mod == 2 || (mod == 0 && rm == 5) ? 4 : 0);
}

/* Decodes the instruction at buf into in; returns its length, or 0 when
 * it does not decode within len bytes. */
static int x86_decode(const uint8_t *buf, size_t len, bool mode64, struct x86_insn *out)
{
	const uint8_t *p = buf, *end = buf + (len < MAX_INSN_LEN ? len : MAX_INSN_LEN);
	struct x86_insn in = { .mode64 = mode64, .opnd_size = 4, .addr_size = mode64 ? 8 : 4,
			       .modrm = -1 };
	int n;

	for (; p < end && is_legacy_prefix(*p); p++) {
		if (*p == 0x66)
			in.opnd_size = 2;
		else if (*p == 0x67)
			in.addr_size = mode64 ? 4 : 2;
	}
	if (mode64 && p < end && (*p & 0xf0) == 0x40)
		in.rex_w = *p++ & 8;
	if (in.rex_w)
		in.opnd_size = 8;
	if (p + 1 < end && (*p == 0xc4 || *p == 0xc5 || *p == 0x62) &&
	    (mode64 || (p[1] & 0xc0) == 0xc0)) {
		int size = *p == 0xc5 ? 2 : *p == 0xc4 ? 3 : 4;

		if (p + size >= end)
			return 0;
		in.vex = true;
		in.map = *p == 0xc5 ? 1 : p[1] & (*p == 0xc4 ? 0x1f : 0x03);
		if (in.map < 1 || in.map > 3)
			return 0;
		p += size;
		in.op = *p++;
	} else {
		if (p >= end)
			return 0;
		in.op = *p++;
		if (in.op == 0x0f) {
			if (p >= end)
				return 0;
			in.op = *p++;
			in.map = 1;
			if (in.op == 0x38 || in.op == 0x3a) {
				if (p >= end)
					return 0;
				in.map = in.op == 0x38 ? 2 : 3;
				in.op = *p++;
			}
		}
	}
	if (mode64 && !in.vex && in.map == 0 && invalid64(in.op)) {
		n = 0;
	} else if (has_modrm(&in)) {
		n = modrm_size(&in, p, end);
		if (n < 0)
			return 0;
		in.modrm = *p;
		p += n;
		n = imm_size(&in, (uint8_t)in.modrm);
	} else {
		n = imm_size(&in, 0);
	}
	p += n;
	*out = in;
	return p <= end ? (int)(p - buf) : 0;
}

int x86_insn_len(const uint8_t *buf, size_t len, bool mode64)
{
	struct x86_insn in;

	return x86_decode(buf, len, mode64, &in);
}

bool x86_insn_is_branch(const uint8_t *buf, size_t len, bool mode64)
{
	struct x86_insn in;
	int reg;

	if (!x86_decode(buf, len, mode64, &in) || in.vex)
		return false;
	reg = in.modrm >= 0 ? in.modrm >> 3 & 7 : -1;
	if (in.map == 1)
		return in.op == 0x05 || in.op == 0x34 || in.op == 0x07 || in.op == 0x35 ||
		       (in.op >= 0x80 && in.op <= 0x8f) ||
		       (in.op == 0x01 && (in.modrm == 0xc2 || in.modrm == 0xc3));
	if (in.map != 0)
		return false;
	return (in.op >= 0x70 && in.op <= 0x7f) || in.op == 0xc2 || in.op == 0xc3 ||
	       in.op == 0xca || in.op == 0xcb || (in.op >= 0xcc && in.op <= 0xcf) ||
	       in.op == 0xe8 || in.op == 0x9a || (in.op >= 0xe0 && in.op <= 0xe3) ||
	       in.op == 0xe9 || in.op == 0xeb || in.op == 0xea ||
	       (in.op == 0xff && reg >= 2 && reg <= 5);
}

bool dso__is_64bit(struct dso *dso)
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
	return x86_insn_len(buf, (size_t)len, dso__is_64bit(al.map->dso));
}
