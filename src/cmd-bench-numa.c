/* pcl bench numa mem: perf 6.1's NUMA workload.  -p processes of -t threads each walk three
 * working sets (global memory shared by every process, process memory shared by its threads,
 * thread-local memory), forwards, backwards or in a pseudo-random order, for -l loops or -s
 * seconds; the threads start together once all are set up.  Tasks may be bound to CPUs (-C)
 * and memory nodes (-M) with sched_setaffinity() and set_mempolicy() (no libnuma: the topology
 * comes from sysfs).  The output is perf's, quirks included: -1x loops when unbounded, the
 * fastest thread's runtime in whole seconds, -a running perf's built-in suite quietly. */
#include <dirent.h>
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cmd-bench.h"
#include "util/exit-codes.h"
#include "util/parse-options.h"

#define NSEC_PER_SEC 1000000000ULL
#define NSEC_PER_USEC 1000ULL
#define HUGE_ALIGN (2UL * 1024 * 1024)
#define MAX_NODES 1024
#define NO_NODE (-1)
#define MPOL_DEFAULT_MODE 0
#define MPOL_BIND_MODE 2

struct numa_params {
	bool serialize_startup;
	int nr_proc, nr_threads;
	const char *mb_global_str, *mb_proc_str, *mb_proc_locked_str, *mb_thread_str;
	bool data_reads, data_writes, data_backwards, data_zero_memset, data_rand_walk;
	unsigned int nr_loops, nr_secs, sleep_usecs;
	bool init_zero, init_random, init_cpu0;
	int show_details, run_all, thp;
	long bytes_global, bytes_process, bytes_process_locked, bytes_thread;
	int nr_tasks;
	bool show_convergence, measure_convergence;
	int perturb_secs, nr_cpus, nr_nodes;
	const char *cpu_list, *node_list;
};

/* One task (a thread of a worker process); the array lives in memory shared with the
 * processes so the parent reads their runtimes and the last task their CPUs. */
struct numa_task {
	int curr_cpu;
	cpu_set_t bind_cpus;
	int bind_node;
	uint8_t *process_data;
	int process_nr, thread_nr, task_nr;
	unsigned int loops_done;
	uint64_t val, runtime_ns, system_ns, user_ns;
	double speed_gbs;
	pthread_mutex_t *process_lock;
};

/* The state every process and thread shares (a MAP_SHARED mapping). */
struct numa_global {
	uint8_t *data;
	pthread_mutex_t startup_mutex;
	pthread_cond_t startup_cond;
	int nr_tasks_started;
	pthread_mutex_t start_work_mutex;
	pthread_cond_t start_work_cond;
	int nr_tasks_working;
	bool start_work;
	pthread_mutex_t stop_work_mutex;
	uint64_t bytes_done;
	struct numa_task *tasks;
	volatile bool stop_work;
	int print_once;
	struct numa_params p;
};

static struct numa_global *g;
static struct numa_params opts;
static bool quiet;

/* The machine's nodes and which node each CPU belongs to, from sysfs. */
static bool node_present[MAX_NODES];
static int *cpu_node;
static int topology_cpus;

#define tprintf(...) do { if (g && g->p.show_details >= 0) printf(__VA_ARGS__); } while (0)
#define dprintf_(...) do { if (g && g->p.show_details >= 1) printf(__VA_ARGS__); } while (0)

static void add_node_cpus(int node, const char *list)
{
	const char *s = list;

	while (*s && *s != '\n') {
		char *end;
		long lo = strtol(s, &end, 10), hi = lo;

		if (end == s)
			break;
		if (*end == '-')
			hi = strtol(end + 1, &end, 10);
		for (long c = lo; c <= hi && c < topology_cpus; c++)
			if (c >= 0)
				cpu_node[c] = node;
		s = *end == ',' ? end + 1 : end;
	}
}

/* nr_cpus: configured CPUs; nr_nodes: highest node + 1 (1 without NUMA in sysfs) */
static void read_topology(int *nr_cpus, int *nr_nodes)
{
	DIR *dir = opendir("/sys/devices/system/node");
	struct dirent *de;
	int max_node = -1;

	topology_cpus = (int)sysconf(_SC_NPROCESSORS_CONF);
	if (topology_cpus < 1)
		topology_cpus = 1;
	free(cpu_node);
	cpu_node = malloc(sizeof(*cpu_node) * (size_t)topology_cpus);
	for (int c = 0; c < topology_cpus; c++)
		cpu_node[c] = NO_NODE;
	memset(node_present, 0, sizeof(node_present));
	while (dir && (de = readdir(dir))) {
		char path[300], list[4096];
		int node;
		FILE *f;

		if (sscanf(de->d_name, "node%d", &node) != 1 || node < 0 || node >= MAX_NODES)
			continue;
		node_present[node] = true;
		if (node > max_node)
			max_node = node;
		snprintf(path, sizeof(path), "/sys/devices/system/node/%s/cpulist", de->d_name);
		f = fopen(path, "r");
		if (f && fgets(list, sizeof(list), f))
			add_node_cpus(node, list);
		if (f)
			fclose(f);
	}
	if (dir)
		closedir(dir);
	if (max_node < 0) {
		max_node = 0;
		node_present[0] = true;
		for (int c = 0; c < topology_cpus; c++)
			cpu_node[c] = 0;
	}
	*nr_cpus = topology_cpus;
	*nr_nodes = max_node + 1;
}

static int node_of_cpu(int cpu)
{
	return cpu >= 0 && cpu < topology_cpus ? cpu_node[cpu] : NO_NODE;
}

static int present_nodes(void)
{
	int n = 0;

	for (int node = 0; node < g->p.nr_nodes && node < MAX_NODES; node++)
		n += node_present[node];
	return n;
}

static bool node_has_cpus(int node)
{
	for (int c = 0; c < topology_cpus; c++)
		if (cpu_node[c] == node)
			return true;
	return false;
}

static void all_cpus(cpu_set_t *set)
{
	CPU_ZERO(set);
	for (int c = 0; c < g->p.nr_cpus && c < CPU_SETSIZE; c++)
		CPU_SET(c, set);
}

