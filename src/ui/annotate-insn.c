/* annotate-insn: perf 6.1's reading of objdump's instruction text (see
 * annotate-insn.h).  Instructions are read as perf's x86 parser reads them:
 * the mnemonic, then operands rewritten by kind. */
#include "ui/annotate-insn.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

/* perf 6.1's x86 mnemonics with an operand parser, sorted; a name not
 * here is looked up again without a b/w/l/q size suffix.  Of the
 * extending moves 6.1 knows only movslq, movzbl and movzwl (whole):
 * movswl, movsbl, movzbw... stay objdump's text, "# addr <sym>" and all
 * (later perfs know movs and movz of every size). */
static const struct { const char *name; enum annotate_insn_kind kind; } known_insns[] = {
	{ "adc", INSN_MOV }, { "add", INSN_MOV }, { "addsd", INSN_MOV }, { "and", INSN_MOV },
	{ "andpd", INSN_MOV }, { "andps", INSN_MOV }, { "bsr", INSN_MOV }, { "bt", INSN_MOV },
	{ "btr", INSN_MOV }, { "bts", INSN_MOV }, { "call", INSN_CALL }, { "cmovae", INSN_MOV },
	{ "cmovbe", INSN_MOV }, { "cmove", INSN_MOV }, { "cmp", INSN_MOV }, { "cmpxch", INSN_MOV },
	{ "cmpxchg", INSN_MOV }, { "cs", INSN_MOV }, { "dec", INSN_DEC }, { "divsd", INSN_MOV },
	{ "divss", INSN_MOV }, { "gs", INSN_MOV }, { "imul", INSN_MOV }, { "inc", INSN_DEC },
	{ "ja", INSN_JUMP }, { "jae", INSN_JUMP }, { "jb", INSN_JUMP }, { "jbe", INSN_JUMP },
	{ "jc", INSN_JUMP }, { "jcxz", INSN_JUMP }, { "je", INSN_JUMP }, { "jecxz", INSN_JUMP },
	{ "jg", INSN_JUMP }, { "jge", INSN_JUMP }, { "jl", INSN_JUMP }, { "jle", INSN_JUMP },
	{ "jmp", INSN_JUMP }, { "jna", INSN_JUMP }, { "jnae", INSN_JUMP }, { "jnb", INSN_JUMP },
	{ "jnbe", INSN_JUMP }, { "jnc", INSN_JUMP }, { "jne", INSN_JUMP }, { "jng", INSN_JUMP },
	{ "jnge", INSN_JUMP }, { "jnl", INSN_JUMP }, { "jnle", INSN_JUMP }, { "jno", INSN_JUMP },
	{ "jnp", INSN_JUMP }, { "jns", INSN_JUMP }, { "jnz", INSN_JUMP }, { "jo", INSN_JUMP },
	{ "jp", INSN_JUMP }, { "jpe", INSN_JUMP }, { "jpo", INSN_JUMP }, { "jrcxz", INSN_JUMP },
	{ "js", INSN_JUMP }, { "jz", INSN_JUMP }, { "lea", INSN_MOV }, { "lock", INSN_LOCK },
	{ "mov", INSN_MOV }, { "movapd", INSN_MOV }, { "movaps", INSN_MOV },
	{ "movdqa", INSN_MOV }, { "movdqu", INSN_MOV }, { "movsd", INSN_MOV },
	{ "movslq", INSN_MOV }, { "movss", INSN_MOV }, { "movupd", INSN_MOV },
	{ "movups", INSN_MOV }, { "movzbl", INSN_MOV }, { "movzwl", INSN_MOV },
	{ "mulsd", INSN_MOV }, { "mulss", INSN_MOV }, { "nop", INSN_NOP }, { "or", INSN_MOV },
	{ "orps", INSN_MOV }, { "paddq", INSN_MOV }, { "pand", INSN_MOV },
	{ "pcmpeqb", INSN_MOV }, { "por", INSN_MOV }, { "rcl", INSN_MOV }, { "ret", INSN_RET },
	{ "sbb", INSN_MOV }, { "sete", INSN_MOV }, { "sub", INSN_MOV }, { "subsd", INSN_MOV },
	{ "test", INSN_MOV }, { "tzcnt", INSN_MOV }, { "ucomisd", INSN_MOV },
	{ "ucomiss", INSN_MOV }, { "vaddsd", INSN_MOV }, { "vandpd", INSN_MOV },
	{ "vmovdqa", INSN_MOV }, { "vmovq", INSN_MOV }, { "vmovsd", INSN_MOV },
	{ "vmulsd", INSN_MOV }, { "vorpd", INSN_MOV }, { "vsubsd", INSN_MOV },
	{ "vucomisd", INSN_MOV }, { "xadd", INSN_MOV }, { "xbegin", INSN_JUMP },
	{ "xchg", INSN_MOV }, { "xor", INSN_MOV }, { "xorpd", INSN_MOV }, { "xorps", INSN_MOV },
};

