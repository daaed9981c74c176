/* selftests: see selftests.h.  Each test uses pcl's engine as the commands do and checks
 * the result against what the kernel or the installed perf says. */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/data/perf-record.h"
#include "core/data/session.h"
#include "core/events/cpumap.h"
#include "core/events/evlist.h"
#include "core/events/parse-events.h"
#include "core/live/ringbuf.h"
#include "core/symbols/dso.h"
#include "core/symbols/kernel-maps.h"
#include "core/symbols/map.h"
#include "core/symbols/machine.h"
#include "selftests.h"

#define TRACEFS_EVENTS "/sys/kernel/tracing/events"
#define NR_SYSCALLS_MADE 111	/* how many calls a syscall test makes and expects to see */

int test_skip(struct test_ctx *ctx, const char *reason)
{
	snprintf(ctx->skip_reason, sizeof(ctx->skip_reason), "%s", reason);
	return TEST_SKIP;
}

static void __attribute__((format(printf, 2, 3))) test_note(struct test_ctx *ctx,
							      const char *fmt, ...)
{
	va_list ap;

	if (!ctx->verbose)
		return;
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
}

/* The workload of the recording tests: a loop in a function of its own, so that its
 * samples name one symbol of the pcl binary (global: the compiler keeps its name). */
__attribute__((noinline)) void selftest_noploop(double seconds)
{
	struct timespec start, now;

	clock_gettime(CLOCK_MONOTONIC, &start);
	do {
		for (volatile int i = 0; i < 100000; i++)
			;
		clock_gettime(CLOCK_MONOTONIC, &now);
	} while ((now.tv_sec - start.tv_sec) + (now.tv_nsec - start.tv_nsec) / 1e9 < seconds);
}

int selftest_workload(const char *name, const char *arg)
{
	if (strcmp(name, "noploop"))
		return -1;
	selftest_noploop(arg ? atof(arg) : 1.0);
	return 0;
}

/* Parses str into a fresh evlist; false (with a note) when pcl's grammar refuses it. */
static bool parse_into(struct test_ctx *ctx, struct evlist *evlist, const char *str)
{
	struct parse_events_error err;
	int ret;

	evlist__init(evlist);
	ret = parse_events(evlist, str, &err);
	if (ret)
		test_note(ctx, "parse_events(\"%s\"): %s at %d\n", str, err.str ? err.str : "?",
			  err.idx);
	parse_events_error__exit(&err);
	return ret == 0;
}

static struct evsel *nth_event(struct evlist *evlist, int n)
{
	struct evsel *pos = evlist->first;

	while (pos && n--)
		pos = pos->next;
	return pos;
}

static bool attr_is(struct test_ctx *ctx, const struct evsel *evsel, uint32_t type,
		    uint64_t config, bool excl_user, bool excl_kernel)
{
	const struct perf_event_attr *a = &evsel->attr;

	if (a->type == type && a->config == config && a->exclude_user == excl_user &&
	    a->exclude_kernel == excl_kernel)
		return true;
	test_note(ctx, "%s: type %u config %#llx u%d k%d, expected type %u config %#llx u%d k%d\n",
		  evsel->name, a->type, (unsigned long long)a->config, a->exclude_user,
		  a->exclude_kernel, type, (unsigned long long)config, excl_user, excl_kernel);
	return false;
}

static int test_parse_symbolic(struct test_ctx *ctx)
{
	struct evlist el;
	bool ok;

	if (!parse_into(ctx, &el, "cycles:u,cpu-clock,page-faults,instructions:k,r1a8"))
		return TEST_FAIL;
	ok = el.nr_entries == 5 &&
	     attr_is(ctx, nth_event(&el, 0), PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES,
		     false, true) &&
	     attr_is(ctx, nth_event(&el, 1), PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK,
		     false, false) &&
	     attr_is(ctx, nth_event(&el, 2), PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS,
		     false, false) &&
	     attr_is(ctx, nth_event(&el, 3), PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS,
		     true, false) &&
	     attr_is(ctx, nth_event(&el, 4), PERF_TYPE_RAW, 0x1a8, false, false);
	evlist__exit(&el);
	return ok ? TEST_OK : TEST_FAIL;
}

