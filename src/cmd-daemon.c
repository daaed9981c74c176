/* pcl daemon: keeps the record sessions of a config file running in the
 * background (perf daemon's shape).  The daemon owns BASE (its lock, log
 * "output" and unix socket "control"), runs each "[session-NAME] run = ..."
 * as `pcl record ...` in BASE/session-NAME, follows the config file's
 * changes, and answers the clients `pcl daemon [list]`, `ping`, `signal`
 * and `stop` over the socket.
 *
 * Like perf's, it runs each record with --control=fifo:control,ack and
 * pings it through those fifos, when the record it runs takes --control
 * (asked at start); otherwise a session is "OK" while its record lives.
 * signal sends SIGUSR2 to the record either way.
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/inotify.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "builtin.h"
#include "core/live/daemon-sessions.h"
#include "util/exit-codes.h"
#include "util/parse-options.h"
#include "util/perfconfig.h"
#include "util/strbuf.h"
#include "util/util.h"

/* How long a session gets to write its perf.data after SIGTERM. */
#define SESSION_STOP_TIMEOUT_MS 10000
/* How long a ping waits for the record's ack. */
#define PING_TIMEOUT_MS 5000
#define CONTROL_OPTION "--control=fifo:control,ack"

static const char *const daemon_usage[] = {
	"perf daemon start [<options>]",
	"perf daemon [<options>]",
	NULL
};

struct daemon_opts {
	int verbose;
	const char *separator, *base, *config, *session;
	bool foreground;
};

/* What a client asks; sent as one field a line. */
struct daemon_request {
	char cmd[16];
	int verbose;
	char separator[16], session[256];
};

struct daemon {
	struct daemon_config cfg;	/* the running set */
	char *config_path, *base;
	time_t started;
	int sock, inotify, sigfd;
	bool record_has_control;	/* our record takes --control */
	FILE *log;
};

