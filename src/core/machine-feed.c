/* machine-feed: records -> machine (see machine-feed.h). */
#include "core/machine-feed.h"
#include "core/perf-record.h"

#include <linux/perf_event.h>

bool machine__feed(struct machine *m, const struct perf_event_header *rec)
{
	switch (rec->type) {
	case PERF_RECORD_COMM: {
		const struct perf_rec_comm *c = (const void *)rec;
		bool exec = rec->misc & PERF_RECORD_MISC_COMM_EXEC;

		machine__process_comm(m, (pid_t)c->pid, (pid_t)c->tid, c->comm, exec);
		return exec;
	}
	case PERF_RECORD_FORK: {
		const struct perf_rec_fork *f = (const void *)rec;

		machine__process_fork(m, (pid_t)f->pid, (pid_t)f->ppid, (pid_t)f->tid,
				      (pid_t)f->ptid);
		return true;
	}
	case PERF_RECORD_EXIT: {
		const struct perf_rec_fork *f = (const void *)rec;

		machine__process_exit(m, (pid_t)f->pid, (pid_t)f->tid);
		return false;
	}
	case PERF_RECORD_MMAP: {
		const struct perf_rec_mmap *mm = (const void *)rec;

		machine__process_mmap(m, (pid_t)mm->pid, (pid_t)mm->tid, mm->start, mm->len,
				      mm->pgoff, mm->filename,
				      rec->misc & PERF_RECORD_MISC_CPUMODE_MASK, NULL, 0);
		return true;
	}
	case PERF_RECORD_MMAP2: {
		const struct perf_rec_mmap2 *mm = (const void *)rec;
		bool bid = rec->misc & PERF_RECORD_MISC_MMAP_BUILD_ID;

		machine__process_mmap2(m, (pid_t)mm->pid, (pid_t)mm->tid, mm->start, mm->len,
				       mm->pgoff, mm->filename,
				       rec->misc & PERF_RECORD_MISC_CPUMODE_MASK,
				       bid ? mm->build_id : NULL, bid ? mm->build_id_size : 0,
				       mm->prot, mm->flags);
		return true;
	}
	case PERF_RECORD_HEADER_BUILD_ID: {
		const struct perf_rec_build_id *b = (const void *)rec;

		machine__set_build_id(m, b->filename, b->build_id, perf_rec_build_id__size(b));
		return false;
	}
	default:
		return false;
	}
}

void machine__feed_build_ids(struct machine *m, const struct perf_header *h)
{
	for (uint32_t i = 0; i < h->nr_build_ids; i++) {
		const struct perf_build_id_entry *e = &h->build_ids[i];

		machine__set_build_id(m, e->filename, e->build_id, e->size);
	}
}