/* The id tracefs gives a tracepoint, -1 when it cannot be read. */
static long tracepoint_id(const char *sys, const char *name)
{
	char path[PATH_MAX];
	long id = -1;
	FILE *f;

	snprintf(path, sizeof(path), TRACEFS_EVENTS "/%s/%s/id", sys, name);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (fscanf(f, "%ld", &id) != 1)
		id = -1;
	fclose(f);
	return id;
}

static int test_parse_tracepoints(struct test_ctx *ctx)
{
	long id = tracepoint_id("sched", "sched_switch");
	struct evlist el;
	bool ok;

	if (id < 0)
		return test_skip(ctx, "no tracefs");
	if (!parse_into(ctx, &el, "sched:sched_switch,sched:sched_process_*"))
		return TEST_FAIL;
	ok = attr_is(ctx, el.first, PERF_TYPE_TRACEPOINT, (uint64_t)id, false, false) &&
	     el.nr_entries > 2;
	test_note(ctx, "sched:sched_switch is id %ld; the glob gave %d events\n", id,
		  el.nr_entries - 1);
	evlist__exit(&el);
	return ok ? TEST_OK : TEST_FAIL;
}

static int test_parse_groups(struct test_ctx *ctx)
{
	struct evlist el;
	struct evsel *leader, *member;
	bool ok;

	if (!parse_into(ctx, &el, "{cpu-clock,task-clock}:u,mem:0x1000:rw"))
		return TEST_FAIL;
	leader = nth_event(&el, 0);
	member = nth_event(&el, 1);
	ok = el.nr_entries == 3 && leader->leader == leader && member->leader == leader &&
	     leader->nr_members == 2 && leader->attr.exclude_kernel &&
	     member->attr.exclude_kernel && nth_event(&el, 2)->leader == nth_event(&el, 2) &&
	     nth_event(&el, 2)->attr.type == PERF_TYPE_BREAKPOINT &&
	     nth_event(&el, 2)->attr.bp_addr == 0x1000;
	evlist__exit(&el);
	return ok ? TEST_OK : TEST_FAIL;
}

static int test_parse_errors(struct test_ctx *ctx)
{
	static const struct {
		const char *str;
		int idx;	/* where perf 6.1 puts its caret */
	} bad[] = {
		{ "cpu-clock,nosuchevent", 10 },
		{ "cycles:z", 6 },
		{ "{cycles,", 1 },
	};
	struct parse_events_error err;
	int failures = 0;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct evlist el;
		int ret;

		evlist__init(&el);
		ret = parse_events(&el, bad[i].str, &err);
		if (ret == 0 || err.idx != bad[i].idx || el.nr_entries) {
			test_note(ctx, "\"%s\": returned %d, error at %d, expected at %d\n",
				  bad[i].str, ret, err.idx, bad[i].idx);
			failures++;
		}
		parse_events_error__exit(&err);
		evlist__exit(&el);
	}
	return failures ? TEST_FAIL : TEST_OK;
}

static const struct test_case parse_event_cases[] = {
	{ "Hardware, software and raw events", test_parse_symbolic },
	{ "Tracepoints by name and by glob", test_parse_tracepoints },
	{ "Groups, modifiers and breakpoints", test_parse_groups },
	{ "Errors point at the bad token", test_parse_errors },
	{ NULL, NULL },
};

static int test_evsel_names(struct test_ctx *ctx)
{
	static const char *const names[] = {
		"cycles", "instructions:u", "cpu-clock", "page-faults:k",
		"L1-dcache-load-misses", "branch-misses:uk", "sched:sched_switch",
	};
	int failures = 0;

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		struct evlist el;

		if (!strncmp(names[i], "sched:", 6) && tracepoint_id("sched", "sched_switch") < 0)
			continue;	/* no tracefs */
		if (!parse_into(ctx, &el, names[i]))
			return TEST_FAIL;
		if (strcmp(el.first->name, names[i])) {
			test_note(ctx, "\"%s\" is named \"%s\"\n", names[i], el.first->name);
			failures++;
		}
		evlist__exit(&el);
	}
	return failures ? TEST_FAIL : TEST_OK;
}

/* One event opened on this thread, with the maps it was opened on (the evsel borrows them). */
struct self_event {
	struct evlist el;
	struct cpu_map *cpus;
	struct thread_map *threads;
};

