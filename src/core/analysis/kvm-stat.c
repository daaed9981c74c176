/* kvm-stat: timing KVM events from their begin to their end tracepoint. */
#include "core/analysis/kvm-stat.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <traceevent/event-parse.h>

#include "core/analysis/tp-fields.h"
#include "core/data/session.h"
#include "core/events/tracepoint.h"
#include "util/util.h"

/* The exit reasons perf 6.1 knows (its copy of the kernel's uapi vmx.h). */
static const struct kvm_exit_reason vmx_reasons[] = {
	{ 0, "EXCEPTION_NMI" }, { 1, "EXTERNAL_INTERRUPT" }, { 2, "TRIPLE_FAULT" },
	{ 3, "INIT_SIGNAL" }, { 4, "SIPI_SIGNAL" }, { 7, "INTERRUPT_WINDOW" },
	{ 8, "NMI_WINDOW" }, { 9, "TASK_SWITCH" }, { 10, "CPUID" }, { 12, "HLT" },
	{ 13, "INVD" }, { 14, "INVLPG" }, { 15, "RDPMC" }, { 16, "RDTSC" }, { 18, "VMCALL" },
	{ 19, "VMCLEAR" }, { 20, "VMLAUNCH" }, { 21, "VMPTRLD" }, { 22, "VMPTRST" },
	{ 23, "VMREAD" }, { 24, "VMRESUME" }, { 25, "VMWRITE" }, { 26, "VMOFF" },
	{ 27, "VMON" }, { 28, "CR_ACCESS" }, { 29, "DR_ACCESS" }, { 30, "IO_INSTRUCTION" },
	{ 31, "MSR_READ" }, { 32, "MSR_WRITE" }, { 33, "INVALID_STATE" },
	{ 34, "MSR_LOAD_FAIL" }, { 36, "MWAIT_INSTRUCTION" }, { 37, "MONITOR_TRAP_FLAG" },
	{ 39, "MONITOR_INSTRUCTION" }, { 40, "PAUSE_INSTRUCTION" },
	{ 41, "MCE_DURING_VMENTRY" }, { 43, "TPR_BELOW_THRESHOLD" }, { 44, "APIC_ACCESS" },
	{ 45, "EOI_INDUCED" }, { 46, "GDTR_IDTR" }, { 47, "LDTR_TR" },
	{ 48, "EPT_VIOLATION" }, { 49, "EPT_MISCONFIG" }, { 50, "INVEPT" }, { 51, "RDTSCP" },
	{ 52, "PREEMPTION_TIMER" }, { 53, "INVVPID" }, { 54, "WBINVD" }, { 55, "XSETBV" },
	{ 56, "APIC_WRITE" }, { 57, "RDRAND" }, { 58, "INVPCID" }, { 59, "VMFUNC" },
	{ 60, "ENCLS" }, { 61, "RDSEED" }, { 62, "PML_FULL" }, { 63, "XSAVES" },
	{ 64, "XRSTORS" }, { 67, "UMWAIT" }, { 68, "TPAUSE" }, { 74, "BUS_LOCK" },
	{ 75, "NOTIFY" }, { 0, NULL },
};

