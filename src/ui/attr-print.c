/* attr-print: the fields of a perf_event_attr, named as perf names them. */
#include "ui/attr-print.h"
#include "util/util.h"

#include <inttypes.h>
#include <string.h>

struct bit_name {
	uint64_t bit;
	const char *name;
};

static const struct bit_name sample_type_bits[] = {
	{ PERF_SAMPLE_IP, "IP" }, { PERF_SAMPLE_TID, "TID" }, { PERF_SAMPLE_TIME, "TIME" },
	{ PERF_SAMPLE_ADDR, "ADDR" }, { PERF_SAMPLE_READ, "READ" },
	{ PERF_SAMPLE_CALLCHAIN, "CALLCHAIN" }, { PERF_SAMPLE_ID, "ID" },
	{ PERF_SAMPLE_CPU, "CPU" }, { PERF_SAMPLE_PERIOD, "PERIOD" },
	{ PERF_SAMPLE_STREAM_ID, "STREAM_ID" }, { PERF_SAMPLE_RAW, "RAW" },
	{ PERF_SAMPLE_BRANCH_STACK, "BRANCH_STACK" }, { PERF_SAMPLE_REGS_USER, "REGS_USER" },
	/* perf's order, and without TRANSACTION, which perf 6.1 does not name */
	{ PERF_SAMPLE_STACK_USER, "STACK_USER" }, { PERF_SAMPLE_IDENTIFIER, "IDENTIFIER" },
	{ PERF_SAMPLE_REGS_INTR, "REGS_INTR" }, { PERF_SAMPLE_DATA_SRC, "DATA_SRC" },
	{ PERF_SAMPLE_WEIGHT, "WEIGHT" },
	{ PERF_SAMPLE_PHYS_ADDR, "PHYS_ADDR" }, { PERF_SAMPLE_AUX, "AUX" },
	{ PERF_SAMPLE_CGROUP, "CGROUP" }, { PERF_SAMPLE_DATA_PAGE_SIZE, "DATA_PAGE_SIZE" },
	{ PERF_SAMPLE_CODE_PAGE_SIZE, "CODE_PAGE_SIZE" },
	{ PERF_SAMPLE_WEIGHT_STRUCT, "WEIGHT_STRUCT" },
	{ 0, NULL },
};

static const struct bit_name read_format_bits[] = {
	{ PERF_FORMAT_TOTAL_TIME_ENABLED, "TOTAL_TIME_ENABLED" },
	{ PERF_FORMAT_TOTAL_TIME_RUNNING, "TOTAL_TIME_RUNNING" },
	{ PERF_FORMAT_ID, "ID" }, { PERF_FORMAT_GROUP, "GROUP" }, { PERF_FORMAT_LOST, "LOST" },
	{ 0, NULL },
};

static const struct bit_name branch_bits[] = {
	{ PERF_SAMPLE_BRANCH_USER, "USER" }, { PERF_SAMPLE_BRANCH_KERNEL, "KERNEL" },
	{ PERF_SAMPLE_BRANCH_HV, "HV" }, { PERF_SAMPLE_BRANCH_ANY, "ANY" },
	{ PERF_SAMPLE_BRANCH_ANY_CALL, "ANY_CALL" },
	{ PERF_SAMPLE_BRANCH_ANY_RETURN, "ANY_RETURN" },
	{ PERF_SAMPLE_BRANCH_IND_CALL, "IND_CALL" }, { PERF_SAMPLE_BRANCH_ABORT_TX, "ABORT_TX" },
	{ PERF_SAMPLE_BRANCH_IN_TX, "IN_TX" }, { PERF_SAMPLE_BRANCH_NO_TX, "NO_TX" },
	{ PERF_SAMPLE_BRANCH_COND, "COND" }, { PERF_SAMPLE_BRANCH_CALL_STACK, "CALL_STACK" },
	{ PERF_SAMPLE_BRANCH_IND_JUMP, "IND_JUMP" }, { PERF_SAMPLE_BRANCH_CALL, "CALL" },
	{ PERF_SAMPLE_BRANCH_NO_FLAGS, "NO_FLAGS" }, { PERF_SAMPLE_BRANCH_NO_CYCLES, "NO_CYCLES" },
	{ PERF_SAMPLE_BRANCH_TYPE_SAVE, "TYPE_SAVE" }, { PERF_SAMPLE_BRANCH_HW_INDEX, "HW_INDEX" },
	{ 0, NULL },
};