static void self_event__close(struct self_event *se)
{
	evlist__exit(&se->el);
	cpu_map__delete(se->cpus);
	thread_map__delete(se->threads);
}

/* Opens str on this thread; NULL (with *result a failure or a skip) when it cannot be. */
static struct evsel *open_on_self(struct test_ctx *ctx, struct self_event *se, const char *str,
				  uint64_t sample_type, bool backward, int *result)
{
	struct evsel *evsel;
	int err;

	*result = TEST_FAIL;
	se->cpus = cpu_map__new_any();
	se->threads = thread_map__new_pid((int)syscall(SYS_gettid));
	if (!parse_into(ctx, &se->el, str)) {
		if (access(TRACEFS_EVENTS, R_OK))
			*result = test_skip(ctx, "no tracefs");
		self_event__close(se);
		return NULL;
	}
	evsel = se->el.first;
	evsel->attr.sample_type |= sample_type;
	evsel->attr.disabled = 1;
	evsel->attr.write_backward = backward;
	err = evsel__open(evsel, se->cpus, se->threads);
	if (err) {
		test_note(ctx, "opening %s: %s\n", str, strerror(-err));
		if (err == -EACCES || err == -EPERM)
			*result = test_skip(ctx, "permissions");
		else if (evsel__errno_is_unsupported(err))
			*result = test_skip(ctx, "not supported");
		self_event__close(se);
		return NULL;
	}
	return evsel;
}

static int test_openat_counted(struct test_ctx *ctx)
{
	struct counts_values counts;
	struct self_event se;
	struct evsel *evsel;
	int result;

	evsel = open_on_self(ctx, &se, "syscalls:sys_enter_openat", 0, false, &result);
	if (!evsel)
		return result;
	evsel__enable(evsel);
	for (int i = 0; i < NR_SYSCALLS_MADE; i++) {
		int fd = openat(AT_FDCWD, "/etc/passwd", O_RDONLY);

		if (fd >= 0)
			close(fd);
	}
	evsel__disable(evsel);
	result = evsel__read(evsel, 0, 0, &counts) ? TEST_FAIL : TEST_OK;
	if (result == TEST_OK && counts.val != NR_SYSCALLS_MADE) {
		test_note(ctx, "counted %llu openat calls, made %d\n",
			  (unsigned long long)counts.val, NR_SYSCALLS_MADE);
		result = TEST_FAIL;
	}
	self_event__close(&se);
	return result;
}

/* Whether a decoded sys_enter_getppid sample says what this thread did: its pid and tid,
 * a period of 1, a CPU that exists, time going forward, and the tracepoint's own record
 * (raw data: common_type u16, flags u8, preempt_count u8, then common_pid) naming us. */
static bool sample_fields_match(struct test_ctx *ctx, const struct perf_sample *s,
				uint64_t *last_time)
{
	int32_t common_pid = 0;
	bool ok;

	if (s->raw_size >= 8)
		memcpy(&common_pid, (const char *)s->raw_data + 4, sizeof(common_pid));
	ok = s->pid == (uint32_t)getpid() && s->tid == (uint32_t)syscall(SYS_gettid) &&
	     s->period == 1 && s->cpu < (uint32_t)sysconf(_SC_NPROCESSORS_CONF) &&
	     s->time >= *last_time && common_pid == (int32_t)s->tid;
	if (!ok)
		test_note(ctx, "sample: pid %u tid %u period %llu cpu %u time %llu common_pid %d\n",
			  s->pid, s->tid, (unsigned long long)s->period, s->cpu,
			  (unsigned long long)s->time, common_pid);
	*last_time = s->time;
	return ok;
}

/* Calls getppid(2) NR_SYSCALLS_MADE times under a sys_enter_getppid event with a ring,
 * decodes the records found there with pcl's sample parser and counts this process's
 * samples (with check_fields: those whose every field is right). */
