/* daemon-sessions: the daemon's config and its running set (see
 * daemon-sessions.h). */
#include "core/live/daemon-sessions.h"
#include "util/perfconfig.h"
#include "util/util.h"

#include <stdlib.h>
#include <string.h>

#define SESSION_SECTION_PREFIX "session-"

static void add_session(struct daemon_config *cfg, const char *name, const char *run)
{
	cfg->sessions = xrealloc(cfg->sessions, (cfg->nr + 1) * sizeof(*cfg->sessions));
	cfg->sessions[cfg->nr++] = (struct daemon_session){
		.name = xstrdup(name), .run = xstrdup(run), .pid = -1,
	};
}

enum daemon_config_error daemon_config__read(struct daemon_config *cfg, const char *path)
{
	struct perfconfig pc = { 0 };
	size_t prefix_len = strlen(SESSION_SECTION_PREFIX);
	const char *base;

	*cfg = (struct daemon_config){ 0 };
	if (perfconfig__read_file(&pc, path, false)) {
		perfconfig__release(&pc);
		return DAEMON_CONFIG_UNREADABLE;
	}
	base = perfconfig__get(&pc, "daemon.base");
	if (base)
		cfg->base = xstrdup(base);
	for (size_t i = 0; i < pc.nr; i++) {
		const struct perfconfig_section *sec = &pc.sections[i];
		bool is_session = !strncmp(sec->name, SESSION_SECTION_PREFIX, prefix_len);

		if (!is_session || !sec->name[prefix_len])
			continue;
		for (size_t k = 0; k < sec->nr; k++)
			if (!strcmp(sec->items[k].name, "run"))
				add_session(cfg, sec->name + prefix_len, sec->items[k].value);
	}
	perfconfig__release(&pc);
	return cfg->base ? DAEMON_CONFIG_OK : DAEMON_CONFIG_NO_BASE;
}

struct daemon_session *daemon_config__find(const struct daemon_config *cfg, const char *name)
{
	for (size_t i = 0; i < cfg->nr; i++)
		if (!cfg->sessions[i].stale && !strcmp(cfg->sessions[i].name, name))
			return &cfg->sessions[i];
	return NULL;
}

size_t daemon_config__reconfig(struct daemon_config *running, const struct daemon_config *next)
{
	size_t changes = 0;

	for (size_t i = 0; i < running->nr; i++) {
		struct daemon_session *s = &running->sessions[i];
		const struct daemon_session *wanted = daemon_config__find(next, s->name);

		if (!s->stale && (!wanted || strcmp(wanted->run, s->run))) {
			s->stale = true;
			changes++;
		}
	}
	for (size_t i = 0; i < next->nr; i++) {
		const struct daemon_session *wanted = &next->sessions[i];

		if (!daemon_config__find(running, wanted->name)) {
			add_session(running, wanted->name, wanted->run);
			changes++;
		}
	}
	return changes;
}

static void session_release(struct daemon_session *s)
{
	free(s->name);
	free(s->run);
}

void daemon_config__drop_stale(struct daemon_config *cfg)
{
	size_t kept = 0;

	for (size_t i = 0; i < cfg->nr; i++) {
		if (cfg->sessions[i].stale && cfg->sessions[i].pid < 0)
			session_release(&cfg->sessions[i]);
		else
			cfg->sessions[kept++] = cfg->sessions[i];
	}
	cfg->nr = kept;
}

char **daemon_session__argv(const char *run, size_t prefix_nr, size_t *nr)
{
	char **argv = xcalloc(prefix_nr + strlen(run) / 2 + 2, sizeof(*argv));
	size_t n = prefix_nr;

	for (const char *p = run; *p;) {
		size_t len;

		p += strspn(p, " \t");
		len = strcspn(p, " \t");
		if (len)
			argv[n++] = xstrndup(p, len);
		p += len;
	}
	*nr = n;
	return argv;
}

void daemon_session__argv_free(char **argv, size_t prefix_nr)
{
	for (char **a = argv + prefix_nr; *a; a++)
		free(*a);
	free(argv);
}

void daemon_config__release(struct daemon_config *cfg)
{
	for (size_t i = 0; i < cfg->nr; i++)
		session_release(&cfg->sessions[i]);
	free(cfg->sessions);
	free(cfg->base);
	*cfg = (struct daemon_config){ 0 };
}