/* Moves the caller to the CPUs of node (every CPU for NO_NODE); old receives the mask left. */
static void bind_to_node_cpus(int node, cpu_set_t *old)
{
	cpu_set_t set;

	sched_getaffinity(0, sizeof(*old), old);
	if (node == NO_NODE) {
		all_cpus(&set);
	} else {
		CPU_ZERO(&set);
		for (int c = 0; c < topology_cpus && c < CPU_SETSIZE; c++)
			if (cpu_node[c] == node)
				CPU_SET(c, &set);
	}
	sched_setaffinity(0, sizeof(set), &set);
}

static long set_mempolicy_(int mode, const unsigned long *mask, unsigned long maxnode)
{
	return syscall(SYS_set_mempolicy, mode, mask, maxnode);
}

static void bind_to_memnode(int node)
{
	unsigned long mask[MAX_NODES / (8 * sizeof(unsigned long))] = { 0 };
	long ret;

	if (node == NO_NODE || node >= MAX_NODES)
		return;
	mask[node / (8 * sizeof(unsigned long))] = 1UL << (node % (8 * sizeof(unsigned long)));
	ret = set_mempolicy_(MPOL_BIND_MODE, mask, MAX_NODES + 1);
	dprintf_("binding to node %d, mask: %016lx => %ld\n", node, mask[0], ret);
}

static void mempolicy_restore(void)
{
	set_mempolicy_(MPOL_DEFAULT_MODE, NULL, 0);
}

/* A working set of bytes0, 2MB-aligned inside a mapping 2MB larger (perf's layout, so that
 * huge pages can back it), initialised as the options ask. */
static uint8_t *alloc_data(long bytes0, int map_flags, bool init_zero, bool init_cpu0, int thp,
			   bool init_random)
{
	cpu_set_t old;
	long bytes;
	uint8_t *buf;

	if (!bytes0)
		return NULL;
	if (init_cpu0) {
		int node = node_of_cpu(0);

		bind_to_node_cpus(node, &old);
		bind_to_memnode(node);
	}
	bytes = bytes0 + (long)HUGE_ALIGN;
	buf = mmap(NULL, (size_t)bytes, PROT_READ | PROT_WRITE, MAP_ANONYMOUS | map_flags, -1, 0);
	if (buf == MAP_FAILED) {
		perror("mmap");
		exit(PCL_EXIT_FAILURE);
	}
	if (map_flags == MAP_PRIVATE && thp) {
		int advice = thp > 0 ? MADV_HUGEPAGE : MADV_NOHUGEPAGE;

		if (madvise(buf, (size_t)bytes, advice) && g && !g->print_once) {
			g->print_once = 1;
			if (thp > 0)
				printf("WARNING: Could not enable THP - do: 'echo madvise > "
				       "/sys/kernel/mm/transparent_hugepage/enabled'\n");
			else
				printf("WARNING: Could not disable THP: run a "
				       "CONFIG_TRANSPARENT_HUGEPAGE kernel?\n");
		}
	}
	if (init_zero) {
		memset(buf, 0, (size_t)bytes);
	} else if (init_random) {
		uint64_t *words = (uint64_t *)buf;
		long off = rand();

		for (long i = 0; i < bytes / 8; i++)
			words[i] = (uint64_t)(i + off);
	}
	buf = (uint8_t *)(((uintptr_t)buf + HUGE_ALIGN - 1) & ~(uintptr_t)(HUGE_ALIGN - 1));
	if (init_cpu0) {
		sched_setaffinity(0, sizeof(old), &old);
		mempolicy_restore();
	}
	return buf;
}

static void free_data(void *data, long bytes)
{
	if (data)
		munmap(data, (size_t)bytes);
}

static uint8_t *private_data(long bytes)
{
	return alloc_data(bytes, MAP_PRIVATE, false, g->p.init_cpu0, g->p.thp, g->p.init_random);
}

static int parse_list_opt(const struct option *opt, const char *arg, bool unset)
{
	if (unset || !arg)
		return -1;
	*(const char **)opt->value = arg;
	return 0;
}

static int cpu_online(int cpu)
{
	char path[96], buf[16] = "";
	struct stat st;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d", cpu);
	if (stat(path, &st))
		return 0;
	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/online", cpu);
	if (stat(path, &st))
		return 1;
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = 0;
	fclose(f);
	return atoi(buf);
}

/* The numbers of a -C/-M token: "A", "A-B", then "#step", "_len" (-C), "xmul" anywhere. */
struct list_token {
	int first, last, step, len, mul;
};

static void parse_token(const char *tok, struct list_token *t, bool with_len)
{
	const char *dash = strchr(tok, '-'), *s;

	t->first = t->last = atoi(tok);
	if (dash)
		t->last = atoi(dash + 1);
	t->step = (s = strchr(tok, '#')) ? atoi(s + 1) : 1;
	t->len = with_len && (s = strchr(tok, '_')) ? atoi(s + 1) : 1;
	t->mul = (s = strchr(tok, 'x')) ? atoi(s + 1) : 1;
	if (t->step <= 0)
		t->step = 1;
}

/* -C (cpus) or -M: the first tasks bound, in order, to the CPUs (or CPU ranges of _len) or
 * memory nodes listed; -1 when the list names one the machine lacks. */
