/* target: option conflicts, cpu/thread maps, and the forked workload. */
#include "core/live/target.h"
#include "util/util.h"

#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <signal.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

bool target__has_task(const struct target *t)
{
	return t->tid || t->pid || t->uid_str;
}

bool target__has_cpu(const struct target *t)
{
	return t->system_wide || t->cpu_list;
}

bool target__none(const struct target *t)
{
	return !target__has_task(t) && !target__has_cpu(t);
}

bool target__has_per_thread(const struct target *t)
{
	return t->system_wide && t->per_thread;
}

bool target__enable_on_exec(const struct target *t)
{
	return target__none(t) && !t->initial_delay;
}

enum target_conflict target__validate(struct target *t)
{
	enum target_conflict ret = TARGET_OK;

#define CONFLICT(c) do { if (ret == TARGET_OK) ret = (c); } while (0)
	if (t->pid)
		t->tid = t->pid;
	if (t->tid && t->cpu_list) {
		t->cpu_list = NULL;
		CONFLICT(TARGET_PID_OVERRIDE_CPU);
	}
	if (t->tid && t->uid_str) {
		t->uid_str = NULL;
		CONFLICT(TARGET_PID_OVERRIDE_UID);
	}
	if (t->uid_str && t->cpu_list) {
		t->cpu_list = NULL;
		CONFLICT(TARGET_UID_OVERRIDE_CPU);
	}
	if (t->tid && t->system_wide) {
		t->system_wide = false;
		CONFLICT(TARGET_PID_OVERRIDE_SYSTEM);
	}
	if (t->uid_str && t->system_wide) {
		t->system_wide = false;
		CONFLICT(TARGET_UID_OVERRIDE_SYSTEM);
	}
	if (t->per_thread && (t->system_wide || t->cpu_list)) {
		t->per_thread = false;
		CONFLICT(TARGET_SYSTEM_OVERRIDE_THREAD);
	}
#undef CONFLICT
	return ret;
}

const char *target__conflict_str(enum target_conflict c)
{
	static const char *const msgs[] = {
		[TARGET_OK] = "",
		[TARGET_PID_OVERRIDE_CPU] = "PID/TID switch overriding CPU",
		[TARGET_PID_OVERRIDE_UID] = "PID/TID switch overriding UID",
		[TARGET_UID_OVERRIDE_CPU] = "UID switch overriding CPU",
		[TARGET_PID_OVERRIDE_SYSTEM] = "PID/TID switch overriding SYSTEM",
		[TARGET_UID_OVERRIDE_SYSTEM] = "UID switch overriding SYSTEM",
		[TARGET_SYSTEM_OVERRIDE_THREAD] = "SYSTEM/CPU switch overriding PER-THREAD",
	};

	return msgs[c];
}

int target__parse_uid(struct target *t)
{
	struct passwd pwd, *result = NULL;
	char buf[1024], *end;
	long v;

	if (!t->uid_str)
		return 0;
	if (getpwnam_r(t->uid_str, &pwd, buf, sizeof(buf), &result) == 0 && result) {
		t->uid = result->pw_uid;
		return 0;
	}
	errno = 0;
	v = strtol(t->uid_str, &end, 10);
	if (errno || *end || end == t->uid_str)
		return -1;
	if (v < 0 || getpwuid_r((uid_t)v, &pwd, buf, sizeof(buf), &result) != 0 || !result)
		return -2;
	t->uid = (unsigned int)v;
	return 0;
}

enum target_map_error target__create_maps(const struct target *t,
					  struct cpu_map **cpus, struct thread_map **threads)
{
	*cpus = NULL;
	*threads = NULL;
	if (t->pid)
		*threads = thread_map__new_by_pid_str(t->pid);
	else if (t->tid)
		*threads = thread_map__new_by_tid_str(t->tid);
	else if (t->uid_str)
		*threads = thread_map__new_by_uid(t->uid);
	else if (t->per_thread)
		*threads = thread_map__new_all();
	else
		*threads = thread_map__new_any();
	if (!*threads || !(*threads)->nr) {
		thread_map__delete(*threads);
		*threads = NULL;
		return TARGET_MAPS_BAD_THREADS;
	}

	if (target__has_task(t) || target__has_per_thread(t) || !target__has_cpu(t))
		*cpus = cpu_map__new_any();
	else if (t->cpu_list)
		*cpus = cpu_map__parse(t->cpu_list);
	else
		*cpus = cpu_map__new_online();
	if (!*cpus) {
		thread_map__delete(*threads);
		*threads = NULL;
		return TARGET_MAPS_BAD_CPUS;
	}
	return TARGET_MAPS_OK;
}