static int ring_samples_of_getppid(struct test_ctx *ctx, bool backward, bool check_fields)
{
	uint64_t sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_ID, last_time = 0;
	struct ringbuf rb;
	struct self_event se;
	struct evsel *evsel;
	unsigned char *copy;
	int result, seen = 0;
	size_t len;

	evsel = open_on_self(ctx, &se, "syscalls:sys_enter_getppid", sample_type, backward,
			     &result);
	if (!evsel)
		return result;
	if (ringbuf__mmap(&rb, evsel__fd(evsel, 0, 0), -1, 16, backward)) {
		self_event__close(&se);
		return TEST_FAIL;
	}
	evsel__enable(evsel);
	for (int i = 0; i < NR_SYSCALLS_MADE; i++)
		syscall(SYS_getppid);
	evsel__disable(evsel);
	copy = malloc(ringbuf__data_size(&rb));
	len = copy ? ringbuf__take(&rb, copy) : 0;
	for (size_t off = 0; off + sizeof(struct perf_event_header) <= len;) {
		const struct perf_event_header *h = (const void *)(copy + off);
		struct perf_sample sample;
		const char *why;

		if (h->type == PERF_RECORD_SAMPLE) {
			if (perf_sample__parse(&evsel->attr, h, &sample, &why))
				test_note(ctx, "undecodable sample: %s\n", why);
			else if (check_fields)
				seen += sample_fields_match(ctx, &sample, &last_time);
			else
				seen += sample.pid == (uint32_t)getpid();
		}
		off += h->size ? h->size : len;
	}
	test_note(ctx, "%zu bytes in the ring, %d samples of %d calls\n", len, seen,
		  NR_SYSCALLS_MADE);
	free(copy);
	ringbuf__munmap(&rb);
	self_event__close(&se);
	return seen == NR_SYSCALLS_MADE ? TEST_OK : TEST_FAIL;
}

static int test_ring_forward(struct test_ctx *ctx)
{
	return ring_samples_of_getppid(ctx, false, false);
}

static int test_ring_overwrite(struct test_ctx *ctx)
{
	return ring_samples_of_getppid(ctx, true, false);
}

static int test_sample_fields(struct test_ctx *ctx)
{
	return ring_samples_of_getppid(ctx, false, true);
}

static const struct test_case mmap_cases[] = {
	{ "Read samples using the mmap interface", test_ring_forward },
	{ "Read samples from an overwrite ring", test_ring_overwrite },
	{ "Decode each field of the samples", test_sample_fields },
	{ NULL, NULL },
};

/* The path of the running pcl binary. */
static bool self_exe(char *path, size_t len)
{
	ssize_t n = readlink("/proc/self/exe", path, len - 1);

	if (n <= 0)
		return false;
	path[n] = '\0';
	return true;
}

static int test_symbol_lookup(struct test_ctx *ctx)
{
	char exe[PATH_MAX], line[PATH_MAX + 128];
	struct machine *m = machine__new();
	struct addr_location al;
	struct thread *thread;
	bool found = false;
	FILE *maps = fopen("/proc/self/maps", "r");

	if (!m || !maps || !self_exe(exe, sizeof(exe))) {
		if (maps)
			fclose(maps);
		machine__delete(m);
		return TEST_FAIL;
	}
	/* the binary's executable mappings, as an MMAP2 record would give them */
	while (fgets(line, sizeof(line), maps)) {
		unsigned long long start, end, pgoff;
		char perms[8], path[PATH_MAX];

		if (sscanf(line, "%llx-%llx %7s %llx %*s %*s %4095s", &start, &end, perms, &pgoff,
			   path) == 5 && perms[2] == 'x' && !strcmp(path, exe))
			machine__process_mmap2(m, getpid(), getpid(), start, end - start, pgoff, exe,
					       PERF_RECORD_MISC_USER, NULL, 0, PROT_EXEC, 0);
	}
	fclose(maps);
	thread = machine__findnew_thread(m, getpid(), getpid());
	if (thread && machine__resolve(m, thread, PERF_RECORD_MISC_USER,
				       (uintptr_t)selftest_noploop + 1, &al) && al.sym) {
		test_note(ctx, "%#lx is %s in %s\n", (unsigned long)(uintptr_t)selftest_noploop,
			  al.sym->name, al.dso ? al.dso->long_name : "?");
		found = !strcmp(al.sym->name, "selftest_noploop");
	}
	machine__delete(m);
	return found ? TEST_OK : TEST_FAIL;
}