static int setup_bind_list(bool cpus)
{
	const char *list = cpus ? g->p.cpu_list : g->p.node_list;
	const char *kind = cpus ? "CPU" : "NODE";
	int limit = cpus ? g->p.nr_cpus : g->p.nr_nodes;
	char *copy, *cursor, *tok;
	int t = 0;

	if (!list)
		return 0;
	dprintf_("g->p.nr_tasks: %d\n", g->p.nr_tasks);
	cursor = copy = strdup(list);
	tprintf("# binding tasks to %ss:\n", kind);
	tprintf(cpus ? "#  " : "# ");
	while ((tok = strsep(&cursor, ","))) {
		const char *dash = strchr(tok, '-');
		struct list_token lt;

		dprintf_("\ntoken: {%s}, end: {%s}\n", tok, dash ? dash : "(null)");
		parse_token(tok, &lt, cpus);
		if (cpus)
			dprintf_("CPUs: %d_%d-%d#%dx%d\n", lt.first, lt.len, lt.last, lt.step, lt.mul);
		else
			dprintf_("NODEs: %d-%d #%d\n", lt.first, lt.last, lt.step);
		if (lt.first >= limit || lt.last >= limit) {
			printf("\nTest not applicable, system has only %d %s.\n", limit,
			       cpus ? "CPUs" : "nodes");
			free(copy);
			return -1;
		}
		if (cpus && (cpu_online(lt.first) != 1 || cpu_online(lt.last) != 1)) {
			printf("\nTest not applicable, bind_cpu_0 or bind_cpu_1 is offline\n");
			free(copy);
			return -1;
		}
		for (int n = lt.first; n <= lt.last; n += lt.step) {
			for (int i = 0; i < lt.mul; i++) {
				struct numa_task *td;

				if (t >= g->p.nr_tasks || (!cpus && !node_has_cpus(n))) {
					printf("\n# NOTE: ignoring bind %ss starting at %s#%d\n%s", kind,
					       kind, n, cpus ? " #" : "");
					goto out;
				}
				tprintf(t ? ",%2d" : cpus ? "%2d" : " %2d", n);
				td = g->tasks + t++;
				if (!cpus) {
					td->bind_node = n;
					continue;
				}
				if (lt.len > 1)
					tprintf("/%d", lt.len);
				CPU_ZERO(&td->bind_cpus);
				for (int c = n; c < n + lt.len; c++)
					if (c >= 0 && c < g->p.nr_cpus && c < CPU_SETSIZE)
						CPU_SET(c, &td->bind_cpus);
			}
		}
	}
out:
	tprintf("\n");
	if (t < g->p.nr_tasks)
		printf("# NOTE: %d tasks %s, %d tasks unbound\n", t, cpus ? "bound" : "mem-bound",
		       g->p.nr_tasks - t);
	free(copy);
	return 0;
}

static inline uint32_t lfsr_next(uint32_t x)
{
	const uint32_t taps = (1u << 1) | (1u << 5) | (1u << 6) | (1u << 31);

	return (x >> 1) ^ ((0u - (x & 1u)) & taps);
}

/* A read makes each step depend on RAM, a write dirties it: nothing can be optimised out. */
static inline uint64_t touch(uint64_t *word, uint64_t val)
{
	if (g->p.data_reads)
		val += *word;
	if (g->p.data_writes)
		*word = val + 1;
	return val;
}

/* One pass over a working set, starting at an offset that depends on the task (nr of nr_max)
 * and the loop so the tasks do not march in step; backwards on every other pass with -B. */
static uint64_t walk(uint8_t *bytes_data, long bytes, int nr, int nr_max, unsigned int loop,
		     uint64_t val)
{
	long words = bytes / (long)sizeof(uint64_t);
	uint64_t *data = (uint64_t *)bytes_data;
	long off;

	if (!data || !words)
		return val;
	if (g->p.data_zero_memset && !g->p.data_rand_walk) {
		memset(data, 0, (size_t)bytes);
		return val;
	}
	off = nr * (words / (nr_max ? nr_max : 1)) +
	      (long)loop * (g->p.nr_loops ? words / (long)g->p.nr_loops : 0);
	while (off >= words)
		off -= words;
	if (g->p.data_rand_walk) {
		uint32_t lfsr = (uint32_t)(nr + loop + val);

		for (long i = 0; i < words / 1024; i++) {
			long start, end;

			lfsr = lfsr_next(lfsr);
			start = lfsr % words;
			end = start + 1024 < words - 1 ? start + 1024 : words - 1;
			if (g->p.data_zero_memset)
				memset(data + start, 0, (size_t)(end - start) * sizeof(uint64_t));
			else
				for (long j = start; j < end; j++)
					val = touch(data + j, val);
		}
	} else if (!g->p.data_backwards || ((unsigned int)nr + loop) & 1) {
		for (long i = off + 1;; i++) {
			if (i >= words)
				i = 0;
			if (i == off)
				break;
			val = touch(data + i, val);
		}
	} else {
		for (long i = off - 1;; i--) {
			if (i < 0)
				i = words - 1;
			if (i == off)
				break;
			val = touch(data + i, val);
		}
	}
	return val;
}

static uint64_t tv_ns(const struct timeval *tv)
{
	return (uint64_t)tv->tv_sec * NSEC_PER_SEC + (uint64_t)tv->tv_usec * NSEC_PER_USEC;
}

static uint64_t elapsed_ns(const struct timeval *from, const struct timeval *to)
{
	struct timeval diff;

	timersub(to, from, &diff);
	return tv_ns(&diff);
}

/* How many nodes the threads of a process run on (0: some thread has not run yet). */
static unsigned int process_nodes(int process)
{
	bool *seen = calloc((size_t)g->p.nr_nodes, sizeof(*seen));
	unsigned int nodes = 0;

	for (int t = 0; t < g->p.nr_threads; t++) {
		int node = node_of_cpu(g->tasks[process * g->p.nr_threads + t].curr_cpu);

		if (node < 0) {
			free(seen);
			return 0;
		}
		seen[node] = true;
	}
	for (int n = 0; n < g->p.nr_nodes; n++)
		nodes += seen[n];
	free(seen);
	return nodes;
}

/* How many processes have a thread running on node. */
static int node_processes(int node)
{
	int processes = 0;

	for (int p = 0; p < g->p.nr_proc; p++)
		for (int t = 0; t < g->p.nr_threads; t++)
			if (node_of_cpu(g->tasks[p * g->p.nr_threads + t].curr_cpu) == node) {
				processes++;
				break;
			}
	return processes;
}

/* Strong convergence: every process on a single node; else the min-max nodes are shown. */
static bool converged_strongly(void)
{
	unsigned int lo = ~0u, hi = 0;

	for (int p = 0; p < g->p.nr_proc; p++) {
		unsigned int nodes = process_nodes(p);

		if (!nodes)
			return false;
		lo = nodes < lo ? nodes : lo;
		hi = nodes > hi ? nodes : hi;
	}
	if (lo == 1 && hi == 1)
		return true;
	tprintf(" {%u-%u}", lo, hi);
	return false;
}

/* -c/-m: tasks/processes per node, the spread of the loops done, and whether the processes
 * have each settled on one node (with -m that ends the run). */
