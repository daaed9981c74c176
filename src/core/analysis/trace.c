/* trace: pairs sys_enter/sys_exit per thread and formats perf trace's lines. */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/analysis/trace.h"
#include "util/util.h"

#include <event-parse.h>

/* The column where perf starts "= result". */
#define NSEC_PER_MSEC 1000000ULL

/* fd paths, live only: one table per process (its threads share their
 * fds), learnt from /proc when an fd is first shown or just returned, and
 * forgotten when it is closed or replaced, or at exec. */
struct fd_table {
	char **paths;
	int nr;
};

static struct fd_table *fd_table(struct trace *t, pid_t pid)
{
	struct fd_table *ft = hashmap_u64_get(&t->fd_tables, (uint32_t)pid);

	if (!ft) {
		ft = xcalloc(1, sizeof(*ft));
		hashmap_u64_put(&t->fd_tables, (uint32_t)pid, ft);
	}
	return ft;
}

static void fd_table__free(struct fd_table *ft)
{
	for (int fd = 0; fd < ft->nr; fd++)
		free(ft->paths[fd]);
	free(ft->paths);
	free(ft);
}

static void fd_forget(struct trace *t, pid_t pid, int fd)
{
	struct fd_table *ft = fd_table(t, pid);

	if (fd >= 0 && fd < ft->nr) {
		free(ft->paths[fd]);
		ft->paths[fd] = NULL;
	}
}

static void fd_forget_all(struct trace *t, pid_t pid)
{
	struct fd_table *ft = fd_table(t, pid);

	for (int fd = 0; fd < ft->nr; fd++)
		fd_forget(t, pid, fd);
}

static const char *fd_path(struct trace *t, pid_t pid, int fd)
{
	struct fd_table *ft;
	char link[64], path[PATH_MAX];
	ssize_t n;

	if (fd < 0 || !t->cfg.live)
		return NULL;
	ft = fd_table(t, pid);
	if (fd < ft->nr && ft->paths[fd])
		return ft->paths[fd];
	snprintf(link, sizeof(link), "/proc/%d/fd/%d", pid, fd);
	n = readlink(link, path, sizeof(path) - 1);
	if (n < 0)
		return NULL;
	path[n] = '\0';
	t->proc_getname++;
	if (fd >= ft->nr) {
		ft->paths = xrealloc(ft->paths, (fd + 1) * sizeof(*ft->paths));
		memset(ft->paths + ft->nr, 0, (fd + 1 - ft->nr) * sizeof(*ft->paths));
		ft->nr = fd + 1;
	}
	ft->paths[fd] = xstrdup(path);
	return ft->paths[fd];
}

void trace__init(struct trace *t, const struct trace_config *cfg, struct machine *m)
{
	memset(t, 0, sizeof(*t));
	t->cfg = *cfg;
	t->table = syscall_table__new();
	t->machine = m;
	hashmap_init(&t->threads, sizeof(struct trace_thread *));
	hashmap_init(&t->fd_tables, sizeof(struct fd_table *));
}

static void trace_thread__free(struct trace_thread *tt)
{
	if (tt->stats) {
		for (int nr = 0; nr <= syscall__max_nr(); nr++) {
			if (tt->stats[nr])
				free(tt->stats[nr]->errnos);
			free(tt->stats[nr]);
		}
		free(tt->stats);
	}
	strbuf_release(&tt->entry_str);
	free(tt);
}

void trace__exit(struct trace *t)
{
	for (struct trace_thread **v = hashmap_next(&t->threads, NULL); v;
	     v = hashmap_next(&t->threads, v))
		trace_thread__free(*v);
	hashmap_release(&t->threads);
	for (struct fd_table **v = hashmap_next(&t->fd_tables, NULL); v;
	     v = hashmap_next(&t->fd_tables, v))
		fd_table__free(*v);
	hashmap_release(&t->fd_tables);
	syscall_table__delete(t->table);
	strbuf_release(&t->out);
}

const char *trace__errno_name(int err)
{
	const char *name = errno__name(err);

	return name ? name : "(unknown)";
}

struct trace_thread *trace__thread(const struct trace *t, const struct thread *thread)
{
	return hashmap_u64_get(&t->threads, (uintptr_t)thread);
}

