/* srccode: source file lines, cached per file (see srccode.h). */
#include "core/symbols/srccode.h"
#include "util/util.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct srccode_file {
	char *text;		/* NULL: could not be read */
	size_t size;
	size_t *lines;		/* offsets of line starts */
	size_t nr_lines;
};

struct srccode_pos {
	const char *path;	/* interned */
	unsigned line;
};

static struct srccode_file *load_file(const char *path)
{
	struct srccode_file *f = xcalloc(1, sizeof(*f));
	size_t alloc = 0;

	f->text = read_file_str(path);
	if (!f->text)
		return f;
	f->size = strlen(f->text);
	/* a last line without a newline counts */
	for (size_t off = 0; off < f->size;) {
		const char *nl = memchr(f->text + off, '\n', f->size - off);

		if (f->nr_lines == alloc) {
			alloc = alloc ? alloc * 2 : 256;
			f->lines = xrealloc(f->lines, alloc * sizeof(*f->lines));
		}
		f->lines[f->nr_lines++] = off;
		off = nl ? (size_t)(nl - f->text) + 1 : f->size;
	}
	return f;
}

const char *srccode__line(struct srccode *sc, const char *path, unsigned line, int *len)
{
	const char *key = strset_intern(&sc->paths, path);
	struct srccode_file *f = hashmap_u64_get(&sc->files, (uintptr_t)key);
	const char *start, *nl;

	if (!f) {
		f = load_file(path);
		hashmap_u64_put(&sc->files, (uintptr_t)key, f);
	}
	if (!f->text || line == 0 || line > f->nr_lines)
		return NULL;
	start = f->text + f->lines[line - 1];
	nl = memchr(start, '\n', (size_t)(f->text + f->size - start));
	*len = (int)((nl ? nl : f->text + f->size) - start);
	return start;
}

bool srccode__is_last(struct srccode *sc, const void *key, const char *path, unsigned line)
{
	const struct srccode_pos *pos = hashmap_u64_get(&sc->shown, (uintptr_t)key);

	return pos && pos->line == line && !strcmp(pos->path, path);
}

void srccode__set_last(struct srccode *sc, const void *key, const char *path, unsigned line)
{
	struct srccode_pos *pos = hashmap_u64_get(&sc->shown, (uintptr_t)key);

	if (!pos) {
		pos = xcalloc(1, sizeof(*pos));
		hashmap_u64_put(&sc->shown, (uintptr_t)key, pos);
	}
	pos->path = strset_intern(&sc->paths, path);
	pos->line = line;
}

void srccode__release(struct srccode *sc)
{
	for (void **v = NULL; (v = hashmap_next(&sc->files, v));) {
		struct srccode_file *f = *v;

		if (f) {
			free(f->text);
			free(f->lines);
			free(f);
		}
	}
	for (void **v = NULL; (v = hashmap_next(&sc->shown, v));)
		free(*v);
	hashmap_release(&sc->files);
	hashmap_release(&sc->shown);
	strset_release(&sc->paths);
}
