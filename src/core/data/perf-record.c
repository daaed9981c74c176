/* perf-record: record names, validation, byte swapping, sample decoding. */
#include "core/data/perf-record.h"
#include "core/data/data-cursor.h"
#include "util/util.h"

#include <string.h>

static const char *const record_names[] = {
	[0] = "TOTAL",
	[PERF_RECORD_MMAP] = "MMAP",
	[PERF_RECORD_LOST] = "LOST",
	[PERF_RECORD_COMM] = "COMM",
	[PERF_RECORD_EXIT] = "EXIT",
	[PERF_RECORD_THROTTLE] = "THROTTLE",
	[PERF_RECORD_UNTHROTTLE] = "UNTHROTTLE",
	[PERF_RECORD_FORK] = "FORK",
	[PERF_RECORD_READ] = "READ",
	[PERF_RECORD_SAMPLE] = "SAMPLE",
	[PERF_RECORD_MMAP2] = "MMAP2",
	[PERF_RECORD_AUX] = "AUX",
	[PERF_RECORD_ITRACE_START] = "ITRACE_START",
	[PERF_RECORD_LOST_SAMPLES] = "LOST_SAMPLES",
	[PERF_RECORD_SWITCH] = "SWITCH",
	[PERF_RECORD_SWITCH_CPU_WIDE] = "SWITCH_CPU_WIDE",
	[PERF_RECORD_NAMESPACES] = "NAMESPACES",
	[PERF_RECORD_KSYMBOL] = "KSYMBOL",
	[PERF_RECORD_BPF_EVENT] = "BPF_EVENT",
	[PERF_RECORD_CGROUP] = "CGROUP",
	[PERF_RECORD_TEXT_POKE] = "TEXT_POKE",
	[PERF_RECORD_AUX_OUTPUT_HW_ID] = "AUX_OUTPUT_HW_ID",
	[PERF_RECORD_HEADER_ATTR] = "ATTR",
	[PERF_RECORD_HEADER_EVENT_TYPE] = "EVENT_TYPE",
	[PERF_RECORD_HEADER_TRACING_DATA] = "TRACING_DATA",
	[PERF_RECORD_HEADER_BUILD_ID] = "BUILD_ID",
	[PERF_RECORD_FINISHED_ROUND] = "FINISHED_ROUND",
	[PERF_RECORD_ID_INDEX] = "ID_INDEX",
	[PERF_RECORD_AUXTRACE_INFO] = "AUXTRACE_INFO",
	[PERF_RECORD_AUXTRACE] = "AUXTRACE",
	[PERF_RECORD_AUXTRACE_ERROR] = "AUXTRACE_ERROR",
	[PERF_RECORD_THREAD_MAP] = "THREAD_MAP",
	[PERF_RECORD_CPU_MAP] = "CPU_MAP",
	[PERF_RECORD_STAT_CONFIG] = "STAT_CONFIG",
	[PERF_RECORD_STAT] = "STAT",
	[PERF_RECORD_STAT_ROUND] = "STAT_ROUND",
	[PERF_RECORD_EVENT_UPDATE] = "EVENT_UPDATE",
	[PERF_RECORD_TIME_CONV] = "TIME_CONV",
	[PERF_RECORD_HEADER_FEATURE] = "FEATURE",
	[PERF_RECORD_COMPRESSED] = "COMPRESSED",
	[PERF_RECORD_FINISHED_INIT] = "FINISHED_INIT",
};

const char *perf_record_name(uint32_t type)
{
	if (type >= ARRAY_SIZE(record_names))
		return "INVALID";
	return record_names[type] ? record_names[type] : "UNKNOWN";
}

/* ---- sample layout ---- */

#define ID_TRAILER_BITS (PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID | \
			 PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU | PERF_SAMPLE_IDENTIFIER)

size_t perf_sample__id_hdr_size(const struct perf_event_attr *attr)
{
	if (!attr->sample_id_all)
		return 0;
	return 8 * (size_t)__builtin_popcountll(attr->sample_type & ID_TRAILER_BITS);
}

int perf_sample__id_pos(uint64_t st)
{
	if (st & PERF_SAMPLE_IDENTIFIER)
		return 0;
	if (!(st & PERF_SAMPLE_ID))
		return -1;
	return __builtin_popcountll(st & (PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
					  PERF_SAMPLE_ADDR));
}

int perf_sample__is_pos(uint64_t st)
{
	if (st & PERF_SAMPLE_IDENTIFIER)
		return 1;
	if (!(st & PERF_SAMPLE_ID))
		return -1;
	return 1 + __builtin_popcountll(st & (PERF_SAMPLE_CPU | PERF_SAMPLE_STREAM_ID));
}

/* The fixed-size fields of a sample and of a sample_id_all trailer: a u64,
 * or a pair of u32s, present when their sample_type bit is set. */
#define DROPPED	SIZE_MAX	/* the second u32 of CPU is reserved */