/* The thread's state, counting one more event of it. */
static struct trace_thread *thread__trace(struct trace *t, struct thread *thread)
{
	struct trace_thread *tt = trace__thread(t, thread);

	if (!tt) {
		tt = xcalloc(1, sizeof(*tt));
		hashmap_u64_put(&t->threads, (uintptr_t)thread, tt);
	}
	tt->nr_events++;
	return tt;
}

void trace__sched_runtime(struct trace *t, struct thread *thread, uint64_t runtime_ns)
{
	thread__trace(t, thread)->runtime_ms += (double)runtime_ns / 1e6;
}

void trace__account(struct trace *t, uint64_t time, bool has_time, bool is_syscall)
{
	if (!t->base_time && !t->cfg.full_time && has_time)
		t->base_time = time;
	if (is_syscall)
		t->nr_events++;
}

struct args_ctx {
	struct trace *trace;
	struct thread *thread;
};

static const char *ctx_fd_path(void *priv, int fd)
{
	struct args_ctx *c = priv;

	return fd_path(c->trace, c->thread->pid, fd);
}

static void ctx_fd_closed(void *priv, int fd)
{
	struct args_ctx *c = priv;

	fd_forget(c->trace, c->thread->pid, fd);
}

static const char *ctx_pid_comm(void *priv, pid_t pid)
{
	struct args_ctx *c = priv;
	struct thread *th = machine__find_thread(c->trace->machine, pid, pid);

	return th && th->comm_set ? th->comm : NULL;
}

/* How arguments are shown: from the thread's fds and the tasks' comms,
 * after perfconfig's trace.* keys. */
static struct syscall_args_ctx args_ctx(struct trace *t, struct args_ctx *c)
{
	return (struct syscall_args_ctx){ .fd_path = ctx_fd_path, .fd_closed = ctx_fd_closed,
					  .pid_comm = ctx_pid_comm, .priv = c,
					  .show_zeros = t->cfg.show_zeros,
					  .hide_names = t->cfg.hide_arg_names,
					  .show_prefix = t->cfg.show_prefix };
}

static void print_comm_tid(struct trace *t, const struct thread *thread)
{
	if (t->cfg.hide_thread)
		return;
	if (!t->cfg.hide_comm)
		strbuf_addf(&t->out, "%.14s/", thread->comm);
	strbuf_addf(&t->out, "%d ", thread->tid);
}

/* The spaces that bring a line of printed characters to the column of
 * "= result" (at least one is printed). */
static int args_padding(const struct trace *t, int printed)
{
	return printed < t->cfg.args_alignment ? t->cfg.args_alignment - printed : 0;
}

/* "  1.234 ( 0.012 ms): comm/tid " */
static void print_head(struct trace *t, struct thread *thread, uint64_t duration,
		       bool duration_known, uint64_t tstamp)
{
	struct strbuf *o = &t->out;

	if (!t->cfg.hide_timestamp && tstamp)
		strbuf_addf(o, "%10.3f ", (double)(tstamp - t->base_time) / NSEC_PER_MSEC);
	else if (!t->cfg.hide_timestamp)
		strbuf_addstr(o, "         ? ");
	if (!t->cfg.hide_duration && duration_known)
		strbuf_addf(o, "(%6.3f ms): ", (double)duration / NSEC_PER_MSEC);
	else if (!t->cfg.hide_duration)
		strbuf_addstr(o, "(         ): ");
	print_comm_tid(t, thread);
}

/* The pending call of the thread whose sys_enter came last, cut short
 * by another event: "name(args) ...". */
static void print_interrupted_entry(struct trace *t)
{
	struct trace_thread *tt;
	int len;

	if (t->cfg.failure_only || !t->current)
		return;
	tt = trace__thread(t, t->current);
	if (!tt || !tt->entry_pending)
		return;
	print_head(t, t->current, 0, false, tt->entry_time);
	strbuf_addf(&t->out, "%s)", strbuf_str(&tt->entry_str));
	len = (int)tt->entry_str.len + 1;
	if (len < t->cfg.args_alignment - 4)
		strbuf_addf(&t->out, "%-*s", t->cfg.args_alignment - 4 - len, " ");
	strbuf_addstr(&t->out, " ...\n");
	tt->entry_pending = false;
	t->nr_printed++;
}

