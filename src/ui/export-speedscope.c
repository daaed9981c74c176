/* export-speedscope: a perf.data file in speedscope's file format.
 *
 * speedscope (www.speedscope.app) reads one JSON document: frames shared
 * by every profile, then profiles.  Each thread becomes a "sampled"
 * profile: its stacks (frame indices, root first) in time order with
 * their weights, the periods of the samples.  A sample with the stack of
 * the one before it in its thread adds its weight to it: the time order
 * speedscope shows is kept, and long runs of one stack take one entry.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ui/export-speedscope.h"
#include "util/hashmap.h"
#include "util/json.h"
#include "util/strset.h"
#include "util/util.h"

struct frame_key {
	const char *name, *file;	/* interned */
};

struct frame_id {
	struct frame_key key;
	uint32_t index;
};

struct speedscope_frame {
	const char *name, *file;
	unsigned line;
};

struct speedscope_sample {
	size_t first_frame, nr_frames;	/* in the profile's frames */
	uint64_t weight;
};

/* A thread as perf script shows it: its pids from the samples (an exiting
 * task's last ones may say -1), the machine's thread for tid reuse. */
struct profile_key {
	const struct thread *thread;
	int pid, tid;
};

struct profile_id {
	struct profile_key key;
	size_t index;
};

/* One thread's profile. */
struct speedscope_profile {
	struct profile_key key;
	const char *comm;		/* at its last sample (interned) */
	uint32_t *frames;		/* every stack's frame indices, root first */
	size_t nr_frames, frames_alloc;
	struct speedscope_sample *samples;
	size_t nr_samples, samples_alloc;
	uint64_t total;
};

struct speedscope_writer {
	struct perf_tool tool;
	struct export_summary *sum;
	struct export_stack stack;

	struct strset strings;
	struct hashmap frame_ids;	/* struct frame_id */
	struct speedscope_frame *frames;
	uint32_t nr_frames, frames_alloc;

	struct hashmap profile_ids;	/* struct profile_id */
	struct speedscope_profile *profiles;
	size_t nr_profiles, profiles_alloc;
	uint32_t *stack_frames;		/* the sample being added, root first */
};

static bool frame_eq(const void *value, const void *key)
{
	const struct frame_key *a = &((const struct frame_id *)value)->key, *b = key;

	return a->name == b->name && a->file == b->file;
}

/* A function is a frame: its name and file (inlined calls of it, with
 * other lines, are the same frame). */
static uint32_t frame_index(struct speedscope_writer *w, const struct callchain_frame *f)
{
	struct frame_source src;
	char file[4096];
	struct frame_key key;
	struct frame_id *e;
	bool added;

	export_frame_source(f, &src, file, sizeof(file));
	key.name = strset_intern(&w->strings, src.name);
	key.file = src.file ? strset_intern(&w->strings, src.file) : NULL;
	e = hashmap_findnew(&w->frame_ids, hash_add((uintptr_t)key.name, (uintptr_t)key.file),
			    frame_eq, &key, &added);
	if (!added)
		return e->index;
	if (w->nr_frames == w->frames_alloc) {
		w->frames_alloc = w->frames_alloc ? 2 * w->frames_alloc : 256;
		w->frames = xrealloc(w->frames, w->frames_alloc * sizeof(*w->frames));
	}
	e->key = key;
	e->index = w->nr_frames;
	w->frames[w->nr_frames++] = (struct speedscope_frame){ key.name, key.file,
							       src.start_line };
	return e->index;
}

static bool profile_eq(const void *value, const void *key)
{
	const struct profile_key *a = &((const struct profile_id *)value)->key, *b = key;

	return a->thread == b->thread && a->pid == b->pid && a->tid == b->tid;
}

static struct speedscope_profile *thread_profile(struct speedscope_writer *w,
						 const struct thread *thread,
						 const struct perf_sample *sample)
{
	struct profile_key key = { thread, (int)sample->pid, (int)sample->tid };
	uint64_t hash = hash_add(hash_add((uintptr_t)thread, (uint32_t)key.pid),
				 (uint32_t)key.tid);
	struct profile_id *e;
	bool added;

	e = hashmap_findnew(&w->profile_ids, hash, profile_eq, &key, &added);
	if (added) {
		if (w->nr_profiles == w->profiles_alloc) {
			w->profiles_alloc = w->profiles_alloc ? 2 * w->profiles_alloc : 16;
			w->profiles = xrealloc(w->profiles,
					       w->profiles_alloc * sizeof(*w->profiles));
		}
		e->key = key;
		e->index = w->nr_profiles;
		w->profiles[w->nr_profiles++] = (struct speedscope_profile){ .key = key };
	}
	w->profiles[e->index].comm = strset_intern(&w->strings, thread->comm);
	return &w->profiles[e->index];
}

static bool same_as_last(const struct speedscope_profile *p, const uint32_t *frames, size_t n)
{
	const struct speedscope_sample *last = p->nr_samples ? &p->samples[p->nr_samples - 1] :
							       NULL;

	return last && last->nr_frames == n &&
	       !memcmp(p->frames + last->first_frame, frames, n * sizeof(*frames));
}