struct sample_field {
	uint64_t bit;
	size_t off, off2;	/* in struct perf_sample; off2 only for a u32 pair */
};

#define U64_FIELD(bit, m)	{ PERF_SAMPLE_##bit, offsetof(struct perf_sample, m), 0 }
#define U32_PAIR(bit, a, b)	{ PERF_SAMPLE_##bit, offsetof(struct perf_sample, a), b }
#define PAIR_SECOND(m)		offsetof(struct perf_sample, m)

static const struct sample_field sample_head[] = {
	U64_FIELD(IDENTIFIER, id), U64_FIELD(IP, ip), U32_PAIR(TID, pid, PAIR_SECOND(tid)),
	U64_FIELD(TIME, time), U64_FIELD(ADDR, addr), U64_FIELD(ID, id),
	U64_FIELD(STREAM_ID, stream_id), U32_PAIR(CPU, cpu, DROPPED), U64_FIELD(PERIOD, period),
};

static const struct sample_field sample_data_src[] = {
	U64_FIELD(DATA_SRC, data_src), U64_FIELD(TRANSACTION, transaction),
};

static const struct sample_field sample_tail[] = {
	U64_FIELD(PHYS_ADDR, phys_addr), U64_FIELD(CGROUP, cgroup),
	U64_FIELD(DATA_PAGE_SIZE, data_page_size), U64_FIELD(CODE_PAGE_SIZE, code_page_size),
};

static const struct sample_field id_trailer[] = {
	U32_PAIR(TID, pid, PAIR_SECOND(tid)), U64_FIELD(TIME, time), U64_FIELD(ID, id),
	U64_FIELD(STREAM_ID, stream_id), U32_PAIR(CPU, cpu, DROPPED), U64_FIELD(IDENTIFIER, id),
};

static bool is_u32_pair(const struct sample_field *f)
{
	return f->bit == PERF_SAMPLE_TID || f->bit == PERF_SAMPLE_CPU;
}

static void read_sample_fields(struct data_cursor *c, const struct sample_field *f, size_t n,
			       uint64_t st, struct perf_sample *s)
{
	for (const struct sample_field *end = f + n; f < end; f++) {
		const uint8_t *p;

		if (!(st & f->bit))
			continue;
		p = data_cursor__skip(c, 8);
		if (!p)
			return;
		if (!is_u32_pair(f)) {
			memcpy((char *)s + f->off, p, 8);
			continue;
		}
		memcpy((char *)s + f->off, p, 4);
		if (f->off2 != DROPPED)
			memcpy((char *)s + f->off2, p + 4, 4);
	}
}

#define READ_SAMPLE_FIELDS(c, table, st, s) read_sample_fields(c, table, ARRAY_SIZE(table), st, s)

static int read_stride(uint64_t rf)
{
	return 1 + !!(rf & PERF_FORMAT_ID) + !!(rf & PERF_FORMAT_LOST);
}

static const char *parse_read(struct data_cursor *c, uint64_t rf, struct perf_sample *s)
{
	s->read.stride = read_stride(rf);
	if (rf & PERF_FORMAT_GROUP) {
		uint64_t nr = data_cursor__u64(c);

		if (rf & PERF_FORMAT_TOTAL_TIME_ENABLED)
			s->read.time_enabled = data_cursor__u64(c);
		if (rf & PERF_FORMAT_TOTAL_TIME_RUNNING)
			s->read.time_running = data_cursor__u64(c);
		if (nr > (1u << 16))
			return "group read with too many values";
		s->read.nr = nr;
		s->read.values = data_cursor__skip(c, nr * 8 * (uint64_t)s->read.stride);
		return NULL;
	}
	s->read.nr = 1;
	s->read.values = (const uint64_t *)(const void *)c->p;
	s->read.one.value = data_cursor__u64(c);
	if (rf & PERF_FORMAT_TOTAL_TIME_ENABLED)
		s->read.time_enabled = data_cursor__u64(c);
	if (rf & PERF_FORMAT_TOTAL_TIME_RUNNING)
		s->read.time_running = data_cursor__u64(c);
	if (rf & PERF_FORMAT_ID)
		s->read.one.id = data_cursor__u64(c);
	if (rf & PERF_FORMAT_LOST)
		s->read.one.lost = data_cursor__u64(c);
	return NULL;
}

static void parse_regs(struct data_cursor *c, uint64_t mask, uint64_t *abi, uint64_t *m,
		       const uint64_t **regs)
{
	*abi = data_cursor__u64(c);
	*m = mask;
	if (*abi)
		*regs = data_cursor__skip(c, 8 * (size_t)__builtin_popcountll(mask));
}

static void sample_defaults(struct perf_sample *s, const struct perf_event_header *rec)
{
	memset(s, 0, sizeof(*s));
	s->pid = s->tid = s->cpu = (uint32_t)-1;
	s->time = ~0ULL;
	s->stream_id = s->id = ~0ULL;
	s->misc = rec->misc;
	s->cpumode = rec->misc & PERF_RECORD_MISC_CPUMODE_MASK;
}

