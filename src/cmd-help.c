/* pcl help [CMD]: the command list, or CMD's manual page (pcl-CMD) in man, info or a
 * browser, as perf help.  `pcl CMD --help` lands here too. */
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "builtin.h"
#include "util/exit-codes.h"
#include "util/parse-options.h"

/* man's status for "no manual entry", which perf help returns as it execs man */
#define MAN_EXIT_NOT_FOUND 16

enum manual_viewer { VIEW_MAN, VIEW_INFO, VIEW_WEB };

void print_command_list(void)
{
	printf("\n usage: pcl [--version] [--help] [OPTIONS] COMMAND [ARGS]\n\n"
	       " The most commonly used pcl commands are:\n");
	for (const struct pcl_cmd *c = pcl_commands; c->name; c++)
		printf("   %-15s %s\n", c->name, c->summary);
	printf("\n See 'pcl help COMMAND' for more information on a specific command.\n\n");
}

/* The sub-commands shell completion offers after `pcl CMD` (perf's lists, where pcl has them) */
static const struct {
	const char *cmd;
	const char *subcommands;
} subcommand_lists[] = {
	{ "data",	"convert" },
	{ "kmem",	"record stat" },
	{ "lock",	"record report script info contention" },
	{ "sched",	"record latency map replay script timehist" },
	{ "script",	"record report" },
	{ "test",	"list" },
	{ "timechart",	"record" },
	{ "trace",	"record" },
};

/* The options of `pcl` itself, before a command */
static const char *const main_options[] = { "--help", "--version", "--list-cmds", "--list-opts" };

int list_for_completion(const char *cmd, const char *what)
{
	if (!cmd) {
		if (!strcmp(what, "--list-opts"))
			for (size_t i = 0; i < sizeof(main_options) / sizeof(main_options[0]); i++)
				printf("%s ", main_options[i]);
		else
			for (const struct pcl_cmd *c = pcl_commands; c->name; c++)
				printf("%s ", c->name);
		putchar('\n');
		return 0;
	}
	/* `pcl help --list-cmds`: what help takes is a command */
	if (!strcmp(cmd, "help"))
		for (const struct pcl_cmd *c = pcl_commands; c->name; c++)
			printf("%s ", c->name);
	for (size_t i = 0; i < sizeof(subcommand_lists) / sizeof(subcommand_lists[0]); i++)
		if (!strcmp(subcommand_lists[i].cmd, cmd)) {
			for (const char *w = subcommand_lists[i].subcommands; *w;) {
				size_t n = strcspn(w, " ");

				printf("%.*s ", (int)n, w);
				w += n + (w[n] == ' ');
			}
		}
	putchar('\n');
	return PCL_EXIT_LIST;
}

const struct pcl_cmd *find_command(const char *name)
{
	for (const struct pcl_cmd *c = pcl_commands; c->name; c++)
		if (!strcmp(c->name, name))
			return c;
	return NULL;
}

/* Whether `man -w PAGE` finds an installed page (quietly). */
static bool manual_installed(const char *page)
{
	int status;
	pid_t pid = fork();

	if (pid < 0)
		return false;
	if (pid == 0) {
		if (!freopen("/dev/null", "w", stdout) || !freopen("/dev/null", "w", stderr))
			_exit(127);
		execlp("man", "man", "-w", page, (char *)NULL);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0)
		return false;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

/*
 * The page shipped with this binary but not installed: docs/PAGE.1 next to it (a build
 * tree; one level up for build/pcl-asan), or share/man/man1/PAGE.1 beside its bin/ (a
 * prefix man does not search).
 */
static bool manual_beside_binary(const char *page, char *path, size_t len)
{
	static const char *const places[] = {
		"%s/docs/%s.1", "%s/../docs/%s.1", "%s/../share/man/man1/%s.1",
	};
	char exe[PATH_MAX];
	ssize_t n_exe = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	char *slash;

	if (n_exe <= 0)
		return false;
	exe[n_exe] = '\0';
	slash = strrchr(exe, '/');
	if (!slash)
		return false;
	*slash = '\0';
	for (size_t i = 0; i < sizeof(places) / sizeof(places[0]); i++) {
		int n_path = snprintf(path, len, places[i], exe, page);

		if (n_path > 0 && (size_t)n_path < len && access(path, R_OK) == 0)
			return true;
	}
	return false;
}

static int exec_viewer(const char *prog, const char *const argv[])
{
	fflush(stdout);
	execvp(prog, (char *const *)argv);
	fprintf(stderr, "pcl: cannot run '%s': %m\n", prog);
	return PCL_EXIT_ERROR;
}

static int open_manual(const char *cmd, int viewer)
{
	char page[256], path[PATH_MAX];
	bool installed;

	/* "pcl" and "pcl-record" name pages already; "record" is pcl-record */
	snprintf(page, sizeof(page), strncmp(cmd, "pcl", 3) ? "pcl-%s" : "%s", cmd);
	if (viewer == VIEW_WEB) {
		fprintf(stderr, "pcl: there is no HTML manual; 'pcl help %s' shows the man page.\n",
			cmd);
		return PCL_EXIT_ERROR;
	}
	installed = manual_installed(page);
	if (installed && viewer == VIEW_INFO) {
		const char *argv[] = { "info", page, NULL };
		return exec_viewer("info", argv);
	}
	if (installed) {
		const char *argv[] = { "man", page, NULL };
		return exec_viewer("man", argv);
	}
	/* info reads installed pages only: one beside the binary goes to man */
	if (manual_beside_binary(page, path, sizeof(path))) {
		const char *argv[] = { "man", "-l", path, NULL };
		return exec_viewer("man", argv);
	}
	if (!find_command(cmd) && strncmp(cmd, "pcl", 3))
		fprintf(stderr, "No manual entry for %s: '%s' is not a pcl command. "
			"See 'pcl help'.\n", page, cmd);
	else
		fprintf(stderr, "No manual entry for %s: it is not installed, and there is no "
			"docs/%s.1 beside the pcl binary.\n", page, page);
	return MAN_EXIT_NOT_FOUND;
}

int help_manual(const char *cmd)
{
	return open_manual(cmd, VIEW_MAN);
}

int cmd_help(int argc, const char **argv)
{
	static const char *const usage[] = {
		"pcl help [--all] [--man|--web|--info] [command]", NULL
	};
	bool all = false;
	int viewer = VIEW_MAN;
	const struct option opts[] = {
		OPT_BOOLEAN('a', "all", &all, "print all available commands"),
		OPT_SET_INT('m', "man", &viewer, "show man page", VIEW_MAN),
		OPT_SET_INT('w', "web", &viewer, "show manual in web browser", VIEW_WEB),
		OPT_SET_INT('i', "info", &viewer, "show info page", VIEW_INFO),
		OPT_END(),
	};

	argc = parse_options(argc, argv, opts, usage, 0);
	if (all || argc == 0) {
		print_command_list();
		return 0;
	}
	return open_manual(argv[0], viewer);
}