static void profile_add(struct speedscope_profile *p, const uint32_t *frames, size_t n,
			uint64_t weight)
{
	p->total += weight;
	if (same_as_last(p, frames, n)) {
		p->samples[p->nr_samples - 1].weight += weight;
		return;
	}
	if (p->nr_samples == p->samples_alloc) {
		p->samples_alloc = p->samples_alloc ? 2 * p->samples_alloc : 64;
		p->samples = xrealloc(p->samples, p->samples_alloc * sizeof(*p->samples));
	}
	while (p->nr_frames + n > p->frames_alloc) {
		p->frames_alloc = p->frames_alloc ? 2 * p->frames_alloc : 1024;
		p->frames = xrealloc(p->frames, p->frames_alloc * sizeof(*p->frames));
	}
	memcpy(p->frames + p->nr_frames, frames, n * sizeof(*frames));
	p->samples[p->nr_samples++] = (struct speedscope_sample){ p->nr_frames, n, weight };
	p->nr_frames += n;
}

static int speedscope_sample(struct perf_tool *tool, struct perf_session *s,
			     const struct perf_event_header *rec, struct perf_sample *sample,
			     struct evsel *evsel)
{
	struct speedscope_writer *w = (struct speedscope_writer *)tool;	/* tool comes first */
	struct export_stack *st = &w->stack;
	struct addr_location al;
	size_t n = 0;

	(void)rec;
	if (!export_takes(s, w->sum, evsel))
		return 0;
	perf_session__resolve_sample(s, sample, &al);
	export_stack__resolve(st, s, evsel, sample, &al);
	for (int i = st->nr; i-- > 0;)
		w->stack_frames[n++] = frame_index(w, &st->frames[i]);
	profile_add(thread_profile(w, al.thread, sample), w->stack_frames, n, sample->period);
	return 0;
}

static void write_frames(FILE *out, const struct speedscope_writer *w)
{
	fputs("\"shared\":{\"frames\":[", out);
	for (uint32_t i = 0; i < w->nr_frames; i++) {
		const struct speedscope_frame *f = &w->frames[i];

		fputs(i ? ",\n{\"name\":" : "\n{\"name\":", out);
		json_write_string(out, f->name);
		if (f->file) {
			fputs(",\"file\":", out);
			json_write_string(out, f->file);
		}
		if (f->line)
			fprintf(out, ",\"line\":%u", f->line);
		fputc('}', out);
	}
	fputs("]},\n", out);
}

static void write_profile(FILE *out, const struct speedscope_profile *p, const char *unit)
{
	char *name = xasprintf("%s %d", p->comm, p->key.tid);

	fputs("{\"type\":\"sampled\",\"name\":", out);
	json_write_string(out, name);
	fprintf(out, ",\"unit\":\"%s\",\"startValue\":0,\"endValue\":%llu,\n\"samples\":[",
		unit, (unsigned long long)p->total);
	for (size_t i = 0; i < p->nr_samples; i++) {
		const struct speedscope_sample *smp = &p->samples[i];

		fputs(i ? ",\n[" : "\n[", out);
		for (size_t k = 0; k < smp->nr_frames; k++)
			fprintf(out, k ? ",%u" : "%u", p->frames[smp->first_frame + k]);
		fputc(']', out);
	}
	fputs("],\n\"weights\":[", out);
	for (size_t i = 0; i < p->nr_samples; i++)
		fprintf(out, i ? ",%llu" : "%llu", (unsigned long long)p->samples[i].weight);
	fputs("]}", out);
	free(name);
}

static void write_document(FILE *out, const struct speedscope_writer *w,
			   const struct perf_session *s)
{
	/* speedscope's units: the clock events' nanoseconds, else plain numbers */
	const char *unit = strcmp(export_period_unit(w->sum->evsel), "nanoseconds") ? "none" :
		"nanoseconds";
	size_t heaviest = 0;

	fputs("{\"$schema\":\"https://www.speedscope.app/file-format-schema.json\",\n", out);
	write_frames(out, w);
	fputs("\"profiles\":[", out);
	for (size_t i = 0; i < w->nr_profiles; i++) {
		fputs(i ? ",\n" : "\n", out);
		write_profile(out, &w->profiles[i], unit);
		if (w->profiles[i].total > w->profiles[heaviest].total)
			heaviest = i;
	}
	fputs("],\n\"name\":", out);
	json_write_string(out, s->path);
	fprintf(out, ",\"activeProfileIndex\":%zu,\"exporter\":\"pcl data convert\"}\n", heaviest);
}

static void speedscope_writer__exit(struct speedscope_writer *w)
{
	export_stack__exit(&w->stack);
	strset_release(&w->strings);
	hashmap_release(&w->frame_ids);
	hashmap_release(&w->profile_ids);
	for (size_t i = 0; i < w->nr_profiles; i++) {
		free(w->profiles[i].frames);
		free(w->profiles[i].samples);
	}
	free(w->profiles);
	free(w->frames);
	free(w->stack_frames);
}

int speedscope_write(FILE *out, struct perf_session *s, struct export_summary *sum, char **err)
{
	struct speedscope_writer w = {
		.tool = { .sample = speedscope_sample, .ordered = true },
		.sum = sum,
	};
	int ret;

	export_begin(s, sum, &w.stack);
	w.stack_frames = xcalloc((size_t)w.stack.alloc, sizeof(*w.stack_frames));
	hashmap_init(&w.frame_ids, sizeof(struct frame_id));
	hashmap_init(&w.profile_ids, sizeof(struct profile_id));
	ret = perf_session__process(s, &w.tool);
	if (ret)
		*err = xstrdup(s->err ? s->err : "processing the file failed");
	else if (!(ret = export_end(s, sum, err)))
		write_document(out, &w, s);
	speedscope_writer__exit(&w);
	return ret ? -1 : 0;
}
