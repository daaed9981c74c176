/* script-menu: perf's menu of scripts ('r' in the report and annotate
 * browsers, "Run scripts ..." in the report browser's options): pcl
 * script's views of the samples (plain, with the instructions, with the
 * source), a custom pcl script command line, and the built-in scripts
 * that fit the recording.  The choice runs through the shell into less,
 * the terminal handed over meanwhile (ui/tui.h), as perf does. */
#ifndef PCL_SCRIPT_MENU_H
#define PCL_SCRIPT_MENU_H

/* What the scripts read. */
struct script_menu {
	const char *input;		/* the perf.data the report read (-i), or NULL */
	const char *const *events;	/* the recording's event names */
	int nr_events;
};

/* The menu, then the chosen script on the samples of that comm or that
 * symbol (-c, -S; NULL: all). */
void script_menu__run(const struct script_menu *m, const char *comm, const char *symbol);

#endif
