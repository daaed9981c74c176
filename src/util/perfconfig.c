/* perfconfig: perf's configuration files (see perfconfig.h). */
#include "util/perfconfig.h"
#include "util/strbuf.h"
#include "util/util.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

static struct perfconfig_section *find_section(const struct perfconfig *c, const char *name,
					       size_t len)
{
	for (size_t i = 0; i < c->nr; i++)
		if (strlen(c->sections[i].name) == len && !memcmp(c->sections[i].name, name, len))
			return &c->sections[i];
	return NULL;
}

void perfconfig__set(struct perfconfig *c, const char *key, const char *value, bool from_system)
{
	const char *dot = strchr(key, '.');
	struct perfconfig_section *sec;
	struct perfconfig_item *item = NULL;

	if (!dot || dot == key || !dot[1])
		return;
	sec = find_section(c, key, (size_t)(dot - key));
	if (!sec) {
		c->sections = xrealloc(c->sections, (c->nr + 1) * sizeof(*c->sections));
		sec = &c->sections[c->nr++];
		*sec = (struct perfconfig_section){ .name = xstrndup(key, (size_t)(dot - key)) };
	}
	for (size_t i = 0; i < sec->nr && !item; i++)
		if (!strcmp(sec->items[i].name, dot + 1))
			item = &sec->items[i];
	if (!item) {
		sec->items = xrealloc(sec->items, (sec->nr + 1) * sizeof(*sec->items));
		item = &sec->items[sec->nr++];
		*item = (struct perfconfig_item){ .name = xstrdup(dot + 1) };
	}
	free(item->value);
	item->value = xstrdup(value);
	item->from_system = from_system;
}

const char *perfconfig__get(const struct perfconfig *c, const char *key)
{
	const char *dot = strchr(key, '.');
	const struct perfconfig_section *sec = dot ? find_section(c, key, (size_t)(dot - key)) :
					       NULL;

	for (size_t i = 0; sec && i < sec->nr; i++)
		if (!strcmp(sec->items[i].name, dot + 1))
			return sec->items[i].value;
	return NULL;
}

/* "[section]" or "[section \"sub\"]" at p (after the '['): the key prefix
 * (section lowercased, subsection as written) into sb; NULL if malformed. */
static const char *parse_section(const char *p, struct strbuf *sb)
{
	strbuf_reset(sb);
	for (; isalnum((unsigned char)*p) || *p == '-' || *p == '.'; p++)
		strbuf_addch(sb, (char)tolower((unsigned char)*p));
	if (!sb->len)
		return NULL;
	if (*p == ' ' || *p == '\t') {
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p++ != '"')
			return NULL;
		strbuf_addch(sb, '.');
		for (; *p && *p != '"' && *p != '\n'; p++) {
			if (*p == '\\' && p[1] && p[1] != '\n')
				p++;
			strbuf_addch(sb, *p);
		}
		if (*p++ != '"')
			return NULL;
	}
	return *p == ']' ? p + 1 : NULL;
}

/* A value up to the end of its line: quotes group, escapes are taken,
 * '#' or ';' outside quotes start a comment, outer blanks go. */
static const char *parse_value(const char *p, struct strbuf *sb)
{
	bool quoted = false;
	size_t keep = 0;

	strbuf_reset(sb);
	while (*p == ' ' || *p == '\t')
		p++;
	for (; *p && *p != '\n'; p++) {
		if (!quoted && (*p == '#' || *p == ';')) {
			p += strcspn(p, "\n");
			break;
		}
		if (*p == '"') {
			quoted = !quoted;
			keep = sb->len;
			continue;
		}
		if (*p == '\\') {
			static const char from[] = "ntb\\\"", to[] = "\n\t\b\\\"";
			const char *e = p[1] ? strchr(from, p[1]) : NULL;

			if (!e)
				return NULL;
			strbuf_addch(sb, to[e - from]);
			p++;
			keep = sb->len;
			continue;
		}
		strbuf_addch(sb, *p);
		if (quoted || (*p != ' ' && *p != '\t'))
			keep = sb->len;
	}
	if (quoted)
		return NULL;
	if (sb->buf) {	/* trailing blanks outside quotes go */
		sb->len = keep;
		sb->buf[keep] = '\0';
	}
	return p;
}