static void show_convergence(double runtime_ns_max, double *convergence)
{
	unsigned int loops_min = ~0u, loops_max = 0;
	int *per_node, nr_min = g->p.nr_tasks, nr_max = 0, groups = 0;

	if (!g->p.show_convergence && !g->p.measure_convergence)
		return;
	per_node = calloc((size_t)g->p.nr_nodes, sizeof(*per_node));
	for (int t = 0; t < g->p.nr_tasks; t++) {
		struct numa_task *td = g->tasks + t;
		int node = node_of_cpu(td->curr_cpu);

		if (td->curr_cpu < 0 || node < 0)
			continue;
		per_node[node]++;
		loops_min = td->loops_done < loops_min ? td->loops_done : loops_min;
		loops_max = td->loops_done > loops_max ? td->loops_done : loops_max;
	}
	for (int node = 0; node < g->p.nr_nodes; node++) {
		if (!node_present[node])
			continue;
		nr_min = per_node[node] < nr_min ? per_node[node] : nr_min;
		nr_max = per_node[node] > nr_max ? per_node[node] : nr_max;
	}
	for (int node = 0; node < g->p.nr_nodes; node++) {
		int processes;

		if (!node_present[node])
			continue;
		processes = node_processes(node);
		tprintf(" %2d/%-2d", per_node[node], processes);
		groups += processes;
	}
	tprintf(" [%2d/%-2d]", nr_max - nr_min, groups);
	tprintf(" l:%3d-%-3d (%3d)", (int)loops_min, (int)loops_max, (int)(loops_max - loops_min));
	if (loops_min && loops_max)
		tprintf(" [%4.1f%%]", (1.0 - (double)loops_min / loops_max) * 100.0);
	if (converged_strongly() && groups == g->p.nr_proc) {
		if (!*convergence) {
			*convergence = runtime_ns_max;
			tprintf(" (%6.1fs converged)\n", *convergence / NSEC_PER_SEC);
			if (g->p.measure_convergence)
				g->stop_work = true;
		}
	} else {
		if (*convergence) {
			tprintf(" (%6.1fs de-converged)", runtime_ns_max / NSEC_PER_SEC);
			*convergence = 0;
		}
		tprintf("\n");
	}
	free(per_node);
}

static void show_progress(double runtime_ns_max, unsigned int loop, double *convergence)
{
	tprintf("\r #  %5.1f%%  [%.1f mins]", (double)(loop + 1) / g->p.nr_loops * 100.0,
		runtime_ns_max / NSEC_PER_SEC / 60.0);
	show_convergence(runtime_ns_max, convergence);
	if (g->p.show_details >= 0)
		fflush(stdout);
}

/* -x: the first task hops to the other half of the machine and back. */
static void perturb(int task_nr, int details)
{
	int this_cpu = g->tasks[task_nr].curr_cpu;
	int target = this_cpu < g->p.nr_cpus / 2 ? g->p.nr_cpus - 1 : 0;
	cpu_set_t old, set;

	sched_getaffinity(0, sizeof(old), &old);
	CPU_ZERO(&set);
	CPU_SET(target, &set);
	sched_setaffinity(0, sizeof(set), &set);
	if (details >= 1)
		printf(" (injecting perturbalance, moved to CPU#%d)\n", target);
	sched_setaffinity(0, sizeof(old), &old);
}

static void wait_for_start(void)
{
	pthread_mutex_lock(&g->startup_mutex);
	if (++g->nr_tasks_started == g->p.nr_tasks)
		pthread_cond_signal(&g->startup_cond);
	pthread_mutex_unlock(&g->startup_mutex);

	pthread_mutex_lock(&g->start_work_mutex);
	g->nr_tasks_working++;
	while (!g->start_work)
		pthread_cond_wait(&g->start_work_cond, &g->start_work_mutex);
	pthread_mutex_unlock(&g->start_work_mutex);
}

static void *task_main(void *arg)
{
	struct numa_task *td = arg;
	const struct numa_params *p = &g->p;
	int details = p->show_details;
	bool first = td->process_nr == 0 && td->thread_nr == 0;
	bool last = td->process_nr == p->nr_proc - 1 && td->thread_nr == p->nr_threads - 1;
	long per_loop = p->bytes_global + p->bytes_process + p->bytes_process_locked +
			p->bytes_thread;
	struct timeval start0, start, stop;
	double convergence = 0;
	uint64_t val = td->val, bytes_done = 0, secs;
	uint8_t *thread_data;
	time_t last_perturb;
	struct rusage ru;
	char name[20];
	unsigned int l;

	sched_setaffinity(0, sizeof(td->bind_cpus), &td->bind_cpus);
	bind_to_memnode(td->bind_node);
	snprintf(name, sizeof(name), "thread %d/%d", td->process_nr, td->thread_nr);
	prctl(PR_SET_NAME, name);
	thread_data = private_data(p->bytes_thread);
	if (details >= 2)
		printf("#  thread %2d / %2d global mem: %p, process mem: %p, thread mem: %p\n",
		       td->process_nr, td->thread_nr, (void *)g->data, (void *)td->process_data,
		       (void *)thread_data);
	if (p->serialize_startup)
		wait_for_start();

	gettimeofday(&start0, NULL);
	start = stop = start0;
	last_perturb = start.tv_sec;
	for (l = 0; l < p->nr_loops; l++) {
		start = stop;
		if (g->stop_work)
			break;
		val += walk(g->data, p->bytes_global, td->process_nr, p->nr_proc, l, val);
		val += walk(td->process_data, p->bytes_process, td->thread_nr, p->nr_threads, l,
			    val);
		val += walk(thread_data, p->bytes_thread, 0, 1, l, val);
		if (p->sleep_usecs) {
			pthread_mutex_lock(td->process_lock);
			usleep(p->sleep_usecs);
			pthread_mutex_unlock(td->process_lock);
		}
		if (p->bytes_process_locked) {
			pthread_mutex_lock(td->process_lock);
			val += walk(td->process_data, p->bytes_process_locked, td->thread_nr,
				    p->nr_threads, l, val);
			pthread_mutex_unlock(td->process_lock);
		}
		td->curr_cpu = sched_getcpu();
		bytes_done += (uint64_t)per_loop;
		if (details < 0 && !p->perturb_secs && !p->measure_convergence && !p->nr_secs)
			continue;
		td->loops_done = l;
		gettimeofday(&stop, NULL);
		if (p->nr_secs && elapsed_ns(&start0, &stop) / NSEC_PER_SEC >= p->nr_secs) {
			g->stop_work = true;
			break;
		}
		/* progress at most once a second, on a change of the wall-clock second */
		if (start.tv_sec == stop.tv_sec)
			continue;
		if (first && p->perturb_secs && stop.tv_sec - last_perturb >= p->perturb_secs) {
			last_perturb = stop.tv_sec;
			perturb(td->task_nr, details);
		}
		if (details >= 3) {
			printf(" #%2d / %2d: %14.2lf nsecs/op [val: %016llx]\n", td->process_nr,
			       td->thread_nr, (double)elapsed_ns(&start, &stop) / bytes_done,
			       (unsigned long long)val);
			fflush(stdout);
		}
		if (last)
			show_progress((double)elapsed_ns(&start0, &stop), l, &convergence);
	}
	gettimeofday(&stop, NULL);
	td->runtime_ns = elapsed_ns(&start0, &stop);
	secs = td->runtime_ns / NSEC_PER_SEC;
	td->speed_gbs = secs ? (double)(bytes_done / secs) / 1e9 : 0;
	getrusage(RUSAGE_THREAD, &ru);
	td->system_ns = tv_ns(&ru.ru_stime);
	td->user_ns = tv_ns(&ru.ru_utime);
	td->val = val;
	free_data(thread_data, p->bytes_thread);
	pthread_mutex_lock(&g->stop_work_mutex);
	g->bytes_done += bytes_done;
	pthread_mutex_unlock(&g->stop_work_mutex);
	return NULL;
}