/* ... and of uapi svm.h: exit codes, exceptions at 0x40 + vector. */
static const struct kvm_exit_reason svm_reasons[] = {
	{ 0x000, "read_cr0" }, { 0x002, "read_cr2" }, { 0x003, "read_cr3" },
	{ 0x004, "read_cr4" }, { 0x008, "read_cr8" }, { 0x010, "write_cr0" },
	{ 0x012, "write_cr2" }, { 0x013, "write_cr3" }, { 0x014, "write_cr4" },
	{ 0x018, "write_cr8" }, { 0x020, "read_dr0" }, { 0x021, "read_dr1" },
	{ 0x022, "read_dr2" }, { 0x023, "read_dr3" }, { 0x024, "read_dr4" },
	{ 0x025, "read_dr5" }, { 0x026, "read_dr6" }, { 0x027, "read_dr7" },
	{ 0x030, "write_dr0" }, { 0x031, "write_dr1" }, { 0x032, "write_dr2" },
	{ 0x033, "write_dr3" }, { 0x034, "write_dr4" }, { 0x035, "write_dr5" },
	{ 0x036, "write_dr6" }, { 0x037, "write_dr7" },
	{ 0x040, "DE excp" }, { 0x041, "DB excp" }, { 0x043, "BP excp" }, { 0x044, "OF excp" },
	{ 0x045, "BR excp" }, { 0x046, "UD excp" }, { 0x047, "NM excp" }, { 0x048, "DF excp" },
	{ 0x04a, "TS excp" }, { 0x04b, "NP excp" }, { 0x04c, "SS excp" }, { 0x04d, "GP excp" },
	{ 0x04e, "PF excp" }, { 0x050, "MF excp" }, { 0x051, "AC excp" }, { 0x052, "MC excp" },
	{ 0x053, "XF excp" },
	{ 0x060, "interrupt" }, { 0x061, "nmi" }, { 0x062, "smi" }, { 0x063, "init" },
	{ 0x064, "vintr" }, { 0x065, "cr0_sel_write" }, { 0x066, "read_idtr" },
	{ 0x067, "read_gdtr" }, { 0x068, "read_ldtr" }, { 0x069, "read_rt" },
	{ 0x06a, "write_idtr" }, { 0x06b, "write_gdtr" }, { 0x06c, "write_ldtr" },
	{ 0x06d, "write_rt" }, { 0x06e, "rdtsc" }, { 0x06f, "rdpmc" }, { 0x070, "pushf" },
	{ 0x071, "popf" }, { 0x072, "cpuid" }, { 0x073, "rsm" }, { 0x074, "iret" },
	{ 0x075, "swint" }, { 0x076, "invd" }, { 0x077, "pause" }, { 0x078, "hlt" },
	{ 0x079, "invlpg" }, { 0x07a, "invlpga" }, { 0x07b, "io" }, { 0x07c, "msr" },
	{ 0x07d, "task_switch" }, { 0x07e, "ferr_freeze" }, { 0x07f, "shutdown" },
	{ 0x080, "vmrun" }, { 0x081, "hypercall" }, { 0x082, "vmload" }, { 0x083, "vmsave" },
	{ 0x084, "stgi" }, { 0x085, "clgi" }, { 0x086, "skinit" }, { 0x087, "rdtscp" },
	{ 0x088, "icebp" }, { 0x089, "wbinvd" }, { 0x08a, "monitor" }, { 0x08b, "mwait" },
	{ 0x08d, "xsetbv" }, { 0x08f, "write_efer_trap" }, { 0x090, "write_cr0_trap" },
	{ 0x094, "write_cr4_trap" }, { 0x098, "write_cr8_trap" }, { 0x0a2, "invpcid" },
	{ 0x400, "npf" }, { 0x401, "avic_incomplete_ipi" },
	{ 0x402, "avic_unaccelerated_access" }, { 0x403, "vmgexit" },
	{ 0x80000001, "vmgexit_mmio_read" }, { 0x80000002, "vmgexit_mmio_write" },
	{ 0x80000003, "vmgexit_nmi_complete" }, { 0x80000004, "vmgexit_ap_hlt_loop" },
	{ 0x80000005, "vmgexit_ap_jump_table" }, { 0x80000010, "vmgexit_page_state_change" },
	{ 0x80000011, "vmgexit_guest_request" }, { 0x80000012, "vmgexit_ext_guest_request" },
	{ 0x80000013, "vmgexit_ap_creation" }, { 0x8000fffd, "vmgexit_hypervisor_feature" },
	{ 0, NULL },
};

/* What perf remembers of a vCPU thread: its id (from its first kvm_entry)
 * and the event in flight. */