static int parse_trailer(const struct perf_event_attr *attr, const struct perf_event_header *rec,
			 struct perf_sample *s, const char **err)
{
	size_t n = perf_sample__id_hdr_size(attr);
	struct data_cursor c;

	if (!n)
		return 0;
	if (rec->size < sizeof(*rec) + n) {
		*err = "record too small for its sample_id_all trailer";
		return -1;
	}
	data_cursor__init(&c, (const uint8_t *)rec + rec->size - n, n, false);
	READ_SAMPLE_FIELDS(&c, id_trailer, attr->sample_type, s);
	return 0;
}

/* The variable-size middle of a sample, from READ to REGS_INTR; NULL or why
 * it is malformed. */
static const char *parse_sample_body(const struct perf_event_attr *attr, struct data_cursor *c,
				     struct perf_sample *s)
{
	uint64_t st = attr->sample_type;
	const char *err;

	if ((st & PERF_SAMPLE_READ) && (err = parse_read(c, attr->read_format, s)))
		return err;
	if (st & PERF_SAMPLE_CALLCHAIN) {
		s->callchain_nr = data_cursor__u64(c);
		if (s->callchain_nr > (1u << 16))
			return "callchain too long";
		s->callchain = data_cursor__skip(c, s->callchain_nr * 8);
	}
	if ((st & PERF_SAMPLE_RAW) && data_cursor__need(c, 4)) {
		uint32_t size = data_cursor__u32(c);

		/* the kernel pads size so that u32 + data ends on a u64 */
		if ((size + 4u) % 8)
			return "raw data size not aligned";
		s->raw_size = size;
		s->raw_data = c->p;
		data_cursor__skip(c, size);
	}
	if (st & PERF_SAMPLE_BRANCH_STACK) {
		s->branch_nr = data_cursor__u64(c);
		if (s->branch_nr > (1u << 16))
			return "branch stack too long";
		if (attr->branch_sample_type & PERF_SAMPLE_BRANCH_HW_INDEX) {
			s->branch_has_hw_idx = true;
			s->branch_hw_idx = data_cursor__u64(c);
		}
		s->branch_entries = data_cursor__skip(c, s->branch_nr *
							 sizeof(struct perf_branch_entry));
	}
	if (st & PERF_SAMPLE_REGS_USER)
		parse_regs(c, attr->sample_regs_user, &s->user_regs.abi, &s->user_regs.mask,
			   &s->user_regs.regs);
	if (st & PERF_SAMPLE_STACK_USER) {
		s->user_stack.size = data_cursor__u64(c);
		if (s->user_stack.size) {
			if (s->user_stack.size % 8)
				return "user stack size not aligned";
			s->user_stack.data = data_cursor__skip(c, s->user_stack.size);
			s->user_stack.dyn_size = data_cursor__u64(c);
			if (s->user_stack.dyn_size > s->user_stack.size)
				s->user_stack.dyn_size = s->user_stack.size;
		}
	}
	if (st & (PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT)) {
		uint64_t v = data_cursor__u64(c);

		if (st & PERF_SAMPLE_WEIGHT_STRUCT) {
			s->weight = v & 0xffffffffu;
			s->ins_lat = (v >> 32) & 0xffff;
			s->p_stage_cyc = (v >> 48) & 0xffff;
		} else {
			s->weight = v;
		}
	}
	READ_SAMPLE_FIELDS(c, sample_data_src, st, s);
	if (st & PERF_SAMPLE_REGS_INTR)
		parse_regs(c, attr->sample_regs_intr, &s->intr_regs.abi, &s->intr_regs.mask,
			   &s->intr_regs.regs);
	return NULL;
}

/* The sample types a tracepoint recording has (perf sched record: IP, TID,
 * TIME, CPU, PERIOD, RAW, IDENTIFIER): the words of sample_head, then RAW. */
#define SIMPLE_SAMPLE	(PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |	\
			 PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR | PERF_SAMPLE_ID |		\
			 PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD |	\
			 PERF_SAMPLE_RAW)

/* Such a sample read word by word without the tables: false when it does
 * not fit its record (the general parser then says why). */
