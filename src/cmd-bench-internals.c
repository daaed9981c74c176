/* pcl bench internals evlist-open-close: pcl's own equivalent of perf's benchmark of its
 * event list life cycle: parse the events, open them on every CPU (or the tasks given),
 * map a ring buffer per descriptor, enable, disable, unmap, close; -i times.  Also
 * internals synthesize and inject-build-id, on pcl's own code paths. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "builtin.h"
#include "cmd-bench.h"
#include "core/events/evlist.h"
#include "core/data/perf-data-write.h"
#include "core/data/perf-record.h"
#include "core/events/parse-events.h"
#include "core/live/ringbuf.h"
#include "core/live/synthesize.h"
#include "core/symbols/buildid.h"
#include "util/exit-codes.h"
#include "util/parse-options.h"
#include "util/strbuf.h"
#include "util/util.h"

enum { OPEN_CLOSE_RING_PAGES = 128 };	/* perf's default 512 KB rings */

/* One life cycle; the time it took in microseconds, or a negative errno. */
static double open_close_once(const char *events, const struct cpu_map *cpus,
			      const struct thread_map *threads, int *nr_events, int *nr_fds)
{
	struct parse_events_error err;
	struct timeval start, end;
	struct evlist evlist;
	struct ringbuf *rings = NULL;
	struct evsel *failed = NULL;
	int nr_rings = 0, ret;

	gettimeofday(&start, NULL);
	evlist__init(&evlist);
	if (parse_events(&evlist, events, &err)) {
		parse_events_error__print(&err, events);
		parse_events_error__exit(&err);
		return -ENOMEM;	/* perf's status when its event list cannot be made */
	}
	ret = evlist__open(&evlist, cpus, threads, NULL, 0, &failed);
	if (ret) {
		fprintf(stderr, "evlist__open: cannot open %s: %s\n",
			failed ? failed->name : events, strerror(-ret));
		evlist__close(&evlist);
		evlist__exit(&evlist);
		return ret;
	}
	*nr_events = evlist.nr_entries;
	*nr_fds = evlist.nr_entries * cpus->nr * threads->nr;
	rings = calloc((size_t)*nr_fds, sizeof(*rings));
	evlist__for_each(&evlist, pos)
		for (int c = 0; rings && c < pos->nr_cpus; c++)
			for (int t = 0; t < pos->nr_threads; t++) {
				int fd = evsel__fd(pos, c, t);

				if (fd >= 0 && !ringbuf__mmap(&rings[nr_rings], fd, cpus->map[c],
							      OPEN_CLOSE_RING_PAGES, false))
					nr_rings++;
			}
	evlist__enable(&evlist);
	evlist__disable(&evlist);
	for (int i = 0; i < nr_rings; i++)
		ringbuf__munmap(&rings[i]);
	free(rings);
	evlist__close(&evlist);
	evlist__exit(&evlist);
	gettimeofday(&end, NULL);
	return bench_elapsed_usec(&start, &end);
}

