/* export-pprof: a perf.data file as a pprof profile.
 *
 * pprof's profile.proto (github.com/google/pprof, proto/profile.proto) is
 * written with util/protobuf and gzipped, as pprof, Pyroscope and Parca
 * read it.  Every table is built as the samples arrive: strings, mappings,
 * functions and locations are encoded when first seen, so only the
 * samples (one per distinct stack, thread and comm) wait for the end.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <zlib.h>

#include "ui/export-pprof.h"
#include "util/protobuf.h"
#include "util/util.h"

/* profile.proto's field numbers */
enum {
	PROFILE_SAMPLE_TYPE = 1, PROFILE_SAMPLE, PROFILE_MAPPING, PROFILE_LOCATION,
	PROFILE_FUNCTION, PROFILE_STRING_TABLE, PROFILE_TIME_NANOS = 9,
	PROFILE_DURATION_NANOS, PROFILE_PERIOD_TYPE, PROFILE_PERIOD, PROFILE_COMMENT,
	PROFILE_DEFAULT_SAMPLE_TYPE,
};
enum { VALUE_TYPE_TYPE = 1, VALUE_TYPE_UNIT };
enum { SAMPLE_LOCATION_ID = 1, SAMPLE_VALUE, SAMPLE_LABEL };
enum { LABEL_KEY = 1, LABEL_STR, LABEL_NUM };
enum {
	MAPPING_ID = 1, MAPPING_START, MAPPING_LIMIT, MAPPING_OFFSET, MAPPING_FILENAME,
	MAPPING_BUILD_ID, MAPPING_HAS_FUNCTIONS, MAPPING_HAS_FILENAMES,
	MAPPING_HAS_LINE_NUMBERS, MAPPING_HAS_INLINE_FRAMES,
};
enum { LOCATION_ID = 1, LOCATION_MAPPING_ID, LOCATION_ADDRESS, LOCATION_LINE };
enum { LINE_FUNCTION_ID = 1, LINE_LINE };
enum {
	FUNCTION_ID = 1, FUNCTION_NAME, FUNCTION_SYSTEM_NAME, FUNCTION_FILENAME,
	FUNCTION_START_LINE,
};

struct string_id {
	struct hashmap_str key;
	uint64_t id;
};

struct mapping_key {
	const struct dso *dso;
	uint64_t start, end, pgoff;
};

struct mapping_id {
	struct mapping_key key;
	uint64_t id;
};

/* A location is an address and what it resolved to (its lines). */
struct location_key {
	uint64_t mapping, address, lines_hash;
	uint32_t nr_lines;
};

struct location_id {
	struct location_key key;
	uint64_t id;
};

/* Where a mapping's message is in pprof_writer.mappings. */
struct mapping_entry {
	size_t offset, len;
	const struct dso *dso;
};

struct pprof_sample {
	size_t first_location, nr_locations;	/* in pprof_writer.sample_locations */
	int64_t pid, tid;
	uint64_t comm;		/* string id */
	uint64_t count, period;
};

struct pprof_writer;

struct sample_key {
	const struct pprof_writer *w;
	const uint64_t *locations;
	size_t nr_locations;
	int64_t pid, tid;
	uint64_t comm;
};

struct pprof_writer {
	struct perf_tool tool;
	struct export_summary *sum;
	struct export_stack stack;
	uint64_t first_time, last_time, total_period;

	struct hashmap string_ids;	/* struct string_id */
	struct arena strings;
	uint64_t nr_strings;
	struct hashmap mapping_ids, location_ids;
	uint64_t nr_mappings, nr_locations;
	struct mapping_entry *mapping_entries;	/* [nr_mappings], by id - 1 */
	struct hashmap function_ids;	/* name << 32 | file -> id */
	uint64_t nr_functions;
	/* the tables, encoded as Profile fields */
	struct pb_buf string_table, mappings, locations, functions;

	struct hashmap sample_ids;	/* struct sample_key hash -> index in samples */
	struct pprof_sample *samples;
	size_t nr_samples, samples_alloc;
	uint64_t *sample_locations;
	size_t nr_sample_locations, sample_locations_alloc;
	uint64_t *stack_locations;	/* the sample being added */
	struct pb_buf msg, sub;		/* scratch for nested messages */
};

static uint64_t string_id(struct pprof_writer *w, const char *s)
{
	bool added;
	struct string_id *e = hashmap_str_findnew(&w->string_ids, s, strlen(s), &w->strings,
						  &added);

	if (added) {
		e->id = w->nr_strings++;
		pb_string(&w->string_table, PROFILE_STRING_TABLE, s);
	}
	return e->id;
}