/* Kernel functions every kernel pcl meets has, looked up by name and by address. */
static int test_kernel_symbols(struct test_ctx *ctx)
{
	static const char *const names[] = { "schedule", "vfs_read", "do_exit" };
	struct machine *m = machine__new();
	struct thread *thread;
	bool no_modules;
	int failures = 0;

	if (!m)
		return TEST_FAIL;
	if (machine__add_running_kernel_maps(m, &no_modules) < 0) {
		machine__delete(m);
		return test_skip(ctx, "kallsyms hides addresses");
	}
	thread = machine__findnew_thread(m, 0, 0);
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		struct map *map = NULL;
		struct symbol *sym = machine__find_kernel_symbol_by_name(m, names[i], &map);
		struct addr_location al;
		uint64_t kallsyms_addr = 0, addr = 0;

		if (sym)
			addr = map__unmap_ip(map, sym->start);
		/* the address /proc/kallsyms gives, and the way back from it to the name */
		if (!sym || kallsyms__symbol_addr(NULL, names[i], &kallsyms_addr) ||
		    addr != kallsyms_addr ||
		    !machine__resolve(m, thread, PERF_RECORD_MISC_KERNEL, addr, &al) || !al.sym ||
		    strcmp(al.sym->name, names[i])) {
			test_note(ctx, "%s: found at %#llx, kallsyms says %#llx\n", names[i],
				  (unsigned long long)addr, (unsigned long long)kallsyms_addr);
			failures++;
		}
	}
	machine__delete(m);
	return failures ? TEST_FAIL : TEST_OK;
}

/* Runs argv with stdout to out_fd (or /dev/null when -1) and stderr kept only with -v;
 * returns its exit status, or -1. */
static int run_program(struct test_ctx *ctx, const char *const argv[], int out_fd)
{
	int status;
	pid_t pid = fork();

	if (pid < 0)
		return -1;
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);

		dup2(out_fd >= 0 ? out_fd : null, STDOUT_FILENO);
		if (!ctx->verbose)
			dup2(null, STDERR_FILENO);
		execvp(argv[0], (char *const *)argv);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

/* A recording of the noploop workload into dir/perf.data (its path returned in path), by
 * recorder (the installed perf; NULL: this pcl), with --call-graph call_graph when not NULL. */
static bool record_noploop(struct test_ctx *ctx, const char *recorder, const char *call_graph,
			   char *dir, char *path, size_t len)
{
	char exe[PATH_MAX];

	if (!mkdtemp(dir) || !self_exe(exe, sizeof(exe)))
		return false;
	snprintf(path, len, "%s/perf.data", dir);
	{
		const char *argv[] = { recorder ? recorder : exe, "record", "-q", "-e", "task-clock",
				       "-c", "100000", "-o", path, "--call-graph",
				       call_graph ? call_graph : "", "--", exe, "test", "-w",
				       "noploop", "0.3", NULL };

		if (!call_graph)	/* no --call-graph: the workload follows -o */
			memmove(&argv[9], &argv[11], 7 * sizeof(argv[0]));
		return run_program(ctx, argv, -1) == 0;
	}
}

static void remove_recording(const char *dir, const char *path)
{
	unlink(path);
	rmdir(dir);
}

struct noploop_count {
	struct perf_tool tool;
	unsigned long samples, in_noploop;
};

static int count_noploop(struct perf_tool *tool, struct perf_session *session,
			 const struct perf_event_header *rec, struct perf_sample *sample,
			 struct evsel *evsel)
{
	struct noploop_count *c = (struct noploop_count *)tool;
	struct addr_location al;

	c->samples++;
	if (perf_session__resolve_sample(session, sample, &al) && al.sym &&
	    !strcmp(al.sym->name, "selftest_noploop"))
		c->in_noploop++;
	return 0;
}

/* Whether pcl reads the recording at path and finds most samples in the workload's loop. */
static int samples_in_noploop(struct test_ctx *ctx, const char *path)
{
	struct noploop_count count = { .tool = { .sample = count_noploop, .ordered = true } };
	char *err = NULL;
	struct perf_session *s = perf_session__open(path, false, &err);
	int result = TEST_FAIL;

	if (!s) {
		test_note(ctx, "%s\n", err);
		free(err);
		return TEST_FAIL;
	}
	perf_session__new_machine(s, NULL, NULL, false);
	if (perf_session__process(s, &count.tool) == 0 && count.samples &&
	    count.in_noploop * 2 > count.samples)
		result = TEST_OK;
	test_note(ctx, "%lu samples, %lu in selftest_noploop\n", count.samples, count.in_noploop);
	perf_session__delete(s);
	return result;
}