static bool parse_simple(uint64_t st, const struct perf_event_header *rec, struct perf_sample *s)
{
	const uint8_t *p = (const uint8_t *)(rec + 1), *end = (const uint8_t *)rec + rec->size;
	uint32_t raw;

#define NEED_WORD()	do { if (end - p < 8) return false; } while (0)
#define WORD(bit, dst)	do {					\
		if (st & PERF_SAMPLE_##bit) {			\
			NEED_WORD();				\
			memcpy(&(dst), p, 8);			\
			p += 8;					\
		}						\
	} while (0)
	WORD(IDENTIFIER, s->id);
	WORD(IP, s->ip);
	if (st & PERF_SAMPLE_TID) {
		NEED_WORD();
		memcpy(&s->pid, p, 4);
		memcpy(&s->tid, p + 4, 4);
		p += 8;
	}
	WORD(TIME, s->time);
	WORD(ADDR, s->addr);
	WORD(ID, s->id);
	WORD(STREAM_ID, s->stream_id);
	if (st & PERF_SAMPLE_CPU) {
		NEED_WORD();
		memcpy(&s->cpu, p, 4);
		p += 8;
	}
	WORD(PERIOD, s->period);
#undef WORD
#undef NEED_WORD
	if (!(st & PERF_SAMPLE_RAW))
		return true;
	if (end - p < 4)
		return false;
	memcpy(&raw, p, 4);
	/* the kernel pads size so that u32 + data ends on a u64 */
	if ((raw + 4u) % 8 || (size_t)(end - p) - 4 < raw)
		return false;
	s->raw_size = raw;
	s->raw_data = p + 4;
	return true;
}

int perf_sample__parse(const struct perf_event_attr *attr, const struct perf_event_header *rec,
		       struct perf_sample *s, const char **err)
{
	uint64_t st = attr->sample_type;
	struct data_cursor c;

	sample_defaults(s, rec);
	/* without PERIOD in the sample, the attr's fixed period applies */
	s->period = attr->sample_period;
	if (rec->size < sizeof(*rec)) {
		*err = "record smaller than its header";
		return -1;
	}
	if (rec->type != PERF_RECORD_SAMPLE)
		return parse_trailer(attr, rec, s, err);
	if (!(st & ~SIMPLE_SAMPLE)) {
		if (parse_simple(st, rec, s))
			return 0;
		sample_defaults(s, rec);	/* what it read, read again */
		s->period = attr->sample_period;
	}

	data_cursor__init(&c, rec + 1, rec->size - sizeof(*rec), false);
	READ_SAMPLE_FIELDS(&c, sample_head, st, s);
	*err = parse_sample_body(attr, &c, s);
	if (*err)
		return -1;
	READ_SAMPLE_FIELDS(&c, sample_tail, st, s);
	if (st & PERF_SAMPLE_AUX) {
		s->aux.size = data_cursor__u64(&c);
		if (s->aux.size % 8) {
			*err = "aux sample size not aligned";
			return -1;
		}
		s->aux.data = data_cursor__skip(&c, s->aux.size);
	}
	if (c.bad) {
		*err = "sample extends past the end of the record";
		return -1;
	}
	return 0;
}

/* ---- validation ---- */

/* Fixed part (bytes, header included) of each type; 0 = no minimum known. */
static size_t fixed_size(uint32_t type)
{
	switch (type) {
	case PERF_RECORD_MMAP:		return sizeof(struct perf_rec_mmap);
	case PERF_RECORD_MMAP2:		return sizeof(struct perf_rec_mmap2);
	case PERF_RECORD_COMM:		return sizeof(struct perf_rec_comm);
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:		return sizeof(struct perf_rec_fork);
	case PERF_RECORD_LOST:		return sizeof(struct perf_rec_lost);
	case PERF_RECORD_LOST_SAMPLES:	return sizeof(struct perf_rec_lost_samples);
	case PERF_RECORD_THROTTLE:
	case PERF_RECORD_UNTHROTTLE:	return sizeof(struct perf_rec_throttle);
	case PERF_RECORD_READ:		return sizeof(struct perf_rec_read);
	case PERF_RECORD_AUX:		return sizeof(struct perf_rec_aux);
	case PERF_RECORD_ITRACE_START:	return sizeof(struct perf_rec_itrace_start);
	case PERF_RECORD_SWITCH:	return sizeof(struct perf_event_header);
	case PERF_RECORD_SWITCH_CPU_WIDE: return sizeof(struct perf_rec_switch);
	case PERF_RECORD_NAMESPACES:	return sizeof(struct perf_rec_namespaces);
	case PERF_RECORD_KSYMBOL:	return sizeof(struct perf_rec_ksymbol);
	case PERF_RECORD_BPF_EVENT:	return sizeof(struct perf_rec_bpf_event);
	case PERF_RECORD_CGROUP:	return sizeof(struct perf_rec_cgroup);
	case PERF_RECORD_TEXT_POKE:	return sizeof(struct perf_rec_text_poke);
	case PERF_RECORD_AUX_OUTPUT_HW_ID: return sizeof(struct perf_rec_aux_output_hw_id);
	case PERF_RECORD_HEADER_ATTR:	return sizeof(struct perf_event_header) + PERF_ATTR_SIZE_VER0;
	case PERF_RECORD_HEADER_TRACING_DATA: return sizeof(struct perf_event_header) + 4;
	case PERF_RECORD_HEADER_BUILD_ID: return sizeof(struct perf_rec_build_id);
	case PERF_RECORD_ID_INDEX:	return sizeof(struct perf_rec_id_index);
	case PERF_RECORD_AUXTRACE_INFO:	return sizeof(struct perf_rec_auxtrace_info);
	case PERF_RECORD_AUXTRACE:	return sizeof(struct perf_rec_auxtrace);
	case PERF_RECORD_AUXTRACE_ERROR: return offsetof(struct perf_rec_auxtrace_error, machine_pid);
	case PERF_RECORD_THREAD_MAP:	return sizeof(struct perf_rec_thread_map);
	case PERF_RECORD_CPU_MAP:	return sizeof(struct perf_rec_cpu_map);
	case PERF_RECORD_STAT_CONFIG:	return sizeof(struct perf_rec_stat_config);
	case PERF_RECORD_STAT:		return sizeof(struct perf_rec_stat);
	case PERF_RECORD_STAT_ROUND:	return sizeof(struct perf_rec_stat_round);
	case PERF_RECORD_EVENT_UPDATE:	return sizeof(struct perf_rec_event_update);
	case PERF_RECORD_TIME_CONV:	return offsetof(struct perf_rec_time_conv, time_cycles);
	case PERF_RECORD_HEADER_FEATURE: return sizeof(struct perf_rec_feature);
	default:			return sizeof(struct perf_event_header);
	}
}

