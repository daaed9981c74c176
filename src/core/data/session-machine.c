/* session-machine: builds the address-space model from the records that
 * describe it (COMM, FORK, EXIT, MMAP, MMAP2, HEADER_BUILD_ID). */
#include "core/symbols/machine.h"
#include "core/data/session.h"

void perf_session__feed_machine(struct machine *m, const struct perf_event_header *rec)
{
	uint8_t cpumode = rec->misc & PERF_RECORD_MISC_CPUMODE_MASK;

	switch (rec->type) {
	case PERF_RECORD_COMM: {
		const struct perf_rec_comm *c = (const void *)rec;

		machine__process_comm(m, (pid_t)c->pid, (pid_t)c->tid, c->comm,
				      rec->misc & PERF_RECORD_MISC_COMM_EXEC);
		break;
	}
	case PERF_RECORD_FORK: {
		const struct perf_rec_fork *f = (const void *)rec;

		machine__process_fork(m, (pid_t)f->pid, (pid_t)f->ppid, (pid_t)f->tid,
				      (pid_t)f->ptid, !(rec->misc & PERF_RECORD_MISC_FORK_EXEC));
		break;
	}
	case PERF_RECORD_EXIT: {
		const struct perf_rec_fork *f = (const void *)rec;

		machine__process_exit(m, (pid_t)f->pid, (pid_t)f->tid);
		break;
	}
	case PERF_RECORD_MMAP: {
		const struct perf_rec_mmap *mm = (const void *)rec;

		machine__process_mmap(m, (pid_t)mm->pid, (pid_t)mm->tid, mm->start, mm->len,
				      mm->pgoff, mm->filename, cpumode, NULL, 0);
		break;
	}
	case PERF_RECORD_MMAP2: {
		const struct perf_rec_mmap2 *mm = (const void *)rec;
		bool bid = rec->misc & PERF_RECORD_MISC_MMAP_BUILD_ID;

		machine__process_mmap2(m, (pid_t)mm->pid, (pid_t)mm->tid, mm->start, mm->len,
				       mm->pgoff, mm->filename, cpumode,
				       bid ? mm->build_id : NULL, bid ? mm->build_id_size : 0,
				       mm->prot, mm->flags);
		if (!bid) {
			struct thread *t = machine__find_thread(m, (pid_t)mm->pid, (pid_t)mm->tid);
			struct map *map = t ? maps__find(thread__maps(t), mm->start) : NULL;

			if (map && map->start == mm->start)
				map->ino = mm->ino;
		}
		break;
	}
	case PERF_RECORD_HEADER_BUILD_ID: {
		const struct perf_rec_build_id *b = (const void *)rec;

		machine__set_build_id(m, b->filename, b->build_id, perf_rec_build_id__size(b));
		break;
	}
	default:
		break;
	}
}

void perf_session__machine_build_ids(struct perf_session *s, struct machine *m)
{
	for (uint32_t i = 0; i < s->header.nr_build_ids; i++) {
		const struct perf_build_id_entry *b = &s->header.build_ids[i];

		machine__set_build_id(m, b->filename, b->build_id, b->size);
	}
}

struct machine *perf_session__new_machine(struct perf_session *s, const char *kallsyms,
					  const char *symfs, bool force)
{
	struct machine *m = machine__new();
	struct symbols_config *symbols = machine__symbols_config(m);

	symbols->kallsyms = kallsyms;
	symbols->symfs = symfs;
	symbols->force = force;
	perf_session__machine_build_ids(s, m);
	return m;
}