void target__cpu_times(int pid, uint64_t out[2])
{
	long tck = sysconf(_SC_CLK_TCK);
	unsigned long long ut = 0, st = 0;
	char *path, *s, *p;

	out[0] = out[1] = 0;
	if (pid < 0) {
		path = xasprintf("%s/stat", cpumap_procfs_root);
		s = read_file_str(path);
		free(path);
		if (s && sscanf(s, "cpu %llu %*u %llu", &ut, &st) != 2)
			ut = st = 0;
	} else {
		path = xasprintf("%s/%d/stat", cpumap_procfs_root, pid);
		s = read_file_str(path);
		free(path);
		/* after the comm's closing parenthesis: state is field 3, utime 14 */
		p = s ? strrchr(s, ')') : NULL;
		if (p && sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu",
				&ut, &st) != 2)
			ut = st = 0;
	}
	free(s);
	if (tck > 0) {
		out[0] = ut * (1000000000ULL / (unsigned long long)tck);
		out[1] = st * (1000000000ULL / (unsigned long long)tck);
	}
}

/* --- the workload --- */

int workload__prepare(struct workload *w, const char **argv)
{
	int go[2], err[2];

	memset(w, 0, sizeof(*w));
	w->pid = -1;
	w->go_fd = w->err_fd = -1;
	if (pipe2(go, O_CLOEXEC) < 0)
		return -errno;
	if (pipe2(err, O_CLOEXEC) < 0) {
		int e = errno;

		close(go[0]);
		close(go[1]);
		return -e;
	}
	w->pid = fork();
	if (w->pid < 0) {
		int e = errno;

		close(go[0]);
		close(go[1]);
		close(err[0]);
		close(err[1]);
		return -e;
	}
	if (w->pid == 0) {
		char c;
		int e;

		close(go[1]);
		close(err[0]);
		signal(SIGTERM, SIG_DFL);
		/* Wait until the parent has the counters ready. */
		if (read(go[0], &c, 1) != 1)
			_exit(127);
		execvp(argv[0], (char *const *)argv);
		e = errno;
		if (write(err[1], &e, sizeof(e)) < 0)
			_exit(127);
		_exit(127);
	}
	close(go[0]);
	close(err[1]);
	w->go_fd = go[1];
	w->err_fd = err[0];
	return 0;
}

int workload__start(struct workload *w)
{
	char c = 0;
	int ret = 0;

	if (write(w->go_fd, &c, 1) != 1)
		ret = -errno;
	close(w->go_fd);
	w->go_fd = -1;
	return ret;
}

/* Reads the exec errno the child may have left in the pipe. */
static void read_exec_errno(struct workload *w)
{
	int e;

	if (w->err_fd >= 0 && read(w->err_fd, &e, sizeof(e)) == (ssize_t)sizeof(e))
		w->exec_errno = e;
}

int workload__wait_exec(struct workload *w)
{
	int e;
	ssize_t n;

	if (w->err_fd < 0)
		return w->exec_errno;
	do {
		n = read(w->err_fd, &e, sizeof(e));
	} while (n < 0 && errno == EINTR);
	if (n == (ssize_t)sizeof(e))
		w->exec_errno = e;
	/* the answer is in: nothing more will come through the pipe */
	close(w->err_fd);
	w->err_fd = -1;
	return w->exec_errno;
}

/* Whether the child has exited, leaving it unreaped. */
static bool exited_unreaped(struct workload *w, int flags)
{
	siginfo_t si = { .si_pid = 0 };
	int r;

	do {
		r = waitid(P_PID, (id_t)w->pid, &si, WEXITED | WNOWAIT | flags);
	} while (r < 0 && errno == EINTR);
	if (r || si.si_pid != w->pid)
		return false;
	read_exec_errno(w);
	return true;
}

bool workload__poll_exit(struct workload *w)
{
	pid_t r;

	if (w->pid < 0)
		return true;
	if (w->keep_zombie)
		return exited_unreaped(w, WNOHANG);
	r = wait4(w->pid, &w->status, WNOHANG, &w->rusage);
	if (r != w->pid)
		return false;
	read_exec_errno(w);
	w->pid = -1;
	return true;
}

int workload__wait(struct workload *w)
{
	pid_t r;

	if (w->pid < 0)
		return 0;
	if (w->keep_zombie)
		return exited_unreaped(w, 0) ? 0 : -errno;
	do {
		r = wait4(w->pid, &w->status, 0, &w->rusage);
	} while (r < 0 && errno == EINTR);
	if (r < 0)
		return -errno;
	read_exec_errno(w);
	w->pid = -1;
	return 0;
}

void workload__kill(struct workload *w, int sig)
{
	if (w->pid < 0)
		return;
	/* A child still waiting for the go byte leaves on EOF, even if the
	 * signal came before it reset its handlers. */
	if (w->go_fd >= 0) {
		close(w->go_fd);
		w->go_fd = -1;
	}
	kill(w->pid, sig);
	w->keep_zombie = false;
	workload__wait(w);
}

void workload__close(struct workload *w)
{
	if (w->go_fd >= 0)
		close(w->go_fd);
	if (w->err_fd >= 0)
		close(w->err_fd);
	w->go_fd = w->err_fd = -1;
}