static bool str_ends_before(const char *s, const void *end)
{
	return s <= (const char *)end && memchr(s, 0, (size_t)((const char *)end - s)) != NULL;
}

/* Records whose body ends with a NUL-terminated string. */
static const struct {
	uint32_t type;
	size_t off;
	const char *why;
} rec_strings[] = {
	{ PERF_RECORD_MMAP, offsetof(struct perf_rec_mmap, filename),
	  "MMAP file name not terminated" },
	{ PERF_RECORD_MMAP2, offsetof(struct perf_rec_mmap2, filename),
	  "MMAP2 file name not terminated" },
	{ PERF_RECORD_COMM, offsetof(struct perf_rec_comm, comm), "COMM name not terminated" },
	{ PERF_RECORD_KSYMBOL, offsetof(struct perf_rec_ksymbol, name),
	  "KSYMBOL name not terminated" },
	{ PERF_RECORD_CGROUP, offsetof(struct perf_rec_cgroup, path), "CGROUP path not terminated" },
	{ PERF_RECORD_HEADER_BUILD_ID, offsetof(struct perf_rec_build_id, filename),
	  "BUILD_ID file name not terminated" },
};

/* Records with a u64 count of fixed-size entries. */
#define COUNTED(type, st, nr, entries, size)						\
	{ PERF_RECORD_##type, offsetof(st, nr), offsetof(st, entries), size,		\
	  #type " count exceeds the record" }

static const struct {
	uint32_t type;
	size_t nr_off, entries_off, entry_size;
	const char *why;
} rec_arrays[] = {
	COUNTED(NAMESPACES, struct perf_rec_namespaces, nr_namespaces, link_info, 16),
	COUNTED(ID_INDEX, struct perf_rec_id_index, nr, entries, 32),
	COUNTED(THREAD_MAP, struct perf_rec_thread_map, nr, entries, 24),
	COUNTED(STAT_CONFIG, struct perf_rec_stat_config, nr, data, 16),
};

/* Checks the strings and arrays inside a record's body, which ends at end. */
static const char *check_body(const struct perf_event_header *rec, const uint8_t *end)
{
	const uint8_t *base = (const uint8_t *)rec;

	for (size_t i = 0; i < ARRAY_SIZE(rec_strings); i++)
		if (rec->type == rec_strings[i].type &&
		    !str_ends_before((const char *)base + rec_strings[i].off, end))
			return rec_strings[i].why;
	for (size_t i = 0; i < ARRAY_SIZE(rec_arrays); i++) {
		uint64_t nr;

		if (rec->type != rec_arrays[i].type)
			continue;
		memcpy(&nr, base + rec_arrays[i].nr_off, 8);
		if (nr > (size_t)(end - (base + rec_arrays[i].entries_off)) /
			 rec_arrays[i].entry_size)
			return rec_arrays[i].why;
	}
	if (rec->type == PERF_RECORD_TEXT_POKE) {
		const struct perf_rec_text_poke *tp = (const void *)rec;

		if ((size_t)tp->old_len + tp->new_len > (size_t)(end - tp->bytes))
			return "TEXT_POKE bytes exceed the record";
	}
	return NULL;
}

const char *perf_record__check(const struct perf_event_header *rec, size_t id_hdr_size)
{
	size_t fixed = fixed_size(rec->type);
	const uint8_t *end = (const uint8_t *)rec + rec->size;

	if (rec->size < sizeof(*rec))
		return "record size smaller than its header";
	if (rec->type == PERF_RECORD_SAMPLE)
		return NULL;	/* no fixed part, strings or arrays: parsing checks it */
	if (rec->size < fixed)
		return "record too small for its type";
	if (rec->type < PERF_RECORD_USER_TYPE_START && rec->type != PERF_RECORD_SAMPLE) {
		if (rec->size < fixed + id_hdr_size)
			id_hdr_size = 0;	/* synthesized without trailer */
		end -= id_hdr_size;
	}
	return check_body(rec, end);
}

/* ---- byte swapping ---- */

static void swap64(void *p)
{
	swap_in_place(p, 8);
}

static void swap32(void *p)
{
	swap_in_place(p, 4);
}

static void swap16(void *p)
{
	swap_in_place(p, 2);
}

/* Swaps n words of width bytes starting at p, staying before end (which
 * may lie before p: then nothing is swapped). */
static uint8_t *swap_words(uint8_t *p, const uint8_t *end, uint64_t n, size_t width)
{
	for (uint64_t i = 0; i < n && end - p >= (ptrdiff_t)width; i++, p += width)
		swap_in_place(p, width);
	return p;
}

static uint8_t *swap64s(uint8_t *p, const uint8_t *end, uint64_t n)
{
	return swap_words(p, end, n, 8);
}

static uint8_t *swap32s(uint8_t *p, const uint8_t *end, uint64_t n)
{
	return swap_words(p, end, n, 4);
}

/* Swaps the fields of a sample_field table that st has, from p on. */
static uint8_t *swap_sample_fields(uint8_t *p, const uint8_t *end, const struct sample_field *f,
				   size_t n, uint64_t st)
{
	for (const struct sample_field *last = f + n; f < last; f++)
		if (st & f->bit)
			p = is_u32_pair(f) ? swap32s(p, end, 2) : swap64s(p, end, 1);
	return p;
}

#define SWAP_SAMPLE_FIELDS(p, end, table, st) \
	swap_sample_fields(p, end, table, ARRAY_SIZE(table), st)

/* Swaps the u64 count at *p and moves past it; false when it is not all
 * inside the record. */
static bool swap_count(uint8_t **p, const uint8_t *end, uint64_t *v)
{
	if (end - *p < 8)
		return false;
	swap64(*p);
	memcpy(v, *p, 8);
	*p += 8;
	return true;
}

/* u64 abi, then (when not 0) one u64 per bit of mask. */
static bool swap_regs(uint8_t **p, const uint8_t *end, uint64_t mask)
{
	uint64_t abi;

	if (!swap_count(p, end, &abi))
		return false;
	if (abi)
		*p = swap64s(*p, end, (uint64_t)__builtin_popcountll(mask));
	return true;
}

static void swap_trailer(struct perf_event_header *rec, const struct perf_event_attr *attr)
{
	size_t n = attr ? perf_sample__id_hdr_size(attr) : 0;
	uint8_t *end = (uint8_t *)rec + rec->size;

	if (!n || rec->size < sizeof(*rec) + n)
		return;
	SWAP_SAMPLE_FIELDS(end - n, end, id_trailer, attr->sample_type);
}

/* The variable-size middle of a sample, from READ to REGS_INTR. */
static const char *swap_sample_body(uint8_t **pp, const uint8_t *end,
				    const struct perf_event_attr *attr)
{
	uint64_t st = attr->sample_type, v;
	uint8_t *p = *pp;

	if (st & PERF_SAMPLE_READ) {
		uint64_t rf = attr->read_format;
		uint64_t times = !!(rf & PERF_FORMAT_TOTAL_TIME_ENABLED) +
				 !!(rf & PERF_FORMAT_TOTAL_TIME_RUNNING);

		if (!(rf & PERF_FORMAT_GROUP))
			p = swap64s(p, end, (uint64_t)read_stride(rf) + times);
		else if (swap_count(&p, end, &v))
			p = swap64s(p, end, times + v * (uint64_t)read_stride(rf));
		else
			return "truncated sample";
	}
	if (st & PERF_SAMPLE_CALLCHAIN) {
		if (!swap_count(&p, end, &v))
			return "truncated sample";
		p = swap64s(p, end, v);
	}
	if (st & PERF_SAMPLE_RAW) {
		uint32_t size;

		if (end - p < 4)
			return "truncated sample";
		swap32(p);
		memcpy(&size, p, 4);
		/* tracepoint payloads stay in file order: libtraceevent swaps */
		if ((uint64_t)(end - p) < 4 + (uint64_t)size)
			return "truncated sample";
		p += 4 + (uint64_t)size;
	}
	if (st & PERF_SAMPLE_BRANCH_STACK) {
		if (!swap_count(&p, end, &v))
			return "truncated sample";
		if (attr->branch_sample_type & PERF_SAMPLE_BRANCH_HW_INDEX)
			p = swap64s(p, end, 1);
		p = swap64s(p, end, v * 3);
	}
	if ((st & PERF_SAMPLE_REGS_USER) && !swap_regs(&p, end, attr->sample_regs_user))
		return "truncated sample";
	if (st & PERF_SAMPLE_STACK_USER) {
		if (!swap_count(&p, end, &v))
			return "truncated sample";
		if (v) {
			if ((uint64_t)(end - p) < v)
				return "truncated sample";
			p += v;		/* memory image: left as recorded */
			p = swap64s(p, end, 1);
		}
	}
	if (st & PERF_SAMPLE_WEIGHT_STRUCT) {
		if (end - p < 8)
			return "truncated sample";
		swap32(p);
		swap16(p + 4);
		swap16(p + 6);
		p += 8;
	} else if (st & PERF_SAMPLE_WEIGHT) {
		p = swap64s(p, end, 1);
	}
	p = SWAP_SAMPLE_FIELDS(p, end, sample_data_src, st);
	if ((st & PERF_SAMPLE_REGS_INTR) && !swap_regs(&p, end, attr->sample_regs_intr))
		return "truncated sample";
	*pp = p;
	return NULL;
}

static const char *swap_sample(struct perf_event_header *rec, const struct perf_event_attr *attr)
{
	uint8_t *p = (uint8_t *)(rec + 1), *end = (uint8_t *)rec + rec->size;
	const char *err;

	if (!attr)
		return "sample of an unknown event";
	p = SWAP_SAMPLE_FIELDS(p, end, sample_head, attr->sample_type);
	err = swap_sample_body(&p, end, attr);
	if (err)
		return err;
	p = SWAP_SAMPLE_FIELDS(p, end, sample_tail, attr->sample_type);
	if (attr->sample_type & PERF_SAMPLE_AUX)
		swap64s(p, end, 1);
	return NULL;
}

/* Field widths (bytes) of the fixed part of each record body that is all
 * plain numbers; what follows them is handled below. */
static const char *const rec_layouts[] = {
	[PERF_RECORD_MMAP] = "44888",
	[PERF_RECORD_MMAP2] = "44888",
	[PERF_RECORD_COMM] = "44",
	[PERF_RECORD_ITRACE_START] = "44",
	[PERF_RECORD_SWITCH_CPU_WIDE] = "44",
	[PERF_RECORD_FORK] = "44448",
	[PERF_RECORD_EXIT] = "44448",
	[PERF_RECORD_LOST] = "88",
	[PERF_RECORD_LOST_SAMPLES] = "8",
	[PERF_RECORD_AUX_OUTPUT_HW_ID] = "8",
	[PERF_RECORD_CGROUP] = "8",
	[PERF_RECORD_THROTTLE] = "888",
	[PERF_RECORD_UNTHROTTLE] = "888",
	[PERF_RECORD_AUX] = "888",
	[PERF_RECORD_READ] = "44",
	[PERF_RECORD_NAMESPACES] = "448",
	[PERF_RECORD_KSYMBOL] = "8422",
	[PERF_RECORD_BPF_EVENT] = "224",
	[PERF_RECORD_TEXT_POKE] = "822",
	[PERF_RECORD_HEADER_TRACING_DATA] = "4",
	[PERF_RECORD_HEADER_BUILD_ID] = "4",
	[PERF_RECORD_TIME_CONV] = "88888",	/* then byte flags */
	[PERF_RECORD_HEADER_FEATURE] = "8",	/* the payload is parsed swap-aware */
	[PERF_RECORD_AUXTRACE_INFO] = "44",
	[PERF_RECORD_AUXTRACE] = "888444",
	[PERF_RECORD_AUXTRACE_ERROR] = "44444488",
	[PERF_RECORD_STAT] = "844888",
	[PERF_RECORD_EVENT_UPDATE] = "88",
	[PERF_RECORD_THREAD_MAP] = "8",
	[PERF_RECORD_CPU_MAP] = "2",
};

/* Swaps fields of the given widths ("448": u32, u32, u64) from p on. */
static uint8_t *swap_fields(uint8_t *p, const uint8_t *end, const char *widths)
{
	for (; widths && *widths; widths++)
		p = swap_words(p, end, 1, (size_t)(*widths - '0'));
	return p;
}

/* CPU_MAP data: a u16 list, a u16 header and long masks, or a u16 range. */
static void swap_cpu_map(struct perf_rec_cpu_map *cm, const uint8_t *end, size_t body)
{
	uint16_t nr, long_size;

	if (cm->type == 0) {
		swap16(cm->data);
		memcpy(&nr, cm->data, 2);
		for (uint32_t i = 0; i < nr && 2 + 2 * (size_t)(i + 1) <= body - 2; i++)
			swap16(cm->data + 2 + 2 * i);
	} else if (cm->type == 1) {
		swap16(cm->data);
		swap16(cm->data + 2);
		memcpy(&nr, cm->data, 2);
		memcpy(&long_size, cm->data + 2, 2);
		if (long_size == 4)
			swap32s(cm->data + 4, end, nr);
		else if (long_size == 8)
			swap64s(cm->data + 6, end, nr);
	} else if (cm->type == 2) {
		swap16(cm->data + 2);
		swap16(cm->data + 4);
	}
}

const char *perf_record__swap(struct perf_event_header *rec, const struct perf_event_attr *attr)
{
	uint8_t *b = (uint8_t *)(rec + 1), *end = (uint8_t *)rec + rec->size;
	size_t body = rec->size >= sizeof(*rec) ? rec->size - sizeof(*rec) : 0;
	uint8_t *p;

	if (rec->size < fixed_size(rec->type))
		return "record too small for its type";
	if (rec->type == PERF_RECORD_SAMPLE)
		return swap_sample(rec, attr);
	p = swap_fields(b, end, rec->type < ARRAY_SIZE(rec_layouts) ? rec_layouts[rec->type] : NULL);
	switch (rec->type) {
	case PERF_RECORD_MMAP2:
		/* maj, min, ino, ino_generation, unless a build id stands there */
		if (!(rec->misc & PERF_RECORD_MISC_MMAP_BUILD_ID))
			swap_fields(p, end, "4488");
		swap_fields(p + 24, end, "44");	/* prot, flags */
		break;
	case PERF_RECORD_READ:
		swap64s(p, end - (attr ? perf_sample__id_hdr_size(attr) : 0), (body - 8) / 8);
		break;
	case PERF_RECORD_NAMESPACES: {
		struct perf_rec_namespaces *ns = (void *)rec;

		if (ns->nr_namespaces <= body / 16)
			swap64s((uint8_t *)ns->link_info, end, 2 * ns->nr_namespaces);
		break;
	}
	case PERF_RECORD_HEADER_ATTR: {
		struct perf_rec_header_attr *a = (void *)rec;
		uint32_t asz;

		memcpy(&asz, b + 4, 4);
		swap32(&asz);
		if (asz < PERF_ATTR_SIZE_VER0 || asz > body)
			return "bad attr size in HEADER_ATTR";
		perf_event_attr__swap(&a->attr, asz);
		swap64s(b + asz, end, (body - asz) / 8);
		break;
	}
	case PERF_RECORD_ID_INDEX:
	case PERF_RECORD_STAT_CONFIG:
	case PERF_RECORD_STAT_ROUND:
		swap64s(b, end, body / 8);	/* all-u64 bodies */
		break;
	case PERF_RECORD_AUXTRACE_INFO:
		swap64s(p, end, (body - 8) / 8);
		break;
	case PERF_RECORD_THREAD_MAP: {
		struct perf_rec_thread_map *tm = (void *)rec;

		for (uint64_t i = 0; i < tm->nr && i < body / 24; i++)
			swap64(&tm->entries[i].pid);
		break;
	}
	case PERF_RECORD_CPU_MAP:
		swap_cpu_map((void *)rec, end, body);
		break;
	case PERF_RECORD_AUXTRACE_ERROR:
		if (rec->size >= sizeof(struct perf_rec_auxtrace_error))
			swap32s((uint8_t *)&((struct perf_rec_auxtrace_error *)rec)->machine_pid, end, 2);
		break;
	case PERF_RECORD_EVENT_UPDATE:
		/* SCALE (1) carries a double */
		if (((struct perf_rec_event_update *)rec)->type == 1)
			swap64s(((struct perf_rec_event_update *)rec)->data, end, 1);
		break;
	default:
		break;
	}
	/* kernel records end with the sample_id_all trailer */
	if (rec->type < PERF_RECORD_USER_TYPE_START)
		swap_trailer(rec, attr);
	return NULL;
}

int perf_rec_build_id__size(const struct perf_rec_build_id *b)
{
	int size = (b->header.misc & PERF_RECORD_MISC_BUILD_ID_SIZE) ? b->build_id[20] : BUILD_ID_MAX;

	return size > BUILD_ID_MAX ? BUILD_ID_MAX : size;
}

uint64_t time_conv__to_perf(const struct perf_rec_time_conv *tc, uint64_t cycles)
{
	uint64_t quot, rem;

	if (tc->cap_user_time_short)
		cycles = tc->time_cycles + ((cycles - tc->time_cycles) & tc->time_mask);
	quot = cycles >> tc->time_shift;
	rem = cycles & ((1ull << tc->time_shift) - 1);
	return tc->time_zero + quot * tc->time_mult + ((rem * tc->time_mult) >> tc->time_shift);
}

uint64_t time_conv__to_tsc(const struct perf_rec_time_conv *tc, uint64_t ns)
{
	uint64_t t = ns - tc->time_zero, quot, rem;

	if (!tc->time_mult)
		return ns;
	quot = t / tc->time_mult;
	rem = t % tc->time_mult;
	return (quot << tc->time_shift) + (rem << tc->time_shift) / tc->time_mult;
}
