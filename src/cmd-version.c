/* pcl version [--build-options]: the version line, then (on request) the table of the
 * libraries and features this binary was built with, laid out as perf version's. */
#include <stdbool.h>
#include <stdio.h>
#include <unistd.h>

#include "builtin.h"
#include "util/parse-options.h"

#if __has_include(<perf/perf_dlfilter.h>)
#define HAVE_DLFILTER_HEADER true
#else
#define HAVE_DLFILTER_HEADER false
#endif

#ifdef __GLIBC__
#define HAVE_GLIBC true
#else
#define HAVE_GLIBC false
#endif

struct build_feature {
	const char *name;
	bool on;
	const char *macro;
};

/*
 * perf 6.1's rows first, under perf's names, so scripts that grep perf's table read ours;
 * then what pcl has that perf's table does not name.  The libraries the Makefile links are
 * not optional, so their rows are on by construction; OFF says pcl has no such code.
 */
static const struct build_feature build_features[] = {
	{ "dwarf",			true,	"HAVE_DWARF_SUPPORT" },		/* libdw */
	{ "dwarf_getlocations",		true,	"HAVE_DWARF_GETLOCATIONS_SUPPORT" },
	{ "glibc",			HAVE_GLIBC, "HAVE_GLIBC_SUPPORT" },
	{ "syscall_table",		true,	"HAVE_SYSCALL_TABLE_SUPPORT" },	/* from the headers */
	{ "libbfd",			true,	"HAVE_LIBBFD_SUPPORT" },	/* annotate */
	{ "debuginfod",			false,	"HAVE_DEBUGINFOD_SUPPORT" },
	{ "libelf",			true,	"HAVE_LIBELF_SUPPORT" },
	{ "libnuma",			false,	"HAVE_LIBNUMA_SUPPORT" },
	{ "numa_num_possible_cpus",	false,	"HAVE_LIBNUMA_SUPPORT" },
	{ "libperl",			false,	"HAVE_LIBPERL_SUPPORT" },
	{ "libpython",			false,	"HAVE_LIBPYTHON_SUPPORT" },
	{ "libslang",			false,	"HAVE_SLANG_SUPPORT" },
	{ "libcrypto",			false,	"HAVE_LIBCRYPTO_SUPPORT" },
	{ "libunwind",			false,	"HAVE_LIBUNWIND_SUPPORT" },
	{ "libdw-dwarf-unwind",		true,	"HAVE_DWARF_SUPPORT" },
	{ "zlib",			false,	"HAVE_ZLIB_SUPPORT" },
	{ "lzma",			true,	"HAVE_LZMA_SUPPORT" },		/* .ko.xz modules */
	{ "get_cpuid",			false,	"HAVE_AUXTRACE_SUPPORT" },
	{ "bpf",			false,	"HAVE_LIBBPF_SUPPORT" },
	{ "aio",			false,	"HAVE_AIO_SUPPORT" },
	{ "zstd",			true,	"HAVE_ZSTD_SUPPORT" },		/* record -z */
	{ "libpfm4",			false,	"HAVE_LIBPFM" },
	{ "libtraceevent",		true,	"HAVE_LIBTRACEEVENT" },		/* tracepoint fields */
	{ "libtracefs",			true,	"HAVE_LIBTRACEFS" },		/* probes, tracefs */
	{ "libopcodes",			true,	"HAVE_LIBOPCODES" },		/* annotate's text */
	{ "dlfilter",			HAVE_DLFILTER_HEADER, "HAVE_DLFILTER_HEADER" },
};

static void print_build_options(void)
{
	bool color = isatty(STDOUT_FILENO);

	for (size_t i = 0; i < sizeof(build_features) / sizeof(build_features[0]); i++) {
		const struct build_feature *f = &build_features[i];
		const char *state = f->on ? "on " : "OFF";

		printf("%22s: [ ", f->name);
		if (color)
			printf("%s%s\033[m", f->on ? "\033[32m" : "\033[31m", state);
		else
			fputs(state, stdout);
		printf(" ]  # %s\n", f->macro);
	}
}

int cmd_version(int argc, const char **argv)
{
	static const char *const usage[] = { "pcl version [<options>]", NULL };
	bool build_options = false;
	const struct option opts[] = {
		OPT_BOOLEAN(0, "build-options", &build_options, "display the build options"),
		OPT_END(),
	};

	parse_options(argc, argv, opts, usage, 0);
	printf("pcl version %s\n", PCL_VERSION);
	if (build_options)
		print_build_options();
	return 0;
}
