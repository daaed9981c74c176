/* pcl buildid-list: the build ids of the binaries a perf.data file refers to. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtin.h"
#include "core/symbols/kernel-maps.h"
#include "core/symbols/machine.h"
#include "core/data/session.h"
#include "core/symbols/buildid.h"
#include "ui/session-warnings.h"
#include "util/exit-codes.h"
#include "util/parse-options.h"
#include "util/util.h"

static const char *const buildid_usage[] = { "pcl buildid-list [<options>]", NULL };

/* One DSO as perf lists it: the build id the file recorded (none when it
 * recorded none) and whether a sample landed in it. */
struct bid_entry {
	char *name;
	uint8_t id[BUILD_ID_MAX];
	int size;
	bool hit;
	bool guest;	/* in a guest's machine: perf lists those after the host's */
};

struct bid_list {
	struct perf_tool tool;
	struct bid_entry *v;
	size_t n;
};

static struct bid_entry *find_or_add(struct bid_list *l, const char *name)
{
	for (size_t i = 0; i < l->n; i++)
		if (!strcmp(l->v[i].name, name))
			return &l->v[i];
	l->v = xrealloc(l->v, (l->n + 1) * sizeof(*l->v));
	memset(&l->v[l->n], 0, sizeof(l->v[0]));
	l->v[l->n].name = xstrdup(name);
	return &l->v[l->n++];
}

static void set_id(struct bid_entry *e, const uint8_t *id, int size)
{
	if (size > BUILD_ID_MAX)
		size = BUILD_ID_MAX;
	memcpy(e->id, id, (size_t)size);
	e->size = size;
}

/* The DSO name a map record creates: "[kernel.kallsyms]_text" is the
 * kernel ("[guest.kernel.kallsyms]_text" a guest's); a user map is named as
 * the machine (fed before us) named it, so executable anonymous memory is
 * the JIT's /tmp/perf-PID.map, as in perf. */
static const char *map_dso_name(struct perf_session *s, const struct perf_event_header *rec,
				const char *filename, uint32_t pid, uint32_t tid, uint64_t start)
{
	static const char *const kernels[] = { "[kernel.kallsyms]", "[guest.kernel.kallsyms]" };
	uint8_t cpumode = rec->misc & PERF_RECORD_MISC_CPUMODE_MASK;
	struct machine *m = perf_session__machine_of(s, cpumode, (pid_t)pid);
	struct addr_location al;
	struct thread *thread;

	if ((int32_t)pid == -1 || cpumode == PERF_RECORD_MISC_GUEST_KERNEL) {
		for (size_t i = 0; i < ARRAY_SIZE(kernels); i++)
			if (str_starts_with(filename, kernels[i]))
				return kernels[i];
		return filename;
	}
	thread = machine__find_thread(m, (pid_t)pid, (pid_t)tid);
	if (thread && machine__lookup(m, thread, PERF_RECORD_MISC_USER, start, &al) && al.dso)
		return al.dso->long_name;
	return filename;
}

static void mark_hit(struct dso *dso, void *arg)
{
	struct bid_list *l = arg;

	if (!dso->hit)
		return;
	for (size_t i = 0; i < l->n; i++)
		if (!strcmp(l->v[i].name, dso->long_name))
			l->v[i].hit = true;
}

static struct bid_list *bid_list_of(struct perf_tool *tool)
{
	return (struct bid_list *)tool;
}

static struct bid_entry *map_entry(struct perf_tool *tool, struct perf_session *s,
				   const struct perf_event_header *rec, const char *filename,
				   uint32_t pid, uint32_t tid, uint64_t start)
{
	struct bid_entry *e = find_or_add(bid_list_of(tool),
					  map_dso_name(s, rec, filename, pid, tid, start));

	e->guest = perf_session__machine_of(s, rec->misc & PERF_RECORD_MISC_CPUMODE_MASK,
					    (pid_t)pid) != s->machine;
	return e;
}

/* resolving marks the DSO hit */
static int bid_sample(struct perf_tool *tool, struct perf_session *s,
		      const struct perf_event_header *rec, struct perf_sample *sample,
		      struct evsel *evsel)
{
	struct addr_location al;

	perf_session__resolve_sample(s, sample, &al);
	return 0;
}

static int bid_mmap(struct perf_tool *tool, struct perf_session *s,
		    const struct perf_event_header *rec, struct perf_sample *sample,
		    struct evsel *evsel)
{
	const struct perf_rec_mmap *mm = (const void *)rec;

	map_entry(tool, s, rec, mm->filename, mm->pid, mm->tid, mm->start);
	return 0;
}

static int bid_mmap2(struct perf_tool *tool, struct perf_session *s,
		     const struct perf_event_header *rec, struct perf_sample *sample,
		     struct evsel *evsel)
{
	const struct perf_rec_mmap2 *mm = (const void *)rec;
	struct bid_entry *e = map_entry(tool, s, rec, mm->filename, mm->pid, mm->tid, mm->start);

	if ((rec->misc & PERF_RECORD_MISC_MMAP_BUILD_ID) && !e->size)
		set_id(e, mm->build_id, mm->build_id_size);
	return 0;
}

static int bid_build_id(struct perf_tool *tool, struct perf_session *s,
			const struct perf_event_header *rec, struct perf_sample *sample,
			struct evsel *evsel)
{
	const struct perf_rec_build_id *b = (const void *)rec;

	set_id(find_or_add(bid_list_of(tool), b->filename), b->build_id,
	       perf_rec_build_id__size(b));
	return 0;
}