static bool mapping_eq(const void *value, const void *key)
{
	return !memcmp(&((const struct mapping_id *)value)->key, key, sizeof(struct mapping_key));
}

static void hex_build_id(const struct dso *dso, char *buf)
{
	for (int i = 0; i < dso->build_id_size; i++)
		sprintf(buf + 2 * i, "%02x", dso->build_id[i]);
	buf[2 * dso->build_id_size] = '\0';
}

static uint64_t mapping_id(struct pprof_writer *w, const struct map *map)
{
	struct mapping_key key = { map->dso, map->start, map->end, map->pgoff };
	uint64_t hash = hash_add(hash_add(hash_add((uintptr_t)map->dso, map->start), map->end),
				 map->pgoff);
	char build_id[2 * sizeof(map->dso->build_id) + 1];
	struct pb_buf *m = &w->msg;
	struct mapping_id *e;
	bool added;

	e = hashmap_findnew(&w->mapping_ids, hash, mapping_eq, &key, &added);
	if (!added)
		return e->id;
	e->key = key;
	e->id = ++w->nr_mappings;
	w->mapping_entries = xrealloc(w->mapping_entries,
				      w->nr_mappings * sizeof(*w->mapping_entries));
	hex_build_id(map->dso, build_id);
	pb_reset(m);
	pb_uint(m, MAPPING_ID, e->id);
	pb_uint(m, MAPPING_START, map->start);
	pb_uint(m, MAPPING_LIMIT, map->end);
	pb_uint(m, MAPPING_OFFSET, map->pgoff);
	pb_uint(m, MAPPING_FILENAME, string_id(w, map->dso->long_name));
	pb_uint(m, MAPPING_BUILD_ID, string_id(w, build_id));
	/* symbolized here: pprof must not look the addresses up again */
	pb_uint(m, MAPPING_HAS_FUNCTIONS, 1);
	pb_uint(m, MAPPING_HAS_FILENAMES, 1);
	pb_uint(m, MAPPING_HAS_LINE_NUMBERS, 1);
	pb_uint(m, MAPPING_HAS_INLINE_FRAMES, 1);
	w->mapping_entries[e->id - 1] = (struct mapping_entry){ .offset = w->mappings.len,
								.dso = map->dso };
	pb_message(&w->mappings, PROFILE_MAPPING, m);
	w->mapping_entries[e->id - 1].len = w->mappings.len - w->mapping_entries[e->id - 1].offset;
	return e->id;
}

static uint64_t function_id(struct pprof_writer *w, const struct frame_source *src)
{
	uint64_t name = string_id(w, src->name), file = src->file ? string_id(w, src->file) : 0;
	struct pb_buf *m = &w->sub;
	bool added;
	uint64_t *id = hashmap_u64_findnew(&w->function_ids, name << 32 | file, &added);

	if (!added)
		return *id;
	*id = ++w->nr_functions;
	pb_reset(m);
	pb_uint(m, FUNCTION_ID, *id);
	pb_uint(m, FUNCTION_NAME, name);
	pb_uint(m, FUNCTION_SYSTEM_NAME, name);
	if (file)
		pb_uint(m, FUNCTION_FILENAME, file);
	if (src->start_line)
		pb_uint(m, FUNCTION_START_LINE, src->start_line);
	pb_message(&w->functions, PROFILE_FUNCTION, m);
	return *id;
}

static bool location_eq(const void *value, const void *key)
{
	const struct location_key *a = &((const struct location_id *)value)->key, *b = key;

	return a->mapping == b->mapping && a->address == b->address &&
	       a->lines_hash == b->lines_hash && a->nr_lines == b->nr_lines;
}

/* The location of the run of nr frames at f: one address, its inlined
 * functions first and the function they were inlined into last, as
 * profile.proto orders a location's lines. */