/* A worker process: its memory placed as its first task is bound, then its threads. */
static void worker_process(int process_nr)
{
	const struct numa_params *p = &g->p;
	struct numa_task *first = g->tasks + process_nr * p->nr_threads;
	pthread_mutex_t process_lock = PTHREAD_MUTEX_INITIALIZER;
	pthread_t *threads = calloc((size_t)p->nr_threads, sizeof(*threads));
	uint8_t *process_data;
	char name[20];

	snprintf(name, sizeof(name), "process %d", process_nr);
	prctl(PR_SET_NAME, name);
	bind_to_memnode(first->bind_node);
	sched_setaffinity(0, sizeof(first->bind_cpus), &first->bind_cpus);
	process_data = private_data(p->bytes_process);
	if (p->show_details >= 3)
		printf(" # process %2d global mem: %p, process mem: %p\n", process_nr,
		       (void *)g->data, (void *)process_data);
	for (int t = 0; t < p->nr_threads; t++) {
		struct numa_task *td = first + t;

		td->process_data = process_data;
		td->process_nr = process_nr;
		td->thread_nr = t;
		td->task_nr = process_nr * p->nr_threads + t;
		td->val = (uint64_t)rand();
		td->curr_cpu = -1;
		td->process_lock = &process_lock;
		if (pthread_create(threads + t, NULL, task_main, td)) {
			perror("pthread_create");
			exit(PCL_EXIT_FAILURE);
		}
	}
	for (int t = 0; t < p->nr_threads; t++)
		pthread_join(threads[t], NULL);
	free_data(process_data, p->bytes_process);
	free(threads);
}

static void print_plan(void)
{
	static const char *const sets[] = { "global  shared", "process shared", "thread  local " };
	long bytes[] = { g->p.bytes_global, g->p.bytes_process, g->p.bytes_thread };

	if (g->p.show_details < 0)
		return;
	printf("\n ###\n");
	printf(" # %d %s will execute (on %d nodes, %d CPUs):\n", g->p.nr_tasks,
	       g->p.nr_tasks == 1 ? "task" : "tasks", present_nodes(), g->p.nr_cpus);
	for (int i = 0; i < 3; i++)
		printf(" #      %5dx %5ldMB %s mem operations\n", (int)g->p.nr_loops,
		       bytes[i] / 1024 / 1024, sets[i]);
	printf(" ###\n");
	printf("\n ###\n");
	fflush(stdout);
}

static void init_shared_sync(void)
{
	pthread_mutexattr_t ma;
	pthread_condattr_t ca;

	pthread_mutexattr_init(&ma);
	pthread_mutexattr_setpshared(&ma, PTHREAD_PROCESS_SHARED);
	pthread_condattr_init(&ca);
	pthread_condattr_setpshared(&ca, PTHREAD_PROCESS_SHARED);
	pthread_mutex_init(&g->startup_mutex, &ma);
	pthread_mutex_init(&g->start_work_mutex, &ma);
	pthread_mutex_init(&g->stop_work_mutex, &ma);
	pthread_cond_init(&g->startup_cond, &ca);
	pthread_cond_init(&g->start_work_cond, &ca);
	pthread_mutexattr_destroy(&ma);
	pthread_condattr_destroy(&ca);
}

static long megabytes(const char *str)
{
	return str ? (long)(atof(str) * 1024 * 1024) : 0;
}

static size_t tasks_size(void)
{
	return sizeof(*g->tasks) * (size_t)(g->p.nr_tasks > 0 ? g->p.nr_tasks : 0);
}

/* The shared state from the options; -1 when -C/-M cannot apply to this machine. */
static int numa_init(void)
{
	g = (struct numa_global *)alloc_data(sizeof(*g), MAP_SHARED, true, false, 0, false);
	g->p = opts;
	read_topology(&g->p.nr_cpus, &g->p.nr_nodes);
	if (quiet && !g->p.show_details)
		g->p.show_details = -1;
	g->p.nr_tasks = g->p.nr_proc * g->p.nr_threads;
	g->p.bytes_global = megabytes(g->p.mb_global_str);
	g->p.bytes_process = megabytes(g->p.mb_proc_str);
	g->p.bytes_process_locked = megabytes(g->p.mb_proc_locked_str);
	g->p.bytes_thread = megabytes(g->p.mb_thread_str);
	g->data = alloc_data(g->p.bytes_global, MAP_SHARED, false, g->p.init_cpu0, g->p.thp,
			     g->p.init_random);
	init_shared_sync();
	g->tasks = (struct numa_task *)alloc_data((long)tasks_size(), MAP_SHARED, true,
						   g->p.init_cpu0, g->p.thp, g->p.init_random);
	for (int t = 0; t < g->p.nr_tasks; t++) {
		g->tasks[t].bind_node = NO_NODE;
		all_cpus(&g->tasks[t].bind_cpus);
	}
	tprintf("#\n");
	if (setup_bind_list(true) || setup_bind_list(false))
		return -1;
	tprintf("#\n");
	print_plan();
	return 0;
}

