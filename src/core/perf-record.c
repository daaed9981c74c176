/* perf-record: record names, validation, byte swapping, sample decoding. */
#include "core/perf-record.h"
#include "util/util.h"

#include <byteswap.h>
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

/* Bounds-checked reader over the u64 words of a record body. */
struct words {
	const uint8_t *p, *end;
	const char *err;
};

static bool w_need(struct words *w, uint64_t bytes)
{
	if (w->err)
		return false;
	if ((uint64_t)(w->end - w->p) < bytes) {
		w->err = "sample extends past the end of the record";
		return false;
	}
	return true;
}

static uint64_t w_u64(struct words *w)
{
	uint64_t v;

	if (!w_need(w, 8))
		return 0;
	memcpy(&v, w->p, 8);
	w->p += 8;
	return v;
}

static void w_u32x2(struct words *w, uint32_t *a, uint32_t *b)
{
	if (!w_need(w, 8))
		return;
	memcpy(a, w->p, 4);
	memcpy(b, w->p + 4, 4);
	w->p += 8;
}

static const void *w_skip(struct words *w, uint64_t bytes)
{
	const void *p = w->p;

	if (!w_need(w, bytes))
		return NULL;
	w->p += bytes;
	return p;
}

static void parse_id_trailer(struct words *w, uint64_t st, struct perf_sample *s)
{
	if (st & PERF_SAMPLE_TID)
		w_u32x2(w, &s->pid, &s->tid);
	if (st & PERF_SAMPLE_TIME)
		s->time = w_u64(w);
	if (st & PERF_SAMPLE_ID)
		s->id = w_u64(w);
	if (st & PERF_SAMPLE_STREAM_ID)
		s->stream_id = w_u64(w);
	if (st & PERF_SAMPLE_CPU) {
		uint32_t res;
		w_u32x2(w, &s->cpu, &res);
	}
	if (st & PERF_SAMPLE_IDENTIFIER)
		s->id = w_u64(w);
}

static int read_stride(uint64_t rf)
{
	return 1 + !!(rf & PERF_FORMAT_ID) + !!(rf & PERF_FORMAT_LOST);
}

static void parse_read(struct words *w, uint64_t rf, struct perf_sample *s)
{
	s->read.stride = read_stride(rf);
	if (rf & PERF_FORMAT_GROUP) {
		uint64_t nr = w_u64(w);

		if (rf & PERF_FORMAT_TOTAL_TIME_ENABLED)
			s->read.time_enabled = w_u64(w);
		if (rf & PERF_FORMAT_TOTAL_TIME_RUNNING)
			s->read.time_running = w_u64(w);
		if (nr > (1u << 16)) {
			w->err = "group read with too many values";
			return;
		}
		s->read.nr = nr;
		s->read.values = w_skip(w, nr * 8 * (uint64_t)s->read.stride);
		return;
	}
	s->read.nr = 1;
	s->read.values = (const uint64_t *)(const void *)w->p;
	s->read.one.value = w_u64(w);
	if (rf & PERF_FORMAT_TOTAL_TIME_ENABLED)
		s->read.time_enabled = w_u64(w);
	if (rf & PERF_FORMAT_TOTAL_TIME_RUNNING)
		s->read.time_running = w_u64(w);
	if (rf & PERF_FORMAT_ID)
		s->read.one.id = w_u64(w);
	if (rf & PERF_FORMAT_LOST)
		s->read.one.lost = w_u64(w);
}

static void parse_regs(struct words *w, uint64_t mask, uint64_t *abi, uint64_t *m,
		       const uint64_t **regs)
{
	*abi = w_u64(w);
	*m = mask;
	if (*abi)
		*regs = w_skip(w, 8 * (uint64_t)__builtin_popcountll(mask));
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
	struct words w;

	if (!n)
		return 0;
	if (rec->size < sizeof(*rec) + n) {
		*err = "record too small for its sample_id_all trailer";
		return -1;
	}
	w.p = (const uint8_t *)rec + rec->size - n;
	w.end = (const uint8_t *)rec + rec->size;
	w.err = NULL;
	parse_id_trailer(&w, attr->sample_type, s);
	return 0;
}

int perf_sample__parse(const struct perf_event_attr *attr, const struct perf_event_header *rec,
		       struct perf_sample *s, const char **err)
{
	uint64_t st = attr->sample_type;
	struct words w = { (const uint8_t *)(rec + 1), (const uint8_t *)rec + rec->size, NULL };