/* recorder (NULL: pcl) records the workload, pcl reads it */
static int record_and_read(struct test_ctx *ctx, const char *recorder)
{
	char dir[] = "/tmp/pcl-test-XXXXXX", path[PATH_MAX];
	int result = TEST_FAIL;

	if (record_noploop(ctx, recorder, NULL, dir, path, sizeof(path)))
		result = samples_in_noploop(ctx, path);
	else
		test_note(ctx, "%s record failed\n", recorder ? recorder : "pcl");
	remove_recording(dir, path);
	return result;
}

static int test_record_report(struct test_ctx *ctx)
{
	return record_and_read(ctx, NULL);
}

/* The callers DWARF unwinding must find above the workload's loop, innermost first, down
 * to the binary's entry point (main calls the command as a tail call: no frame of its own) */
static const char *const noploop_callers[] = { "selftest_workload", "cmd_test", "_start" };

struct unwound_stacks {
	struct perf_tool tool;
	struct test_ctx *ctx;
	unsigned long in_noploop, complete;
};

/* Whether the frames above selftest_noploop hold its callers, in order. */
static bool callers_found(const struct callchain_frame *frames, int nr)
{
	size_t want = 0;

	for (int i = 1; i < nr && want < sizeof(noploop_callers) / sizeof(noploop_callers[0]);
	     i++)
		if (frames[i].al.sym && !strcmp(frames[i].al.sym->name, noploop_callers[want]))
			want++;
	return want == sizeof(noploop_callers) / sizeof(noploop_callers[0]);
}

static int check_unwound(struct perf_tool *tool, struct perf_session *session,
			 const struct perf_event_header *rec, struct perf_sample *sample,
			 struct evsel *evsel)
{
	struct unwound_stacks *u = (struct unwound_stacks *)tool;
	struct callchain_frame frames[64];
	struct addr_location al;
	int nr;

	if (!perf_session__resolve_sample(session, sample, &al))
		return 0;
	nr = perf_session__resolve_callchain(session, evsel, sample, al.thread, 64, frames, 64);
	if (nr < 1 || !frames[0].al.sym || strcmp(frames[0].al.sym->name, "selftest_noploop"))
		return 0;
	u->in_noploop++;
	if (callers_found(frames, nr))
		u->complete++;
	else if (u->ctx->verbose && u->in_noploop - u->complete == 1)
		for (int i = 0; i < nr; i++)
			test_note(u->ctx, "  frame %d: %s\n", i,
				  frames[i].al.sym ? frames[i].al.sym->name : "[unknown]");
	return 0;
}

static int test_dwarf_unwind(struct test_ctx *ctx)
{
	char dir[] = "/tmp/pcl-test-XXXXXX", path[PATH_MAX], *err = NULL;
	struct unwound_stacks u = { .tool = { .sample = check_unwound, .ordered = true },
				    .ctx = ctx };
	struct perf_session *s;
	int result = TEST_FAIL;

	if (!record_noploop(ctx, NULL, "dwarf", dir, path, sizeof(path))) {
		test_note(ctx, "pcl record --call-graph dwarf failed\n");
		remove_recording(dir, path);
		return TEST_FAIL;
	}
	s = perf_session__open(path, false, &err);
	if (s) {
		perf_session__new_machine(s, NULL, NULL, false);
		/* most stacks unwind to _start (a sample may land mid-prologue) */
		if (perf_session__process(s, &u.tool) == 0 && u.in_noploop &&
		    u.complete * 2 > u.in_noploop)
			result = TEST_OK;
		test_note(ctx, "%lu samples in selftest_noploop, %lu unwound to _start\n",
			  u.in_noploop, u.complete);
		perf_session__delete(s);
	} else {
		test_note(ctx, "%s\n", err);
		free(err);
	}
	remove_recording(dir, path);
	return result;
}

/* The first field of the stat -x, line of event in file, or -1. */
static long long stat_count(const char *file, const char *event)
{
	char line[512];
	long long count = -1;
	FILE *f = fopen(file, "r");

	while (f && fgets(line, sizeof(line), f))
		if (strstr(line, event) && isdigit((unsigned char)line[0]))
			count = atoll(line);
	if (f)
		fclose(f);
	return count;
}