int bench_evlist_open_close(int argc, const char **argv)
{
	static const char *const usage[] = {
		"pcl bench internals evlist-open-close <options>", NULL
	};
	const char *event = NULL, *cpu_list = NULL, *pid = NULL, *tid = NULL, *uid = NULL;
	bool all_cpus = false, per_thread = false;
	int iterations = 100, nr_copies = 1;
	const struct option options[] = {
		OPT_BOOLEAN('a', "all-cpus", &all_cpus, "system-wide collection from all CPUs"),
		OPT_STRING('C', "cpu", &cpu_list, "cpu", "list of cpus where to open events"),
		OPT_STRING('e', "event", &event, "event",
			   "event selector. use 'perf list' to list available events"),
		OPT_INTEGER('i', "iterations", &iterations,
			    "Number of iterations used to compute average (default=100)"),
		OPT_INTEGER('n', "nr-events", &nr_copies,
			    "number of dummy events to create (default 1). If used with -e, it "
			    "clones those events n times (1 = no change)"),
		OPT_STRING('p', "pid", &pid, "pid", "record events on existing process id"),
		OPT_STRING('t', "tid", &tid, "tid", "record events on existing thread id"),
		OPT_STRING('u', "uid", &uid, "user", "user to profile"),
		OPT_BOOLEAN(0, "per-thread", &per_thread, "use per-thread mmaps"),
		OPT_END(),
	};
	struct bench_stats stats = { 0 };
	struct thread_map *threads;
	struct cpu_map *cpus;
	struct strbuf events = STRBUF_INIT;
	int nr_events = 0, nr_fds = 0, ret = PCL_EXIT_OK;

	if (parse_options(argc, argv, options, usage, 0))
		usage_with_options(usage, options);
	for (int i = 0; i < (nr_copies > 0 ? nr_copies : 1); i++)
		strbuf_addf(&events, "%s%s", i ? "," : "", event ? event : "dummy");
	/* the tasks given (else any task), on every CPU (or -C's); --per-thread: on any CPU */
	if (pid)
		threads = thread_map__new_by_pid_str(pid);
	else if (tid)
		threads = thread_map__new_by_tid_str(tid);
	else if (uid)
		threads = thread_map__new_by_uid((unsigned int)atoi(uid));
	else
		threads = thread_map__new_any();
	if (per_thread && (pid || tid || uid))
		cpus = cpu_map__new_any();
	else
		cpus = cpu_list && !all_cpus ? cpu_map__parse(cpu_list) : cpu_map__new_online();
	if (!threads || !cpus) {
		fprintf(stderr, "evlist-open-close: bad task or cpu list\n");
		ret = PCL_EXIT_ERROR;
		goto out;
	}
	for (int i = 0; i < iterations; i++) {
		double usec = open_close_once(events.buf, cpus, threads, &nr_events, &nr_fds);

		if (usec < 0) {
			/* a status is the errno's low byte, as perf's */
			ret = usec == -ENOMEM ? 256 - ENOMEM : PCL_EXIT_ERROR;
			goto out;
		}
		bench_stats_add(&stats, usec);
	}
	printf("  Number of cpus:\t%d\n", cpus->nr);
	printf("  Number of threads:\t%d\n", threads->nr);
	printf("  Number of events:\t%d (%d fds)\n", nr_events, nr_fds);
	printf("  Number of iterations:\t%d\n", iterations);
	printf("  Average open-close took: %.3f usec (+- %.3f usec)\n", stats.mean,
	       bench_stats_stddev(&stats));
out:
	if (threads)
		thread_map__delete(threads);
	if (cpus)
		cpu_map__delete(cpus);
	strbuf_release(&events);
	return ret;
}

/* internals synthesize: pcl's event synthesis (core/live/synthesize.h) timed as perf times
 * its own: -s on pcl's own process (COMM and executable maps, then with the data maps), -t
 * over every process of the machine split among 1..N threads. */
struct synth_count {
	uint64_t events;
};

static int count_record(void *ctx, const struct perf_event_header *rec)
{
	(void)rec;
	__atomic_add_fetch(&((struct synth_count *)ctx)->events, 1, __ATOMIC_RELAXED);
	return 0;
}

static const struct perf_event_attr synth_attr = {
	.type = PERF_TYPE_SOFTWARE, .config = PERF_COUNT_SW_DUMMY, .size = sizeof(synth_attr),
	.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME, .sample_id_all = 1,
};

static void print_synth_stats(const char *indent, const struct bench_stats *usec,
			      const struct bench_stats *events)
{
	printf("%sAverage synthesis took: %.3f usec (+- %.3f usec)\n", indent, usec->mean,
	       bench_stats_stddev(usec));
	printf("%sAverage num. events: %.3f (+- %.3f)\n", indent, events->mean,
	       bench_stats_stddev(events));
	printf("%sAverage time per event %.3f usec\n", indent,
	       events->mean ? usec->mean / events->mean : 0.0);
}

/* pcl's own process, iterations times; mmap_data adds the non-executable maps */
static void synth_own_process(unsigned int iterations, bool mmap_data)
{
	struct bench_stats usec = { 0 }, events = { 0 };

	for (unsigned int i = 0; i < iterations; i++) {
		struct synth_count count = { 0 };
		struct timeval start, end;
		struct synth s;

		synth__init(&s, &synth_attr, mmap_data, count_record, &count);
		gettimeofday(&start, NULL);
		synth__thread(&s, getpid(), true);
		gettimeofday(&end, NULL);
		synth__exit(&s);
		bench_stats_add(&usec, bench_elapsed_usec(&start, &end));
		bench_stats_add(&events, (double)count.events);
	}
	if (!mmap_data) {
		print_synth_stats("  ", &usec, &events);
		return;
	}
	printf("  Average data synthesis took: %.3f usec (+- %.3f usec)\n", usec.mean,
	       bench_stats_stddev(&usec));
	printf("  Average num. events: %.3f (+- %.3f)\n", events.mean, bench_stats_stddev(&events));
	printf("  Average time per event %.3f usec\n", events.mean ? usec.mean / events.mean : 0.0);
}

