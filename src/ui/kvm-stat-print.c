/* kvm-stat-print: the per-event table of perf kvm stat, column for column. */
#include "ui/kvm-stat-print.h"

#include <inttypes.h>

#define NSEC_PER_USEC 1000.0

static void decode(FILE *out, const struct kvm_stat *k, const struct kvm_event *e,
		   char buf[KVM_DECODE_LEN])
{
	if (!kvm_stat__decode(k, e, buf))
		fprintf(out, "unknown kvm exit code:%lld on %s\n", (long long)e->key, k->isa);
}

void kvm_stat_print(FILE *out, const struct kvm_stat *k, const char *pids)
{
	char name[KVM_DECODE_LEN];

	fputs("\n\nAnalyze events for ", out);
	if (pids)
		fprintf(out, "pid(s) %s, ", pids);
	else
		fputs("all VMs, ", out);
	if (k->vcpu == -1)
		fputs("all VCPUs:\n\n", out);
	else
		fprintf(out, "VCPU %d:\n\n", k->vcpu);
	fprintf(out, "%*s %10s %9s %9s %11s %11s %16s \n\n", KVM_DECODE_LEN,
		kvm_stat__event_title(k->report), "Samples", "Samples%", "Time%", "Min Time",
		"Max Time", "Avg time");
	for (size_t i = 0; i < k->nr_rows; i++) {
		const struct kvm_event *e = k->rows[i];
		const struct kvm_event_stats *es = kvm_stat__stats(k, e);
		uint64_t count = (uint64_t)es->stats.n;

		decode(out, k, e, name);
		fprintf(out, "%*s %10" PRIu64 " %8.2f%% %8.2f%% %9.2fus %9.2fus %9.2fus"
			" ( +-%7.2f%% )\n",
			KVM_DECODE_LEN, name, count, (double)count / (double)k->total_count * 100,
			(double)es->time / (double)k->total_time * 100,
			(double)es->stats.min / NSEC_PER_USEC,
			(double)es->stats.max / NSEC_PER_USEC,
			(double)es->time / (double)count / NSEC_PER_USEC,
			kvm_stats__rel_stddev(&es->stats));
	}
	fprintf(out, "\nTotal Samples:%" PRIu64 ", Total events handled time:%.2fus.\n\n",
		k->total_count, (double)k->total_time / NSEC_PER_USEC);
}

void kvm_stat_print_slow(FILE *out, const struct kvm_stat *k, const struct kvm_slow_event *slow)
{
	char name[KVM_DECODE_LEN];

	decode(out, k, slow->event, name);
	fprintf(out, "%" PRIu64 " VM %d, vcpu %d: %s event took %" PRIu64 "usec\n", slow->time,
		slow->pid, slow->vcpu, name, slow->took / 1000);
}
