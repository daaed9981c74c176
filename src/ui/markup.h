/* markup: text made safe for SVG/XML, HTML and JSON inside <script>. */
#ifndef PCL_MARKUP_H
#define PCL_MARKUP_H

#include <stdio.h>

struct strbuf;

/* &, <, >, quotes escaped; control bytes and invalid UTF-8 become '?'. */
void xml_escape(struct strbuf *sb, const char *s);
/* "<!-- LABEL text -->" and a newline, text escaped and without "--". */
void xml_comment(struct strbuf *sb, const char *label, const char *text);
/* A JSON (and JS) string literal of valid UTF-8 (invalid bytes become
 * '?') that can sit inside <script> or CDATA: "</" is written "<\/", the
 * '>' of "]]>" \u003e. */
void json_string(struct strbuf *sb, const char *s);

/* Starts a one-file page: doctype, the generator's name, the title
 * (escaped), the style sheet, up to the opened <body>. */
void html_page__start(struct strbuf *sb, const char *generator, const char *title,
		      const char *style);
/* Ends a one-file page whose data <script> sb has open: closes it, adds
 * the page's script and the closing tags, writes sb to out and releases
 * it.  Returns 0, or -1 when out could not take it all. */
int html_page__finish(struct strbuf *sb, const char *script, FILE *out);

#endif