struct synth_share {
	const pid_t *pids;
	size_t first, step, nr;
	struct synth_count *count;
};

static void *synth_share_run(void *arg)
{
	struct synth_share *sh = arg;
	struct synth s;

	synth__init(&s, &synth_attr, false, count_record, sh->count);
	for (size_t i = sh->first; i < sh->nr; i += sh->step)
		synth__thread(&s, sh->pids[i], true);
	synth__exit(&s);
	return NULL;
}

/* The processes in /proc now, in a malloc'ed array. */
static pid_t *list_processes(size_t *nr)
{
	DIR *proc = opendir("/proc");
	struct dirent *de;
	pid_t *pids = NULL;

	*nr = 0;
	while (proc && (de = readdir(proc))) {
		char *end;
		long pid = strtol(de->d_name, &end, 10);

		if (*end || pid <= 0)
			continue;
		pids = xrealloc(pids, (*nr + 1) * sizeof(*pids));
		pids[(*nr)++] = (pid_t)pid;
	}
	if (proc)
		closedir(proc);
	return pids;
}

/* Every process of the machine, shared among nr_threads threads, iterations times. */
static void synth_machine(unsigned int nr_threads, unsigned int iterations)
{
	struct bench_stats usec = { 0 }, events = { 0 };
	pthread_t *threads = xcalloc(nr_threads, sizeof(*threads));
	struct synth_share *shares = xcalloc(nr_threads, sizeof(*shares));

	printf("  Number of synthesis threads: %u\n", nr_threads);
	for (unsigned int i = 0; i < iterations; i++) {
		struct synth_count count = { 0 };
		struct timeval start, end;
		size_t nr;
		pid_t *pids = list_processes(&nr);

		gettimeofday(&start, NULL);
		for (unsigned int t = 0; t < nr_threads; t++) {
			shares[t] = (struct synth_share){ .pids = pids, .first = t, .step = nr_threads,
							  .nr = nr, .count = &count };
			bench_start_thread(&threads[t], 0, synth_share_run, &shares[t]);
		}
		for (unsigned int t = 0; t < nr_threads; t++)
			pthread_join(threads[t], NULL);
		gettimeofday(&end, NULL);
		free(pids);
		bench_stats_add(&usec, bench_elapsed_usec(&start, &end));
		bench_stats_add(&events, (double)count.events);
	}
	print_synth_stats("    ", &usec, &events);
	free(threads);
	free(shares);
}

int bench_synthesize(int argc, const char **argv)
{
	static const char *const usage[] = { "pcl bench internals synthesize <options>", NULL };
	unsigned int single_iterations = 10000, multi_iterations = 10;
	unsigned int min_threads = 1, max_threads = UINT_MAX;
	bool run_st = false, run_mt = false;
	const struct option options[] = {
		OPT_UINTEGER('I', "multi-iterations", &multi_iterations,
			     "Number of iterations used to compute multi-threaded average"),
		OPT_UINTEGER('i', "single-iterations", &single_iterations,
			     "Number of iterations used to compute single-threaded average"),
		OPT_UINTEGER('M', "max-threads", &max_threads,
			     "Maximum number of threads in multithreaded bench"),
		OPT_UINTEGER('m', "min-threads", &min_threads,
			     "Minimum number of threads in multithreaded bench"),
		OPT_BOOLEAN('s', "st", &run_st, "Run single threaded benchmark"),
		OPT_BOOLEAN('t', "mt", &run_mt, "Run multi-threaded benchmark"),
		OPT_END(),
	};

	if (parse_options(argc, argv, options, usage, 0))
		usage_with_options(usage, options);
	if (!run_st && !run_mt)
		run_st = true;
	if (run_st) {
		puts("Computing performance of single threaded perf event synthesis by\n"
		     "synthesizing events on the perf process itself:");
		synth_own_process(single_iterations, false);
		synth_own_process(single_iterations, true);
	}
	if (run_mt) {
		if (max_threads == UINT_MAX)
			max_threads = (unsigned int)bench_online_cpus();
		puts("Computing performance of multi threaded perf event synthesis by\n"
		     "synthesizing events on CPU 0:");
		for (unsigned int n = min_threads ? min_threads : 1; n <= max_threads; n++)
			synth_machine(n, multi_iterations);
	}
	return PCL_EXIT_OK;
}

