/* evlist: perf_event_open(2) per CPU x thread, ioctls, reads, close. */
#include "core/events/evlist.h"
#include "util/util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

static int sys_perf_event_open(struct perf_event_attr *attr, int pid, int cpu,
			       int group_fd, unsigned long flags)
{
	return (int)syscall(__NR_perf_event_open, attr, pid, cpu, group_fd, flags);
}

int evsel__fd(const struct evsel *evsel, int cpu_idx, int thread_idx)
{
	if (!evsel->fds || cpu_idx >= evsel->nr_cpus || thread_idx >= evsel->nr_threads)
		return -1;
	return evsel->fds[cpu_idx * evsel->nr_threads + thread_idx];
}

void evsel__close(struct evsel *evsel)
{
	int n = evsel->nr_cpus * evsel->nr_threads;

	for (int i = 0; evsel->fds && i < n; i++)
		if (evsel->fds[i] >= 0)
			close(evsel->fds[i]);
	free(evsel->fds);
	evsel->fds = NULL;
}

/* Out of fds: raise the soft limit to the hard one, once, as perf does. */
static bool increase_nofile(void)
{
	static bool tried;
	struct rlimit l;

	if (tried || getrlimit(RLIMIT_NOFILE, &l) || l.rlim_cur >= l.rlim_max)
		return false;
	tried = true;
	l.rlim_cur = l.rlim_max;
	return setrlimit(RLIMIT_NOFILE, &l) == 0;
}

int evsel__open(struct evsel *evsel, const struct cpu_map *cpus,
		const struct thread_map *threads)
{
	unsigned long flags = PERF_FLAG_FD_CLOEXEC;
	int n = cpus->nr * threads->nr;

	evsel__close(evsel);
	evsel->cpus = cpus;
	evsel->threads = threads;
	evsel->nr_cpus = cpus->nr;
	evsel->nr_threads = threads->nr;
	/* Tool events are measured by pcl once, not per task. */
	if (evsel->tool != TOOL_NONE) {
		evsel->nr_threads = 1;
		return 0;
	}
	if (evsel->cgrp)
		flags |= PERF_FLAG_PID_CGROUP;
	evsel->fds = xmalloc((size_t)n * sizeof(int));
	for (int i = 0; i < n; i++)
		evsel->fds[i] = -1;
	for (int c = 0; c < cpus->nr; c++) {
		for (int t = 0; t < threads->nr; t++) {
			int pid = evsel->cgrp ? evsel->cgrp->fd : threads->map[t].pid;
			int group_fd = -1, fd;

			if (evsel->leader != evsel)
				group_fd = evsel__fd(evsel->leader, c, t);
			fd = sys_perf_event_open(&evsel->attr, pid, cpus->map[c], group_fd, flags);
			/* Some PMUs (msr) refuse the guest/host bits: perf drops them. */
			if (fd < 0 && errno == EINVAL &&
			    (evsel->attr.exclude_guest || evsel->attr.exclude_host)) {
				evsel->attr.exclude_guest = 0;
				evsel->attr.exclude_host = 0;
				fd = sys_perf_event_open(&evsel->attr, pid, cpus->map[c], group_fd, flags);
			}
			if (fd < 0 && errno == EMFILE && increase_nofile())
				fd = sys_perf_event_open(&evsel->attr, pid, cpus->map[c], group_fd, flags);
			if (fd < 0) {
				int err = errno;

				evsel__close(evsel);
				return -err;
			}
			evsel->fds[c * threads->nr + t] = fd;
		}
	}
	return 0;
}

/* Runs an ioctl on every fd; returns 0 or the first -errno. */
static int evsel__ioctl(struct evsel *evsel, unsigned long req, unsigned long arg)
{
	int n = evsel->nr_cpus * evsel->nr_threads, ret = 0;

	for (int i = 0; evsel->fds && i < n; i++)
		if (evsel->fds[i] >= 0 && ioctl(evsel->fds[i], req, arg) < 0 && !ret)
			ret = -errno;
	return ret;
}

int evsel__apply_filter(struct evsel *evsel)
{
	if (!evsel->filter)
		return 0;
	return evsel__ioctl(evsel, PERF_EVENT_IOC_SET_FILTER, (unsigned long)evsel->filter);
}

