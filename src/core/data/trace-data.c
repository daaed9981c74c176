/* trace-data: tracing data blob -> libtraceevent handle. */
#include "core/data/trace-data.h"
#include "core/data/data-cursor.h"
#include "util/util.h"

#include <errno.h>
#include <event-parse.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static const char magic[] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g' };

/* A data_cursor that remembers why it first failed. */
struct tcur {
	struct data_cursor dc;
	const char *start;
	const char *err;
};

/* True while all reads fitted; else notes what (unless already noted). */
static bool t_ok(struct tcur *c, const char *what)
{
	if (c->dc.bad && !c->err)
		c->err = what;
	return !c->dc.bad;
}

static uint32_t t_u32(struct tcur *c, const char *what)
{
	uint32_t v = data_cursor__u32(&c->dc);

	t_ok(c, what);
	return v;
}

static uint64_t t_u64(struct tcur *c, const char *what)
{
	uint64_t v = data_cursor__u64(&c->dc);

	t_ok(c, what);
	return v;
}

/* A NUL-terminated string in place; NULL when it runs off the end. */
static const char *t_str(struct tcur *c, const char *what)
{
	size_t left = data_cursor__left(&c->dc);
	const char *s = (const char *)c->dc.p, *nul = left ? memchr(s, 0, left) : NULL;

	if (!nul)
		c->dc.bad = true;
	if (!t_ok(c, what))
		return NULL;
	data_cursor__skip(&c->dc, (size_t)(nul + 1 - s));
	return s;
}

/* A counted blob copied out NUL-terminated (libtraceevent wants strings). */
static char *t_blob(struct tcur *c, uint64_t size, const char *what)
{
	const void *p = data_cursor__skip(&c->dc, size);
	char *b;

	if (!t_ok(c, what))
		return NULL;
	b = xmalloc(size + 1);
	memcpy(b, p, size);
	b[size] = 0;
	return b;
}

/* libtraceevent trusts its printk format lines ('ADDR : "fmt"') and reads
 * outside of short ones: keep only lines with a colon, an address before
 * it and a format of a few characters after it. */
static void keep_sound_printk_lines(char *buf)
{
	char *out = buf, *line = buf;

	while (*line) {
		char *nl = strchr(line, '\n'), *colon;
		size_t len = nl ? (size_t)(nl - line) : strlen(line);

		colon = memchr(line, ':', len);
		if (line[0] != ':' && colon && line + len - (colon + 1) >= 5) {
			memmove(out, line, len);
			out += len;
			if (nl)
				*out++ = '\n';
		}
		line += len + (nl ? 1 : 0);
	}
	*out = 0;
}

static bool is_ident_char(char ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
	       ch == '_';
}

/* Whether the field list declares name ("field:TYPE NAME;" or "NAME[N];"). */
static bool declares_field(const char *fields, const char *end, const char *name, size_t n)
{
	if (!n)		/* "REC->" naming nothing */
		return false;
	for (const char *p = fields; p < end && (p = memmem(p, (size_t)(end - p), name, n)); p++) {
		char before = p > fields ? p[-1] : 0, after = p + n < end ? p[n] : 0;

		if ((before == ' ' || before == '*' || before == '\t') && (after == ';' || after == '['))
			return true;
	}
	return false;
}

/*
 * libtraceevent crashes on control and non-ASCII bytes in a format, and on
 * a print format using a field the format does not declare (both found by
 * fuzzing): such an event is skipped like one it cannot parse.  The kernel
 * writes plain ASCII text naming its own fields.
 */
static bool is_sound_format(const char *fmt, uint64_t n)
{
	const char *print, *end = fmt + n;

	for (uint64_t i = 0; i < n; i++) {
		unsigned char ch = (unsigned char)fmt[i];

		if ((ch < 0x20 && ch != '\t' && ch != '\n') || ch >= 0x7f)
			return false;
	}
	print = memmem(fmt, n, "print fmt:", 10);
	for (const char *p = print; p && (p = memmem(p, (size_t)(end - p), "REC->", 5)); ) {
		const char *name = p += 5;

		while (p < end && is_ident_char(*p))
			p++;
		if (!declares_field(fmt, print, name, (size_t)(p - name)))
			return false;
	}
	return true;
}

struct event_format {
	const char *sys;
	char *text;
	uint64_t size;
};

struct format_list {
	struct event_format *v;
	size_t nr;
};

/* Reads a u32 count and that many u64-sized format texts of system sys,
 * keeping the sound ones. */
static void read_formats(struct tcur *c, const char *sys, struct format_list *l)
{
	uint32_t count = t_u32(c, "truncated event format count");

	for (uint32_t i = 0; i < count && !c->err; i++) {
		uint64_t size = t_u64(c, "truncated event format size");
		char *text = t_blob(c, size, "event format runs past the tracing data");

		if (!text || !is_sound_format(text, size)) {
			free(text);
			continue;
		}
		l->v = xrealloc(l->v, (l->nr + 1) * sizeof(*l->v));
		l->v[l->nr++] = (struct event_format){ sys, text, size };
	}
}

/*
 * Whether tep survives parsing these formats, tried in a child process:
 * libtraceevent dereferences NULL on many malformed print formats (perf
 * 6.1 crashes on them too) and no check of the text catches them all.
 */