static int test_uprobe(struct test_ctx *ctx)
{
	static const char *const probe = "pcl_selftest:noploop";
	char dir[] = "/tmp/pcl-test-XXXXXX", exe[PATH_MAX], out[PATH_MAX];
	long long count = -1;

	if (access("/sys/kernel/tracing/uprobe_events", W_OK))
		return test_skip(ctx, "no uprobe_events");
	if (!self_exe(exe, sizeof(exe)) || !mkdtemp(dir))
		return TEST_FAIL;
	snprintf(out, sizeof(out), "%s/stat.txt", dir);
	{
		const char *add[] = { exe, "probe", "-q", "-x", exe,
				      "pcl_selftest:noploop=selftest_noploop", NULL };
		const char *stat[] = { exe, "stat", "-x,", "-o", out, "-e", probe, "--", exe,
				       "test", "-w", "noploop", "0.05", NULL };
		const char *del[] = { exe, "probe", "-q", "-d", probe, NULL };

		run_program(ctx, del, -1);	/* one a killed run left behind */
		if (run_program(ctx, add, -1) == 0) {
			if (run_program(ctx, stat, -1) == 0)
				count = stat_count(out, probe);
			run_program(ctx, del, -1);
		}
	}
	test_note(ctx, "%s counted %lld calls of selftest_noploop, 1 made\n", probe, count);
	unlink(out);
	rmdir(dir);
	return count == 1 ? TEST_OK : TEST_FAIL;
}

/* The installed perf, or NULL. */
static const char *installed_perf(void)
{
	static const char *const places[] = { "/usr/bin/perf", "/usr/local/bin/perf" };

	for (size_t i = 0; i < sizeof(places) / sizeof(places[0]); i++)
		if (access(places[i], X_OK) == 0)
			return places[i];
	return NULL;
}

static int test_perf_reads_pcl_data(struct test_ctx *ctx)
{
	char dir[] = "/tmp/pcl-test-XXXXXX", path[PATH_MAX], out[PATH_MAX], line[512];
	const char *perf = installed_perf();
	int result = TEST_FAIL, fd;
	FILE *report;

	if (!perf)
		return test_skip(ctx, "perf not installed");
	if (!record_noploop(ctx, NULL, NULL, dir, path, sizeof(path))) {
		remove_recording(dir, path);
		return TEST_FAIL;
	}
	snprintf(out, sizeof(out), "%s/report.txt", dir);
	fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd >= 0) {
		const char *argv[] = { perf, "report", "-i", path, "--stdio", "-q", "--sort",
				       "sym", NULL };

		if (run_program(ctx, argv, fd) == 0 && (report = fopen(out, "r"))) {
			while (fgets(line, sizeof(line), report))
				if (strstr(line, "selftest_noploop"))
					result = TEST_OK;
			fclose(report);
		}
		close(fd);
		unlink(out);
	}
	test_note(ctx, "perf report %s selftest_noploop\n", result ? "does not name" : "names");
	remove_recording(dir, path);
	return result;
}

static int test_pcl_reads_perf_data(struct test_ctx *ctx)
{
	const char *perf = installed_perf();

	return perf ? record_and_read(ctx, perf) : test_skip(ctx, "perf not installed");
}

static const struct test_case perf_compat_cases[] = {
	{ "pcl's recording reported by perf", test_perf_reads_pcl_data },
	{ "perf's recording read by pcl", test_pcl_reads_perf_data },
	{ NULL, NULL },
};

const struct test_suite selftests[] = {
	{ "Parse event definition strings", NULL, parse_event_cases },
	{ "Roundtrip evsel->name", test_evsel_names, NULL },
	{ "Detect openat syscall event", test_openat_counted, NULL },
	{ "mmap interface tests", NULL, mmap_cases },
	{ "Symbol lookup in the pcl binary", test_symbol_lookup, NULL },
	{ "Kernel symbols match kallsyms", test_kernel_symbols, NULL },
	{ "record -> report round trip", test_record_report, NULL },
	{ "DWARF unwinding of recorded user stacks", test_dwarf_unwind, NULL },
	{ "Uprobe on a function of the pcl binary", test_uprobe, NULL },
	{ "perf.data shared with the installed perf", NULL, perf_compat_cases },
	{ NULL, NULL, NULL },
};