/* An argument whose user memory the caller may have read */
static bool is_user_data(enum syscall_arg_kind kind)
{
	return kind == SCA_FILENAME || kind == SCA_SOCKADDR;
}

static bool has_user_data(const struct syscall *sc)
{
	for (int i = 0; i < sc->nr_args; i++)
		if (is_user_data(sc->args[i].kind))
			return true;
	return false;
}

/* Whether a pathname argument (not NULL) has no string */
static bool strings_missing(const struct syscall *sc, const uint64_t *args,
			    const char *const *strs)
{
	for (int i = 0; i < sc->nr_args; i++)
		if (is_user_data(sc->args[i].kind) && args[i] && (!strs || !strs[i]))
			return true;
	return false;
}

/* The pending call's line again, with the strings read at its exit (their
 * pages were not in memory at its entry), when there are some. */
static void late_strings(struct trace *t, struct thread *thread, const struct syscall *sc,
			 struct trace_thread *tt)
{
	const char *strs[SYSCALL_MAX_ARGS];
	struct args_ctx c = { t, thread };
	struct syscall_args_ctx ctx = args_ctx(t, &c);

	tt->strings_late = false;
	if (!t->user_strings(t->user_strings_priv, thread->tid, tt->entry_id, tt->entry_args, true,
			     strs))
		return;
	ctx.strings = strs;
	strbuf_reset(&tt->entry_str);
	strbuf_addf(&tt->entry_str, "%s(", sc->name);
	tt->ret_kind = syscall_args__format(sc, tt->entry_args, &ctx, &tt->entry_str);
}

void trace__sys_enter(struct trace *t, struct thread *thread, uint64_t time, long id,
		      const uint64_t args[SYSCALL_MAX_ARGS])
{
	const struct syscall *sc = syscall_table__get(t->table, (int)id);
	struct args_ctx c = { t, thread };
	struct syscall_args_ctx ctx = args_ctx(t, &c);
	struct trace_thread *tt;
	bool quiet = t->cfg.duration_ms > 0 || t->cfg.summary_only || t->cfg.min_stack;

	if (!sc)
		return;
	tt = thread__trace(t, thread);
	if (!quiet)
		print_interrupted_entry(t);
	tt->entry_time = time;
	strbuf_reset(&tt->entry_str);
	tt->ret_kind = SCR_DEFAULT;
	/* -s shows no call but one a tracepoint interrupts: without
	 * tracepoints its arguments are never formatted */
	tt->strings_late = false;
	if (!t->cfg.summary_only || t->cfg.tp_events) {
		const char *strs[SYSCALL_MAX_ARGS];

		if (t->user_strings && has_user_data(sc)) {
			bool got = t->user_strings(t->user_strings_priv, thread->tid, id, args,
						   false, strs);

			ctx.strings = got ? strs : NULL;
			tt->strings_late = strings_missing(sc, args, ctx.strings);
			tt->entry_id = id;
			memcpy(tt->entry_args, args, sizeof(tt->entry_args));
		}
		strbuf_addf(&tt->entry_str, "%s(", sc->name);
		tt->ret_kind = syscall_args__format(sc, args, &ctx, &tt->entry_str);
	}

	if (sc->is_exit) {
		if (!quiet && !t->cfg.failure_only) {
			int printed = (int)tt->entry_str.len + 1;

			print_head(t, thread, 0, false, tt->entry_time);
			strbuf_addf(&t->out, "%s)%*s= ?\n", strbuf_str(&tt->entry_str),
				    args_padding(t, printed), " ");
		}
	} else {
		tt->entry_pending = true;
	}
	t->current = thread;
}