struct kvm_vcpu_record {
	int vcpu_id;
	struct kvm_event *last_event;
	uint64_t start_time;
	struct kvm_vcpu_record *next;
};

void kvm_stat__init(struct kvm_stat *k)
{
	memset(k, 0, sizeof(*k));
	k->vcpu = -1;
	k->report = KVM_REPORT_VMEXIT;
	k->sort = KVM_SORT_SAMPLE;
}

static void stats_clear(struct kvm_event_stats *es)
{
	*es = (struct kvm_event_stats){ .stats.min = UINT64_MAX };
}

void kvm_stat__clear(struct kvm_stat *k)
{
	for (size_t b = 0; b < KVM_STAT_BUCKETS; b++) {
		for (struct kvm_event *e = k->buckets[b]; e; e = e->bucket_next) {
			stats_clear(&e->total);
			for (int v = 0; v < e->max_vcpu; v++)
				stats_clear(&e->vcpu[v]);
		}
	}
}

void kvm_stat__exit(struct kvm_stat *k)
{
	for (size_t b = 0; b < KVM_STAT_BUCKETS; b++) {
		while (k->buckets[b]) {
			struct kvm_event *e = k->buckets[b];

			k->buckets[b] = e->bucket_next;
			free(e->vcpu);
			free(e);
		}
	}
	free(k->rows);
	while (k->records) {
		struct kvm_vcpu_record *r = k->records;

		k->records = r->next;
		free(r);
	}
	hashmap_release(&k->vcpus);
}

int kvm_stat__set_isa(struct kvm_stat *k, const char *cpuid)
{
	if (cpuid && strstr(cpuid, "Intel")) {
		k->reasons = vmx_reasons;
		k->isa = "VMX";
	} else if (cpuid && (strstr(cpuid, "AMD") || strstr(cpuid, "Hygon"))) {
		k->reasons = svm_reasons;
		k->isa = "SVM";
	} else {
		return -1;
	}
	return 0;
}

int kvm_stat__parse_event(const char *name, enum kvm_report_event *out)
{
	static const char *const names[] = { "vmexit", "mmio", "ioport", "msr" };

	for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
		if (!strcmp(name, names[i])) {
			*out = (enum kvm_report_event)i;
			return 0;
		}
	}
	return -1;
}

int kvm_stat__parse_key(const char *name, enum kvm_sort_key *out)
{
	if (!strcmp(name, "sample"))
		*out = KVM_SORT_SAMPLE;
	else if (!strcmp(name, "time"))
		*out = KVM_SORT_TIME;
	else
		return -1;
	return 0;
}

int kvm_stat__parse_pids(const char *list, int **pids, size_t *nr)
{
	const char *s = list;
	char *end;

	*pids = NULL;
	*nr = 0;
	for (;;) {
		long pid = strtol(s, &end, 10);

		if (*end != ',' && *end != '\0')
			break;
		for (size_t i = 0; i < *nr; i++)
			if ((*pids)[i] == (int)pid)
				goto bad;	/* perf's list refuses a repeated pid */
		*pids = xrealloc(*pids, (*nr + 1) * sizeof(**pids));
		(*pids)[(*nr)++] = (int)pid;
		if (*end == '\0')
			return 0;
		s = end + 1;
	}
bad:
	free(*pids);
	*pids = NULL;
	*nr = 0;
	return -1;
}

static struct kvm_event *find_create_event(struct kvm_stat *k, uint64_t key, uint64_t info)
{
	struct kvm_event **bucket = &k->buckets[key & (KVM_STAT_BUCKETS - 1)];
	struct kvm_event *e;

	for (e = *bucket; e; e = e->bucket_next)
		if (e->key == key && e->info == info)
			return e;
	e = xcalloc(1, sizeof(*e));
	e->key = key;
	e->info = info;
	stats_clear(&e->total);
	e->bucket_next = *bucket;
	*bucket = e;
	return e;
}