/* internals inject-build-id: pcl inject -b (then --buildid-all) in a forked child, fed a
 * made-up pipe stream: per mmap a COMM, an MMAP2 of a DSO from /usr/lib and samples in
 * it; timed from the first byte written to the child's exit, with its peak RSS. */
enum { DSOS_PER_MMAP = 4 };	/* DSOs collected per mmap asked for, as perf's */

static char **bench_dsos;
static size_t nr_bench_dsos, max_bench_dsos;

static int collect_dso(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	uint8_t id[20];

	(void)ftw;
	if (type != FTW_F || !S_ISREG(st->st_mode) ||
	    elf_file__read_build_id(path, id, sizeof(id)) <= 0)
		return 0;
	bench_dsos = xrealloc(bench_dsos, (nr_bench_dsos + 1) * sizeof(*bench_dsos));
	bench_dsos[nr_bench_dsos++] = xstrdup(path);
	return nr_bench_dsos >= max_bench_dsos;
}

static int write_fake_stream(int fd, unsigned int nr_mmaps, unsigned int nr_samples,
			     uint64_t *nr_events)
{
	static const struct perf_event_attr attr = {
		.type = PERF_TYPE_SOFTWARE, .config = PERF_COUNT_SW_TASK_CLOCK,
		.size = sizeof(attr), .sample_period = 1, .sample_id_all = 1,
		.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME,
	};
	const uint64_t id = 1;
	const struct perf_data_writer_attr attrs = { .attr = &attr, .ids = &id, .nr_ids = 1 };
	struct perf_data_writer w;
	uint64_t time = 1;
	int err;

	perf_data_writer__open_pipe(&w, fd);
	err = perf_data_writer__write_header(&w, &attrs, 1);
	for (unsigned int m = 0; !err && m < nr_mmaps; m++) {
		const char *dso = bench_dsos[(size_t)rand() % nr_bench_dsos];
		uint32_t pid = 1000 + m;
		uint64_t start = 0x400000ULL + (uint64_t)m * 0x100000000ULL, len = 0x100000;
		struct {
			struct perf_rec_comm c;
			char comm[16];
			uint64_t pid_tid, time;
		} comm = { { { PERF_RECORD_COMM, 0, sizeof(comm) }, pid, pid }, "bench",
			   (uint64_t)pid << 32 | pid, time++ };
		struct {
			struct perf_rec_mmap2 m;
			char name[PATH_MAX];
		} map = { .m = { .header = { PERF_RECORD_MMAP2, PERF_RECORD_MISC_USER, 0 },
				 .pid = pid, .tid = pid, .start = start, .len = len,
				 .prot = PROT_READ | PROT_EXEC, .flags = MAP_PRIVATE } };
		size_t name_len = strlen(dso) + 1;

		memcpy(map.name, dso, name_len);
		name_len = (name_len + 7) & ~(size_t)7;
		map.m.header.size = (uint16_t)(sizeof(map.m) + name_len + 16);
		memcpy(map.name + name_len, &comm.pid_tid, 8);
		memcpy(map.name + name_len + 8, &time, 8);
		time++;
		err = perf_data_writer__write(&w, &comm, sizeof(comm)) ||
		      perf_data_writer__write(&w, &map, map.m.header.size);
		*nr_events += 2;
		for (unsigned int n = 0; !err && n < nr_samples; n++) {
			struct {
				struct perf_event_header h;
				uint64_t ip;
				uint32_t pid, tid;
				uint64_t time;
			} sample = { { PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER, sizeof(sample) },
				     start + (uint64_t)rand() % len, pid, pid, time++ };

			err = perf_data_writer__write(&w, &sample, sizeof(sample));
			(*nr_events)++;
		}
	}
	if (!err)
		err = perf_data_writer__flush(&w);
	perf_data_writer__close(&w);
	return err;
}