int perfconfig__read_file(struct perfconfig *c, const char *path, bool from_system)
{
	char *text = read_file_str(path);
	struct perfconfig parsed = { 0 };
	struct strbuf section = STRBUF_INIT, key = STRBUF_INIT, value = STRBUF_INIT;
	int line = 1, bad = 0;

	for (const char *p = text; p && *p && !bad; ) {
		while (*p == ' ' || *p == '\t' || *p == '\r')
			p++;
		if (*p == '\n') {
			p++;
			line++;
			continue;
		}
		if (*p == '#' || *p == ';') {
			p += strcspn(p, "\n");
			continue;
		}
		if (*p == '[') {
			const char *open = p;

			/* perf counts the line a section runs into */
			if (!(p = parse_section(p + 1, &section)))
				bad = line + (open[strcspn(open, "]\n")] == '\n');
			continue;
		}
		/* "name = value" in a section: names start with a letter */
		if (!section.len || !isalpha((unsigned char)*p)) {
			bad = line;
			break;
		}
		strbuf_reset(&key);
		strbuf_addf(&key, "%s.", strbuf_str(&section));
		for (; isalnum((unsigned char)*p) || *p == '-' || *p == '_'; p++)
			strbuf_addch(&key, (char)tolower((unsigned char)*p));
		while (*p == ' ' || *p == '\t')
			p++;
		/* perf wants a value for every name */
		if (*p != '=' || !(p = parse_value(p + 1, &value))) {
			bad = line;
			break;
		}
		perfconfig__set(&parsed, strbuf_str(&key), strbuf_str(&value), from_system);
	}
	if (!bad) {
		for (size_t i = 0; i < parsed.nr; i++) {
			const struct perfconfig_section *sec = &parsed.sections[i];

			for (size_t k = 0; k < sec->nr; k++) {
				char *full = xasprintf("%s.%s", sec->name, sec->items[k].name);

				perfconfig__set(c, full, sec->items[k].value, from_system);
				free(full);
			}
		}
	}
	perfconfig__release(&parsed);
	strbuf_release(&section);
	strbuf_release(&key);
	strbuf_release(&value);
	free(text);
	return bad;
}

char *perfconfig__user_path(void)
{
	const char *home = getenv("HOME");

	return home && *home ? xasprintf("%s/.perfconfig", home) : NULL;
}

static void load_reporting(struct perfconfig *c, const char *path, bool from_system)
{
	int bad = perfconfig__read_file(c, path, from_system);

	if (bad)
		fprintf(stderr, "bad config file line %d in %s\n", bad, path);
}

void perfconfig__load(struct perfconfig *c)
{
	const char *only = getenv("PERF_CONFIG");
	char *user;
	struct stat st;

	if (only) {
		load_reporting(c, only, false);
		return;
	}
	if (!getenv("PERF_CONFIG_NOSYSTEM") && !access(PERFCONFIG_SYSTEM_PATH, R_OK))
		load_reporting(c, PERFCONFIG_SYSTEM_PATH, true);
	if (getenv("PERF_CONFIG_NOGLOBAL") || !(user = perfconfig__user_path()))
		return;
	/* perf ignores a file another user could have planted */
	if (!stat(user, &st) && (!st.st_uid || st.st_uid == geteuid()))
		load_reporting(c, user, false);
	free(user);
}

void perfconfig__write(const struct perfconfig *c, FILE *f, bool system)
{
	fputs("# this file is auto-generated.\n", f);
	for (size_t i = 0; i < c->nr; i++) {
		const struct perfconfig_section *sec = &c->sections[i];
		bool header = false;

		for (size_t k = 0; k < sec->nr; k++) {
			if (sec->items[k].from_system != system)
				continue;
			if (!header)
				fprintf(f, "[%s]\n", sec->name);
			header = true;
			fprintf(f, "\t%s = %s\n", sec->items[k].name, sec->items[k].value);
		}
	}
}

bool perfconfig__bool(const char *value, bool *out)
{
	static const char *const yes[] = { "true", "yes", "on" }, *const no[] = { "false", "no",
										 "off" };
	char *end;
	long n;

	for (int i = 0; i < 3; i++) {
		if (!strcasecmp(value, yes[i]) || !strcasecmp(value, no[i])) {
			*out = !strcasecmp(value, yes[i]);
			return true;
		}
	}
	n = strtol(value, &end, 0);
	if (!*value || *end)
		return false;
	*out = n != 0;
	return true;
}

const char *perfconfig__default(const char *key)
{
	static struct perfconfig config;
	static bool loaded;

	if (!loaded)
		perfconfig__load(&config);
	loaded = true;
	return perfconfig__get(&config, key);
}

bool perfconfig__default_bool(const char *key, bool dflt)
{
	const char *value = perfconfig__default(key);
	bool b;

	return value && perfconfig__bool(value, &b) ? b : dflt;
}

void perfconfig__release(struct perfconfig *c)
{
	for (size_t i = 0; i < c->nr; i++) {
		for (size_t k = 0; k < c->sections[i].nr; k++) {
			free(c->sections[i].items[k].name);
			free(c->sections[i].items[k].value);
		}
		free(c->sections[i].items);
		free(c->sections[i].name);
	}
	free(c->sections);
	c->sections = NULL;
	c->nr = 0;
}
