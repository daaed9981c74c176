/* markup: text made safe for SVG/XML, HTML and JSON inside <script>. */
#ifndef PCL_MARKUP_H
#define PCL_MARKUP_H

struct strbuf;

/* &, <, >, quotes escaped; control bytes and invalid UTF-8 become '?'. */
void xml_escape(struct strbuf *sb, const char *s);
/* "<!-- LABEL text -->" and a newline, text escaped and without "--". */
void xml_comment(struct strbuf *sb, const char *label, const char *text);
/* A JSON (and JS) string literal of valid UTF-8 (invalid bytes become
 * '?') that can sit inside <script> or CDATA: "</" is written "<\/", the
 * '>' of "]]>" \u003e. */
void json_string(struct strbuf *sb, const char *s);

#endif