int evsel__enable(struct evsel *evsel)
{
	return evsel__ioctl(evsel, PERF_EVENT_IOC_ENABLE, 0);
}

int evsel__disable(struct evsel *evsel)
{
	return evsel__ioctl(evsel, PERF_EVENT_IOC_DISABLE, 0);
}

int evsel__read(const struct evsel *evsel, int cpu_idx, int thread_idx,
		struct counts_values *out)
{
	uint64_t buf[4] = { 0 }, fmt = evsel->attr.read_format;
	int fd = evsel__fd(evsel, cpu_idx, thread_idx), i = 0;
	ssize_t n;

	memset(out, 0, sizeof(*out));
	if (fd < 0)
		return -EBADF;
	n = read(fd, buf, sizeof(buf));
	if (n < 0)
		return -errno;
	if (n < (ssize_t)sizeof(uint64_t))
		return -EIO;
	out->val = buf[i++];
	if (fmt & PERF_FORMAT_TOTAL_TIME_ENABLED)
		out->ena = buf[i++];
	if (fmt & PERF_FORMAT_TOTAL_TIME_RUNNING)
		out->run = buf[i++];
	return 0;
}

bool evsel__errno_is_unsupported(int err)
{
	return err == EINVAL || err == ENOSYS || err == ENOENT ||
	       err == EOPNOTSUPP || err == ENXIO || err == ENODEV;
}

void evsel__open_strerror(const struct evsel *evsel, int err, bool has_cpu_list,
			  char *buf, size_t size)
{
	switch (err) {
	case EPERM:
	case EACCES: {
		char *level = read_file_str("/proc/sys/kernel/perf_event_paranoid");

		snprintf(buf, size,
			 "Access to performance monitoring and observability operations is limited.\n"
			 "Consider adjusting /proc/sys/kernel/perf_event_paranoid setting to open\n"
			 "access to performance monitoring and observability operations for processes\n"
			 "without CAP_PERFMON, CAP_SYS_PTRACE or CAP_SYS_ADMIN Linux capability.\n"
			 "More information can be found at 'Perf events and tool security' document:\n"
			 "https://www.kernel.org/doc/html/latest/admin-guide/perf-security.html\n"
			 "perf_event_paranoid setting is %d:\n"
			 "  -1: Allow use of (almost) all events by all users\n"
			 "      Ignore mlock limit after perf_event_mlock_kb without CAP_IPC_LOCK\n"
			 ">= 0: Disallow raw and ftrace function tracepoint access\n"
			 ">= 1: Disallow CPU event access\n"
			 ">= 2: Disallow kernel profiling\n"
			 "To make the adjusted perf_event_paranoid setting permanent preserve it\n"
			 "in /etc/sysctl.conf (e.g. kernel.perf_event_paranoid = <setting>)",
			 level ? atoi(level) : 2);
		free(level);
		return;
	}
	case ENOENT:
		snprintf(buf, size, "The %s event is not supported.", evsel->name);
		return;
	case EMFILE:
		snprintf(buf, size, "Too many events are opened.\n"
			 "Probably the maximum number of open file descriptors has been reached.\n"
			 "Hint: Try again after reducing the number of events.\n"
			 "Hint: Try increasing the limit with 'ulimit -n <limit>'");
		return;
	case ENODEV:
		if (has_cpu_list) {
			snprintf(buf, size, "No such device - did you specify an out-of-range profile CPU?");
			return;
		}
		break;
	case EOPNOTSUPP:
		if (evsel->attr.sample_type & PERF_SAMPLE_BRANCH_STACK) {
			snprintf(buf, size, "%s: PMU Hardware or event type doesn't support branch stack sampling.",
				 evsel->name);
			return;
		}
		if (evsel->attr.sample_period) {
			snprintf(buf, size, "%s: PMU Hardware doesn't support sampling/overflow-interrupts. Try 'perf stat'",
				 evsel->name);
			return;
		}
		if (evsel->attr.precise_ip) {
			snprintf(buf, size, "'precise' request may not be supported. Try removing 'p' modifier.");
			return;
		}
		break;
	default:
		break;
	}
	snprintf(buf, size,
		 "The sys_perf_event_open() syscall returned with %d (%s) for event (%s).\n"
		 "/bin/dmesg | grep -i perf may provide additional information.\n",
		 err, strerror(err), evsel->name);
}