static void update_stats(struct trace_thread *tt, int id, uint64_t time, long ret,
			 bool by_errno)
{
	struct syscall_stats *s;
	uint64_t duration = 0;

	if (!tt->stats)
		tt->stats = xcalloc(syscall__max_nr() + 1, sizeof(*tt->stats));
	s = tt->stats[id];
	if (!s) {
		s = xcalloc(1, sizeof(*s));
		s->min = UINT64_MAX;
		tt->stats[id] = s;
	}
	if (tt->entry_time && time > tt->entry_time)
		duration = time - tt->entry_time;
	stats__update(&s->stats, (double)duration);
	if (duration > s->max)
		s->max = duration;
	if (duration < s->min)
		s->min = duration;
	if (ret >= 0)
		return;
	s->nr_failures++;
	if (!by_errno || -ret > INT_MAX)
		return;
	if (-ret > s->max_errno) {
		int n = (int)-ret;

		s->errnos = xrealloc(s->errnos, n * sizeof(*s->errnos));
		memset(s->errnos + s->max_errno, 0, (n - s->max_errno) * sizeof(*s->errnos));
		s->max_errno = n;
	}
	s->errnos[-ret - 1]++;
}

static void print_ret(struct trace *t, struct thread *thread, struct trace_thread *tt,
		      const struct syscall *sc, long ret)
{
	struct args_ctx c = { t, thread };
	struct syscall_args_ctx ctx = args_ctx(t, &c);
	struct strbuf *o = &t->out;

	if (ret < 0) {
		int err = (int)-ret;
		char buf[128];

		strbuf_addf(o, "-1 %s (", trace__errno_name(err));
		/* perf's XSI strerror_r refuses a number libc has no text for
		 * (the kernel-internal ERESTART* ones) and says so */
		if (strerrorname_np(err))
			strbuf_addf(o, "%s)", strerror_r(err, buf, sizeof(buf)));
		else
			strbuf_addf(o, "INTERNAL ERROR: strerror_r(%d, [buf], %zu)=%d)", err,
				    sizeof(buf), EINVAL);
	} else if (ret == 0 && sc->timeout) {
		strbuf_addstr(o, "0 (Timeout)");
	} else if (tt->ret_kind != SCR_DEFAULT) {
		syscall_ret__format(tt->ret_kind, ret, &ctx, o);
		tt->ret_kind = SCR_DEFAULT;
	} else if (sc->hexret) {
		strbuf_addf(o, "%#lx", ret);
	} else if (sc->errpid) {
		struct thread *child = machine__find_thread(t->machine, (pid_t)ret, (pid_t)ret);

		/* perf prints nothing for a pid it does not know */
		if (child) {
			strbuf_addf(o, "%ld", ret);
			if (child->comm_set)
				strbuf_addf(o, " (%s)", child->comm);
		}
	} else {
		strbuf_addf(o, "%ld", ret);
	}
}

/* A new fd replaces what was known of its number: read its path now,
 * while it is still open; an exec closes the close-on-exec ones. */
static void track_fds(struct trace *t, struct thread *thread, const struct syscall *sc,
		      const struct trace_thread *tt, long ret)
{
	if (ret < 0)
		return;
	if (sc->returns_fd || tt->ret_kind == SCR_FD) {
		fd_forget(t, thread->pid, (int)ret);
		fd_path(t, thread->pid, (int)ret);
	} else if (!ret && !strcmp(sc->name, "execve")) {
		fd_forget_all(t, thread->pid);
	}
}

bool trace__sys_exit(struct trace *t, struct thread *thread, uint64_t time, long id, long ret,
		     int chain_depth)
{
	const struct syscall *sc = syscall_table__get(t->table, (int)id);
	struct trace_thread *tt;
	uint64_t duration = 0;
	bool duration_known = false, shown = false;
	int printed;

	if (!sc)
		return false;
	tt = thread__trace(t, thread);
	if (t->cfg.summary)
		update_stats(tt, (int)id, time, ret, t->cfg.errno_summary);
	if (t->cfg.live)
		track_fds(t, thread, sc, tt, ret);

	if (tt->entry_time) {
		duration = time - tt->entry_time;
		if ((double)duration < t->cfg.duration_ms * NSEC_PER_MSEC)
			goto out;
		duration_known = true;
	} else if (t->cfg.duration_ms > 0) {
		goto out;
	}
	if (t->cfg.summary_only || (ret >= 0 && t->cfg.failure_only))
		goto out;
	if (chain_depth >= 0 && chain_depth < (int)t->cfg.min_stack)
		goto out;

	if (tt->entry_pending && tt->strings_late && tt->entry_id == id)
		late_strings(t, thread, sc, tt);
	print_head(t, thread, duration, duration_known, tt->entry_time);
	if (tt->entry_pending) {
		strbuf_addstr(&t->out, strbuf_str(&tt->entry_str));
		printed = (int)tt->entry_str.len;
	} else {
		strbuf_addf(&t->out, " ... [continued]: %s()", sc->name);
		printed = 20 + (int)strlen(sc->name);
	}
	printed++;	/* the ')' */
	strbuf_addf(&t->out, ")%*s= ", args_padding(t, printed), " ");
	print_ret(t, thread, tt, sc, ret);
	strbuf_addch(&t->out, '\n');
	if (++t->nr_printed == t->cfg.max_events && t->cfg.max_events)
		t->done = true;
	shown = true;
out:
	tt->entry_pending = false;
	return shown;
}