static uint64_t location_id(struct pprof_writer *w, const struct callchain_frame *f, int nr)
{
	struct location_key key = {
		.mapping = f->al.map ? mapping_id(w, f->al.map) : 0,
		.address = f->ip,
		.lines_hash = 0xcbf29ce484222325ULL,
		.nr_lines = 0,
	};
	struct pb_buf *lines = &w->msg, *m = &w->sub;
	struct location_id *e;
	bool added;

	pb_reset(lines);
	for (int i = 0; i < nr && f[i].al.sym; i++) {
		struct frame_source src;
		char file[4096];
		uint64_t function;

		export_frame_source(&f[i], &src, file, sizeof(file));
		function = function_id(w, &src);
		key.lines_hash = hash_add(hash_add(key.lines_hash, function), src.line);
		key.nr_lines++;
		pb_reset(m);
		pb_uint(m, LINE_FUNCTION_ID, function);
		if (src.line)
			pb_uint(m, LINE_LINE, src.line);
		pb_message(lines, LOCATION_LINE, m);
	}
	e = hashmap_findnew(&w->location_ids,
			    hash_add(hash_add(key.address, key.mapping), key.lines_hash),
			    location_eq, &key, &added);
	if (!added)
		return e->id;
	e->key = key;
	e->id = ++w->nr_locations;
	pb_reset(m);
	pb_uint(m, LOCATION_ID, e->id);
	if (key.mapping)
		pb_uint(m, LOCATION_MAPPING_ID, key.mapping);
	pb_uint(m, LOCATION_ADDRESS, key.address);
	pb_append(m, lines);
	pb_message(&w->locations, PROFILE_LOCATION, m);
	return e->id;
}

static bool sample_eq(const void *value, const void *key)
{
	const struct sample_key *k = key;
	const struct pprof_sample *s = &k->w->samples[*(const uint64_t *)value];

	return s->pid == k->pid && s->tid == k->tid && s->comm == k->comm &&
	       s->nr_locations == k->nr_locations &&
	       !memcmp(k->w->sample_locations + s->first_location, k->locations,
		       k->nr_locations * sizeof(*k->locations));
}

static void add_sample(struct pprof_writer *w, const struct sample_key *key, uint64_t period)
{
	uint64_t hash = hash_add(hash_add(hash_add(0xcbf29ce484222325ULL, (uint64_t)key->pid),
					  (uint64_t)key->tid), key->comm);
	struct pprof_sample *s;
	uint64_t *index;
	bool added;

	for (size_t i = 0; i < key->nr_locations; i++)
		hash = hash_add(hash, key->locations[i]);
	index = hashmap_findnew(&w->sample_ids, hash, sample_eq, key, &added);
	if (added) {
		if (w->nr_samples == w->samples_alloc) {
			w->samples_alloc = w->samples_alloc ? 2 * w->samples_alloc : 256;
			w->samples = xrealloc(w->samples, w->samples_alloc * sizeof(*w->samples));
		}
		while (w->nr_sample_locations + key->nr_locations > w->sample_locations_alloc) {
			w->sample_locations_alloc = w->sample_locations_alloc ?
						    2 * w->sample_locations_alloc : 4096;
			w->sample_locations = xrealloc(w->sample_locations,
						       w->sample_locations_alloc *
						       sizeof(*w->sample_locations));
		}
		memcpy(w->sample_locations + w->nr_sample_locations, key->locations,
		       key->nr_locations * sizeof(*key->locations));
		*index = w->nr_samples;
		w->samples[w->nr_samples++] = (struct pprof_sample){
			.first_location = w->nr_sample_locations,
			.nr_locations = key->nr_locations,
			.pid = key->pid, .tid = key->tid, .comm = key->comm,
		};
		w->nr_sample_locations += key->nr_locations;
	}
	s = &w->samples[*index];
	s->count++;
	s->period += period;
}

static int pprof_sample(struct perf_tool *tool, struct perf_session *s,
			const struct perf_event_header *rec, struct perf_sample *sample,
			struct evsel *evsel)
{
	struct pprof_writer *w = (struct pprof_writer *)tool;	/* tool is its first member */
	struct export_stack *st = &w->stack;
	struct addr_location al;
	struct sample_key key = { .w = w, .locations = w->stack_locations };

	(void)rec;
	if (!export_takes(s, w->sum, evsel))
		return 0;
	perf_session__resolve_sample(s, sample, &al);
	export_stack__resolve(st, s, evsel, sample, &al);
	for (int i = 0, run; i < st->nr; i += run) {
		run = export_stack__address_run(st, i);
		w->stack_locations[key.nr_locations++] = location_id(w, &st->frames[i], run);
	}
	key.pid = (int)sample->pid;	/* as perf script shows them: -1 after an exit */
	key.tid = (int)sample->tid;
	key.comm = string_id(w, al.thread->comm);
	add_sample(w, &key, sample->period);
	if (w->sum->nr_samples == 1)
		w->first_time = sample->time;
	w->last_time = sample->time;
	w->total_period += sample->period;
	return 0;
}