static void numa_deinit(void)
{
	free_data(g->data, g->p.bytes_global);
	free_data(g->tasks, (long)tasks_size());
	free_data(g, sizeof(*g));
	g = NULL;
}

/* A result line: "name, value, unit, metric" in columns, or "value description" with -q. */
static void print_result(const char *name, double val, const char *unit, const char *metric,
			 const char *description)
{
	if (!quiet)
		printf(" %-30s %15.3f, %-15s %s\n", name ? name : "main,", val, unit, metric);
	else
		printf(" %14.3f %s\n", val, description);
}

/* Forks the workers, starts them together, waits and prints the results. */
static int run_numa(const char *name)
{
	struct timeval start, stop;
	uint64_t runtime_ns_min = UINT64_MAX, runtime_ns_sum = 0;
	double runtime_max, runtime_min, runtime_avg, bytes;
	pid_t *pids;
	int tasks;

	if (numa_init())
		return -1;
	pids = calloc((size_t)(g->p.nr_proc > 0 ? g->p.nr_proc : 1), sizeof(*pids));
	if (g->p.serialize_startup) {
		tprintf(" #\n");
		tprintf(" # Startup synchronization: ...");
		fflush(stdout);
	}
	gettimeofday(&start, NULL);
	for (int i = 0; i < g->p.nr_proc; i++) {
		pid_t pid = fork();

		dprintf_(" # process %2d: PID %d\n", i, pid);
		if (pid < 0) {
			perror("fork");
			exit(PCL_EXIT_FAILURE);
		}
		if (!pid) {
			worker_process(i);
			exit(0);
		}
		pids[i] = pid;
	}
	if (g->p.serialize_startup) {
		bool ready = false;

		pthread_mutex_lock(&g->startup_mutex);
		while (g->nr_tasks_started < g->p.nr_tasks)
			pthread_cond_wait(&g->startup_cond, &g->startup_mutex);
		pthread_mutex_unlock(&g->startup_mutex);
		while (!ready) {
			pthread_mutex_lock(&g->start_work_mutex);
			ready = g->nr_tasks_working >= g->p.nr_tasks;
			pthread_mutex_unlock(&g->start_work_mutex);
			if (!ready)
				usleep(1);
		}
		gettimeofday(&stop, NULL);
		tprintf(" threads initialized in %.6f seconds.\n",
			(double)elapsed_ns(&start, &stop) / NSEC_PER_SEC);
		tprintf(" #\n");
		fflush(stdout);	/* before the last task's progress lines */
		start = stop;
		pthread_mutex_lock(&g->start_work_mutex);
		g->start_work = true;
		pthread_mutex_unlock(&g->start_work_mutex);
		pthread_cond_broadcast(&g->start_work_cond);
	} else {
		gettimeofday(&start, NULL);
	}
	for (int i = 0; i < g->p.nr_proc; i++)
		waitpid(pids[i], NULL, 0);
	for (int t = 0; t < g->p.nr_tasks; t++) {
		uint64_t ns = g->tasks[t].runtime_ns;

		runtime_ns_sum += ns;
		runtime_ns_min = ns < runtime_ns_min ? ns : runtime_ns_min;
	}
	gettimeofday(&stop, NULL);

	tprintf("\n ###\n");
	tprintf("\n");
	tasks = g->p.nr_tasks;
	runtime_max = (double)elapsed_ns(&start, &stop) / NSEC_PER_SEC;
	/* perf divides in integers here: the fastest thread's runtime in whole seconds */
	runtime_min = (double)(runtime_ns_min / NSEC_PER_SEC);
	runtime_avg = (double)runtime_ns_sum / tasks / NSEC_PER_SEC;
	bytes = (double)g->bytes_done;
	if (g->p.measure_convergence)
		print_result(name, runtime_max, "secs,", "NUMA-convergence-latency",
			     "secs latency to NUMA-converge");
	print_result(name, runtime_max, "secs,", "runtime-max/thread",
		     "secs slowest (max) thread-runtime");
	print_result(name, runtime_min, "secs,", "runtime-min/thread",
		     "secs fastest (min) thread-runtime");
	print_result(name, runtime_avg, "secs,", "runtime-avg/thread",
		     "secs average thread-runtime");
	print_result(name, (runtime_max - runtime_min) / 2.0 / runtime_max * 100.0, "%,",
		     "spread-runtime/thread", "% difference between max/avg runtime");
	print_result(name, bytes / tasks / 1e9, "GB,", "data/thread",
		     "GB data processed, per thread");
	print_result(name, bytes / 1e9, "GB,", "data-total", "GB data processed, total");
	print_result(name, runtime_max * NSEC_PER_SEC / (bytes / tasks), "nsecs,",
		     "runtime/byte/thread", "nsecs/byte/thread runtime");
	print_result(name, bytes / tasks / 1e9 / runtime_max, "GB/sec,", "thread-speed",
		     "GB/sec/thread speed");
	print_result(name, bytes / runtime_max / 1e9, "GB/sec,", "total-speed",
		     "GB/sec total speed");
	if (g->p.show_details >= 2) {
		for (int p = 0; p < g->p.nr_proc; p++) {
			for (int t = 0; t < g->p.nr_threads; t++) {
				struct numa_task *td = g->tasks + p * g->p.nr_threads + t;
				char tname[40];

				snprintf(tname, sizeof(tname), "process%d:thread%d", p, t);
				print_result(tname, td->speed_gbs, "GB/sec", "thread-speed",
					     "GB/sec/thread speed");
				print_result(tname, (double)(td->system_ns / NSEC_PER_SEC), "secs",
					     "thread-system-time", "system CPU time/thread");
				print_result(tname, (double)(td->user_ns / NSEC_PER_SEC), "secs",
					     "thread-user-time", "user CPU time/thread");
			}
		}
	}
	free(pids);
	numa_deinit();
	return 0;
}