static int fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int fail(const char *fmt, ...)
{
	va_list ap;

	fputs("failed: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return -1;
}

/* The daemon's log lines: a local time stamp with microseconds, as perf's. */
static void daemon_log(struct daemon *d, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void daemon_log(struct daemon *d, const char *fmt, ...)
{
	struct timeval tv;
	struct tm tm;
	char stamp[32];
	va_list ap;

	gettimeofday(&tv, NULL);
	localtime_r(&tv.tv_sec, &tm);
	strftime(stamp, sizeof(stamp), "%Y-%m-%d %H:%M:%S", &tm);
	fprintf(d->log, "[%s.%06ld] ", stamp, (long)tv.tv_usec);
	va_start(ap, fmt);
	vfprintf(d->log, fmt, ap);
	va_end(ap);
	fputc('\n', d->log);
	fflush(d->log);
}

/* The config's absolute path (--config, else $PERF_CONFIG or ~/.perfconfig)
 * and its base (--base wins), checked as perf checks them. */
static int resolve_config(const struct daemon_opts *o, char **config_path, char **base)
{
	char *wanted = o->config ? xstrdup(o->config) :
		getenv("PERF_CONFIG") ? xstrdup(getenv("PERF_CONFIG")) : perfconfig__user_path();
	struct daemon_config cfg;
	enum daemon_config_error err;
	struct stat st;

	*config_path = wanted ? realpath(wanted, NULL) : NULL;
	if (o->config && !*config_path)	/* perf is silent on a missing default */
		fail("realpath: %s", strerror(errno));
	free(wanted);
	if (!*config_path)
		return fail("config not found");
	err = daemon_config__read(&cfg, *config_path);
	if (err == DAEMON_CONFIG_UNREADABLE) {
		daemon_config__release(&cfg);
		return fail("config not found");
	}
	*base = xstrdup(o->base ? o->base : cfg.base ? cfg.base : "");
	daemon_config__release(&cfg);
	if (!**base)
		return fail("base not defined");
	if (stat(*base, &st) || !S_ISDIR(st.st_mode))
		return fail("base '%s' does not exists", *base);
	/* the daemon leaves the working directory: a relative base must not
	 * depend on it */
	char *absolute = realpath(*base, NULL);

	if (absolute) {
		free(*base);
		*base = absolute;
	}
	return 0;
}

static char *base_file(const char *base, const char *name)
{
	return xasprintf("%s/%s", base, name);
}

static char *session_dir(const struct daemon *d, const struct daemon_session *s)
{
	return xasprintf("%s/session-%s", d->base, s->name);
}

static void make_fifo(const char *dir, const char *name)
{
	char *path = base_file(dir, name);

	if (mkfifo(path, 0600) && errno != EEXIST)
		fprintf(stderr, "failed: mkfifo %s: %s\n", path, strerror(errno));
	free(path);
}

/* Runs `pcl record RUN` in the session's directory, its own process group
 * (so stopping it takes its workload along), output to the "output" file. */
static void session_start(struct daemon *d, struct daemon_session *s)
{
	char *dir = session_dir(d, s);
	sigset_t none;
	size_t argc;
	char **argv;
	pid_t pid;

	s->started = time(NULL);
	if (mkdir(dir, 0755) && errno != EEXIST) {
		daemon_log(d, "failed: mkdir %s: %s", dir, strerror(errno));
		free(dir);
		return;
	}
	make_fifo(dir, "control");
	make_fifo(dir, "ack");
	argv = daemon_session__argv(s->run, d->record_has_control ? 3 : 2, &argc);
	argv[0] = (char *)"pcl";
	argv[1] = (char *)"record";
	if (d->record_has_control)
		argv[2] = (char *)CONTROL_OPTION;
	pid = fork();
	if (pid == 0) {
		int out;

		setpgid(0, 0);
		/* perf record shrugs SIGUSR2 off without --switch-output: so
		 * does ours, whose --switch-output installs its own handler */
		signal(SIGUSR2, SIG_IGN);
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		out = chdir(dir) ? -1 : open("output", O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (out < 0)
			_exit(PCL_EXIT_ERROR);
		dup2(out, STDOUT_FILENO);
		dup2(out, STDERR_FILENO);
		close(out);
		execv("/proc/self/exe", argv);
		_exit(127);
	}
	daemon_session__argv_free(argv, d->record_has_control ? 3 : 2);
	free(dir);
	s->pid = pid > 0 ? pid : -1;
	if (pid > 0)	/* sic: perf 6.1 logs "ruining" */
		daemon_log(d, "reconfig: ruining session [%s:%d]: %s", s->name, (int)pid, s->run);
}

static void log_exit(struct daemon *d, const struct daemon_session *s, int status)
{
	if (WIFSIGNALED(status))
		daemon_log(d, "session '%s' killed (signal %d)", s->name, WTERMSIG(status));
	else
		daemon_log(d, "session '%s' exited, status=%d", s->name, WEXITSTATUS(status));
}

/* Opens one of the session's fifos ("control" or "ack") without blocking. */
static int open_session_fifo(struct daemon *d, const struct daemon_session *s,
			     const char *name, int flags)
{
	char *dir = session_dir(d, s), *path = base_file(dir, name);
	int fd = open(path, flags | O_NONBLOCK | O_CLOEXEC);

	free(dir);
	free(path);
	return fd;
}

/* Asks the session's record to stop through its control fifo, as perf's
 * daemon does first; false when nothing reads the fifo. */
static bool stop_through_control(struct daemon *d, const struct daemon_session *s)
{
	int ctl = open_session_fifo(d, s, "control", O_WRONLY);
	bool sent = ctl >= 0 && write(ctl, "stop\n", 5) == 5;

	if (ctl >= 0)
		close(ctl);
	return sent;
}

/* Waits up to SESSION_STOP_TIMEOUT_MS for the session to end; the pid
 * waitpid gave, or 0 when it is still running. */
static pid_t wait_session(const struct daemon_session *s, int *status)
{
	int waited_ms = 0;
	pid_t got;

	while ((got = waitpid(s->pid, status, WNOHANG)) == 0 &&
	       waited_ms < SESSION_STOP_TIMEOUT_MS) {
		usleep(10000);
		waited_ms += 10;
	}
	return got;
}

/* "stop" through the control fifo when the record takes one, else (or when
 * that does not end it) SIGTERM to the session's group; SIGKILL when it
 * outstays the timeout. */
static void session_stop(struct daemon *d, struct daemon_session *s)
{
	int status = 0;
	pid_t got = 0;

	if (s->pid <= 0)
		return;
	if (d->record_has_control && stop_through_control(d, s))
		got = wait_session(s, &status);
	if (got == 0) {
		kill(-s->pid, SIGTERM);
		got = wait_session(s, &status);
	}
	if (got == 0) {
		kill(-s->pid, SIGKILL);
		got = waitpid(s->pid, &status, 0);
	}
	kill(-s->pid, SIGKILL);	/* whatever the record left of its group */
	if (got == s->pid)
		log_exit(d, s, status);
	s->pid = -1;
}

static void reap_children(struct daemon *d)
{
	int status;
	pid_t pid;

	while ((pid = waitpid(-1, &status, WNOHANG)) > 0) {
		for (size_t i = 0; i < d->cfg.nr; i++) {
			struct daemon_session *s = &d->cfg.sessions[i];

			if (s->pid == pid) {
				log_exit(d, s, status);
				s->pid = -1;
			}
		}
	}
}

/* Stops what the config no longer has and starts what it newly has. */
static void reconfig(struct daemon *d, const struct daemon_config *next)
{
	daemon_config__reconfig(&d->cfg, next);
	for (size_t i = 0; i < d->cfg.nr; i++) {
		struct daemon_session *s = &d->cfg.sessions[i];

		if (s->stale && s->pid > 0) {
			session_stop(d, s);
			daemon_log(d, "reconfig: session '%s' killed", s->name);
		}
	}
	daemon_config__drop_stale(&d->cfg);
	for (size_t i = 0; i < d->cfg.nr; i++)
		if (!d->cfg.sessions[i].started)
			session_start(d, &d->cfg.sessions[i]);
}

static void reload_config(struct daemon *d)
{
	struct daemon_config next;

	if (daemon_config__read(&next, d->config_path) == DAEMON_CONFIG_UNREADABLE)
		daemon_log(d, "failed: cannot read config %s", d->config_path);
	else
		reconfig(d, &next);
	daemon_config__release(&next);
}

static unsigned long minutes_since(time_t t)
{
	return (unsigned long)(time(NULL) - t) / 60;
}

static bool session_listed(const struct daemon_session *s)
{
	return s->pid > 0 && !s->stale;
}

/* The daemon's line(s) of the list, perf's layouts. */
static void list_daemon(struct daemon *d, const struct daemon_request *rq, FILE *out)
{
	const char *sep = rq->separator, *base = d->base;
	unsigned long up = minutes_since(d->started);
	int pid = (int)getpid();

	if (*sep) {
		fprintf(out, "%d%sdaemon%s%s%s%s/output%s%s/lock%s%lu\n", pid, sep, sep, base, sep,
			base, sep, base, sep, up);
		return;
	}
	fprintf(out, "[%d:daemon] base: %s\n", pid, base);
	if (rq->verbose)
		fprintf(out, "  output:  %s/output\n  lock:    %s/lock\n  up:      %lu minutes\n",
			base, base, up);
}

static void list_session(struct daemon *d, const struct daemon_session *s,
			 const struct daemon_request *rq, FILE *out)
{
	const char *sep = rq->separator;
	unsigned long up = minutes_since(s->started);
	char *dir = session_dir(d, s);
	int pid = (int)s->pid;

	if (*sep) {
		fprintf(out, "%d%s%s%s%s%s%s", pid, sep, s->name, sep, s->run, sep, dir);
		fprintf(out, "%s%s/output%s%s/control%s%s/ack%s%lu\n", sep, dir, sep, dir, sep, dir,
			sep, up);
	} else {
		fprintf(out, "[%d:%s] perf record %s\n", pid, s->name, s->run);
		if (rq->verbose)
			fprintf(out, "  base:    %s\n  output:  %s/output\n  control: %s/control\n"
				"  ack:     %s/ack\n  up:      %lu minutes\n",
				dir, dir, dir, dir, up);
	}
	free(dir);
}

static void answer_list(struct daemon *d, const struct daemon_request *rq, FILE *out)
{
	list_daemon(d, rq, out);
	for (size_t i = 0; i < d->cfg.nr; i++)
		if (session_listed(&d->cfg.sessions[i]))
			list_session(d, &d->cfg.sessions[i], rq, out);
}

/* Runs `pcl record --list-opts` (this very binary) and looks for --control. */
static bool record_takes_control(void)
{
	const char *const argv[] = { "pcl", "record", "--list-opts", NULL };
	struct strbuf opts = STRBUF_INIT;
	char buf[4096];
	bool found;
	int out[2];
	ssize_t n;
	pid_t pid;

	if (pipe2(out, O_CLOEXEC))
		return false;
	pid = fork();
	if (pid == 0) {
		dup2(out[1], STDOUT_FILENO);
		execv("/proc/self/exe", (char *const *)argv);
		_exit(127);
	}
	close(out[1]);
	strbuf_addstr(&opts, " ");
	while (pid > 0 && (n = read(out[0], buf, sizeof(buf))) > 0)
		strbuf_add(&opts, buf, (size_t)n);
	close(out[0]);
	if (pid > 0)
		waitpid(pid, NULL, 0);
	found = strstr(opts.buf, " --control ") != NULL;
	strbuf_release(&opts);
	return found;
}

/* "ping" into the session's control fifo, and its record's "ack" back:
 * perf's words for the outcome. */
static const char *ping_through_control(struct daemon *d, const struct daemon_session *s)
{
	int ack = open_session_fifo(d, s, "ack", O_RDONLY);
	int ctl = open_session_fifo(d, s, "control", O_WRONLY);
	struct pollfd pfd = { .fd = ack, .events = POLLIN };
	const char *result = "FAIL";
	char answer[16];
	ssize_t n;

	if (ack >= 0 && ctl >= 0) {
		while (read(ack, answer, sizeof(answer)) > 0)
			;	/* a late ack of an earlier ping */
		if (write(ctl, "ping\n", 5) == 5) {
			result = "TIMEOUT";
			if (poll(&pfd, 1, PING_TIMEOUT_MS) == 1 &&
			    (n = read(ack, answer, sizeof(answer) - 1)) > 0) {
				answer[n] = '\0';
				result = strncmp(answer, "ack\n", 4) ? "FAIL" : "OK";
			}
		}
	}
	if (ack >= 0)
		close(ack);
	if (ctl >= 0)
		close(ctl);
	return result;
}

static const char *ping_session(struct daemon *d, const struct daemon_session *s)
{
	if (d->record_has_control)
		return ping_through_control(d, s);
	return kill(s->pid, 0) ? "FAIL" : "OK";
}

/* ping and signal: every listed session, or the one --session names. */
static void answer_sessions(struct daemon *d, const struct daemon_request *rq, FILE *out)
{
	bool ping = !strcmp(rq->cmd, "ping"), found = false;

	for (size_t i = 0; i < d->cfg.nr; i++) {
		const struct daemon_session *s = &d->cfg.sessions[i];

		if (!session_listed(s) || (*rq->session && strcmp(rq->session, s->name)))
			continue;
		found = true;
		if (ping)
			fprintf(out, "%-4s %s\n", ping_session(d, s), s->name);
		else if (!kill(s->pid, SIGUSR2))
			fprintf(out, "signal %d sent to session '%s [%d]'\n", SIGUSR2, s->name,
				(int)s->pid);
	}
	if (ping && *rq->session && !found)
		fprintf(out, "%-4s %s (not found)\n", "FAIL", rq->session);
}

static void stop_all(struct daemon *d)
{
	for (size_t i = 0; i < d->cfg.nr; i++)
		session_stop(d, &d->cfg.sessions[i]);
}

/* Reads the request's lines: command, verbosity, separator, session. */
static int read_request(int fd, struct daemon_request *rq)
{
	struct timeval timeout = { .tv_sec = 2 };
	char buf[512], *line, *save = NULL;
	size_t len = 0;
	ssize_t n;

	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof(timeout));
	while (len < sizeof(buf) - 1 && (n = read(fd, buf + len, sizeof(buf) - 1 - len)) > 0)
		len += (size_t)n;
	buf[len] = '\0';
	*rq = (struct daemon_request){ 0 };
	line = strtok_r(buf, "\n", &save);
	if (!line)
		return -1;
	snprintf(rq->cmd, sizeof(rq->cmd), "%s", line);
	line = strtok_r(NULL, "\n", &save);
	rq->verbose = line ? atoi(line) : 0;
	/* empty fields are sent as "-" (strtok skips empty lines) */
	line = strtok_r(NULL, "\n", &save);
	snprintf(rq->separator, sizeof(rq->separator), "%s", line && strcmp(line, "-") ? line : "");
	line = strtok_r(NULL, "\n", &save);
	snprintf(rq->session, sizeof(rq->session), "%s", line && strcmp(line, "-") ? line : "");
	return 0;
}

/* Answers one client; false when it asked the daemon to stop. */
static bool serve_client(struct daemon *d)
{
	int fd = accept4(d->sock, NULL, NULL, SOCK_CLOEXEC);
	struct daemon_request rq;
	bool keep_running = true;
	FILE *out;

	if (fd < 0)
		return true;
	out = fdopen(fd, "w");
	if (!out) {
		close(fd);
		return true;
	}
	if (!read_request(fd, &rq)) {
		if (!strcmp(rq.cmd, "list"))
			answer_list(d, &rq, out);
		else if (!strcmp(rq.cmd, "ping") || !strcmp(rq.cmd, "signal"))
			answer_sessions(d, &rq, out);
		else if (!strcmp(rq.cmd, "stop")) {
			stop_all(d);
			keep_running = false;
		}
	}
	fclose(out);
	return keep_running;
}

/* Whether the inotify events include one for the config file's name. */
static bool config_touched(struct daemon *d)
{
	char buf[4096] __attribute__((aligned(__alignof__(struct inotify_event))));
	const char *name = strrchr(d->config_path, '/') + 1;
	bool touched = false;
	ssize_t n;

	while ((n = read(d->inotify, buf, sizeof(buf))) > 0) {
		for (char *p = buf; p < buf + n;) {
			const struct inotify_event *ev = (const struct inotify_event *)p;

			if (ev->len && !strcmp(ev->name, name))
				touched = true;
			p += sizeof(*ev) + ev->len;
		}
	}
	return touched;
}

/* Until stop, SIGTERM or SIGINT: clients, config changes, sessions' ends. */
static void daemon_loop(struct daemon *d)
{
	struct pollfd fds[3] = {
		{ .fd = d->sock, .events = POLLIN },
		{ .fd = d->inotify, .events = POLLIN },
		{ .fd = d->sigfd, .events = POLLIN },
	};

	for (;;) {
		if (poll(fds, 3, -1) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (fds[2].revents) {
			struct signalfd_siginfo si;

			bool got = read(d->sigfd, &si, sizeof(si)) == sizeof(si);

			if (got && si.ssi_signo != SIGCHLD) {
				stop_all(d);
				return;
			}
			reap_children(d);
		}
		if (fds[1].revents && config_touched(d))
			reload_config(d);
		if (fds[0].revents && !serve_client(d))
			return;
	}
}

static int listen_on(const char *path)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	int fd;

	if (strlen(path) >= sizeof(addr.sun_path))
		return fail("socket path too long: %s", path);
	strcpy(addr.sun_path, path);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	unlink(path);
	/* anyone may ask, as perf's socket lets them */
	if (fd < 0 || bind(fd, (struct sockaddr *)&addr, sizeof(addr)) || chmod(path, 0777) ||
	    listen(fd, 8)) {
		fail("socket: %s", strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	return fd;
}

/* Takes BASE/lock (flock, holding our pid) or says who holds it. */
static int take_lock(const char *base)
{
	char *path = base_file(base, "lock"), pid[32];
	int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0640);
	ssize_t n;

	free(path);
	if (fd < 0)
		return fail("open lock: %s", strerror(errno));
	if (flock(fd, LOCK_EX | LOCK_NB)) {
		n = read(fd, pid, sizeof(pid) - 1);
		pid[n > 0 ? n : 0] = '\0';
		close(fd);
		return fail("another perf daemon (pid %d) owns %s", atoi(pid), base);
	}
	n = snprintf(pid, sizeof(pid), "%d", (int)getpid());
	if (ftruncate(fd, 0) || pwrite(fd, pid, (size_t)n, 0) != n) {
		close(fd);
		return fail("write lock: %s", strerror(errno));
	}
	return fd;
}

static int watch_config(const char *config_path)
{
	char *dir = xstrdup(config_path);
	int fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);

	if (fd >= 0 && inotify_add_watch(fd, dirname(dir), IN_CLOSE_WRITE | IN_MOVED_TO) < 0) {
		close(fd);
		fd = -1;
	}
	free(dir);
	return fd;
}

static int block_signals(void)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGCHLD);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	sigprocmask(SIG_BLOCK, &set, NULL);
	return signalfd(-1, &set, SFD_CLOEXEC);
}

