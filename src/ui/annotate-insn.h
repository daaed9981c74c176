/* annotate-insn: an annotation's instructions as perf 6.1's browsers read
 * objdump's text (x86): the mnemonic, the kind (jump, call, return, ...),
 * the targets of jumps and calls, and the operands as perf shows them
 * (jumps to offsets, calls and rip-relative operands to symbol names).
 * --stdio2 (annotate-stdio2.c) and the annotate browser
 * (annotate-browser.c) draw their lines from it. */
#ifndef PCL_ANNOTATE_INSN_H
#define PCL_ANNOTATE_INSN_H

#include <stdbool.h>
#include <stdint.h>

#include "core/analysis/annotate.h"
#include "core/symbols/dso.h"

/* perf formats an instruction in a buffer of this size */
#define INSN_TEXT_MAX 256

enum annotate_insn_kind { INSN_OTHER, INSN_MOV, INSN_DEC, INSN_JUMP, INSN_CALL, INSN_RET,
			  INSN_NOP, INSN_LOCK };

/* One instruction as perf's parser sees it. */
struct annotate_insn {
	char name[64];
	char raw[INSN_TEXT_MAX];	/* the operands (and comment), trimmed */
	enum annotate_insn_kind kind;	/* INSN_OTHER too when the operands did not parse */
	char text[INSN_TEXT_MAX];	/* the operands as perf shows them */
	uint64_t target;	/* jumps and calls: objdump's address */
	bool outside;		/* a jump out of the symbol */
	int64_t target_offset;	/* a jump inside: the offset it goes to */
};

/* Every line's instruction (lines that are not instructions stay zero),
 * indexed as the annotation's lines. */
struct annotate_insns {
	struct annotate_insn *insns;
	int *jump_sources;	/* how many jumps inside the symbol land on the line */
	int max_name;		/* the longest mnemonic */
	int addr_width;		/* hex digits of the symbol's size: offsets' width */
};

/* dso and sym name call and jump targets. */
void annotate_insns__parse(struct annotate_insns *v, const struct annotation *a, struct dso *dso,
			   const struct symbol *sym);
void annotate_insns__release(struct annotate_insns *v);

/* A jump that stays inside the symbol and lands on one of its lines. */
bool annotate_insn__local_jump(const struct annotate_insn *in, const struct symbol *sym);

/* The function a call (or a jump out of sym) goes to, in the same file;
 * NULL for indirect calls and addresses no symbol covers. */
struct symbol *annotate_insn__target_symbol(const struct annotate_insn *in,
					   const struct annotation *a, struct dso *dso,
					   const struct symbol *sym);

/* The two columns before the instruction: "↓ " / "↑ " for jumps down or up
 * inside the symbol, "→ " for calls and jumps out, "← " for returns. */
const char *annotate_insn__arrow(const struct annotate_insn *in, int64_t offset);

/* The line's largest percentage of type over its events (0 for lines that
 * are not instructions). */
double annotate_line__max_percent(const struct annotation *a, const struct annotate_line *l,
				  enum annotate_percent type);

/* Hex digits of v, as perf sizes its address columns. */
int annotate_hex_width(uint64_t v);

#endif
