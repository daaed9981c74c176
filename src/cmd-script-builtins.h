/* The built-in scripts of pcl script (cmd-script-builtins.c). */
#ifndef PCL_CMD_SCRIPT_BUILTINS_H
#define PCL_CMD_SCRIPT_BUILTINS_H

#include <stdbool.h>

struct script_builtin;
struct sample_filter;

/* -l: the built-ins as perf lists its scripts. */
int script_builtins_list(void);

/* The built-in -s names, or NULL when script is none. */
const struct script_builtin *script_builtin_named(const char *script);

/* Runs built-in sb's report on input (NULL: perf.data) with the script's
 * arguments, on the samples filter (NULL: all) keeps, time its --time
 * (NULL: none).  Returns the exit code. */
int script_builtin_report(const struct script_builtin *sb, const char *input, bool force,
			  struct sample_filter *filter, const char *time, int argc,
			  const char **argv);

/* `pcl script NAME [args]`: record into a pipe, report from it (argv[0]
 * is NAME). */
int script_builtin_live(const struct script_builtin *sb, int argc, const char **argv,
			bool system_wide);

/* `pcl script record NAME ...` and `pcl script report NAME ...`: argv[0] is
 * "record" or "report". */
int script_builtin_cmd(int argc, const char **argv);

#endif