/* The daemon itself; ready (when not NULL) hears one byte once it serves. */
static int daemon_run(struct daemon *d, bool foreground, int ready)
{
	char *path;
	int lock, log_fd;

	lock = take_lock(d->base);
	if (lock < 0)
		return PCL_EXIT_ERROR;
	path = base_file(d->base, "output");
	log_fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	free(path);
	if (log_fd < 0)
		return fail("open output: %s", strerror(errno)), PCL_EXIT_ERROR;
	if (!foreground) {
		int null = open("/dev/null", O_RDONLY);

		dup2(null, STDIN_FILENO);
		dup2(log_fd, STDOUT_FILENO);
		dup2(log_fd, STDERR_FILENO);
		close(null);
	}
	d->log = foreground ? stdout : fdopen(log_fd, "a");
	path = base_file(d->base, "control");
	d->sock = listen_on(path);
	free(path);
	d->inotify = watch_config(d->config_path);
	d->record_has_control = record_takes_control();
	d->sigfd = block_signals();
	if (d->sock < 0 || d->inotify < 0 || d->sigfd < 0)
		return fail("cannot set up the daemon: %s", strerror(errno)), PCL_EXIT_ERROR;
	d->started = time(NULL);
	daemon_log(d, "daemon started (pid %d)", (int)getpid());
	if (ready >= 0) {
		if (write(ready, "", 1) != 1)
			daemon_log(d, "failed: cannot tell the starter");
		close(ready);
	}
	reload_config(d);
	daemon_loop(d);
	daemon_log(d, "daemon exited");
	daemon_config__release(&d->cfg);
	return 0;
}

