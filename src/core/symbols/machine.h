/* machine: the address-space model that perf.data records build up.
 *
 *   machine -> threads (COMM/FORK/EXIT) -> maps (MMAP/MMAP2) -> dsos -> symbols
 *
 * Readers (script, report, flame graphs) feed records in time order and ask
 * machine__resolve() what an ip is.  Each DSO loads its symbols once (sorted,
 * binary-searched); each distinct address is resolved once (cached).
 * This is the agreed interface between the perf.data reader and the symbol
 * engine; the implementation may add fields and functions, but keep these.
 *
 * Lifetime: the machine owns every thread, map, dso and symbol it ever
 * created; pointers handed out stay valid until machine__delete(), even
 * after a map was replaced by an overlapping MMAP or a thread id reused.
 *
 * Public, with dso.h, map.h, thread.h and buildid.h: readers, the UI,
 * hist/ and the commands include these only.  symbols-int.h holds the
 * engine's internals (struct machine, the symbol tables, the loaders);
 * only files in src/core/symbols/ and unit tests include it.
 */
#ifndef PCL_MACHINE_H
#define PCL_MACHINE_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "core/symbols/dso.h"
#include "core/symbols/map.h"
#include "core/symbols/thread.h"

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
/* perf's default guest machine: its kernel is "[guest.kernel.kallsyms]",
 * and GUEST_KERNEL/GUEST_USER samples resolve in it. */
struct machine *machine__new_guest(void);
void machine__delete(struct machine *m);

/* Starts reading the kernel's symbols on another thread when the file's
 * build ids say the kernel was sampled; kallsyms_prefetch_end() joins it
 * (call it before exiting). */
void machine__prefetch_kallsyms(struct machine *m);
void kallsyms_prefetch_end(void);

/* How the symbol loaders find and read symbols: perf's symbol_conf, but
 * one per machine and handed to the loaders.  machine__new() fills in
 * perf's defaults; a command changes them before any symbol is loaded.
 * The strings are borrowed: they must outlive the machine. */
struct symbols_config {
	const char *symfs;	/* --symfs DIR, put before every path; NULL: none */
	const char *kallsyms;	/* --kallsyms FILE; NULL: chosen by build id */
	const char *vmlinux;	/* -k FILE: the kernel's symbols from it only */
	/* a guest's machine: its kernel's symbols from kallsyms or vmlinux
	 * above only, none without them */
	bool guest;
	bool ignore_vmlinux;	/* --ignore-vmlinux: no -k, no vmlinux path */
	const char *os_release;	/* the recorded uname -r (vmlinux path); NULL: ours */
	const char *buildid_dir;	/* $PERF_BUILDID_DIR, else ~/.debug */
	bool force;		/* -f: perf-PID.map files whoever owns them */
	bool demangle;		/* C++/Rust names demangled (--no-demangle) */
	/* DWARF-unwound frames expanded into the functions inlined there
	 * (perf's --inline; FP callchains never are) */
	bool inline_frames;
	bool full_source_path;	/* srclines keep the file's directories */
	/* symbols sharing an address all kept (perf probe's allow_aliases);
	 * vmlinux images only so far */
	bool allow_aliases;
	/* a live session's (top's): the running vdso, copied to
	 * /tmp/perf-vdso.so-XXXXXX as perf top does, gives [vdso] its
	 * symbols when the build-id cache has none; -v names the copy */
	bool vdso_copy;
};
struct symbols_config *machine__symbols_config(struct machine *m);
/* perf's check of -k FILE and --kallsyms FILE before anything loads: the
 * first given that cannot be read (perf says "Invalid file: %s", -EINVAL),
 * or NULL. */
const char *symbol_files__unreadable(const char *vmlinux, const char *kallsyms);
/* A count that changes whenever what an address resolves to may have
 * (a map added, a process forked or exec'd): caches of resolved addresses
 * drop what they hold when it moved.  The session bumps it as it feeds
 * the records (machine__maps_changed). */
uint64_t machine__maps_generation(const struct machine *m);
void machine__maps_changed(struct machine *m);

int machine__process_comm(struct machine *m, pid_t pid, pid_t tid, const char *comm, bool exec);
/* perf report's case for its "Kernel address maps ... were restricted"
 * warning: the file had no kernel MMAP, or samples hit a kernel it gave
 * no reference symbol (_text) to place by.  *has_symbols: the kernel's
 * symbols were loaded all the same. */