	sample_defaults(s, rec);
	/* without PERIOD in the sample, the attr's fixed period applies */
	s->period = attr->sample_period;
	if (rec->size < sizeof(*rec)) {
		*err = "record smaller than its header";
		return -1;
	}
	if (rec->type != PERF_RECORD_SAMPLE)
		return parse_trailer(attr, rec, s, err);

	if (st & PERF_SAMPLE_IDENTIFIER)
		s->id = w_u64(&w);
	if (st & PERF_SAMPLE_IP)
		s->ip = w_u64(&w);
	if (st & PERF_SAMPLE_TID)
		w_u32x2(&w, &s->pid, &s->tid);
	if (st & PERF_SAMPLE_TIME)
		s->time = w_u64(&w);
	if (st & PERF_SAMPLE_ADDR)
		s->addr = w_u64(&w);
	if (st & PERF_SAMPLE_ID)
		s->id = w_u64(&w);
	if (st & PERF_SAMPLE_STREAM_ID)
		s->stream_id = w_u64(&w);
	if (st & PERF_SAMPLE_CPU) {
		uint32_t res;
		w_u32x2(&w, &s->cpu, &res);
	}
	if (st & PERF_SAMPLE_PERIOD)
		s->period = w_u64(&w);
	if (st & PERF_SAMPLE_READ)
		parse_read(&w, attr->read_format, s);
	if (st & PERF_SAMPLE_CALLCHAIN) {
		s->callchain_nr = w_u64(&w);
		if (s->callchain_nr > (1u << 16)) {
			*err = "callchain too long";
			return -1;
		}
		s->callchain = w_skip(&w, s->callchain_nr * 8);
	}
	if (st & PERF_SAMPLE_RAW) {
		uint32_t size;

		if (w_need(&w, 4)) {
			memcpy(&size, w.p, 4);
			/* the kernel pads size so that u32 + data ends on a u64 */
			if ((size + 4u) % 8) {
				*err = "raw data size not aligned";
				return -1;
			}
			s->raw_size = size;
			s->raw_data = w.p + 4;
			w_skip(&w, 4 + (uint64_t)size);
		}
	}
	if (st & PERF_SAMPLE_BRANCH_STACK) {
		s->branch_nr = w_u64(&w);
		if (s->branch_nr > (1u << 16)) {
			*err = "branch stack too long";
			return -1;
		}
		if (attr->branch_sample_type & PERF_SAMPLE_BRANCH_HW_INDEX) {
			s->branch_has_hw_idx = true;
			s->branch_hw_idx = w_u64(&w);
		}
		s->branch_entries = w_skip(&w, s->branch_nr * sizeof(struct perf_branch_entry));
	}
	if (st & PERF_SAMPLE_REGS_USER)
		parse_regs(&w, attr->sample_regs_user, &s->user_regs.abi, &s->user_regs.mask,
			   &s->user_regs.regs);
	if (st & PERF_SAMPLE_STACK_USER) {
		s->user_stack.size = w_u64(&w);
		if (s->user_stack.size) {
			if (s->user_stack.size % 8) {
				*err = "user stack size not aligned";
				return -1;
			}
			s->user_stack.data = w_skip(&w, s->user_stack.size);
			s->user_stack.dyn_size = w_u64(&w);
			if (s->user_stack.dyn_size > s->user_stack.size)
				s->user_stack.dyn_size = s->user_stack.size;
		}
	}
	if (st & (PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT)) {
		uint64_t v = w_u64(&w);

		if (st & PERF_SAMPLE_WEIGHT_STRUCT) {
			s->weight = v & 0xffffffffu;
			s->ins_lat = (v >> 32) & 0xffff;
			s->p_stage_cyc = (v >> 48) & 0xffff;
		} else {
			s->weight = v;
		}
	}
	if (st & PERF_SAMPLE_DATA_SRC)
		s->data_src = w_u64(&w);
	if (st & PERF_SAMPLE_TRANSACTION)
		s->transaction = w_u64(&w);
	if (st & PERF_SAMPLE_REGS_INTR)
		parse_regs(&w, attr->sample_regs_intr, &s->intr_regs.abi, &s->intr_regs.mask,
			   &s->intr_regs.regs);
	if (st & PERF_SAMPLE_PHYS_ADDR)
		s->phys_addr = w_u64(&w);
	if (st & PERF_SAMPLE_CGROUP)
		s->cgroup = w_u64(&w);
	if (st & PERF_SAMPLE_DATA_PAGE_SIZE)
		s->data_page_size = w_u64(&w);
	if (st & PERF_SAMPLE_CODE_PAGE_SIZE)
		s->code_page_size = w_u64(&w);
	if (st & PERF_SAMPLE_AUX) {
		s->aux.size = w_u64(&w);
		if (s->aux.size % 8) {
			*err = "aux sample size not aligned";
			return -1;
		}
		s->aux.data = w_skip(&w, s->aux.size);
	}
	if (w.err) {
		*err = w.err;
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

const char *perf_record__check(const struct perf_event_header *rec, size_t id_hdr_size)
{
	size_t fixed = fixed_size(rec->type);
	const uint8_t *end = (const uint8_t *)rec + rec->size;

	if (rec->size < sizeof(*rec))
		return "record size smaller than its header";
	if (rec->size < fixed)
		return "record too small for its type";
	if (rec->type < PERF_RECORD_USER_TYPE_START && rec->type != PERF_RECORD_SAMPLE) {
		if (rec->size < fixed + id_hdr_size)
			id_hdr_size = 0;	/* synthesized without trailer */
		end -= id_hdr_size;
	}
	switch (rec->type) {
	case PERF_RECORD_MMAP:
		if (!str_ends_before(((const struct perf_rec_mmap *)rec)->filename, end))
			return "MMAP file name not terminated";
		break;
	case PERF_RECORD_MMAP2:
		if (!str_ends_before(((const struct perf_rec_mmap2 *)rec)->filename, end))
			return "MMAP2 file name not terminated";
		break;
	case PERF_RECORD_COMM:
		if (!str_ends_before(((const struct perf_rec_comm *)rec)->comm, end))
			return "COMM name not terminated";
		break;
	case PERF_RECORD_KSYMBOL:
		if (!str_ends_before(((const struct perf_rec_ksymbol *)rec)->name, end))
			return "KSYMBOL name not terminated";
		break;
	case PERF_RECORD_CGROUP:
		if (!str_ends_before(((const struct perf_rec_cgroup *)rec)->path, end))
			return "CGROUP path not terminated";
		break;
	case PERF_RECORD_HEADER_BUILD_ID:
		if (!str_ends_before(((const struct perf_rec_build_id *)rec)->filename, end))
			return "BUILD_ID file name not terminated";
		break;
	case PERF_RECORD_NAMESPACES: {
		const struct perf_rec_namespaces *ns = (const void *)rec;

		if (ns->nr_namespaces > (size_t)(end - (const uint8_t *)ns->link_info) / 16)
			return "NAMESPACES count exceeds the record";
		break;
	}
	case PERF_RECORD_TEXT_POKE: {
		const struct perf_rec_text_poke *tp = (const void *)rec;

		if ((size_t)tp->old_len + tp->new_len > (size_t)(end - tp->bytes))
			return "TEXT_POKE bytes exceed the record";
		break;
	}
	case PERF_RECORD_ID_INDEX: {
		const struct perf_rec_id_index *ix = (const void *)rec;

		if (ix->nr > (size_t)(end - (const uint8_t *)ix->entries) / 32)
			return "ID_INDEX count exceeds the record";
		break;
	}
	case PERF_RECORD_THREAD_MAP: {
		const struct perf_rec_thread_map *tm = (const void *)rec;

		if (tm->nr > (size_t)(end - (const uint8_t *)tm->entries) / 24)
			return "THREAD_MAP count exceeds the record";
		break;
	}
	case PERF_RECORD_STAT_CONFIG: {
		const struct perf_rec_stat_config *sc = (const void *)rec;

		if (sc->nr > (size_t)(end - (const uint8_t *)sc->data) / 16)
			return "STAT_CONFIG count exceeds the record";
		break;
	}
	default:
		break;
	}
	return NULL;
}

/* ---- byte swapping ---- */

static void swap64(void *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	v = bswap_64(v);
	memcpy(p, &v, 8);
}

static void swap32(void *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	v = bswap_32(v);
	memcpy(p, &v, 4);
}

static void swap16(void *p)
{
	uint16_t v;

	memcpy(&v, p, 2);
	v = bswap_16(v);
	memcpy(p, &v, 2);
}

/* Swaps n u64 words starting at p, staying before end. */
static uint8_t *swap64s(uint8_t *p, const uint8_t *end, uint64_t n)
{
	for (uint64_t i = 0; i < n && p + 8 <= end; i++, p += 8)
		swap64(p);
	return p;
}

static uint8_t *swap32s(uint8_t *p, const uint8_t *end, uint64_t n)
{
	for (uint64_t i = 0; i < n && p + 4 <= end; i++, p += 4)
		swap32(p);
	return p;
}

static void swap_trailer(struct perf_event_header *rec, const struct perf_event_attr *attr)
{
	size_t n = attr ? perf_sample__id_hdr_size(attr) : 0;
	uint8_t *end = (uint8_t *)rec + rec->size, *p;
	uint64_t st;

	if (!n || rec->size < sizeof(*rec) + n)
		return;
	p = end - n;
	st = attr->sample_type;
	if (st & PERF_SAMPLE_TID)
		p = swap32s(p, end, 2);
	if (st & PERF_SAMPLE_TIME)
		p = swap64s(p, end, 1);
	if (st & PERF_SAMPLE_ID)
		p = swap64s(p, end, 1);
	if (st & PERF_SAMPLE_STREAM_ID)
		p = swap64s(p, end, 1);
	if (st & PERF_SAMPLE_CPU)
		p = swap32s(p, end, 2);
	if (st & PERF_SAMPLE_IDENTIFIER)
		swap64s(p, end, 1);
}

static const char *swap_sample(struct perf_event_header *rec, const struct perf_event_attr *attr)
{
	uint8_t *p = (uint8_t *)(rec + 1), *end = (uint8_t *)rec + rec->size;
	uint64_t st, v;

	if (!attr)
		return "sample of an unknown event";
	st = attr->sample_type;
	if (st & PERF_SAMPLE_IDENTIFIER)
		p = swap64s(p, end, 1);
	if (st & PERF_SAMPLE_IP)
		p = swap64s(p, end, 1);
	if (st & PERF_SAMPLE_TID)
		p = swap32s(p, end, 2);
	if (st & PERF_SAMPLE_TIME)
		p = swap64s(p, end, 1);
	if (st & PERF_SAMPLE_ADDR)
		p = swap64s(p, end, 1);
	if (st & PERF_SAMPLE_ID)
		p = swap64s(p, end, 1);
	if (st & PERF_SAMPLE_STREAM_ID)
		p = swap64s(p, end, 1);
	if (st & PERF_SAMPLE_CPU)
		p = swap32s(p, end, 2);
	if (st & PERF_SAMPLE_PERIOD)
		p = swap64s(p, end, 1);
	if (st & PERF_SAMPLE_READ) {
		uint64_t rf = attr->read_format;

		if (rf & PERF_FORMAT_GROUP) {
			if (p + 8 > end)
				return "truncated sample";
			swap64(p);
			memcpy(&v, p, 8);
			p += 8;
			p = swap64s(p, end, !!(rf & PERF_FORMAT_TOTAL_TIME_ENABLED) +
					    !!(rf & PERF_FORMAT_TOTAL_TIME_RUNNING) +
					    v * (uint64_t)read_stride(rf));
		} else {
			p = swap64s(p, end, (uint64_t)read_stride(rf) +
					    !!(rf & PERF_FORMAT_TOTAL_TIME_ENABLED) +
					    !!(rf & PERF_FORMAT_TOTAL_TIME_RUNNING));
		}
	}
	if (st & PERF_SAMPLE_CALLCHAIN) {
		if (p + 8 > end)
			return "truncated sample";
		swap64(p);
		memcpy(&v, p, 8);
		p = swap64s(p + 8, end, v);
	}
	if (st & PERF_SAMPLE_RAW) {
		uint32_t size;

		if (p + 4 > end)
			return "truncated sample";
		swap32(p);
		memcpy(&size, p, 4);
		/* tracepoint payloads stay in file order: libtraceevent swaps */
		if ((uint64_t)(end - p) < 4 + (uint64_t)size)
			return "truncated sample";
		p += 4 + (uint64_t)size;
	}
	if (st & PERF_SAMPLE_BRANCH_STACK) {
		if (p + 8 > end)
			return "truncated sample";
		swap64(p);
		memcpy(&v, p, 8);
		p += 8;
		if (attr->branch_sample_type & PERF_SAMPLE_BRANCH_HW_INDEX)
			p = swap64s(p, end, 1);
		p = swap64s(p, end, v * 3);
	}
	if (st & PERF_SAMPLE_REGS_USER) {
		if (p + 8 > end)
			return "truncated sample";
		swap64(p);
		memcpy(&v, p, 8);
		p += 8;
		if (v)
			p = swap64s(p, end, (uint64_t)__builtin_popcountll(attr->sample_regs_user));
	}
	if (st & PERF_SAMPLE_STACK_USER) {
		if (p + 8 > end)
			return "truncated sample";
		swap64(p);
		memcpy(&v, p, 8);
		p += 8;
		if (v) {
			if ((uint64_t)(end - p) < v)
				return "truncated sample";
			p += v;		/* memory image: left as recorded */
			p = swap64s(p, end, 1);
		}
	}
	if (st & PERF_SAMPLE_WEIGHT_STRUCT) {
		if (p + 8 > end)
			return "truncated sample";
		swap32(p);
		swap16(p + 4);
		swap16(p + 6);
		p += 8;
	} else if (st & PERF_SAMPLE_WEIGHT) {
		p = swap64s(p, end, 1);
	}
	if (st & PERF_SAMPLE_DATA_SRC)
		p = swap64s(p, end, 1);
	if (st & PERF_SAMPLE_TRANSACTION)
		p = swap64s(p, end, 1);
	if (st & PERF_SAMPLE_REGS_INTR) {
		if (p + 8 > end)
			return "truncated sample";
		swap64(p);
		memcpy(&v, p, 8);
		p += 8;
		if (v)
			p = swap64s(p, end, (uint64_t)__builtin_popcountll(attr->sample_regs_intr));
	}
	p = swap64s(p, end, !!(st & PERF_SAMPLE_PHYS_ADDR) + !!(st & PERF_SAMPLE_CGROUP) +
			    !!(st & PERF_SAMPLE_DATA_PAGE_SIZE) +
			    !!(st & PERF_SAMPLE_CODE_PAGE_SIZE));
	if (st & PERF_SAMPLE_AUX)
		swap64s(p, end, 1);
	return NULL;
}

const char *perf_record__swap(struct perf_event_header *rec, const struct perf_event_attr *attr)
{
	uint8_t *b = (uint8_t *)(rec + 1), *end = (uint8_t *)rec + rec->size;
	size_t body = rec->size >= sizeof(*rec) ? rec->size - sizeof(*rec) : 0;

	if (rec->size < fixed_size(rec->type))
		return "record too small for its type";
	switch (rec->type) {
	case PERF_RECORD_SAMPLE:
		return swap_sample(rec, attr);
	case PERF_RECORD_MMAP:
		swap32s(b, end, 2);
		swap64s(b + 8, end, 3);
		break;
	case PERF_RECORD_MMAP2: {
		struct perf_rec_mmap2 *m = (void *)rec;

		swap32s(b, end, 2);
		swap64s(b + 8, end, 3);
		if (!(rec->misc & PERF_RECORD_MISC_MMAP_BUILD_ID)) {
			swap32(&m->maj);
			swap32(&m->min);
			swap64(&m->ino);
			swap64(&m->ino_generation);
		}
		swap32(&m->prot);
		swap32(&m->flags);
		break;
	}
	case PERF_RECORD_COMM:
	case PERF_RECORD_ITRACE_START:
		swap32s(b, end, 2);
		break;
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		swap32s(b, end, 4);
		swap64s(b + 16, end, 1);
		break;
	case PERF_RECORD_LOST:
		swap64s(b, end, 2);
		break;
	case PERF_RECORD_LOST_SAMPLES:
	case PERF_RECORD_AUX_OUTPUT_HW_ID:
		swap64s(b, end, 1);
		break;
	case PERF_RECORD_THROTTLE:
	case PERF_RECORD_UNTHROTTLE:
	case PERF_RECORD_AUX:
		swap64s(b, end, 3);
		break;
	case PERF_RECORD_READ:
		swap32s(b, end, 2);
		swap64s(b + 8, end - (attr ? perf_sample__id_hdr_size(attr) : 0),
			(body - 8) / 8);
		break;
	case PERF_RECORD_SWITCH_CPU_WIDE:
		swap32s(b, end, 2);
		break;
	case PERF_RECORD_NAMESPACES: {
		struct perf_rec_namespaces *ns = (void *)rec;

		swap32s(b, end, 2);
		swap64(&ns->nr_namespaces);
		if (ns->nr_namespaces <= body / 16)
			swap64s((uint8_t *)ns->link_info, end, 2 * ns->nr_namespaces);
		break;
	}
	case PERF_RECORD_KSYMBOL: {
		struct perf_rec_ksymbol *k = (void *)rec;

		swap64(&k->addr);
		swap32(&k->len);
		swap16(&k->ksym_type);
		swap16(&k->flags);
		break;
	}
	case PERF_RECORD_BPF_EVENT: {
		struct perf_rec_bpf_event *e = (void *)rec;

		swap16(&e->type);
		swap16(&e->flags);
		swap32(&e->id);
		break;
	}
	case PERF_RECORD_CGROUP:
		swap64s(b, end, 1);
		break;
	case PERF_RECORD_TEXT_POKE: {
		struct perf_rec_text_poke *t = (void *)rec;

		swap64(&t->addr);
		swap16(&t->old_len);
		swap16(&t->new_len);
		break;
	}
	case PERF_RECORD_HEADER_ATTR: {
		struct perf_rec_header_attr *a = (void *)rec;
		uint32_t asz;

		memcpy(&asz, b + 4, 4);
		asz = bswap_32(asz);
		if (asz < PERF_ATTR_SIZE_VER0 || asz > body)
			return "bad attr size in HEADER_ATTR";
		perf_event_attr__swap(&a->attr, asz);
		swap64s(b + asz, end, (body - asz) / 8);
		return NULL;	/* no trailer */
	}
	case PERF_RECORD_HEADER_TRACING_DATA:
		swap32s(b, end, 1);
		return NULL;
	case PERF_RECORD_HEADER_BUILD_ID:
		swap32s(b, end, 1);
		return NULL;
	case PERF_RECORD_ID_INDEX:
	case PERF_RECORD_STAT_CONFIG:
	case PERF_RECORD_STAT_ROUND:
		swap64s(b, end, body / 8);	/* all-u64 bodies */
		return NULL;
	case PERF_RECORD_TIME_CONV:
		swap64s(b, end, 5);		/* then byte flags */
		return NULL;
	case PERF_RECORD_HEADER_FEATURE:
		swap64s(b, end, 1);		/* the payload is parsed swap-aware */
		return NULL;
	case PERF_RECORD_AUXTRACE_INFO:
		swap32s(b, end, 2);
		swap64s(b + 8, end, (body - 8) / 8);
		return NULL;
	case PERF_RECORD_THREAD_MAP: {
		struct perf_rec_thread_map *tm = (void *)rec;

		swap64(&tm->nr);
		for (uint64_t i = 0; i < tm->nr && i < body / 24; i++)
			swap64(&tm->entries[i].pid);
		return NULL;
	}
	case PERF_RECORD_CPU_MAP: {
		struct perf_rec_cpu_map *cm = (void *)rec;

		swap16(&cm->type);
		/* the layouts are u16 lists, or a u16 header and long masks */
		if (cm->type == 0) {
			uint16_t nr;

			swap16(cm->data);
			memcpy(&nr, cm->data, 2);
			for (uint32_t i = 0; i < nr && 2 + 2 * (size_t)(i + 1) <= body - 2; i++)
				swap16(cm->data + 2 + 2 * i);
		} else if (cm->type == 1) {
			uint16_t nr, long_size;

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
		return NULL;
	}
	case PERF_RECORD_AUXTRACE: {
		struct perf_rec_auxtrace *a = (void *)rec;

		swap64s(b, end, 3);
		swap32(&a->idx);
		swap32(&a->tid);
		swap32(&a->cpu);
		return NULL;
	}
	case PERF_RECORD_AUXTRACE_ERROR: {
		struct perf_rec_auxtrace_error *e = (void *)rec;

		swap32s(b, end, 6);
		swap64(&e->ip);
		swap64(&e->time);
		if (rec->size >= sizeof(*e))
			swap32s((uint8_t *)&e->machine_pid, end, 2);
		return NULL;
	}
	case PERF_RECORD_STAT: {
		struct perf_rec_stat *s = (void *)rec;

		swap64(&s->id);
		swap32(&s->cpu);
		swap32(&s->thread);
		swap64s((uint8_t *)&s->val, end, 3);
		return NULL;
	}
	case PERF_RECORD_EVENT_UPDATE: {
		struct perf_rec_event_update *u = (void *)rec;

		swap64(&u->type);
		swap64(&u->id);
		/* SCALE (1) carries a double */
		if (u->type == 1)
			swap64s(u->data, end, 1);
		return NULL;
	}
	default:
		if (rec->type >= PERF_RECORD_USER_TYPE_START)
			return NULL;
		break;
	}
	swap_trailer(rec, attr);
	return NULL;
}

int perf_rec_build_id__size(const struct perf_rec_build_id *b)
{
	int size = (b->header.misc & PERF_RECORD_MISC_BUILD_ID_SIZE) ? b->build_id[20] : BUILD_ID_MAX;

	return size > BUILD_ID_MAX ? BUILD_ID_MAX : size;
}