static void stats_update(struct kvm_event_stats *es, uint64_t took)
{
	struct kvm_stats *s = &es->stats;
	double delta;

	es->time += took;
	s->n++;
	delta = (double)took - s->mean;
	s->mean += delta / s->n;
	s->m2 += delta * ((double)took - s->mean);
	if (took > s->max)
		s->max = took;
	if (took < s->min)
		s->min = took;
}

static void event_update(struct kvm_event *e, int vcpu, uint64_t took)
{
	if (vcpu == -1) {
		stats_update(&e->total, took);
		return;
	}
	if (vcpu >= e->max_vcpu) {
		int old = e->max_vcpu;

		while (e->max_vcpu <= vcpu)
			e->max_vcpu += 8;
		e->vcpu = xrealloc(e->vcpu, (size_t)e->max_vcpu * sizeof(*e->vcpu));
		memset(e->vcpu + old, 0, (size_t)(e->max_vcpu - old) * sizeof(*e->vcpu));
	}
	stats_update(&e->vcpu[vcpu], took);
}

/* Where each kind of event begins, with its key when the begin knows it. */
static bool is_begin(const struct kvm_stat *k, const struct kvm_tp_sample *s,
		     uint64_t *key, uint64_t *info)
{
	switch (k->report) {
	case KVM_REPORT_VMEXIT:
		if (s->tp != KVM_TP_EXIT)
			return false;
		*key = s->key;
		*info = 0;
		return true;
	case KVM_REPORT_MMIO:
		if (s->tp == KVM_TP_EXIT)	/* a read: its address comes at the end */
			return true;
		if (s->tp != KVM_TP_MMIO || s->info != 2)	/* KVM_TRACE_MMIO_WRITE */
			return false;
		break;
	case KVM_REPORT_IOPORT:
		if (s->tp != KVM_TP_PIO)
			return false;
		break;
	case KVM_REPORT_MSR:
		if (s->tp != KVM_TP_MSR)
			return false;
		break;
	}
	*key = s->key;
	*info = s->info;
	return true;
}

static bool is_end(const struct kvm_stat *k, const struct kvm_tp_sample *s,
		   uint64_t *key, uint64_t *info)
{
	if (s->tp == KVM_TP_ENTRY)
		return true;
	if (k->report == KVM_REPORT_MMIO && s->tp == KVM_TP_MMIO && s->info == 1) {
		*key = s->key;	/* KVM_TRACE_MMIO_READ */
		*info = s->info;
		return true;
	}
	return false;
}

static bool pid_wanted(const struct kvm_stat *k, int pid)
{
	if (!k->pids)
		return true;
	for (size_t i = 0; i < k->nr_pids; i++)
		if (k->pids[i] == pid)
			return true;
	return false;
}

/* The thread's record, made by its first kvm_entry (the only event that
 * says which vCPU the thread runs). */
static struct kvm_vcpu_record *vcpu_record(struct kvm_stat *k, const struct kvm_tp_sample *s)
{
	struct kvm_vcpu_record *r = hashmap_u64_get(&k->vcpus, (uint64_t)(uint32_t)s->tid);

	if (r || s->tp != KVM_TP_ENTRY)
		return r;
	r = xcalloc(1, sizeof(*r));
	r->vcpu_id = (int)s->key;
	r->next = k->records;
	k->records = r;
	hashmap_u64_put(&k->vcpus, (uint64_t)(uint32_t)s->tid, r);
	return r;
}