/* One run of `pcl inject MODE` on a fresh stream: its time (usec), events and RSS (KB). */
static int inject_once(const char *mode, unsigned int nr_mmaps, unsigned int nr_samples,
		       bool verbose, double *usec, uint64_t *nr_events, long *rss_kb)
{
	int fds[2], status;
	struct timeval start, end;
	struct rusage ru;
	pid_t child;

	if (pipe(fds))
		return -errno;
	child = fork();
	if (child < 0)
		return -errno;
	if (child == 0) {
		int null = open("/dev/null", O_WRONLY);

		dup2(fds[0], 0);
		dup2(null, 1);
		close(fds[0]);
		close(fds[1]);
		/* in the forked child, as perf runs its inject: no exec to time */
		const char *args[] = { "inject", mode, "-i", "-", "-o", "-", NULL };

		exit(cmd_inject(6, args));
	}
	close(fds[0]);
	*nr_events = 0;
	gettimeofday(&start, NULL);
	write_fake_stream(fds[1], nr_mmaps, nr_samples, nr_events);
	if (wait4(child, &status, 0, &ru) < 0)
		return -errno;
	gettimeofday(&end, NULL);
	if (verbose)
		fprintf(stderr, "   Child %d exited with %d\n", (int)child,
		       WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	*usec = bench_elapsed_usec(&start, &end);
	*rss_kb = ru.ru_maxrss;
	return 0;
}

static int inject_series(const char *title, const char *what, const char *mode,
			 unsigned int iterations, unsigned int nr_mmaps, unsigned int nr_samples,
			 bool verbose)
{
	struct bench_stats usec = { 0 }, per_event = { 0 }, rss = { 0 };

	if (verbose)
		fprintf(stderr, "  %s injection benchmark\n", title);
	for (unsigned int i = 0; i < iterations; i++) {
		uint64_t nr_events = 0;
		double t = 0;
		long kb = 0;
		int err;

		if (verbose)
			fprintf(stderr, "  Iteration #%u\n", i + 1);
		err = inject_once(mode, nr_mmaps, nr_samples, verbose, &t, &nr_events, &kb);
		if (err) {
			fprintf(stderr, "inject-build-id: cannot run pcl inject: %s\n", strerror(-err));
			return PCL_EXIT_ERROR;
		}
		bench_stats_add(&usec, t);
		bench_stats_add(&per_event, nr_events ? t / (double)nr_events : 0);
		bench_stats_add(&rss, (double)kb);
	}
	printf("  Average %s injection took: %.3f msec (+- %.3f msec)\n", what, usec.mean / 1e3,
	       bench_stats_stddev(&usec) / 1e3);
	printf("  Average time per event: %.3f usec (+- %.3f usec)\n", per_event.mean,
	       bench_stats_stddev(&per_event));
	printf("  Average memory usage: %.0f KB (+- %.0f KB)\n", rss.mean, bench_stats_stddev(&rss));
	return PCL_EXIT_OK;
}

int bench_inject_build_id(int argc, const char **argv)
{
	static const char *const usage[] = { "pcl bench internals inject-build-id <options>",
					     NULL };
	unsigned int iterations = 100, nr_mmaps = 100, nr_samples = 100;
	bool verbose = false;
	const struct option options[] = {
		OPT_UINTEGER('i', "iterations", &iterations,
			     "Number of iterations used to compute average (default: 100)"),
		OPT_UINTEGER('m', "nr-mmaps", &nr_mmaps,
			     "Number of mmap events for each iteration (default: 100)"),
		OPT_UINTEGER('n', "nr-samples", &nr_samples,
			     "Number of sample events per mmap event (default: 100)"),
		OPT_BOOLEAN('v', "verbose", &verbose,
			    "be more verbose (show iteration count, DSO name, etc)"),
		OPT_END(),
	};
	int ret;

	if (parse_options(argc, argv, options, usage, 0))
		usage_with_options(usage, options);
	srand(1);
	max_bench_dsos = (size_t)nr_mmaps * DSOS_PER_MMAP;
	if (max_bench_dsos)
		nftw("/usr/lib/", collect_dso, 64, FTW_PHYS);
	if (!nr_bench_dsos) {
		fprintf(stderr, "inject-build-id: no DSO with a build id under /usr/lib\n");
		return PCL_EXIT_ERROR;
	}
	/* -v's lines go to stderr, as perf's */
	if (verbose)
		fprintf(stderr, "  Collected %zu DSOs\n", nr_bench_dsos);
	fflush(stdout);
	ret = inject_series("Build-id", "build-id", "-b", iterations, nr_mmaps, nr_samples,
			    verbose);
	if (ret == PCL_EXIT_OK)
		ret = inject_series("Build-id-all", "build-id-all", "--buildid-all", iterations,
				    nr_mmaps, nr_samples, verbose);
	for (size_t i = 0; i < nr_bench_dsos; i++)
		free(bench_dsos[i]);
	free(bench_dsos);
	return ret;
}