/* The running kernel's build id as hex ("" when unknown). */
static void kernel_build_id(char *hex)
{
	uint8_t id[BUILD_ID_MAX];
	int n = sysfs__read_kernel_build_id(id, sizeof(id));

	hex[0] = '\0';
	if (n > 0)
		build_id__hex(id, n, hex);
}

static void print_kernel_map(const char *hex, uint64_t start, uint64_t end, const char *name)
{
	printf("%s %16" PRIx64 " %16" PRIx64 " %s\n", hex, start, end, name);
}

static int print_module_map(const char *name, const char *path, uint64_t start, uint64_t size,
			    void *arg)
{
	char *notes = xasprintf("/sys/module/%s/notes/.note.gnu.build-id", name);
	char hex[2 * BUILD_ID_MAX + 1] = "", *label = path ? NULL : xasprintf("[%s]", name);
	uint8_t id[BUILD_ID_MAX];
	int n = sysfs__read_build_id(notes, id, sizeof(id));

	if (n > 0)
		build_id__hex(id, n, hex);
	print_kernel_map(hex, start, start + size, path ? path : label);
	free(notes);
	free(label);
	return 0;
}

/* -m: the running kernel's map and its modules', with their build ids. */
static int show_kernel_maps(void)
{
	char hex[2 * BUILD_ID_MAX + 1];
	uint64_t start, end;

	if (kernel_text__range(NULL, &start, &end) < 0) {
		fprintf(stderr, "pcl buildid-list: no _text in /proc/kallsyms: cannot place "
			"the kernel map (is kptr_restrict hiding addresses?)\n");
		return PCL_EXIT_FAILURE;
	}
	kernel_build_id(hex);
	print_kernel_map(hex, start, end, "[kernel.kallsyms]");
	return running_modules__for_each(print_module_map, NULL);
}

int cmd_buildid_list(int argc, const char **argv)
{
	const char *input = perf_data__default_path(false);
	bool with_hits = false, kernel = false, kernel_maps = false, force = false;
	int verbose = 0;
	const struct option opts[] = {
		OPT_BOOLEAN('f', "force", &force, "don't complain, do it"),
		OPT_BOOLEAN('H', "with-hits", &with_hits, "Show only DSOs with hits"),
		OPT_STRING('i', "input", &input, "file", "input file name"),
		OPT_BOOLEAN('k', "kernel", &kernel, "Show current kernel build id"),
		OPT_BOOLEAN('m', "kernel-maps", &kernel_maps,
			    "Show build id of current kernel + modules"),
		OPT_INCR('v', "verbose", &verbose, "be more verbose"),
		OPT_END(),
	};
	struct bid_list l;
	struct perf_session *s;
	char *err = NULL;
	int ret = 0;

	argc = parse_options(argc, argv, opts, buildid_usage, 0);
	if (argc)
		usage_with_options(buildid_usage, opts);
	if (kernel) {
		char hex[2 * BUILD_ID_MAX + 1];

		kernel_build_id(hex);
		if (!hex[0]) {
			fprintf(stderr, "pcl buildid-list: cannot read the kernel build id from "
				"/sys/kernel/notes\n");
			return PCL_EXIT_FAILURE;
		}
		printf("%s\n", hex);
		return 0;
	}
	if (kernel_maps)
		return show_kernel_maps();
	s = perf_session__open(input, force, &err);
	if (!s) {
		session_warnings__open_failed(input, err);
		free(err);
		return PCL_EXIT_ERROR;	/* perf's status for a file it cannot read */
	}
	memset(&l, 0, sizeof(l));
	/* the header's table comes first, in its order */
	for (uint32_t i = 0; i < s->header.nr_build_ids; i++) {
		const struct perf_build_id_entry *b = &s->header.build_ids[i];

		set_id(find_or_add(&l, b->filename), b->build_id, b->size);
	}
	/* perf's rules: AUX traces are not decoded (list everything); a file
	 * without a build id table can only show what samples hit */
	if (!s->is_pipe && perf_header__has_feat(&s->header, HEADER_AUXTRACE))
		with_hits = false;
	if (!perf_header__has_feat(&s->header, HEADER_BUILD_ID))
		with_hits = true;
	if (with_hits || s->is_pipe) {
		perf_session__new_machine(s, NULL, NULL, false);
		l.tool.sample = bid_sample;
		l.tool.mmap = bid_mmap;
		l.tool.mmap2 = bid_mmap2;
		l.tool.build_id = bid_build_id;
		l.tool.ordered = true;
		if (perf_session__process(s, &l.tool) < 0) {
			fprintf(stderr, "pcl buildid-list: %s\n", s->err);
			ret = PCL_EXIT_FAILURE;
		}
		machine__for_each_dso(s->machine, mark_hit, &l);
		if (s->guest)
			machine__for_each_dso(s->guest, mark_hit, &l);
	}
	for (int guest = 0; guest < 2; guest++) {
		for (size_t i = 0; i < l.n; i++) {
			char hex[2 * BUILD_ID_MAX + 1] = "";

			if (ret || l.v[i].guest != guest || (with_hits && !l.v[i].hit))
				continue;
			for (int j = 0; j < l.v[i].size; j++)
				sprintf(hex + 2 * j, "%02x", l.v[i].id[j]);
			printf("%-40s %s\n", hex, l.v[i].name);
		}
	}
	for (size_t i = 0; i < l.n; i++)
		free(l.v[i].name);
	free(l.v);
	perf_session__delete(s);
	return ret;
}
