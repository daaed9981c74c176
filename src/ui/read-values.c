/* read-values: counters by thread (see read-values.h). */
#include "ui/read-values.h"
#include "util/util.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static int thread_index(struct read_values *v, int pid, int tid)
{
	for (int i = 0; i < v->nr_threads; i++)
		if (v->pid[i] == pid && v->tid[i] == tid)
			return i;
	if (v->nr_threads == v->max_threads) {
		int n = v->max_threads ? v->max_threads * 2 : 16;
		uint64_t *value = xcalloc((size_t)n * (size_t)(v->max_counters ? v->max_counters : 1),
					  sizeof(*value));

		for (int i = 0; i < v->nr_threads; i++)
			memcpy(value + (size_t)i * v->max_counters, v->value + (size_t)i * v->max_counters,
			       (size_t)v->max_counters * sizeof(*value));
		free(v->value);
		v->value = value;
		v->pid = xrealloc(v->pid, (size_t)n * sizeof(*v->pid));
		v->tid = xrealloc(v->tid, (size_t)n * sizeof(*v->tid));
		v->max_threads = n;
	}
	v->pid[v->nr_threads] = pid;
	v->tid[v->nr_threads] = tid;
	return v->nr_threads++;
}

static int counter_index(struct read_values *v, int raw, const char *name)
{
	for (int i = 0; i < v->nr_counters; i++)
		if (v->raw[i] == raw)
			return i;
	if (v->nr_counters == v->max_counters) {
		int n = v->max_counters ? v->max_counters * 2 : 8;
		uint64_t *value = xcalloc((size_t)(v->max_threads ? v->max_threads : 1) * (size_t)n,
					  sizeof(*value));

		for (int t = 0; t < v->nr_threads; t++)
			memcpy(value + (size_t)t * n, v->value + (size_t)t * v->max_counters,
			       (size_t)v->max_counters * sizeof(*value));
		free(v->value);
		v->value = value;
		v->raw = xrealloc(v->raw, (size_t)n * sizeof(*v->raw));
		v->name = xrealloc(v->name, (size_t)n * sizeof(*v->name));
		v->max_counters = n;
	}
	v->raw[v->nr_counters] = raw;
	v->name[v->nr_counters] = name;
	return v->nr_counters++;
}

void read_values__add(struct read_values *v, int pid, int tid, int raw, const char *name,
		      uint64_t value)
{
	int c = counter_index(v, raw, name), t = thread_index(v, pid, tid);

	v->value[(size_t)t * v->max_counters + c] += value;
}

static uint64_t value_at(const struct read_values *v, int t, int c)
{
	return v->value[(size_t)t * v->max_counters + c];
}

static int num_width(uint64_t n)
{
	char buf[32];

	return snprintf(buf, sizeof(buf), "%" PRIu64, n);
}

static int max_int(int a, int b)
{
	return a > b ? a : b;
}

static void print_raw(FILE *fp, const struct read_values *v)
{
	int pidw = 3, tidw = 3, namew = 4, raww = 3, countw = 5;
	char buf[32];

	for (int t = 0; t < v->nr_threads; t++) {
		pidw = max_int(pidw, snprintf(buf, sizeof(buf), "%d", v->pid[t]));
		tidw = max_int(tidw, snprintf(buf, sizeof(buf), "%d", v->tid[t]));
		for (int c = 0; c < v->nr_counters; c++)
			countw = max_int(countw, num_width(value_at(v, t, c)));
	}
	for (int c = 0; c < v->nr_counters; c++) {
		namew = max_int(namew, (int)strlen(v->name[c]));
		raww = max_int(raww, snprintf(buf, sizeof(buf), "%x", v->raw[c]));
	}
	fprintf(fp, "# %*s  %*s  %*s  %*s  %*s\n", pidw, "PID", tidw, "TID", namew, "Name", raww,
		"Raw", countw, "Count");
	for (int t = 0; t < v->nr_threads; t++)
		for (int c = 0; c < v->nr_counters; c++)
			if (value_at(v, t, c))
				fprintf(fp, "  %*d  %*d  %*s  %*x  %*" PRIu64, pidw, v->pid[t], tidw,
					v->tid[t], namew, v->name[c], raww, v->raw[c], countw,
					value_at(v, t, c));
}

void read_values__print(FILE *fp, const struct read_values *v, bool raw)
{
	int pidw = 3, tidw = 3;
	int *w;
	char buf[32];

	if (raw) {
		print_raw(fp, v);
		return;
	}
	w = xcalloc((size_t)v->nr_counters + 1, sizeof(*w));
	for (int c = 0; c < v->nr_counters; c++)
		w[c] = (int)strlen(v->name[c]);
	for (int t = 0; t < v->nr_threads; t++) {
		pidw = max_int(pidw, snprintf(buf, sizeof(buf), "%d", v->pid[t]));
		tidw = max_int(tidw, snprintf(buf, sizeof(buf), "%d", v->tid[t]));
		for (int c = 0; c < v->nr_counters; c++)
			w[c] = max_int(w[c], num_width(value_at(v, t, c)));
	}
	fprintf(fp, "# %*s  %*s", pidw, "PID", tidw, "TID");
	for (int c = 0; c < v->nr_counters; c++)
		fprintf(fp, "  %*s", w[c], v->name[c]);
	fputc('\n', fp);
	for (int t = 0; t < v->nr_threads; t++) {
		fprintf(fp, "  %*d  %*d", pidw, v->pid[t], tidw, v->tid[t]);
		for (int c = 0; c < v->nr_counters; c++)
			fprintf(fp, "  %*" PRIu64, w[c], value_at(v, t, c));
		fputc('\n', fp);
	}
	free(w);
}

void read_values__exit(struct read_values *v)
{
	free(v->pid);
	free(v->tid);
	free(v->raw);
	free(v->name);
	free(v->value);
	memset(v, 0, sizeof(*v));
}