static int insn_compare(const void *key, const void *elem)
{
	return strcmp(key, *(const char *const *)elem);
}

static enum annotate_insn_kind kind_of(const char *name)
{
	size_t len = strlen(name);
	char base[32];
	const void *found = bsearch(name, known_insns, ARRAY_SIZE(known_insns),
				    sizeof(known_insns[0]), insn_compare);

	if (!found && len > 1 && len < sizeof(base) && strchr("bwlq", name[len - 1])) {
		memcpy(base, name, len - 1);
		base[len - 1] = '\0';
		found = bsearch(base, known_insns, ARRAY_SIZE(known_insns),
				sizeof(known_insns[0]), insn_compare);
	}
	return found ? ((const typeof(known_insns[0]) *)found)->kind : INSN_OTHER;
}

struct insn_ctx {
	const struct annotation *a;
	struct dso *dso;
	const struct symbol *sym;
	int max_name;		/* the longest mnemonic */
};

/* perf formats into fixed buffers: longer texts are cut, as there. */
static void __attribute__((format(printf, 3, 4))) cut_printf(char *dst, size_t size,
							     const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(dst, size, fmt, ap);
	va_end(ap);
}

static const char *skip_blanks(const char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	return s;
}

static void trim_copy(char *dst, size_t size, const char *s, size_t len)
{
	s = skip_blanks(s);
	len = strnlen(s, len);
	while (len && isspace((unsigned char)s[len - 1]))
		len--;
	cut_printf(dst, size, "%.*s", (int)len, s);
}

/* The name of the symbol at objdump address addr of the same file, or NULL. */
static struct symbol *find_symbol_at(const struct annotation *a, struct dso *dso,
				     const struct symbol *sym, uint64_t addr)
{
	if (addr + sym->start < a->start)
		return NULL;
	return dso__find_symbol(dso, addr - a->start + sym->start);
}

static const char *symbol_at(const struct insn_ctx *x, uint64_t addr)
{
	const struct symbol *s = find_symbol_at(x->a, x->dso, x->sym, addr);

	return s ? s->name : NULL;
}

/* A comma of the operands before their comment and "<symbol>". */
static const char *operand_comma(const char *c, const char *raw)
{
	const char *comment = strchr(raw, '#'), *func = strchr(raw, '<');

	if (!c || (comment && c > comment) || (func && c > func))
		return NULL;
	return c;
}

/* "# 4010 <name>" after a rip-relative operand: the name, in name. */
static bool comment_symbol(const char *operand, const char *comment, char *name, size_t size)
{
	const char *open, *close;
	char *end;

	if (!strstr(operand, "(%rip)"))
		return false;
	strtoull(comment, &end, 16);
	if (end == comment || !(open = strchr(end, '<')) || !(close = strchr(open + 1, '>')))
		return false;
	cut_printf(name, size, "%.*s", (int)(close - open - 1), open + 1);
	return true;
}

static bool parse_mov(struct annotate_insn *in, int max_name)
{
	char source[INSN_TEXT_MAX], target[INSN_TEXT_MAX], sname[INSN_TEXT_MAX], tname[INSN_TEXT_MAX];
	const char *comma = strchr(in->raw, ','), *t, *comment;

	if (!comma)
		return false;
	/* an address with an index register, 0x8(%rax,%rcx,1): up to its ')' */
	if (memchr(in->raw, '(', (size_t)(comma - in->raw))) {
		comma = strchr(in->raw, ')');
		if (!comma || comma[1] != ',')
			return false;
		comma++;
	}
	cut_printf(source, sizeof(source), "%.*s", (int)(comma - in->raw), in->raw);
	t = skip_blanks(comma + 1);
	comment = strchr(comma + 1, '#');
	trim_copy(target, sizeof(target), t, comment ? (size_t)(comment - t) : strlen(t));
	if (comment) {
		comment = skip_blanks(comment) + 1;
		if (!comment_symbol(source, comment, sname, sizeof(sname)))
			cut_printf(sname, sizeof(sname), "%s", source);
		if (!comment_symbol(target, comment, tname, sizeof(tname)))
			cut_printf(tname, sizeof(tname), "%s", target);
	} else {
		cut_printf(sname, sizeof(sname), "%s", source);
		cut_printf(tname, sizeof(tname), "%s", target);
	}
	cut_printf(in->text, sizeof(in->text), "%-*s %s,%s", max_name, in->name, sname, tname);
	return true;
}

