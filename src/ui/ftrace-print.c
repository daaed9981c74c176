/* ftrace-print: perf ftrace latency's histogram table, column for column. */
#include "ui/ftrace-print.h"

#include "core/analysis/ftrace-latency.h"

#define BAR_WIDTH 46 /* the table fits in 80 columns */

static void print_row(FILE *fp, int start, const char *stop, const char *unit, unsigned long count,
		      unsigned long total)
{
	static const char bar[] = "##############################################";
	int len = (int)(count * BAR_WIDTH / total);

	fprintf(fp, "  %4d - %-4s %s | %10lu | %.*s%*s |\n", start, stop, unit, count, len, bar,
		BAR_WIDTH - len, "");
}

void ftrace_latency__print(FILE *fp, const struct ftrace_latency *lat)
{
	unsigned long total = ftrace_latency__total(lat);
	const char *small = lat->use_nsec ? "ns" : "us", *large = lat->use_nsec ? "us" : "ms";
	char stop[16];

	if (!total) {
		fprintf(fp, "No data found\n");
		return;
	}
	fprintf(fp, "# %14s | %10s | %-*s |\n", "  DURATION    ", "COUNT", BAR_WIDTH, "GRAPH");
	print_row(fp, 0, "1", small, lat->buckets[0], total);
	for (int i = 1; i < FTRACE_LATENCY_BUCKETS - 1; i++) {
		int start = 1 << (i - 1), end = 1 << i;
		const char *unit = small;

		/* from 1024 on, the next unit up */
		if (start >= 1024) {
			start >>= 10;
			end >>= 10;
			unit = large;
		}
		snprintf(stop, sizeof(stop), "%d", end);
		print_row(fp, start, stop, unit, lat->buckets[i], total);
	}
	print_row(fp, 1, "...", lat->use_nsec ? "ms" : " s",
		  lat->buckets[FTRACE_LATENCY_BUCKETS - 1], total);
}
