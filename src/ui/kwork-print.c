/* kwork-print: perf kwork's layouts (see kwork-print.h). */
#include "ui/kwork-print.h"

#include <inttypes.h>
#include <string.h>

#define NAME_WIDTH 30		/* the name is cut to one less, as perf's buffer does */
#define RULE "--------------------------------------------------------------------------" \
	     "--------------------------------------------------------------------------"

static void work_name(const struct kwork_work *w, char *buf, size_t len)
{
	switch (w->class) {
	case KWORK_IRQ:
		snprintf(buf, len, "%s:%" PRIu64, w->name ? w->name : "(null)", w->id);
		break;
	case KWORK_SOFTIRQ:
		snprintf(buf, len, "(s)%s:%" PRIu64, w->name ? w->name : "(null)", w->id);
		break;
	default:
		if (w->name)
			snprintf(buf, len, "(w)%s", w->name);
		else
			snprintf(buf, len, "(w)0x%" PRIx64, w->id);
		break;
	}
}

/* seconds and microseconds, the nanoseconds cut */
static void stamp(char *buf, size_t len, uint64_t ns)
{
	snprintf(buf, len, "%" PRIu64 ".%06" PRIu64, ns / 1000000000, ns % 1000000000 / 1000);
}

static void separator(FILE *fp, int len)
{
	fprintf(fp, " %.*s\n", len, RULE);
}

static int table_header(FILE *fp, bool latency)
{
	int len;

	fputs("\n ", fp);
	len = fprintf(fp, " %-*s | %-4s |", NAME_WIDTH, "Kwork Name", "Cpu");
	len += fprintf(fp, " %-13s |", latency ? "Avg delay" : "Total Runtime");
	len += fprintf(fp, " %-9s |", "Count");
	len += fprintf(fp, " %-13s | %-19s | %-19s |", latency ? "Max delay" : "Max runtime",
		       latency ? "Max delay start" : "Max runtime start",
		       latency ? "Max delay end" : "Max runtime end");
	fputc('\n', fp);
	separator(fp, len);
	return len;
}

static void table_row(FILE *fp, const struct kwork_work *w, bool latency)
{
	char name[NAME_WIDTH], start[32], end[32];

	work_name(w, name, sizeof(name));
	fprintf(fp, "  %-*s | %04d |", NAME_WIDTH, name, w->cpu);
	if (latency)
		fprintf(fp, " %10.3f ms |", (double)w->total_latency / w->nr_atoms / 1e6);
	else
		fprintf(fp, " %10.3f ms |", (double)w->total_runtime / 1e6);
	fprintf(fp, " %9" PRIu64 " |", w->nr_atoms);
	stamp(start, sizeof(start), latency ? w->max_latency_start : w->max_runtime_start);
	stamp(end, sizeof(end), latency ? w->max_latency_end : w->max_runtime_end);
	fprintf(fp, " %10.3f ms | %17s s | %17s s |\n",
		(double)(latency ? w->max_latency : w->max_runtime) / 1e6, start, end);
}

void kwork_print_table(FILE *fp, enum kwork_mode mode, struct kwork_work *const *works,
		       size_t nr, const struct kwork_report_info *info)
{
	static const char *const kinds[KWORK_NR_TRACES] = { "raise", "entry", "exit" };
	bool latency = mode == KWORK_LATENCY;
	int len = table_header(fp, latency);
	uint64_t all_runtime = 0, all_count = 0;

	for (size_t i = 0; i < nr; i++) {
		if (!works[i]->nr_atoms)
			continue;
		table_row(fp, works[i], latency);
		all_runtime += works[i]->total_runtime;
		all_count += works[i]->nr_atoms;
	}
	separator(fp, len);
	if (info->summary) {
		uint64_t span = info->time_end - info->time_start;

		fprintf(fp, "  Total count            : %9" PRIu64 "\n", all_count);
		/* perf's "load average" is the plain ratio, not a percentage */
		fprintf(fp, "  Total runtime   (msec) : %9.3f (%.3f%% load average)\n",
			(double)all_runtime / 1e6, span ? (double)all_runtime / span : 0);
		fprintf(fp, "  Total time span (msec) : %9.3f\n", (double)span / 1e6);
		separator(fp, len);
	}
	if (info->nr_lost_events && info->nr_events)
		fprintf(fp, "  INFO: %.3f%% lost events (%" PRIu64 " out of %" PRIu64
			", in %" PRIu64 " chunks)\n",
			(double)info->nr_lost_events / (double)info->nr_events * 100.0,
			info->nr_lost_events, info->nr_events, info->nr_lost_chunks);
	if (info->skipped[KWORK_NR_TRACES] && info->nr_events) {
		fprintf(fp, "  INFO: %.3f%% skipped events (%" PRIu64 " including ",
			(double)info->skipped[KWORK_NR_TRACES] / (double)info->nr_events * 100.0,
			info->skipped[KWORK_NR_TRACES]);
		for (int t = 0; t < KWORK_NR_TRACES; t++)
			fprintf(fp, "%" PRIu64 " %s%s", info->skipped[t], kinds[t],
				t == KWORK_NR_TRACES - 1 ? ")\n" : ", ");
	}
	if (info->verbose)
		fprintf(fp, "  INFO: use %" PRIu64 " atom pages\n", info->atom_pages);
	fputc('\n', fp);
}

void kwork_print_timehist_header(FILE *fp)
{
	fprintf(fp, " %-17s  %-17s  %-6s  %-*s  %-10s  %-10s\n", "Runtime start", "Runtime end",
		"Cpu", NAME_WIDTH, "Kwork name", "Runtime", "Delaytime");
	fprintf(fp, " %-17s  %-17s  %-6s  %-*s  %-10s  %-10s\n", "", "", "", NAME_WIDTH,
		"(TYPE)NAME:NUM", "(msec)", "(msec)");
	fprintf(fp, " %.17s  %.17s  %.6s  %.*s  %.10s  %.10s\n", RULE, RULE, RULE, NAME_WIDTH,
		RULE, RULE, RULE);
}

/* The softirq machinery's own frames say nothing: perf leaves them out. */
static bool ignored(const struct callchain_frame *f)
{
	const char *name = f->al.sym ? f->al.sym->name : NULL;

	return name && (!strcmp(name, "__softirqentry_text_start") ||
			!strcmp(name, "__do_softirq"));
}

void kwork_print_run(FILE *fp, const struct kwork_run *run, bool callchain,
		     const struct callchain_frame *frames, int nr_frames)
{
	char entry[32], exit[32], name[NAME_WIDTH];

	stamp(entry, sizeof(entry), run->entry);
	stamp(exit, sizeof(exit), run->exit);
	work_name(run->work, name, sizeof(name));
	fprintf(fp, " %17s  %17s  [%04d]  %-*s  %10.3f ", entry, exit, run->work->cpu,
		NAME_WIDTH, name, (double)(run->exit - run->entry) / 1e6);
	if (run->raise)
		fprintf(fp, " %10.3f ", (double)(run->entry - run->raise) / 1e6);
	else
		fprintf(fp, " %10s ", " ");
	if (callchain) {
		bool first = true;

		fputc(' ', fp);
		for (int i = 0; i < nr_frames; i++) {
			if (ignored(&frames[i]))
				continue;
			fprintf(fp, "%s %s", first ? "" : " <-",
				frames[i].al.sym ? frames[i].al.sym->name : "[unknown]");
			first = false;
		}
	}
	fputc('\n', fp);
}