int perf_event_paranoid(void)
{
	char *s = read_file_str("/proc/sys/kernel/perf_event_paranoid");
	int level = s ? atoi(s) : 2;

	free(s);
	return level;
}

bool evsel__can_profile_kernel(void)
{
	return geteuid() == 0 || perf_event_paranoid() <= 1;
}

bool evsel__fallback_user_only(struct evsel *evsel, int err)
{
	bool has_sep;
	char *name;

	if ((err != EACCES && err != EPERM) || evsel->attr.exclude_kernel ||
	    evsel->attr.exclude_user || evsel__can_profile_kernel())
		return false;
	has_sep = strchr(evsel->name, ':') || strchr(evsel->name, '/');
	name = xasprintf("%s%su", evsel->name, has_sep ? "" : ":");
	free(evsel->name);
	evsel->name = name;
	evsel->attr.exclude_kernel = 1;
	evsel->attr.exclude_hv = 1;
	return true;
}

bool evlist__exclude_kernel(const struct evlist *evlist)
{
	evlist__for_each(evlist, pos)
		if (!pos->attr.exclude_kernel)
			return false;
	return true;
}

bool evsel__is_clock(const struct evsel *evsel)
{
	return evsel->tool == TOOL_NONE && evsel->attr.type == PERF_TYPE_SOFTWARE &&
	       (evsel->attr.config == PERF_COUNT_SW_TASK_CLOCK ||
		evsel->attr.config == PERF_COUNT_SW_CPU_CLOCK);
}

const char *evsel__unit(const struct evsel *evsel)
{
	if (evsel->tool != TOOL_NONE)
		return "ns";
	if (evsel__is_clock(evsel))
		return "msec";
	return evsel->unit ? evsel->unit : "";
}

double evsel__scale(const struct evsel *evsel)
{
	if (evsel__is_clock(evsel))
		return 1e-6;
	return evsel->unit ? evsel->scale : 1.0;
}

int evlist__open(struct evlist *evlist, const struct cpu_map *cpus,
		 const struct thread_map *threads, const struct cpu_map *tool_cpus,
		 unsigned int flags, struct evsel **failed)
{
	*failed = NULL;
	evlist__for_each(evlist, pos) {
		int err;

		if (pos->tool != TOOL_NONE) {
			evsel__open(pos, tool_cpus, threads);
			pos->supported = true;
			continue;
		}
		/* A member of a group whose leader could not open stays out. */
		if (pos->leader != pos && !pos->leader->supported) {
			pos->supported = false;
			continue;
		}
		err = evsel__open(pos, cpus, threads);
		if (err && (flags & EVLIST_OPEN_FALLBACK_USER) &&
		    evsel__fallback_user_only(pos, -err))
			err = evsel__open(pos, cpus, threads);
		if (!err) {
			pos->supported = true;
			continue;
		}
		if ((flags & EVLIST_OPEN_SKIP_UNSUPPORTED) && evsel__errno_is_unsupported(-err) &&
		    (pos->leader != pos || pos->nr_members < 2)) {
			pos->supported = false;
			continue;
		}
		*failed = pos;
		return err;
	}
	return 0;
}

/* Applies op to every event that opened; returns the first error. */
static int for_each_supported(struct evlist *evlist, int (*op)(struct evsel *evsel))
{
	int ret = 0;

	evlist__for_each(evlist, pos) {
		int err = pos->supported ? op(pos) : 0;

		if (err && !ret)
			ret = err;
	}
	return ret;
}

int evlist__enable(struct evlist *evlist)
{
	return for_each_supported(evlist, evsel__enable);
}

int evlist__disable(struct evlist *evlist)
{
	return for_each_supported(evlist, evsel__disable);
}

void evlist__close(struct evlist *evlist)
{
	evlist__for_each(evlist, pos)
		evsel__close(pos);
}

int evlist__apply_filters(struct evlist *evlist, struct evsel **failed)
{
	evlist__for_each(evlist, pos) {
		int err = pos->supported ? evsel__apply_filter(pos) : 0;

		if (err) {
			*failed = pos;
			return err;
		}
	}
	return 0;
}