static bool end_event(struct kvm_stat *k, struct kvm_vcpu_record *r, uint64_t key,
		      uint64_t info, const struct kvm_tp_sample *s, struct kvm_slow_event *slow)
{
	char name[KVM_DECODE_LEN];
	struct kvm_event *e = r->last_event;
	uint64_t begin = r->start_time, took;

	if (!begin)			/* the begin was not seen */
		return false;
	if (!e && key == KVM_INVALID_KEY)	/* neither end knows the key */
		return false;
	if (!e)
		e = find_create_event(k, key, info);
	r->last_event = NULL;
	r->start_time = 0;
	if (s->time < begin)
		return false;
	took = s->time - begin;
	event_update(e, k->vcpu == -1 ? -1 : r->vcpu_id, took);
	if (!k->duration || took <= k->duration)
		return false;
	kvm_stat__decode(k, e, name);
	if (!strcmp(name, "HLT"))	/* a halted vCPU waits; that is no slow exit */
		return false;
	*slow = (struct kvm_slow_event){ .time = s->time, .took = took, .pid = s->pid,
					 .vcpu = r->vcpu_id, .event = e };
	return true;
}

bool kvm_stat__sample(struct kvm_stat *k, const struct kvm_tp_sample *s,
		      struct kvm_slow_event *slow)
{
	struct kvm_vcpu_record *r;
	uint64_t key = KVM_INVALID_KEY, info = 0;

	if (!pid_wanted(k, s->pid))
		return false;
	r = vcpu_record(k, s);
	if (!r || (k->vcpu != -1 && k->vcpu != r->vcpu_id))
		return false;
	if (is_begin(k, s, &key, &info)) {
		r->last_event = key != KVM_INVALID_KEY ? find_create_event(k, key, info) : NULL;
		r->start_time = s->time;
		return false;
	}
	return is_end(k, s, &key, &info) && end_event(k, r, key, info, s, slow);
}

bool kvm_stat__tp_sample(struct kvm_stat *k, const char *name, struct tep_event *tp,
			 const struct perf_sample *sample, struct kvm_slow_event *slow)
{
	/* each tracepoint's key and info fields */
	static const struct {
		const char *name;
		enum kvm_tp tp;
		const char *key, *info;
	} tps[] = {
		{ "kvm:kvm_entry", KVM_TP_ENTRY, "vcpu_id", NULL },
		{ "kvm:kvm_exit", KVM_TP_EXIT, "exit_reason", NULL },
		{ "kvm:kvm_mmio", KVM_TP_MMIO, "gpa", "type" },
		{ "kvm:kvm_pio", KVM_TP_PIO, "port", "rw" },
		{ "kvm:kvm_msr", KVM_TP_MSR, "ecx", "write" },
	};
	struct kvm_tp_sample ts = {
		.tp = KVM_TP_OTHER, .pid = (int)sample->pid, .tid = (int)sample->tid,
		.time = sample->time,
	};

	for (size_t i = 0; name && i < ARRAY_SIZE(tps); i++) {
		if (strcmp(name, tps[i].name))
			continue;
		ts.tp = tps[i].tp;
		ts.key = (uint64_t)tp_value(tp, sample, tps[i].key);
		ts.info = tps[i].info ? (uint64_t)tp_value(tp, sample, tps[i].info) : 0;
		break;
	}
	return kvm_stat__sample(k, &ts, slow);
}

void kvm_stat__session_sample(struct kvm_stat *k, struct perf_session *s,
			      const struct evsel *evsel, const struct perf_sample *sample)
{
	struct kvm_slow_event slow;

	kvm_stat__tp_sample(k, evsel->name, perf_session__event(s, evsel)->tp_format, sample,
			    &slow);
}

struct tep_event *kvm_stat__local_format(struct tep_handle *tep, const char *tracepoint)
{
	const char *events = tracing_events_path();
	char *sys = xstrdup(tracepoint), *name = strchr(sys, ':'), *path, *text;
	struct tep_event *ev = NULL;

	if (!events || !name) {
		free(sys);
		return NULL;
	}
	*name++ = '\0';
	path = xasprintf("%s/%s/%s/format", events, sys, name);
	text = read_file_str(path);
	if (text && tep_parse_format(tep, &ev, text, strlen(text), sys) != TEP_ERRNO__SUCCESS)
		ev = NULL;
	free(text);
	free(path);
	free(sys);
	return ev;
}

