/* script-events: the text perf script prints for a side record (switch,
 * lost, cgroup, namespaces, bpf, text poke, round, task, mmap events).
 * Mostly what -D shows after "PERF_RECORD_<TYPE>"; the types whose
 * script text differs from the dump's are handled here. */
#include <inttypes.h>
#include <string.h>

#include "ui/raw-dump.h"
#include "ui/script-print.h"

/* "            Old bytes: 0f 1f 44 00 00" lines, 16 bytes a line */
static void print_poke_bytes(FILE *fp, const char *what, const uint8_t *bytes, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		if (i % 16 == 0)
			fprintf(fp, "            %s bytes:", what);
		fprintf(fp, " %02x", bytes[i]);
		if ((i + 1) % 16 == 0 || i + 1 == n)
			fputc('\n', fp);
	}
}

static void print_text_poke(FILE *fp, struct machine *m, const struct perf_rec_text_poke *t)
{
	struct addr_location al;

	fprintf(fp, " %" PRIx64 " ", t->addr);
	memset(&al, 0, sizeof(al));
	if (m && machine__resolve(m, NULL, PERF_RECORD_MISC_KERNEL, t->addr, &al) && al.sym) {
		uint64_t off = al.addr < al.sym->end ? al.addr - al.sym->start :
			       al.addr - al.map->start - al.sym->start;

		fprintf(fp, "%s+0x%" PRIx64, al.sym->name, off);
	}
	fprintf(fp, " old len %u new len %u\n", t->old_len, t->new_len);
	print_poke_bytes(fp, "Old", t->bytes, t->old_len);
	print_poke_bytes(fp, "New", t->bytes + t->old_len, t->new_len);
}

void script_print_record_line(FILE *fp, struct machine *m, const struct perf_event_header *rec)
{
	fprintf(fp, "PERF_RECORD_%s", perf_record_name(rec->type));
	switch (rec->type) {
	case PERF_RECORD_LOST:
		fprintf(fp, " lost %" PRIu64 "\n",
			((const struct perf_rec_lost *)(const void *)rec)->lost);
		break;
	case PERF_RECORD_TEXT_POKE:
		print_text_poke(fp, m, (const void *)rec);
		break;
	case PERF_RECORD_FINISHED_ROUND:
		fputc('\n', fp);
		break;
	default:
		raw_dump_details(fp, rec, NULL, NULL);
		break;
	}
}
