/* pcl iostat: PCIe root ports' I/O metrics from Intel's IIO uncore PMUs.  perf iostat is
 * `perf stat --iostat[=ARG] ...`; where the machine has no IIO PMU it stops at once with
 * perf's message, status and usage text, which is what pcl does.  Measuring with the IIO
 * PMUs is not implemented yet. */
#include <glob.h>
#include <regex.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "builtin.h"
#include "util/exit-codes.h"
#include "util/parse-options.h"

/* Intel's IIO stacks: one PMU per stack, uncore_iio_0 ... */
static bool machine_has_iio_pmu(void)
{
	glob_t g;
	bool found = glob("/sys/bus/event_source/devices/uncore_iio_*", 0, NULL, &g) == 0;

	globfree(&g);
	return found;
}

/* perf iostat passes "list" and root-port lists ("0000:00,0000:80") as --iostat's value,
 * anything else as stat's own arguments */
static bool is_iostat_value(const char *arg)
{
	regex_t port;
	bool match;

	if (!strcmp(arg, "list"))
		return true;
	if (regcomp(&port, "[0-9a-fA-F]+:[0-9a-fA-F]{1,2}", REG_EXTENDED | REG_NOSUB))
		return false;
	match = regexec(&port, arg, 0, NULL, 0) == 0;
	regfree(&port);
	return match;
}

int cmd_iostat(int argc, const char **argv)
{
	static const char *const stat_usage[] = { "pcl stat [<options>] [<command>]", NULL };
	static const struct option iostat_option[] = {
		{ .type = OPT_STRING_T, .long_name = "iostat", .argh = "default",
		  .help = "measure I/O performance metrics provided by arch/platform",
		  .flags = OPTF_OPTARG },
		OPT_END(),
	};
	static const struct option no_option[] = { OPT_END() };
	bool has_value = argc > 1 && is_iostat_value(argv[1]);

	if (machine_has_iio_pmu()) {
		fprintf(stderr, "pcl iostat: this machine has IIO PMUs, but measuring with them "
			"is not implemented yet.\n");
		return PCL_EXIT_ERROR;
	}
	/* perf names the option in its usage only when it came without a value */
	fprintf(stderr, "Unsupported uncore pmu configuration\n");
	parse_options_usage(stat_usage, has_value ? no_option : iostat_option, "iostat", false);
	return PCL_EXIT_USAGE;
}