/* A syscalls:sys_enter_* tracepoint: its arguments as the syscall's line
 * shows them (fds, flags, pids decoded), as perf does; false for another
 * event. */
/* The syscall of a syscalls:PREFIXcall tracepoint's sample (its
 * __syscall_nr field in *nr_field), or NULL for another event. */
static const struct syscall *syscall_tp(struct trace *t, const struct tep_event *format,
					const char *prefix, const void *raw, size_t raw_size,
					const struct tep_format_field **nr_field)
{
	const struct syscall *sc;

	if (!format->system || strcmp(format->system, "syscalls") ||
	    strncmp(format->name, prefix, strlen(prefix)) ||
	    !(*nr_field = tep_find_field((struct tep_event *)format, "__syscall_nr")) ||
	    (size_t)(*nr_field)->offset + 4 > raw_size)
		return NULL;
	sc = syscall_table__get(t->table, *(const int *)((const char *)raw + (*nr_field)->offset));
	return sc && sc->name ? sc : NULL;
}

static bool sys_enter_tp_format(struct trace *t, struct thread *thread,
				const struct tep_event *format, const void *raw, size_t raw_size,
				struct syscall_args_ctx *ctx, struct strbuf *o)
{
	const struct tep_format_field *nr_field;
	const struct syscall *sc = syscall_tp(t, format, "sys_enter_", raw, raw_size, &nr_field);
	uint64_t args[SYSCALL_MAX_ARGS] = { 0 };
	int n = 0;

	if (!sc)
		return false;
	for (const struct tep_format_field *f = nr_field->next; f && n < SYSCALL_MAX_ARGS;
	     f = f->next) {
		if (f->size == 8 && (size_t)f->offset + 8 <= raw_size)
			memcpy(&args[n], (const char *)raw + f->offset, 8);
		n++;
	}
	/* perf counts it as one of the thread's events, and from then on
	 * knows the thread's fd paths */
	thread__trace(t, thread);
	ctx->fd_closed = NULL;	/* the syscall's own lines track its fds */
	ctx->empty_strings = true;
	syscall_args__format(sc, args, ctx, o);
	return true;
}

/* A syscalls:sys_exit_* tracepoint: how its ret is shown (see struct
 * syscall's exit_ret), or NULL for another event.  A new fd it returns
 * replaces what was known of its number. */
static const struct syscall_arg_fmt *sys_exit_tp_ret(struct trace *t, struct thread *thread,
						      const struct tep_event *format,
						      const void *raw, size_t raw_size,
						      struct syscall_args_ctx *ctx)
{
	const struct tep_format_field *nr_field, *ret_field;
	const struct syscall *sc = syscall_tp(t, format, "sys_exit_", raw, raw_size, &nr_field);
	int64_t ret;

	if (!sc)
		return NULL;
	/* perf shows no paths for a thread none of whose syscalls it saw */
	if (!trace__thread(t, thread))
		ctx->fd_path = NULL;
	ret_field = tep_find_field((struct tep_event *)format, "ret");
	if (sc->returns_fd && ret_field && ret_field->size == 8 &&
	    (size_t)ret_field->offset + 8 <= raw_size) {
		memcpy(&ret, (const char *)raw + ret_field->offset, 8);
		if (ret >= 0)
			fd_forget(t, thread->pid, (int)ret);
	}
	return &sc->exit_ret;
}