bool machine__kernel_unplaced(struct machine *m, bool *has_symbols);
/* clone_maps: a new process copies its parent's maps, as the kernel did;
 * not for a FORK perf record synthesized (PERF_RECORD_MISC_FORK_EXEC),
 * whose maps come next as MMAP records.  A thread found under the parent's
 * tid with another pid (its EXIT lost, or its tid reused) is forgotten:
 * stale (may be NULL) then gets its pid and tid, else is left alone. */
struct thread_ids {
	pid_t pid, tid;
};
int machine__process_fork(struct machine *m, pid_t pid, pid_t ppid, pid_t tid, pid_t ptid,
			  bool clone_maps, struct thread_ids *stale);

/* perf's own misc bit of the FORK records it synthesizes. */
#define PERF_RECORD_MISC_FORK_EXEC (1 << 13)
int machine__process_exit(struct machine *m, pid_t pid, pid_t tid);
/* MMAP and MMAP2 (pid -1 = kernel map: "[kernel.kallsyms]_text" or a module). */
int machine__process_mmap(struct machine *m, pid_t pid, pid_t tid, uint64_t start,
			  uint64_t len, uint64_t pgoff, const char *filename,
			  uint8_t cpumode, const uint8_t *build_id, int build_id_size);
/* MMAP2 with its prot/flags (anon executable maps become perf-PID.map,
 * data maps do not get JIT symbols); machine__process_mmap() is this with
 * prot = PROT_EXEC, flags = 0. */
int machine__process_mmap2(struct machine *m, pid_t pid, pid_t tid, uint64_t start,
			   uint64_t len, uint64_t pgoff, const char *filename,
			   uint8_t cpumode, const uint8_t *build_id, int build_id_size,
			   uint32_t prot, uint32_t flags);
/* KSYMBOL: kernel code outside the kernel's and modules' maps (BPF
 * programs, trampolines): registered, a map of its own in the kernel's
 * maps whose DSO and only symbol bear its name, as perf makes them (an
 * address already mapped keeps its map); unregistered, that map goes. */
void machine__process_ksymbol(struct machine *m, uint64_t addr, uint32_t len, bool unregister,
			      const char *name);
/* CGROUP: the path (under the cgroup mount) of the cgroup id samples name. */
void machine__process_cgroup(struct machine *m, uint64_t id, const char *path);
/* The path of cgroup id, or NULL when no CGROUP record named it. */
const char *machine__cgroup_path(const struct machine *m, uint64_t id);
/* NAMESPACES: the thread's cgroup namespace (device and inode of its link). */
void machine__process_cgroup_ns(struct machine *m, pid_t pid, pid_t tid, uint64_t dev,
				uint64_t ino);
/* HEADER_BUILD_ID entries: tells which build id a path has. */
void machine__set_build_id(struct machine *m, const char *filename,
			   const uint8_t *build_id, int size);

/* For perf top's long runs: frees the threads that had exited (or been
 * replaced by a new task of their tid) at the previous call already and
 * that in_use() does not claim, then the maps no thread's address space
 * holds any more.  Every pointer to them is then stale: callers drop
 * their caches (the maps generation moves on).  Returns how many threads
 * went. */
size_t machine__prune_threads(struct machine *m,
			      bool (*in_use)(const struct thread *t, void *arg), void *arg);

/* Finds (or creates, like perf) the thread. */
struct thread *machine__findnew_thread(struct machine *m, pid_t pid, pid_t tid);
/* Finds the thread, or NULL. */
struct thread *machine__find_thread(struct machine *m, pid_t pid, pid_t tid);
/* perf's --guest-code: a guest whose code is the hypervisor process's own
 * (KVM test programs load it at the same addresses).  All of pid's guest
 * samples go to one thread of the guest machine, "[guest/PID]", whose maps
 * are a copy of the host process's, taken while it has none.  NULL when
 * the host machine never saw the process. */
struct thread *machine__findnew_guest_code(struct machine *guest, struct machine *host,
					   pid_t pid);

/* Resolves ip in thread's address space for the given cpumode. Returns
 * false when no map covers it (al still filled with thread/level).
 * Marks the DSO as hit. */
bool machine__resolve(struct machine *m, struct thread *thread, uint8_t cpumode,
		      uint64_t ip, struct addr_location *al);
/* The same without marking the DSO hit (callchain entries, branches). */
bool machine__lookup(struct machine *m, struct thread *thread, uint8_t cpumode,
		     uint64_t ip, struct addr_location *al);