static void value_type(struct pprof_writer *w, struct pb_buf *out, uint32_t field,
		       const char *type, const char *unit)
{
	struct pb_buf *m = &w->sub;
	uint64_t type_id = string_id(w, type), unit_id = string_id(w, unit);

	pb_reset(m);
	pb_uint(m, VALUE_TYPE_TYPE, type_id);
	pb_uint(m, VALUE_TYPE_UNIT, unit_id);
	pb_message(out, field, m);
}

static void label(struct pb_buf *out, struct pb_buf *m, uint64_t key, uint32_t field,
		  uint64_t value)
{
	pb_reset(m);
	pb_uint(m, LABEL_KEY, key);
	pb_uint(m, field, value);
	pb_message(out, SAMPLE_LABEL, m);
}

static void encode_samples(struct pprof_writer *w, struct pb_buf *out)
{
	uint64_t pid = string_id(w, "pid"), tid = string_id(w, "tid"), comm = string_id(w, "comm");
	struct pb_buf *m = &w->msg, *sub = &w->sub;

	for (size_t i = 0; i < w->nr_samples; i++) {
		const struct pprof_sample *s = &w->samples[i];
		uint64_t values[2] = { s->count, s->period };

		pb_reset(m);
		pb_packed(m, SAMPLE_LOCATION_ID, w->sample_locations + s->first_location,
			  s->nr_locations);
		pb_packed(m, SAMPLE_VALUE, values, 2);
		label(m, sub, pid, LABEL_NUM, (uint64_t)s->pid);
		label(m, sub, tid, LABEL_NUM, (uint64_t)s->tid);
		label(m, sub, comm, LABEL_STR, s->comm);
		pb_message(out, PROFILE_SAMPLE, m);
	}
}

/* When the first sample was taken, in ns since the epoch: exact with the
 * clock data of record -k, else the file's last change less the duration. */
static uint64_t start_time(const struct pprof_writer *w, const struct perf_session *s)
{
	const struct perf_header *h = &s->header;
	struct stat st;

	if (h->clock_version)
		return h->clock_tod_ns - h->clock_clockid_ns + w->first_time;
	if (fstat(s->fd, &st))
		return 0;
	return (uint64_t)st.st_mtim.tv_sec * 1000000000 + (uint64_t)st.st_mtim.tv_nsec -
	       (w->last_time - w->first_time);
}

/* What one sample stands for: the fixed period, or with -F the mean. */
static uint64_t sample_period(const struct pprof_writer *w)
{
	const struct perf_event_attr *attr = &w->sum->evsel->attr;

	if (!attr->freq)
		return attr->sample_period;
	if (!strcmp(export_period_unit(w->sum->evsel), "nanoseconds") && attr->sample_freq)
		return 1000000000 / attr->sample_freq;
	return w->sum->nr_samples ? w->total_period / w->sum->nr_samples : 0;
}

/* pprof takes the first mapping for the program profiled ("File:"): the
 * mapping of the executable the most samples' command is named after. */
static size_t main_mapping(const struct pprof_writer *w)
{
	uint64_t best_comm = 0, best_count = 0;
	struct hashmap counts;	/* comm string id -> samples */
	const char *comm = NULL;

	hashmap_init(&counts, sizeof(uint64_t));
	for (size_t i = 0; i < w->nr_samples; i++) {
		uint64_t *n = hashmap_u64_findnew(&counts, w->samples[i].comm, NULL);

		*n += w->samples[i].count;
		if (*n > best_count) {
			best_count = *n;
			best_comm = w->samples[i].comm;
		}
	}
	hashmap_release(&counts);
	for (const struct string_id *e = NULL; (e = hashmap_next(&w->string_ids, e));)
		if (e->id == best_comm)
			comm = e->key.str;
	for (size_t i = 0; comm && *comm && i < w->nr_mappings; i++) {
		const struct dso *dso = w->mapping_entries[i].dso;

		/* a command name is the executable's, cut to 15 bytes */
		if (!dso->kernel && !strncmp(dso->short_name, comm, 15))
			return i;
	}
	return 0;
}

static void encode_mappings(const struct pprof_writer *w, struct pb_buf *out)
{
	size_t first = main_mapping(w);

	for (size_t k = 0; k < w->nr_mappings; k++) {
		size_t i = k == 0 ? first : k <= first ? k - 1 : k;
		const struct mapping_entry *e = &w->mapping_entries[i];

		pb_append(out, &(struct pb_buf){ .data = w->mappings.data + e->offset,
						 .len = e->len });
	}
}