static void parse_dec(struct annotate_insn *in, int max_name)
{
	size_t len = strcspn(in->raw, " \t\n\v\f\r");
	const char *comment = strchr(in->raw + len, '#');
	char operand[INSN_TEXT_MAX], name[INSN_TEXT_MAX];

	cut_printf(operand, sizeof(operand), "%.*s", (int)len, in->raw);
	if (!comment || !comment_symbol(operand, skip_blanks(comment) + 1, name, sizeof(name)))
		cut_printf(name, sizeof(name), "%s", operand);
	cut_printf(in->text, sizeof(in->text), "%-*s %s", max_name, in->name, name);
}

static void parse_jump(const struct insn_ctx *x, struct annotate_insn *in, int max_name)
{
	uint64_t start = x->a->start, size = x->sym->end - x->sym->start;
	const char *c = operand_comma(strchr(in->raw, ','), in->raw), *name;

	if (c) {
		in->target = strtoull(c + 1, NULL, 16);
		if (!in->target && (c = operand_comma(strchr(c + 1, ','), in->raw)))
			in->target = strtoull(c + 1, NULL, 16);
	} else {
		in->target = strtoull(in->raw, NULL, 16);
	}
	in->outside = in->target < start || in->target > start + size;
	if (!in->outside)
		in->target_offset = (int64_t)(in->target - start);
	/* a jump out past the end names the symbol it lands in, as calls do;
	 * one back before the start (a negative offset to perf), or to no
	 * symbol, shows objdump's text */
	if (in->target > start && in->outside && (name = symbol_at(x, in->target))) {
		cut_printf(in->text, sizeof(in->text), "%-*s %s", max_name, in->name, name);
	} else if (!in->target || in->outside) {
		cut_printf(in->text, sizeof(in->text), "%-*s %s", max_name, in->name, in->raw);
	} else {
		/* the operands before the last one stay (three at most) */
		const char *last = operand_comma(strchr(in->raw, ','), in->raw);
		int keep = 0;

		if (last) {
			const char *next = operand_comma(strchr(last + 1, ','), in->raw);

			if (next)
				last = next;
			last++;
			if (*last == ' ')
				last++;
			keep = (int)(last - in->raw);
		}
		cut_printf(in->text, sizeof(in->text), "%-*s %.*s%" PRIx64, max_name, in->name, keep,
			 in->raw, (uint64_t)in->target_offset);
	}
}

static bool parse_call(const struct insn_ctx *x, struct annotate_insn *in, int max_name)
{
	char *end, name[INSN_TEXT_MAX] = "";
	const char *open, *close, *sym;

	in->target = strtoull(in->raw, &end, 16);
	if ((open = strchr(end, '<'))) {
		if (!(close = strchr(open + 1, '>')))
			return false;
		cut_printf(name, sizeof(name), "%.*s", (int)(close - open - 1), open + 1);
	} else if (strchr(end, '*')) {
		/* *0x8(%rbx) and such name no address */
		if (!strstr(end + 1, "(%r"))
			in->target = strtoull(end + 1, NULL, 16);
	}
	sym = in->target ? symbol_at(x, in->target) : NULL;
	if (sym)
		cut_printf(in->text, sizeof(in->text), "%-*s %s", max_name, in->name, sym);
	else if (!in->target)
		cut_printf(in->text, sizeof(in->text), "%-*s %s", max_name, in->name, in->raw);
	else if (*name)
		cut_printf(in->text, sizeof(in->text), "%-*s %s", max_name, in->name, name);
	else
		cut_printf(in->text, sizeof(in->text), "%-*s *%" PRIx64, max_name, in->name,
			 in->target);
	return true;
}

static void split_insn(const char *line, char *name, size_t nsize, char *raw, size_t rsize)
{
	const char *s = skip_blanks(line);
	size_t len = strcspn(s, " \t\n\v\f\r");

	cut_printf(name, nsize, "%.*s", (int)len, s);
	trim_copy(raw, rsize, s + len, strlen(s + len));
}

