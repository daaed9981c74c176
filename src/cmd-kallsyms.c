/* pcl kallsyms: where the running kernel's symbols lie, looked up by name
 * the way perf's own symbol engine finds them. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "builtin.h"
#include "core/symbols/kernel-maps.h"
#include "core/symbols/machine.h"
#include "ui/session-warnings.h"
#include "util/exit-codes.h"
#include "util/parse-options.h"

static const char *const kallsyms_usage[] = { "pcl kallsyms [<options>] symbol_name", NULL };

/* perf calls the kernel "[kernel]" here and a module by its "[name]". */
static void print_symbol(const char *name, const struct map *map, const struct symbol *sym)
{
	const struct dso *dso = map->dso;
	const char *short_name = strcmp(dso->long_name, "[kernel.kallsyms]") ? dso->short_name :
										"[kernel]";

	printf("%s: %s %s %#" PRIx64 "-%#" PRIx64 " (%#" PRIx64 "-%#" PRIx64 ")\n", name,
	       short_name, dso->long_name, map__unmap_ip(map, sym->start),
	       map__unmap_ip(map, sym->end), sym->start, sym->end);
}

int cmd_kallsyms(int argc, const char **argv)
{
	int verbose = 0;
	const struct option opts[] = {
		OPT_INCR('v', "verbose", &verbose,
			 "be more verbose (show counter open errors, etc)"),
		OPT_END(),
	};
	struct machine *m;
	bool no_modules = false;

	argc = parse_options(argc, argv, opts, kallsyms_usage, 0);
	if (argc < 1)
		usage_with_options(kallsyms_usage, opts);
	m = machine__new();
	if (machine__add_running_kernel_maps(m, &no_modules) < 0) {
		fprintf(stderr, "Couldn't create a machine for the running kernel\n");
		machine__delete(m);
		return PCL_EXIT_FAILURE;
	}
	if (no_modules && verbose)
		fprintf(stderr, "Problems creating module maps, continuing anyway...\n");
	if (verbose)
		session_warnings__kallsyms_modules(NULL, 0);
	for (int i = 0; i < argc; i++) {
		struct map *map;
		struct symbol *sym = machine__find_kernel_symbol_by_name(m, argv[i], &map);

		if (sym)
			print_symbol(argv[i], map, sym);
		else
			printf("%s: not found\n", argv[i]);
	}
	machine__delete(m);
	return 0;
}