static const struct option numa_options[] = {
	OPT_INTEGER('p', "nr_proc", &opts.nr_proc, "number of processes"),
	OPT_INTEGER('t', "nr_threads", &opts.nr_threads, "number of threads per process"),
	OPT_STRING('G', "mb_global", &opts.mb_global_str, "MB", "global  memory (MBs)"),
	OPT_STRING('P', "mb_proc", &opts.mb_proc_str, "MB", "process memory (MBs)"),
	OPT_STRING('L', "mb_proc_locked", &opts.mb_proc_locked_str, "MB",
		   "process serialized/locked memory access (MBs), <= process_memory"),
	OPT_STRING('T', "mb_thread", &opts.mb_thread_str, "MB", "thread  memory (MBs)"),
	OPT_UINTEGER('l', "nr_loops", &opts.nr_loops,
		     "max number of loops to run (default: unlimited)"),
	OPT_UINTEGER('s', "nr_secs", &opts.nr_secs,
		     "max number of seconds to run (default: 5 secs)"),
	OPT_UINTEGER('u', "usleep", &opts.sleep_usecs, "usecs to sleep per loop iteration"),
	OPT_BOOLEAN('R', "data_reads", &opts.data_reads,
		    "access the data via reads (can be mixed with -W)"),
	OPT_BOOLEAN('W', "data_writes", &opts.data_writes,
		    "access the data via writes (can be mixed with -R)"),
	OPT_BOOLEAN('B', "data_backwards", &opts.data_backwards,
		    "access the data backwards as well"),
	OPT_BOOLEAN('Z', "data_zero_memset", &opts.data_zero_memset,
		    "access the data via glibc bzero only"),
	OPT_BOOLEAN('r', "data_rand_walk", &opts.data_rand_walk,
		    "access the data with random (32bit LFSR) walk"),
	OPT_BOOLEAN('z', "init_zero", &opts.init_zero, "bzero the initial allocations"),
	OPT_BOOLEAN('I', "init_random", &opts.init_random,
		    "randomize the contents of the initial allocations"),
	OPT_BOOLEAN('0', "init_cpu0", &opts.init_cpu0, "do the initial allocations on CPU#0"),
	OPT_INTEGER('x', "perturb_secs", &opts.perturb_secs,
		    "perturb thread 0/0 every X secs, to test convergence stability"),
	OPT_INCR('d', "show_details", &opts.show_details, "Show details"),
	OPT_INCR('a', "all", &opts.run_all, "Run all tests in the suite"),
	OPT_INTEGER('H', "thp", &opts.thp, "MADV_NOHUGEPAGE < 0 < MADV_HUGEPAGE"),
	OPT_BOOLEAN('c', "show_convergence", &opts.show_convergence,
		    "show convergence details, convergence is reached when each process (all its "
		    "threads) is running on a single NUMA node."),
	OPT_BOOLEAN('m', "measure_convergence", &opts.measure_convergence,
		    "measure convergence latency"),
	OPT_BOOLEAN('q', "quiet", &quiet, "quiet mode (do not show any warnings or messages)"),
	OPT_BOOLEAN('S', "serialize-startup", &opts.serialize_startup, "serialize thread startup"),
	OPT_CALLBACK('C', "cpus", &opts.cpu_list, "cpu[,cpu2,...cpuN]",
		     "bind the first N tasks to these specific cpus (the rest is unbound)",
		     parse_list_opt),
	OPT_CALLBACK('M', "memnodes", &opts.node_list, "node[,node2,...nodeN]",
		     "bind the first N tasks to these specific memory nodes (the rest is unbound)",
		     parse_list_opt),
	OPT_END(),
};

static const char *const numa_options_usage[] = { "pcl bench numa <options>", NULL };
static const char *const numa_mem_usage[] = { "pcl bench numa mem [<options>]", NULL };

/* The defaults, after perf's line naming the run and its arguments. */
static void reset_options(const char *name, int argc, const char **argv)
{
	printf("\n # Running %s \"pcl bench numa", name);
	for (int i = 0; i < argc; i++)
		printf(" %s", argv[i]);
	printf("\"\n");
	memset(&opts, 0, sizeof(opts));
	opts.serialize_startup = true;
	opts.data_reads = opts.data_writes = opts.data_backwards = true;
	opts.data_rand_walk = true;
	opts.nr_loops = ~0u;
	opts.init_random = true;
	opts.mb_global_str = "1";
	opts.nr_proc = opts.nr_threads = 1;
	opts.nr_secs = 5;
	opts.run_all = argc == 1;
}

/* perf's built-in suite (-a, or no option at all): bandwidth to local and remote memory,
 * convergence latency and process/thread layouts, sized for machines of 4+ nodes.  Each case
 * is a layout and one of six option sets; cases this machine cannot bind say so and pass. */
enum suite_kind { BW_RAM, BW_RAM_NOTHP, CONV, CONV_NOTHP, BW, BW_NOTHP };

struct suite_case {
	const char *name, *procs, *threads, *mem_opt, *mb, *cpus, *nodes;
	enum suite_kind kind;
};