static void bits_str(char *buf, size_t size, uint64_t value, const struct bit_name *bits)
{
	size_t len = 0;

	buf[0] = 0;
	for (const struct bit_name *b = bits; b->name; b++)
		if ((value & b->bit) && len < size)
			len += (size_t)snprintf(buf + len, size - len, "%s%s", len ? "|" : "",
						b->name);
}

void attr_sample_type_str(char *buf, size_t size, uint64_t sample_type)
{
	bits_str(buf, size, sample_type, sample_type_bits);
}

enum fmt { F_UNSIGNED, F_SIGNED, F_HEX, F_SAMPLE_TYPE, F_READ_FORMAT, F_BRANCH };

static void field(FILE *fp, const char *name, uint64_t v, enum fmt f, attr_field_fn fn,
		  void *priv)
{
	char buf[512];

	if (!v)
		return;
	switch (f) {
	case F_UNSIGNED:
		snprintf(buf, sizeof(buf), "%" PRIu64, v);
		break;
	case F_SIGNED:
		snprintf(buf, sizeof(buf), "%" PRId64, (int64_t)v);
		break;
	case F_HEX:
		snprintf(buf, sizeof(buf), "%#" PRIx64, v);
		break;
	case F_SAMPLE_TYPE:
		bits_str(buf, sizeof(buf), v, sample_type_bits);
		break;
	case F_READ_FORMAT:
		bits_str(buf, sizeof(buf), v, read_format_bits);
		break;
	case F_BRANCH:
		bits_str(buf, sizeof(buf), v, branch_bits);
		break;
	}
	fn(fp, name, buf, priv);
}

void attr_print(FILE *fp, const struct perf_event_attr *a, attr_field_fn fn, void *priv)
{
#define U(n) field(fp, #n, a->n, F_UNSIGNED, fn, priv)
	U(type);
	U(size);
	field(fp, "config", a->config, F_HEX, fn, priv);
	field(fp, "{ sample_period, sample_freq }", a->sample_period, F_UNSIGNED, fn, priv);
	field(fp, "sample_type", a->sample_type, F_SAMPLE_TYPE, fn, priv);
	field(fp, "read_format", a->read_format, F_READ_FORMAT, fn, priv);
	U(disabled);
	U(inherit);
	U(pinned);
	U(exclusive);
	U(exclude_user);
	U(exclude_kernel);
	U(exclude_hv);
	U(exclude_idle);
	U(mmap);
	U(comm);
	U(freq);
	U(inherit_stat);
	U(enable_on_exec);
	U(task);
	U(watermark);
	U(precise_ip);
	U(mmap_data);
	U(sample_id_all);
	U(exclude_host);
	U(exclude_guest);
	U(exclude_callchain_kernel);
	U(exclude_callchain_user);
	U(mmap2);
	U(comm_exec);
	U(use_clockid);
	U(context_switch);
	U(write_backward);
	U(namespaces);
	U(ksymbol);
	U(bpf_event);
	U(aux_output);
	U(cgroup);
	U(text_poke);
	U(build_id);
	U(inherit_thread);
	U(remove_on_exec);
	U(sigtrap);
	field(fp, "{ wakeup_events, wakeup_watermark }", a->wakeup_events, F_UNSIGNED, fn, priv);
	U(bp_type);
	field(fp, "{ bp_addr, config1 }", a->bp_addr, F_HEX, fn, priv);
	field(fp, "{ bp_len, config2 }", a->bp_len, F_HEX, fn, priv);
	field(fp, "branch_sample_type", a->branch_sample_type, F_BRANCH, fn, priv);
	field(fp, "sample_regs_user", a->sample_regs_user, F_HEX, fn, priv);
	U(sample_stack_user);
	field(fp, "clockid", (uint64_t)(int64_t)a->clockid, F_SIGNED, fn, priv);
	field(fp, "sample_regs_intr", a->sample_regs_intr, F_HEX, fn, priv);
	U(aux_watermark);
	U(sample_max_stack);
	U(aux_sample_size);
	U(sig_data);
#undef U
}
