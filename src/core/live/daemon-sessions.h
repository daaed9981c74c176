/* daemon-sessions: what `pcl daemon` keeps running, as its config file
 * says (perfconfig syntax: "[daemon] base = DIR" and one
 * "[session-NAME] run = <record options>" per session), and how a
 * re-read config changes the running set.  Pure bookkeeping: starting and
 * stopping the record processes is the command's business.
 */
#ifndef PCL_DAEMON_SESSIONS_H
#define PCL_DAEMON_SESSIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>
#include <time.h>

struct daemon_session {
	char *name, *run;
	pid_t pid;		/* the record process, or -1 when none runs */
	time_t started;
	bool stale;		/* gone from the config or its run changed: to stop */
};

struct daemon_config {
	char *base;		/* daemon.base, or NULL */
	struct daemon_session *sessions;
	size_t nr;
};

enum daemon_config_error {
	DAEMON_CONFIG_OK,
	DAEMON_CONFIG_UNREADABLE,	/* a bad line */
	DAEMON_CONFIG_NO_BASE,
};

/* Reads path's daemon.base and sessions (in file order, not running). */
enum daemon_config_error daemon_config__read(struct daemon_config *cfg, const char *path);

/* The session named name, or NULL. */
struct daemon_session *daemon_config__find(const struct daemon_config *cfg, const char *name);

/* Takes a re-read config's sessions into running: a session gone from next,
 * or whose run line changed, is marked stale (to stop, then drop); a new
 * one (or the changed one's replacement) is appended with pid -1 (to
 * start).  Unchanged sessions keep running as they are.  Returns the
 * number of sessions marked stale or added. */
size_t daemon_config__reconfig(struct daemon_config *running, const struct daemon_config *next);

/* Drops the stale sessions that no longer run. */
void daemon_config__drop_stale(struct daemon_config *cfg);

/* Splits a run line into arguments at blanks, as perf does (no quoting);
 * returns a NULL-terminated array of prefix_nr slots left free at its
 * front, then the words; *nr gets prefix_nr + the number of words. */
char **daemon_session__argv(const char *run, size_t prefix_nr, size_t *nr);
void daemon_session__argv_free(char **argv, size_t prefix_nr);

void daemon_config__release(struct daemon_config *cfg);

#endif