static bool parses_safely(struct tep_handle *tep, const struct event_format *f, size_t n)
{
	int status;
	pid_t pid = fork();

	if (pid < 0)
		return true;	/* cannot tell: as without the check */
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);

		if (null >= 0)
			dup2(null, STDERR_FILENO);	/* the parent warns, not the trial */
		signal(SIGSEGV, SIG_DFL);		/* just die: no sanitizer report */
		signal(SIGBUS, SIG_DFL);
		for (size_t i = 0; i < n; i++)
			tep_parse_event(tep, f[i].text, f[i].size, f[i].sys);
		_exit(0);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return true;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

/* Hands the formats to tep, skipping those it cannot parse (as perf does)
 * or would crash on: one trial for all, then one per format if that died. */
static void parse_formats(struct tep_handle *tep, const struct format_list *l)
{
	bool all_safe = parses_safely(tep, l->v, l->nr);

	for (size_t i = 0; i < l->nr; i++)
		if (all_safe || parses_safely(tep, &l->v[i], 1))
			tep_parse_event(tep, l->v[i].text, l->v[i].size, l->v[i].sys);
}

static void free_formats(struct format_list *l)
{
	for (size_t i = 0; i < l->nr; i++)
		free(l->v[i].text);
	free(l->v);
}

struct tep_handle *trace_data__parse(const void *buf, size_t size, const char **err,
				     size_t *err_off)
{
	struct tcur c = { .start = buf };
	const uint8_t *flags;
	struct tep_handle *tep;
	const char *version, *name;
	uint8_t big_endian, long_size;
	uint32_t page_size, nr_sys;
	struct format_list formats = { NULL, 0 };
	uint64_t len;
	char *blob;
	bool host_big = __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__;
	double ver;

	if (size < sizeof(magic) || memcmp(buf, magic, sizeof(magic))) {
		*err = "bad tracing data magic";
		*err_off = 0;
		return NULL;
	}
	data_cursor__init(&c.dc, buf, size, false);
	data_cursor__skip(&c.dc, sizeof(magic));
	version = t_str(&c, "truncated tracing data version");
	flags = data_cursor__skip(&c.dc, 2);
	if (!t_ok(&c, "truncated tracing data header"))
		goto bad;
	big_endian = flags[0];
	long_size = flags[1];
	c.dc.swap = big_endian != host_big;
	page_size = t_u32(&c, "truncated tracing data header");
	if (c.err)
		goto bad;
	ver = strtod(version, NULL);

	/* A format libtraceevent cannot parse is said on stderr, as perf's
	 * library says it; its samples then print "[FAILED TO PARSE]". */
	tep_set_loglevel(TEP_LOG_WARNING);
	tep = tep_alloc();
	if (!tep) {
		*err = "out of memory";
		*err_off = 0;
		return NULL;
	}
	tep_set_file_bigendian(tep, big_endian ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(tep, host_big ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_long_size(tep, long_size);
	tep_set_page_size(tep, (int)page_size);

	name = t_str(&c, "truncated header_page");
	if (!name || strcmp(name, "header_page")) {
		c.err = c.err ? c.err : "header_page missing";
		goto bad_tep;
	}
	len = t_u64(&c, "truncated header_page");
	blob = t_blob(&c, len, "header_page runs past the tracing data");
	if (blob)
		tep_parse_header_page(tep, blob, len, long_size);
	free(blob);

	name = t_str(&c, "truncated header_event");
	if (!name || strcmp(name, "header_event")) {
		c.err = c.err ? c.err : "header_event missing";
		goto bad_tep;
	}
	len = t_u64(&c, "truncated header_event");
	data_cursor__skip(&c.dc, len);
	if (!t_ok(&c, "header_event runs past the tracing data"))
		goto bad_tep;

	read_formats(&c, "ftrace", &formats);
	nr_sys = t_u32(&c, "truncated system count");
	for (uint32_t i = 0; i < nr_sys && !c.err; i++) {
		const char *sys = t_str(&c, "truncated system name");

		if (sys)
			read_formats(&c, sys, &formats);
	}
	if (!c.err)
		parse_formats(tep, &formats);
	free_formats(&formats);
	if (c.err)
		goto bad_tep;

	len = t_u32(&c, "truncated kallsyms size");
	blob = t_blob(&c, len, "kallsyms run past the tracing data");
	if (blob && len)
		tep_parse_kallsyms(tep, blob);
	free(blob);

	len = t_u32(&c, "truncated printk formats size");
	blob = t_blob(&c, len, "printk formats run past the tracing data");
	if (blob && len) {
		keep_sound_printk_lines(blob);
		tep_parse_printk_formats(tep, blob);
	}
	free(blob);

	if (ver >= 0.6 && data_cursor__left(&c.dc)) {
		len = t_u64(&c, "truncated saved cmdlines size");
		blob = t_blob(&c, len, "saved cmdlines run past the tracing data");
		if (blob && len)
			tep_parse_saved_cmdlines(tep, blob);
		free(blob);
	}
	if (c.err)
		goto bad_tep;
	return tep;

bad_tep:
	tep_free(tep);
bad:
	*err = c.err;
	*err_off = (size_t)((const char *)c.dc.p - c.start);
	return NULL;
}
