/* trace-data-write: the TRACING_DATA feature payload (see trace-data-write.h). */
#include "core/data/trace-data-write.h"
#include "util/util.h"

#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tracefs.h>
#include <unistd.h>

#define TRACING_DATA_MAGIC	"\x17\x08\x44tracing"
#define TRACING_DATA_VERSION	"0.6"

bool trace_data__needed(const struct evlist *evlist)
{
	evlist__for_each(evlist, pos)
		if (pos->attr.type == PERF_TYPE_TRACEPOINT)
			return true;
	return false;
}

struct tp {
	char *sys, *name;
};

static long long read_id(const char *events, const char *sys, const char *name)
{
	char *path = xasprintf("%s/%s/%s/id", events, sys, name);
	char *s = read_file_str(path);
	long long id = s ? strtoll(s, NULL, 10) : -1;

	free(path);
	free(s);
	return id;
}

/* Finds the tracepoint whose id is config: first by the event's name
 * ("sys:event"), then by scanning every event's id. */
static int find_tracepoint(const char *events, const struct evsel *evsel, struct tp *tp)
{
	const char *colon = strchr(evsel->name, ':');
	DIR *sd;
	struct dirent *s;
	int found = -ENOENT;

	if (colon) {
		char *sys = xstrndup(evsel->name, (size_t)(colon - evsel->name));
		char *name = xstrdup(colon + 1);

		if (read_id(events, sys, name) == (long long)evsel->attr.config) {
			tp->sys = sys;
			tp->name = name;
			return 0;
		}
		free(sys);
		free(name);
	}
	sd = opendir(events);
	if (!sd)
		return -errno;
	while (found && (s = readdir(sd))) {
		char *dir;
		DIR *ed;
		struct dirent *e;

		if (s->d_name[0] == '.')
			continue;
		dir = xasprintf("%s/%s", events, s->d_name);
		ed = opendir(dir);
		free(dir);
		while (ed && found && (e = readdir(ed))) {
			if (e->d_name[0] == '.')
				continue;
			if (read_id(events, s->d_name, e->d_name) == (long long)evsel->attr.config) {
				tp->sys = xstrdup(s->d_name);
				tp->name = xstrdup(e->d_name);
				found = 0;
			}
		}
		if (ed)
			closedir(ed);
	}
	closedir(sd);
	return found;
}

/* u64 size, then the text of the file at the printf-style path. */
static int add_file_u64(struct strbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int add_file_u64(struct strbuf *sb, const char *fmt, ...)
{
	struct strbuf path = STRBUF_INIT;
	va_list ap;
	char *text;
	uint64_t n;

	va_start(ap, fmt);
	strbuf_vaddf(&path, fmt, ap);
	va_end(ap);
	text = read_file_str(path.buf);
	strbuf_release(&path);
	if (!text)
		return -ENOENT;
	n = strlen(text);
	strbuf_add(sb, &n, sizeof(n));
	strbuf_add(sb, text, n);
	free(text);
	return 0;
}

/* name\0, then the size and text of that file in events (header_page...). */
static int add_header_file(struct strbuf *sb, const char *events, const char *name)
{
	strbuf_add(sb, name, strlen(name) + 1);
	return add_file_u64(sb, "%s/%s", events, name);
}

int trace_data__build(struct strbuf *sb, const struct evlist *evlist, const char *events_dir)
{
	char *events = events_dir ? xstrdup(events_dir) : NULL;
	struct tp *tps = NULL;
	size_t nr = 0;
	int err = 0;
	uint32_t u32;
	uint8_t u8;
	char *path;
	char *text;

	if (!events) {
		const char *dir = tracefs_tracing_dir();

		if (!dir)
			return -ENOENT;
		events = xasprintf("%s/events", dir);
	}
	evlist__for_each(evlist, pos) {
		struct tp tp;
		bool dup = false;

		if (pos->attr.type != PERF_TYPE_TRACEPOINT)
			continue;
		err = find_tracepoint(events, pos, &tp);
		if (err)
			goto out;
		for (size_t i = 0; i < nr && !dup; i++)
			dup = !strcmp(tps[i].sys, tp.sys) && !strcmp(tps[i].name, tp.name);
		if (dup) {
			free(tp.sys);
			free(tp.name);
			continue;
		}
		tps = xrealloc(tps, (nr + 1) * sizeof(*tps));
		tps[nr++] = tp;
	}

	strbuf_add(sb, TRACING_DATA_MAGIC, sizeof(TRACING_DATA_MAGIC) - 1);
	strbuf_add(sb, TRACING_DATA_VERSION, sizeof(TRACING_DATA_VERSION));
	u8 = __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__;
	strbuf_add(sb, &u8, 1);
	u8 = sizeof(long);
	strbuf_add(sb, &u8, 1);
	u32 = (uint32_t)sysconf(_SC_PAGESIZE);
	strbuf_add(sb, &u32, 4);

	err = add_header_file(sb, events, "header_page");
	if (!err)
		err = add_header_file(sb, events, "header_event");
	if (err)
		goto out;

	/* ftrace's own events are listed apart from the other systems. */
	u32 = 0;
	for (size_t i = 0; i < nr; i++)
		u32 += !strcmp(tps[i].sys, "ftrace");
	strbuf_add(sb, &u32, 4);
	for (size_t i = 0; i < nr && !err; i++) {
		if (strcmp(tps[i].sys, "ftrace"))
			continue;
		err = add_file_u64(sb, "%s/ftrace/%s/format", events, tps[i].name);
	}

	/* Systems in first-seen order, each with its events. */
	u32 = 0;
	for (size_t i = 0; i < nr; i++) {
		bool seen = !strcmp(tps[i].sys, "ftrace");

		for (size_t j = 0; j < i && !seen; j++)
			seen = !strcmp(tps[j].sys, tps[i].sys);
		u32 += !seen;
	}
	strbuf_add(sb, &u32, 4);
	for (size_t i = 0; i < nr && !err; i++) {
		bool seen = !strcmp(tps[i].sys, "ftrace");
		uint32_t cnt = 0;

		for (size_t j = 0; j < i && !seen; j++)
			seen = !strcmp(tps[j].sys, tps[i].sys);
		if (seen)
			continue;
		strbuf_add(sb, tps[i].sys, strlen(tps[i].sys) + 1);
		for (size_t j = i; j < nr; j++)
			cnt += !strcmp(tps[j].sys, tps[i].sys);
		strbuf_add(sb, &cnt, 4);
		for (size_t j = i; j < nr && !err; j++) {
			if (strcmp(tps[j].sys, tps[i].sys))
				continue;
			err = add_file_u64(sb, "%s/%s/%s/format", events, tps[j].sys, tps[j].name);
		}
	}
	if (err)
		goto out;

	/* kallsyms: empty, as perf writes it. */
	u32 = 0;
	strbuf_add(sb, &u32, 4);
	/* printk formats, then saved cmdlines: the files beside "events". */
	path = xasprintf("%s/../printk_formats", events);
	text = read_file_str(path);
	free(path);
	u32 = text ? (uint32_t)strlen(text) : 0;
	strbuf_add(sb, &u32, 4);
	if (text)
		strbuf_add(sb, text, u32);
	free(text);
	err = add_file_u64(sb, "%s/../saved_cmdlines", events);
	if (err) {
		uint64_t zero = 0;

		strbuf_add(sb, &zero, 8);
		err = 0;
	}
out:
	for (size_t i = 0; i < nr; i++) {
		free(tps[i].sys);
		free(tps[i].name);
	}
	free(tps);
	free(events);
	return err;
}