static void encode_profile(struct pprof_writer *w, const struct perf_session *s,
			   struct pb_buf *out)
{
	const char *unit = export_period_unit(w->sum->evsel);
	char *comment = xasprintf("pcl data convert -i %s", s->path);

	value_type(w, out, PROFILE_SAMPLE_TYPE, "samples", "count");
	value_type(w, out, PROFILE_SAMPLE_TYPE, w->sum->event, unit);
	encode_samples(w, out);
	if (w->sum->nr_samples) {
		pb_uint(out, PROFILE_TIME_NANOS, start_time(w, s));
		pb_uint(out, PROFILE_DURATION_NANOS, w->last_time - w->first_time);
	}
	value_type(w, out, PROFILE_PERIOD_TYPE, w->sum->event, unit);
	pb_uint(out, PROFILE_PERIOD, sample_period(w));
	pb_uint(out, PROFILE_COMMENT, string_id(w, comment));
	pb_uint(out, PROFILE_DEFAULT_SAMPLE_TYPE, string_id(w, w->sum->event));
	free(comment);
	/* the tables last: every string is known now */
	encode_mappings(w, out);
	pb_append(out, &w->locations);
	pb_append(out, &w->functions);
	pb_append(out, &w->string_table);
}

/* Writes b gzipped, as pprof's files are. */
static int gzip_write(FILE *out, const struct pb_buf *b, char **err)
{
	unsigned char chunk[65536];
	z_stream z = { 0 };
	int ret;

	if (deflateInit2(&z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY)) {
		*err = xstrdup("cannot start zlib's deflate");
		return -1;
	}
	z.next_in = b->data;
	z.avail_in = (uInt)b->len;
	do {
		z.next_out = chunk;
		z.avail_out = sizeof(chunk);
		ret = deflate(&z, Z_FINISH);
		if (fwrite(chunk, 1, sizeof(chunk) - z.avail_out, out) != sizeof(chunk) - z.avail_out) {
			deflateEnd(&z);
			*err = xstrdup("writing the profile failed");
			return -1;
		}
	} while (ret == Z_OK);
	deflateEnd(&z);
	if (ret != Z_STREAM_END) {
		*err = xasprintf("zlib's deflate failed (%d)", ret);
		return -1;
	}
	return 0;
}

static void pprof_writer__exit(struct pprof_writer *w)
{
	export_stack__exit(&w->stack);
	hashmap_release(&w->string_ids);
	arena_release(&w->strings);
	hashmap_release(&w->mapping_ids);
	hashmap_release(&w->location_ids);
	hashmap_release(&w->function_ids);
	hashmap_release(&w->sample_ids);
	pb_release(&w->string_table);
	pb_release(&w->mappings);
	free(w->mapping_entries);
	pb_release(&w->locations);
	pb_release(&w->functions);
	pb_release(&w->msg);
	pb_release(&w->sub);
	free(w->samples);
	free(w->sample_locations);
	free(w->stack_locations);
}

int pprof_write(FILE *out, struct perf_session *s, struct export_summary *sum, char **err)
{
	struct pprof_writer w = {
		.tool = { .sample = pprof_sample, .ordered = true },
		.sum = sum,
	};
	struct pb_buf profile = { 0 };
	int ret;

	export_begin(s, sum, &w.stack);
	w.stack_locations = xcalloc((size_t)w.stack.alloc, sizeof(*w.stack_locations));
	hashmap_init(&w.string_ids, sizeof(struct string_id));
	hashmap_init(&w.mapping_ids, sizeof(struct mapping_id));
	hashmap_init(&w.location_ids, sizeof(struct location_id));
	hashmap_init(&w.function_ids, sizeof(uint64_t));
	hashmap_init(&w.sample_ids, sizeof(uint64_t));
	string_id(&w, "");	/* profile.proto: string 0 is the empty one */
	ret = perf_session__process(s, &w.tool);
	if (ret) {
		*err = xstrdup(s->err ? s->err : "processing the file failed");
	} else if (!(ret = export_end(s, sum, err))) {
		encode_profile(&w, s, &profile);
		ret = gzip_write(out, &profile, err);
	}
	pb_release(&profile);
	pprof_writer__exit(&w);
	return ret ? -1 : 0;
}