/* In the background: returns once the daemon serves, or failed. */
static int start_daemon(struct daemon *d, bool foreground)
{
	int ready[2];
	pid_t pid;
	char byte;

	if (foreground)
		return daemon_run(d, true, -1);
	if (pipe2(ready, O_CLOEXEC))
		return fail("pipe: %s", strerror(errno)), PCL_EXIT_ERROR;
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return fail("fork: %s", strerror(errno)), PCL_EXIT_ERROR;
	if (pid == 0) {
		close(ready[0]);
		setsid();
		exit(daemon_run(d, false, ready[1]));
	}
	close(ready[1]);
	/* perf returns 0 whatever the daemon's fate; it says why on stderr */
	while (read(ready[0], &byte, 1) < 0 && errno == EINTR)
		;
	close(ready[0]);
	return 0;
}

/* Client side: sends the request, copies the answer to stdout. */
static int send_request(const char *base, const struct daemon_request *rq)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	char *path = base_file(base, "control"), buf[4096];
	struct strbuf msg = STRBUF_INIT;
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	ssize_t n;

	snprintf(addr.sun_path, sizeof(addr.sun_path), "%s", path);
	free(path);
	if (fd < 0 || connect(fd, (struct sockaddr *)&addr, sizeof(addr))) {
		fail("connect: %s", strerror(errno));
		if (fd >= 0)
			close(fd);
		return PCL_EXIT_ERROR;
	}
	strbuf_addf(&msg, "%s\n%d\n%s\n%s\n", rq->cmd, rq->verbose,
		    *rq->separator ? rq->separator : "-", *rq->session ? rq->session : "-");
	if (write(fd, msg.buf, msg.len) != (ssize_t)msg.len || shutdown(fd, SHUT_WR)) {
		strbuf_release(&msg);
		close(fd);
		return fail("write: %s", strerror(errno)), PCL_EXIT_ERROR;
	}
	strbuf_release(&msg);
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		fwrite(buf, 1, (size_t)n, stdout);
	close(fd);
	return 0;
}

