/* exit-codes: the exit statuses of pcl's commands, perf's where perf has
 * one.  perf's commands return -1 or a negative errno from main() and the
 * shell sees the low byte, so -1 is 255 and -EINVAL 234.  The e2e tests
 * compare statuses with perf's: the values must not change. */
#ifndef PCL_EXIT_CODES_H
#define PCL_EXIT_CODES_H

enum pcl_exit {
	PCL_EXIT_OK = 0,
	PCL_EXIT_FAILURE = 1,	/* a failure where perf's status is 1 too */
	PCL_EXIT_SIGNAL = 128,	/* plus the signal that killed the workload */
	PCL_EXIT_USAGE = 129,	/* bad options or -h: perf's (and git's) usage exit */
	PCL_EXIT_LIST = 130,	/* after --list-opts / --list-cmds, perf's status */
	PCL_EXIT_EINVAL = 234,	/* perf's -EINVAL: a bad argument, event or file */
	PCL_EXIT_ENODEV = 237,	/* perf's -ENODEV: no such CPU (record --threads masks) */
	PCL_EXIT_ENOENT = 254,	/* perf's -ENOENT: a missing input */
	PCL_EXIT_ERROR = 255,	/* perf's -1: any other failure */
};

#endif
