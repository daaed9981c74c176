/* markup: escaping for XML and JSON (see markup.h). */
#include <stddef.h>

#include "ui/markup.h"
#include "util/strbuf.h"

/* Length of the valid UTF-8 sequence at s, or 0. */
static size_t utf8_len(const unsigned char *s)
{
	size_t n = s[0] < 0x80 ? 1 : (s[0] & 0xe0) == 0xc0 ? 2 : (s[0] & 0xf0) == 0xe0 ? 3 :
		   (s[0] & 0xf8) == 0xf0 ? 4 : 0;

	if (n == 2 && s[0] < 0xc2)
		return 0;
	for (size_t i = 1; i < n; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	return n;
}

void xml_escape(struct strbuf *sb, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;

	while (*s) {
		size_t n = utf8_len(s);

		if (!n || (*s < 0x20 && *s != '\t')) {
			strbuf_addch(sb, '?');
			s++;
			continue;
		}
		switch (*s) {
		case '&': strbuf_addstr(sb, "&amp;"); break;
		case '<': strbuf_addstr(sb, "&lt;"); break;
		case '>': strbuf_addstr(sb, "&gt;"); break;
		case '"': strbuf_addstr(sb, "&quot;"); break;
		case '\'': strbuf_addstr(sb, "&apos;"); break;
		default: strbuf_add(sb, s, n); break;
		}
		s += n;
	}
}

void xml_comment(struct strbuf *sb, const char *label, const char *text)
{
	size_t start;

	strbuf_addf(sb, "<!-- %s", label);
	start = sb->len;
	xml_escape(sb, text);
	/* "--" may not appear inside a comment */
	for (size_t i = start; i + 1 < sb->len; i++)
		if (sb->buf[i] == '-' && sb->buf[i + 1] == '-')
			sb->buf[i + 1] = '_';
	strbuf_addstr(sb, " -->\n");
}

void json_string(struct strbuf *sb, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;

	strbuf_addch(sb, '"');
	while (*s) {
		size_t n = utf8_len(s);

		if (!n) {
			strbuf_addch(sb, '?');
			s++;
			continue;
		}
		if (*s == '"' || *s == '\\' || (*s == '/' && s > (const unsigned char *)str &&
						   s[-1] == '<'))
			strbuf_addch(sb, '\\');
		/* "]]>" would end a CDATA section */
		if (*s < 0x20 || (*s == '>' && s >= (const unsigned char *)str + 2 &&
				  s[-1] == ']' && s[-2] == ']'))
			strbuf_addf(sb, "\\u%04x", *s);
		else
			strbuf_add(sb, s, n);
		s += n;
	}
	strbuf_addch(sb, '"');
}

void html_page__start(struct strbuf *sb, const char *generator, const char *title,
		      const char *style)
{
	strbuf_addstr(sb, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
		      "<meta name=\"generator\" content=\"");
	strbuf_addstr(sb, generator);
	strbuf_addstr(sb, "\">\n<title>");
	xml_escape(sb, title);
	strbuf_addstr(sb, "</title>\n<style>\n");
	strbuf_addstr(sb, style);
	strbuf_addstr(sb, "</style>\n</head>\n<body>\n");
}

int html_page__finish(struct strbuf *sb, const char *script, FILE *out)
{
	int ret = 0;

	strbuf_addstr(sb, "</script>\n<script>\n");
	strbuf_addstr(sb, script);
	strbuf_addstr(sb, "</script>\n</body>\n</html>\n");
	if (fwrite(sb->buf, 1, sb->len, out) != sb->len || fflush(out))
		ret = -1;
	strbuf_release(sb);
	return ret;
}
