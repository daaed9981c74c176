/* The command table: every `pcl CMD` is a cmd_CMD(argc, argv) in src/cmd-CMD.c.
 * argv[0] is the command name; the return value is the exit status. */
#ifndef PCL_BUILTIN_H
#define PCL_BUILTIN_H

#define PCL_VERSION "0.1.0"

struct pcl_cmd {
	const char *name;
	int (*fn)(int argc, const char **argv);
	const char *summary;
};

int cmd_version(int argc, const char **argv);
int cmd_bench(int argc, const char **argv);
int cmd_buildid_cache(int argc, const char **argv);
int cmd_annotate(int argc, const char **argv);
int cmd_archive(int argc, const char **argv);
int cmd_buildid_list(int argc, const char **argv);
int cmd_daemon(int argc, const char **argv);
int cmd_data(int argc, const char **argv);
int cmd_c2c(int argc, const char **argv);
int cmd_config(int argc, const char **argv);
int cmd_diff(int argc, const char **argv);
int cmd_evlist(int argc, const char **argv);
int cmd_collapse(int argc, const char **argv);
int cmd_flamegraph(int argc, const char **argv);
int cmd_script(int argc, const char **argv);
int cmd_ftrace(int argc, const char **argv);
int cmd_heatmap(int argc, const char **argv);
int cmd_help(int argc, const char **argv);
int cmd_inject(int argc, const char **argv);
int cmd_iostat(int argc, const char **argv);
int cmd_stat(int argc, const char **argv);
int cmd_record(int argc, const char **argv);
/* "X record": record with the command's own options rec_argv[0..n) (room
 * left for argc more), then the user's argv[0..argc). */
int cmd_record_then(const char **rec_argv, int n, int argc, const char **argv);
int cmd_kallsyms(int argc, const char **argv);
int cmd_list(int argc, const char **argv);
int cmd_kmem(int argc, const char **argv);
int cmd_kvm(int argc, const char **argv);
int cmd_kwork(int argc, const char **argv);
int cmd_lock(int argc, const char **argv);
int cmd_mem(int argc, const char **argv);
int cmd_probe(int argc, const char **argv);
int cmd_report(int argc, const char **argv);
int cmd_test(int argc, const char **argv);
int cmd_top(int argc, const char **argv);
int cmd_trace(int argc, const char **argv);
int cmd_sched(int argc, const char **argv);
int cmd_timechart(int argc, const char **argv);

extern const struct pcl_cmd pcl_commands[];

/* cmd-help.c: a command by name, the list `pcl` and `pcl help` print, CMD's manual
 * (`pcl CMD --help`) */
const struct pcl_cmd *find_command(const char *name);
void print_command_list(void);
int help_manual(const char *cmd);
/* --list-cmds / --list-opts (what) of pcl (cmd NULL) or the sub-commands of cmd, for
 * shell completion; returns the exit status (perf's: 0 for pcl, 130 for a command) */
int list_for_completion(const char *cmd, const char *what);

#endif