#define COMMON_OPTS(o)										\
	OPT_INCR('v', "verbose", &(o)->verbose, "be more verbose"),				\
	OPT_STRING_OPTARG('x', "field-separator", &(o)->separator, "field separator",		\
			  "print counts with custom separator", ","),			\
	OPT_STRING(0, "base", &(o)->base, "directory", "base directory"),			\
	OPT_STRING(0, "config", &(o)->config, "config file", "config file path")

static void hide(struct option *opts, size_t nr)
{
	for (size_t i = 0; i < nr; i++)
		opts[i].flags |= OPTF_HIDDEN;
}

int cmd_daemon(int argc, const char **argv)
{
	struct daemon_opts o = { 0 };
	struct option opts[] = { COMMON_OPTS(&o), OPT_END() };
	struct option start_opts[] = {
		COMMON_OPTS(&o),
		OPT_BOOLEAN('f', "foreground", &o.foreground, "stay on console"),
		OPT_END()
	};
	struct option signal_opts[] = {
		COMMON_OPTS(&o),
		OPT_STRING(0, "session", &o.session, "session", "Sent signal to specific session"),
		OPT_END()
	};
	struct option ping_opts[] = {
		COMMON_OPTS(&o),
		OPT_STRING(0, "session", &o.session, "session", "Ping to specific session"),
		OPT_END()
	};
	struct option stop_opts[] = { COMMON_OPTS(&o), OPT_END() };
	/* a sub-command's -h shows its own options only, as perf's do */
	size_t nr_common = ARRAY_SIZE(opts) - 1;
	struct daemon_request rq = { .cmd = "list" };
	struct daemon d = { .sock = -1, .inotify = -1, .sigfd = -1 };
	const char *sub;
	int ret;

	hide(start_opts, nr_common);
	hide(signal_opts, nr_common);
	hide(ping_opts, nr_common);
	hide(stop_opts, nr_common);
	argc = parse_options(argc, argv, opts, daemon_usage, PARSE_OPT_STOP_AT_NON_OPTION);
	sub = argc ? argv[0] : NULL;
	if (sub) {
		const struct option *sub_opts = !strcmp(sub, "start") ? start_opts :
			!strcmp(sub, "signal") ? signal_opts : !strcmp(sub, "ping") ? ping_opts :
			!strcmp(sub, "stop") ? stop_opts : NULL;

		if (!sub_opts) {
			fail("unknown command '%s'", sub);
			return PCL_EXIT_ERROR;
		}
		argc = parse_options(argc, argv, sub_opts, daemon_usage, 0);
		if (argc)
			usage_with_options(daemon_usage, sub_opts);
	}
	if (resolve_config(&o, &d.config_path, &d.base)) {
		ret = PCL_EXIT_ERROR;
	} else if (sub && !strcmp(sub, "start")) {
		ret = start_daemon(&d, o.foreground);
	} else {
		if (sub)
			snprintf(rq.cmd, sizeof(rq.cmd), "%s", sub);
		rq.verbose = o.verbose;
		snprintf(rq.separator, sizeof(rq.separator), "%s", o.separator ? o.separator : "");
		snprintf(rq.session, sizeof(rq.session), "%s", o.session ? o.session : "");
		ret = send_request(d.base, &rq);
	}
	free(d.config_path);
	free(d.base);
	return ret;
}