void trace__tp_event(struct trace *t, struct thread *thread, uint64_t time, const char *name,
		     const struct tep_event *format, const void *raw, size_t raw_size)
{
	struct args_ctx c = { t, thread };
	struct syscall_args_ctx ctx = args_ctx(t, &c);
	struct strbuf *o = &t->out;

	/* perf shows tracepoints under -s too: only syscalls are summed up */
	if (t->done)
		return;
	print_interrupted_entry(t);
	if (!t->cfg.hide_timestamp)
		strbuf_addf(o, "%10.3f ", (double)(time - t->base_time) / NSEC_PER_MSEC);
	if (!t->cfg.no_syscalls && !t->cfg.hide_duration)
		strbuf_addstr(o, "(         ): ");
	print_comm_tid(t, thread);
	strbuf_addf(o, "%s(", name);
	if (format && t->cfg.tep_print) {
		struct tep_record rec = { .size = (int)raw_size, .data = (void *)raw };
		struct trace_seq seq;

		trace_seq_init(&seq);
		tep_print_event(format->tep, &seq, &rec, "%s", TEP_PRINT_INFO);
		trace_seq_terminate(&seq);
		strbuf_addstr(o, seq.buffer);
		trace_seq_destroy(&seq);
	} else if (format && !sys_enter_tp_format(t, thread, format, raw, raw_size, &ctx, o)) {
		ctx.fd_closed = NULL;	/* the syscall's own lines track its fds */
		tp_fields__format(format, raw, raw_size, &ctx,
				  sys_exit_tp_ret(t, thread, format, raw, raw_size, &ctx), o);
	}
	strbuf_addstr(o, ")\n");
	if (++t->nr_printed == t->cfg.max_events && t->cfg.max_events)
		t->done = true;
}

void trace__callchain(struct trace *t, const struct callchain_frame *frames, int n)
{
	for (int i = 0; i < n; i++) {
		const struct addr_location *al = &frames[i].al;
		const struct map *map = al->map;

		strbuf_addf(&t->out, "%38s ", "");
		if (al->sym)
			strbuf_addstr(&t->out, al->sym->name);
		else	/* perf's map-relative address, 0 without a map */
			strbuf_addf(&t->out, "[%#" PRIx64 "]", map ? al->addr : 0);
		/* an inlined function's frame names no dso */
		if (frames[i].inlined)
			strbuf_addstr(&t->out, " (inlined)");
		else
			strbuf_addf(&t->out, " (%s)",
				    map && map->dso ? map->dso->long_name : "[unknown]");
		strbuf_addch(&t->out, '\n');
	}
}

/* perf's print_location(): dso@ when asked and known, sym+off when asked
 * and known, else the map-relative address, else the sample's address. */
static void print_location(struct strbuf *o, const struct addr_location *al, uint64_t addr,
			   bool dso, bool sym)
{
	if (dso && al->map)
		strbuf_addf(o, "%s@", al->map->dso->long_name);
	if (sym && al->sym)
		strbuf_addf(o, "%s+0x%" PRIx64, al->sym->name, al->addr - al->sym->start);
	else
		strbuf_addf(o, "0x%" PRIx64, al->map ? al->addr : addr);
}

void trace__pgfault(struct trace *t, struct thread *thread, uint64_t time, bool major,
		    const struct addr_location *ip, const struct addr_location *data,
		    uint64_t addr)
{
	struct trace_thread *tt = thread__trace(t, thread);

	if (major)
		tt->majfaults++;
	else
		tt->minfaults++;
	if (t->cfg.summary_only || t->done)
		return;
	print_head(t, thread, 0, true, time);
	strbuf_addf(&t->out, "%sfault [", major ? "maj" : "min");
	print_location(&t->out, ip, addr, false, true);
	strbuf_addstr(&t->out, "] => ");
	print_location(&t->out, data, addr, true, false);
	strbuf_addf(&t->out, " (%c%c)\n", data->map ? 'd' : '?', data->level);
	if (++t->nr_printed == t->cfg.max_events && t->cfg.max_events)
		t->done = true;
}