const struct kvm_event_stats *kvm_stat__stats(const struct kvm_stat *k,
					      const struct kvm_event *e)
{
	static const struct kvm_event_stats none;

	if (k->vcpu == -1)
		return &e->total;
	return k->vcpu < e->max_vcpu ? &e->vcpu[k->vcpu] : &none;
}

/* perf compares counts and means as whole numbers. */
static uint64_t sort_value(const struct kvm_stat *k, const struct kvm_event *e)
{
	const struct kvm_stats *s = &kvm_stat__stats(k, e)->stats;

	return (uint64_t)(k->sort == KVM_SORT_SAMPLE ? s->n : s->mean);
}

struct kvm_row {
	uint64_t value;
	size_t pos;
	struct kvm_event *event;
};

static int row_cmp(const void *a, const void *b)
{
	const struct kvm_row *x = a, *y = b;

	if (x->value != y->value)
		return x->value > y->value ? -1 : 1;
	return x->pos < y->pos ? -1 : x->pos > y->pos;
}

void kvm_stat__sort(struct kvm_stat *k)
{
	struct kvm_row *rows = NULL;
	size_t nr = 0, alloc = 0;

	k->total_count = k->total_time = 0;
	for (size_t b = 0; b < KVM_STAT_BUCKETS; b++) {
		for (struct kvm_event *e = k->buckets[b]; e; e = e->bucket_next) {
			const struct kvm_event_stats *es = kvm_stat__stats(k, e);

			if (!(uint64_t)es->stats.n)
				continue;
			k->total_count += (uint64_t)es->stats.n;
			k->total_time += es->time;
			if (nr == alloc) {
				alloc = alloc ? 2 * alloc : 64;
				rows = xrealloc(rows, alloc * sizeof(*rows));
			}
			rows[nr] = (struct kvm_row){ sort_value(k, e), nr, e };
			nr++;
		}
	}
	if (nr)
		qsort(rows, nr, sizeof(*rows), row_cmp);
	free(k->rows);
	k->rows = xcalloc(nr ? nr : 1, sizeof(*k->rows));
	for (size_t i = 0; i < nr; i++)
		k->rows[i] = rows[i].event;
	k->nr_rows = nr;
	free(rows);
}

double kvm_stats__rel_stddev(const struct kvm_stats *s)
{
	double stddev = 0.0;

	if (s->n >= 2)
		stddev = sqrt(s->m2 / (s->n - 1) / s->n);
	return s->mean ? 100.0 * stddev / s->mean : 0.0;
}

bool kvm_stat__decode(const struct kvm_stat *k, const struct kvm_event *e,
		      char buf[KVM_DECODE_LEN])
{
	const struct kvm_exit_reason *r;

	switch (k->report) {
	case KVM_REPORT_VMEXIT:
		for (r = k->reasons; r && r->name; r++) {
			if (r->code == e->key) {
				snprintf(buf, KVM_DECODE_LEN, "%s", r->name);
				return true;
			}
		}
		snprintf(buf, KVM_DECODE_LEN, "UNKNOWN");
		return false;
	case KVM_REPORT_MMIO:
		snprintf(buf, KVM_DECODE_LEN, "%#lx:%s", (unsigned long)e->key,
			 e->info == 2 ? "W" : "R");
		break;
	case KVM_REPORT_IOPORT:
		snprintf(buf, KVM_DECODE_LEN, "%#llx:%s", (unsigned long long)e->key,
			 e->info ? "POUT" : "PIN");
		break;
	case KVM_REPORT_MSR:
		snprintf(buf, KVM_DECODE_LEN, "%#llx:%s", (unsigned long long)e->key,
			 e->info ? "W" : "R");
		break;
	}
	return true;
}

const char *kvm_stat__event_title(enum kvm_report_event report)
{
	static const char *const titles[] = {
		"VM-EXIT", "MMIO Access", "IO Port Access", "MSR Access",
	};

	return titles[report];
}