/* Branch-stack lookups (perf's thread__find_map_fb/_symbol_fb): with the
 * sample's cpumode, else the mode the address belongs to.  The map one
 * leaves the DSO's symbols unloaded. */
bool machine__find_map_fb(struct machine *m, struct thread *thread, uint8_t cpumode,
			  uint64_t addr, struct addr_location *al);
bool machine__find_symbol_fb(struct machine *m, struct thread *thread, uint8_t cpumode,
			     uint64_t addr, struct addr_location *al);

/* Every DSO the machine knows, for buildid-list; iterate with the callback. */
void machine__for_each_dso(struct machine *m, void (*fn)(struct dso *dso, void *arg), void *arg);
/* Every thread the machine ever made (also those whose tid was reused
 * since, see machine__find_thread()), in creation order. */
void machine__for_each_thread(struct machine *m, void (*fn)(struct thread *t, void *arg),
			      void *arg);

/* Callchains ------------------------------------------------------------ */

/* One resolved frame: ip as perf script prints it, and where it lies.
 * DWARF-unwound frames are expanded into their inlined functions (same
 * ip): al.sym is then the function's symbol, or, when its DWARF name
 * differs, a symbol with that name and the real one's start, marked
 * inlined (perf prints "(inlined)" instead of the dso for those). */
struct callchain_frame {
	uint64_t ip;
	struct addr_location al;
	bool inlined;
	/* DWARF-expanded entries: the entry's source line (the address's for
	 * the innermost, the call site in the caller for the others), as
	 * perf prints them with -F srcline; NULL otherwise (use
	 * dso__srcline()). */
	const char *srcline;
};

/*
 * What a thread keeps of its LBR call stacks for --stitch-lbr (the
 * stitching is perf_sample__resolve_callchain's, in core/data): the last
 * stack's entries and hardware index, the frame each entry's source gave
 * and what it tells of its branch, and the frames carried over from
 * earlier stacks, the outermost first.  The machine frees it with the
 * thread.
 */
struct lbr_frame {
	struct callchain_frame frame;
	uint64_t flags;		/* its branch's flags word */
	uint64_t from;		/* where the stack's last branch came from, or 0 */
	bool valid;
};

struct lbr_stitch {
	uint64_t nr, hw_idx;		/* the last stack: entries (0: none yet), index */
	uint64_t *entries;		/* its (from, to, flags) triples */
	struct lbr_frame *frames;	/* one per entry */
	uint64_t alloc;			/* room in entries and frames */
	struct lbr_frame *stitched;	/* carried over, outermost first */
	uint64_t nr_stitched, alloc_stitched;
};

/* The cpumode a PERF_CONTEXT_* marker switches a callchain walk to; false
 * for one perf does not know (it drops such a chain). */
bool perf_context__cpumode(uint64_t marker, uint8_t *cpumode);

/* Walks a PERF_SAMPLE_CALLCHAIN array callee first, the way perf does:
 * PERF_CONTEXT_* markers switch the cpumode and are not frames (the
 * walk starts in user mode), at most max_frames frames are kept: the
 * innermost, or with keep_outermost the outermost (perf's caller order
 * walks from the other end).  Returns the number of frames written, or
 * -1 for an invalid context marker (perf drops such a chain). */
int machine__resolve_callchain(struct machine *m, struct thread *thread,
			       const uint64_t *ips, uint64_t nr, bool keep_outermost,
			       struct callchain_frame *frames, int max_frames);

/* DWARF unwinding of a --call-graph dwarf sample (x86_64): regs are the
 * PERF_SAMPLE_REGS_USER values for the bits set in regs_mask (perf reg
 * order AX BX CX DX SI DI BP SP IP FLAGS CS SS DS ES FS GS R8..R15), stack
 * the PERF_SAMPLE_STACK_USER bytes (dyn_size of them) copied from SP.
 * Unwinds at most max_stack frames (caller frames at return address - 1,
 * like perf), writes at most max_frames entries (inlined functions add
 * entries). Returns the number written, 0 when the sample has no
 * registers or stack. perf script puts these after the kernel part of
 * the sample's callchain (machine__resolve_callchain). */
int machine__unwind(struct machine *m, struct thread *thread,
		    uint64_t regs_mask, const uint64_t *regs,
		    const uint8_t *stack, uint64_t stack_size, int max_stack,
		    struct callchain_frame *frames, int max_frames);

#endif
