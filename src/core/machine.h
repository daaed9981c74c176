/* machine: the address-space model that perf.data records build up.
 *
 *   machine -> threads (COMM/FORK/EXIT) -> maps (MMAP/MMAP2) -> dsos -> symbols
 *
 * Readers (script, report, flame graphs) feed records in time order and ask
 * machine__resolve() what an ip is.  Each DSO loads its symbols once (sorted,
 * binary-searched); each distinct address is resolved once (cached).
 * This is the agreed interface between the perf.data reader and the symbol
 * engine; the implementation may add fields and functions, but keep these.
 */
#ifndef PCL_MACHINE_H
#define PCL_MACHINE_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

struct symbol {
	uint64_t start, end;	/* DSO-relative (ELF vaddr / kallsyms address) */
	const char *name;	/* demangled as perf shows it */
};

struct dso {
	char *long_name;	/* path as in the MMAP record, or "[kernel.kallsyms]" */
	char *short_name;	/* basename, what perf prints in (dso) */
	uint8_t build_id[20];
	int build_id_size;	/* 0 when unknown */
	bool kernel;		/* kernel or module */
	bool hit;		/* a sample resolved into it (buildid-list) */
	/* symbol table, loaded lazily by dso__find_symbol() */
	void *priv;
};

struct map {
	uint64_t start, end;	/* [start, end) in the address space */
	uint64_t pgoff;
	struct dso *dso;
};

struct thread {
	pid_t pid, tid;
	char *comm;		/* current comm; "[unknown]"-style default like perf */
	void *priv;
};

struct machine;

/* What an address resolves to. */
struct addr_location {
	struct thread *thread;
	struct map *map;	/* NULL when no map covers the address */
	struct dso *dso;
	struct symbol *sym;	/* NULL when no symbol covers it */
	uint64_t addr;		/* DSO-relative address (what symoff is taken from) */
	char level;		/* 'k' kernel, '.' user, as report prints [k]/[.] */
	uint8_t cpumode;	/* PERF_RECORD_MISC_{KERNEL,USER,...} */
};

struct machine *machine__new(void);
void machine__delete(struct machine *m);

/* Optional overrides: --kallsyms FILE, --symfs DIR. */
void machine__set_kallsyms(struct machine *m, const char *path);

int machine__process_comm(struct machine *m, pid_t pid, pid_t tid, const char *comm, bool exec);
int machine__process_fork(struct machine *m, pid_t pid, pid_t ppid, pid_t tid, pid_t ptid);
int machine__process_exit(struct machine *m, pid_t pid, pid_t tid);
/* MMAP and MMAP2 (pid -1 = kernel map: "[kernel.kallsyms]_text" or a module). */
int machine__process_mmap(struct machine *m, pid_t pid, pid_t tid, uint64_t start,
			  uint64_t len, uint64_t pgoff, const char *filename,
			  uint8_t cpumode, const uint8_t *build_id, int build_id_size);
/* HEADER_BUILD_ID entries: tells which build id a path has. */
void machine__set_build_id(struct machine *m, const char *filename,
			   const uint8_t *build_id, int size);

/* Finds (or creates, like perf) the thread. */
struct thread *machine__findnew_thread(struct machine *m, pid_t pid, pid_t tid);

/* Resolves ip in thread's address space for the given cpumode. Returns
 * false when no map covers it (al still filled with thread/level). */
bool machine__resolve(struct machine *m, struct thread *thread, uint8_t cpumode,
		      uint64_t ip, struct addr_location *al);

/* Symbol covering a DSO-relative address, or NULL. */
struct symbol *dso__find_symbol(struct dso *dso, uint64_t addr);

/* "file.c:123" for a DSO-relative address, or NULL (libdw, cached). */
const char *dso__srcline(struct dso *dso, uint64_t addr);

/* Every DSO the machine knows, for buildid-list; iterate with the callback. */
void machine__for_each_dso(struct machine *m, void (*fn)(struct dso *dso, void *arg), void *arg);

#endif