static const struct suite_case suite[] = {
	{ "RAM-bw-local,", "1", "1", "-P", "1024", "0", "0", BW_RAM },
	{ "RAM-bw-local-NOTHP,", "1", "1", "-P", "1024", "0", "0", BW_RAM_NOTHP },
	{ "RAM-bw-remote,", "1", "1", "-P", "1024", "0", "1", BW_RAM },
	{ "RAM-bw-local-2x,", "2", "1", "-P", "1024", "0,2", "0x2", BW_RAM },
	{ "RAM-bw-remote-2x,", "2", "1", "-P", "1024", "0,2", "1x2", BW_RAM },
	{ "RAM-bw-cross,", "2", "1", "-P", "1024", "0,8", "1,0", BW_RAM },
	{ " 1x3-convergence,", "1", "3", "-P", "512", NULL, NULL, CONV },
	{ " 1x4-convergence,", "1", "4", "-P", "512", NULL, NULL, CONV },
	{ " 1x6-convergence,", "1", "6", "-P", "1020", NULL, NULL, CONV },
	{ " 2x3-convergence,", "2", "3", "-P", "1020", NULL, NULL, CONV },
	{ " 3x3-convergence,", "3", "3", "-P", "1020", NULL, NULL, CONV },
	{ " 4x4-convergence,", "4", "4", "-P", "512", NULL, NULL, CONV },
	{ " 4x4-convergence-NOTHP,", "4", "4", "-P", "512", NULL, NULL, CONV_NOTHP },
	{ " 4x6-convergence,", "4", "6", "-P", "1020", NULL, NULL, CONV },
	{ " 4x8-convergence,", "4", "8", "-P", "512", NULL, NULL, CONV },
	{ " 8x4-convergence,", "8", "4", "-P", "512", NULL, NULL, CONV },
	{ " 8x4-convergence-NOTHP,", "8", "4", "-P", "512", NULL, NULL, CONV_NOTHP },
	{ " 3x1-convergence,", "3", "1", "-P", "512", NULL, NULL, CONV },
	{ " 4x1-convergence,", "4", "1", "-P", "512", NULL, NULL, CONV },
	{ " 8x1-convergence,", "8", "1", "-P", "512", NULL, NULL, CONV },
	{ "16x1-convergence,", "16", "1", "-P", "256", NULL, NULL, CONV },
	{ "32x1-convergence,", "32", "1", "-P", "128", NULL, NULL, CONV },
	{ " 2x1-bw-process,", "2", "1", "-P", "1024", NULL, NULL, BW },
	{ " 3x1-bw-process,", "3", "1", "-P", "1024", NULL, NULL, BW },
	{ " 4x1-bw-process,", "4", "1", "-P", "1024", NULL, NULL, BW },
	{ " 8x1-bw-process,", "8", "1", "-P", " 512", NULL, NULL, BW },
	{ " 8x1-bw-process-NOTHP,", "8", "1", "-P", " 512", NULL, NULL, BW_NOTHP },
	{ "16x1-bw-process,", "16", "1", "-P", "256", NULL, NULL, BW },
	{ " 1x4-bw-thread,", "1", "4", "-T", "256", NULL, NULL, BW },
	{ " 1x8-bw-thread,", "1", "8", "-T", "256", NULL, NULL, BW },
	{ "1x16-bw-thread,", "1", "16", "-T", "128", NULL, NULL, BW },
	{ "1x32-bw-thread,", "1", "32", "-T", "64", NULL, NULL, BW },
	{ " 2x3-bw-process,", "2", "3", "-P", "512", NULL, NULL, BW },
	{ " 4x4-bw-process,", "4", "4", "-P", "512", NULL, NULL, BW },
	{ " 4x6-bw-process,", "4", "6", "-P", "512", NULL, NULL, BW },
	{ " 4x8-bw-process,", "4", "8", "-P", "512", NULL, NULL, BW },
	{ " 4x8-bw-process-NOTHP,", "4", "8", "-P", "512", NULL, NULL, BW_NOTHP },
	{ " 3x3-bw-process,", "3", "3", "-P", "512", NULL, NULL, BW },
	{ " 5x5-bw-process,", "5", "5", "-P", "512", NULL, NULL, BW },
	{ "2x16-bw-process,", "2", "16", "-P", "512", NULL, NULL, BW },
	{ "1x32-bw-process,", "1", "32", "-P", "2048", NULL, NULL, BW },
	{ "numa02-bw,", "1", "32", "-T", "32", NULL, NULL, BW },
	{ "numa02-bw-NOTHP,", "1", "32", "-T", "32", NULL, NULL, BW_NOTHP },
	{ "numa01-bw-thread,", "2", "16", "-T", "192", NULL, NULL, BW },
	{ "numa01-bw-thread-NOTHP,", "2", "16", "-T", "192", NULL, NULL, BW_NOTHP },
};

/* The arguments of a suite case, as perf spells them (the " 1" of --thp included). */
static int suite_argv(const struct suite_case *c, const char **argv)
{
	static const char *const kind_args[][10] = {
		[BW_RAM] = { "-s", "20", "-zZq", "--thp", " 1", "--no-data_rand_walk" },
		[BW_RAM_NOTHP] = { "-s", "20", "-zZq", "--thp", " 1", "--no-data_rand_walk",
				   "--thp", "-1" },
		[CONV] = { "-s", "100", "-zZ0qcm", "--thp", " 1" },
		[CONV_NOTHP] = { "-s", "100", "-zZ0qcm", "--thp", " 1", "--thp", "-1" },
		[BW] = { "-s", "20", "-zZ0q", "--thp", " 1" },
		[BW_NOTHP] = { "-s", "20", "-zZ0q", "--thp", " 1", "--thp", "-1" },
	};
	int n = 0;

	argv[n++] = "mem";
	argv[n++] = "-p";
	argv[n++] = c->procs;
	argv[n++] = "-t";
	argv[n++] = c->threads;
	argv[n++] = c->mem_opt;
	argv[n++] = c->mb;
	if (c->cpus) {
		argv[n++] = "-C";
		argv[n++] = c->cpus;
		argv[n++] = "-M";
		argv[n++] = c->nodes;
	}
	for (int i = 0; kind_args[c->kind][i]; i++)
		argv[n++] = kind_args[c->kind][i];
	argv[n] = NULL;
	return n;
}

static int run_suite(void)
{
	fflush(stdout);
	if (system("echo ' #'; echo ' # Running test on: '$(uname -a); echo ' #'") < 0)
		perror("system");
	for (size_t i = 0; i < sizeof(suite) / sizeof(suite[0]); i++) {
		const char *argv[24];
		int argc = suite_argv(&suite[i], argv);

		reset_options(suite[i].name, argc, argv);
		if (parse_options(argc, argv, numa_options, numa_options_usage, 0))
			continue;
		if (run_numa(suite[i].name) && g)
			numa_deinit();
	}
	printf("\n");
	return PCL_EXIT_OK;
}

int bench_numa_mem(int argc, const char **argv)
{
	/* perf's lines reach a file or pipe one by one, the workers' interleaved with the
	 * parent's, and none is left in a buffer a fork would copy */
	fflush(stdout);
	setvbuf(stdout, NULL, _IOLBF, BUFSIZ);
	reset_options("main,", argc, argv);
	argc = parse_options(argc, argv, numa_options, numa_options_usage, 0);
	if (argc)
		usage_with_options(numa_mem_usage, numa_options);
	if (opts.run_all)
		return run_suite();
	if (run_numa(NULL)) {
		fflush(stdout);
		usage_with_options(numa_mem_usage, numa_options);
	}
	return PCL_EXIT_OK;
}
