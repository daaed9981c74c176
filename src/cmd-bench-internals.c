/* pcl bench internals evlist-open-close: pcl's own equivalent of perf's benchmark of its
 * event list life cycle: parse the events, open them on every CPU (or the tasks given),
 * map a ring buffer per descriptor, enable, disable, unmap, close; -i times. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd-bench.h"
#include "core/events/evlist.h"
#include "core/events/parse-events.h"
#include "core/live/ringbuf.h"
#include "util/exit-codes.h"
#include "util/parse-options.h"
#include "util/strbuf.h"

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
