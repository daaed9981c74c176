/* pcl config: perf's configuration files listed, read and written as
 * perf config does ("section.name=value" lines). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtin.h"
#include "util/exit-codes.h"
#include "util/parse-options.h"
#include "util/perfconfig.h"
#include "util/util.h"

static const char *const config_usage[] = {
	"perf config [<file-option>] [options] [section.name[=value] ...]", NULL
};

static void list(const struct perfconfig *c)
{
	for (size_t i = 0; i < c->nr; i++)
		for (size_t k = 0; k < c->sections[i].nr; k++)
			printf("%s.%s=%s\n", c->sections[i].name, c->sections[i].items[k].name,
			       c->sections[i].items[k].value);
}

/* Writes the set's own items back to path (perf rewrites the whole file). */
static int write_back(const struct perfconfig *c, const char *path, bool system)
{
	FILE *f = path ? fopen(path, "w") : NULL;

	if (!f) {
		fprintf(stderr, "Error: cannot write %s\n", path ? path : "~/.perfconfig");
		return -1;
	}
	perfconfig__write(c, f, system);
	return fclose(f) ? -1 : 0;
}

int cmd_config(int argc, const char **argv)
{
	bool list_all = false, user = false, system = false, changed = false;
	const struct option opts[] = {
		OPT_BOOLEAN('l', "list", &list_all, "show current config variables"),
		OPT_BOOLEAN(0, "system", &system, "use system config file"),
		OPT_BOOLEAN(0, "user", &user, "use user config file"),
		OPT_END(),
	};
	struct perfconfig c = { 0 };
	char *user_path = perfconfig__user_path(), *path;
	int ret = 0;

	argc = parse_options(argc, argv, opts, config_usage, 0);
	if (user && system) {
		fprintf(stderr, "Error: only one config file at a time\n");
		parse_options_usage(config_usage, opts, "user", false);
		parse_options_usage(NULL, opts, "system", false);
		free(user_path);
		return PCL_EXIT_ERROR;
	}
	if (list_all && argc) {
		fprintf(stderr, "Error: takes no arguments\n");
		parse_options_usage(config_usage, opts, "l", true);
		free(user_path);
		return 0;	/* perf's status */
	}
	/* one file when asked for one (or $PERF_CONFIG), else both */
	path = system ? xstrdup(PERFCONFIG_SYSTEM_PATH) :
	       getenv("PERF_CONFIG") ? xstrdup(getenv("PERF_CONFIG")) :
	       user_path ? xstrdup(user_path) : NULL;
	if (system || user) {
		int bad = path ? perfconfig__read_file(&c, path, system) : 0;

		if (bad)
			fprintf(stderr, "bad config file line %d in %s\n", bad, path);
	} else {
		perfconfig__load(&c);
	}
	if (!argc) {
		list(&c);
		goto out;
	}
	for (int i = 0; i < argc && !ret; i++) {
		const char *eq = strchr(argv[i], '=');
		char *key = eq ? xstrndup(argv[i], (size_t)(eq - argv[i])) : xstrdup(argv[i]);
		const char *dot = strchr(key, '.');

		if (!dot || dot == key || !dot[1]) {
			fprintf(stderr, "The config variable does not contain a section name: %s\n",
				argv[i]);
			ret = PCL_EXIT_ERROR;
		} else if (eq && !eq[1]) {
			fprintf(stderr, "The config variable does not contain a value: %s\n",
				argv[i]);
			ret = PCL_EXIT_ERROR;
		} else if (eq) {
			perfconfig__set(&c, key, eq + 1, system);
			changed = true;
		} else if (perfconfig__get(&c, key)) {
			printf("%s=%s\n", key, perfconfig__get(&c, key));
		}
		free(key);
	}
	if (!ret && changed && write_back(&c, path, system) < 0)
		ret = PCL_EXIT_ERROR;
out:
	perfconfig__release(&c);
	free(path);
	free(user_path);
	return ret;
}