/* Reads one instruction line's text the way perf does. */
static void parse_insn(const struct insn_ctx *x, const struct annotate_line *l,
		       struct annotate_insn *in)
{
	memset(in, 0, sizeof(*in));
	split_insn(l->text, in->name, sizeof(in->name), in->raw, sizeof(in->raw));
	in->kind = kind_of(in->name);
	switch (in->kind) {
	case INSN_MOV:
		if (!parse_mov(in, x->max_name))
			in->kind = INSN_OTHER;
		break;
	case INSN_DEC:
		parse_dec(in, x->max_name);
		break;
	case INSN_JUMP:
		parse_jump(x, in, x->max_name);
		break;
	case INSN_CALL:
		if (!parse_call(x, in, x->max_name))
			in->kind = INSN_OTHER;
		break;
	case INSN_NOP:
		cut_printf(in->text, sizeof(in->text), "%-*s", x->max_name, "nop");
		break;
	case INSN_LOCK: {
		struct annotate_line locked = *l;
		struct annotate_insn inner;
		int n;

		cut_printf(in->text, sizeof(in->text), "%-*s ", x->max_name, in->name);
		n = (int)strlen(in->text);

		/* the locked instruction as one of its own, when perf knows it */
		locked.text = in->raw;
		parse_insn(x, &locked, &inner);
		if (inner.kind != INSN_OTHER && inner.kind != INSN_LOCK && n < INSN_TEXT_MAX)
			cut_printf(in->text + n, sizeof(in->text) - (size_t)n, "%s", inner.text);
		break;
	}
	default:
		break;
	}
	if (in->kind == INSN_OTHER || in->kind == INSN_RET)
		cut_printf(in->text, sizeof(in->text), "%-*s %s", x->max_name, in->name, in->raw);
}

void annotate_insns__parse(struct annotate_insns *v, const struct annotation *a, struct dso *dso,
			   const struct symbol *sym)
{
	struct insn_ctx x = { .a = a, .dso = dso, .sym = sym };
	size_t n = a->nr_lines ? a->nr_lines : 1;

	v->insns = xcalloc(n, sizeof(*v->insns));
	v->jump_sources = xcalloc(n, sizeof(*v->jump_sources));
	v->addr_width = annotate_hex_width(sym->end - sym->start);
	for (size_t i = 0; i < a->nr_lines; i++) {
		int len;
		char name[64], raw[8];

		if (a->lines[i].offset < 0)
			continue;
		split_insn(a->lines[i].text, name, sizeof(name), raw, sizeof(raw));
		len = (int)strlen(name);
		if (len > x.max_name)
			x.max_name = len;
	}
	v->max_name = x.max_name;
	for (size_t i = 0; i < a->nr_lines; i++)
		if (a->lines[i].offset >= 0)
			parse_insn(&x, &a->lines[i], &v->insns[i]);
	/* jumps inside the symbol mark the instruction they go to */
	for (size_t i = 0; i < a->nr_lines; i++) {
		if (a->lines[i].offset < 0 || !annotate_insn__local_jump(&v->insns[i], sym))
			continue;
		for (size_t k = 0; k < a->nr_lines; k++)
			if (a->lines[k].offset == v->insns[i].target_offset) {
				v->jump_sources[k]++;
				break;
			}
	}
}

void annotate_insns__release(struct annotate_insns *v)
{
	free(v->insns);
	free(v->jump_sources);
	v->insns = NULL;
	v->jump_sources = NULL;
}

bool annotate_insn__local_jump(const struct annotate_insn *in, const struct symbol *sym)
{
	return in->kind == INSN_JUMP && !in->outside && in->target &&
	       in->target_offset < (int64_t)(sym->end - sym->start);
}

struct symbol *annotate_insn__target_symbol(const struct annotate_insn *in,
					   const struct annotation *a, struct dso *dso,
					   const struct symbol *sym)
{
	if (!in->target || !(in->kind == INSN_CALL || (in->kind == INSN_JUMP && in->outside)))
		return NULL;
	return find_symbol_at(a, dso, sym, in->target);
}

const char *annotate_insn__arrow(const struct annotate_insn *in, int64_t offset)
{
	if (in->kind == INSN_JUMP && !in->outside)
		return in->target_offset > offset ? "↓ " : "↑ ";
	if (in->kind == INSN_JUMP || in->kind == INSN_CALL)
		return "→ ";
	if (in->kind == INSN_RET)
		return "← ";
	return "  ";
}

double annotate_line__max_percent(const struct annotation *a, const struct annotate_line *l,
				  enum annotate_percent type)
{
	double max = 0;

	for (int e = 0; l->offset >= 0 && e < a->nr_data; e++)
		if (l->data[e].percent[type] > max)
			max = l->data[e].percent[type];
	return max;
}

int annotate_hex_width(uint64_t v)
{
	int n = 1;

	while ((v >>= 4))
		n++;
	return n;
}
