/* data-src: PERF_SAMPLE_DATA_SRC decoded into perf's words.
 *
 * A memory sample's data source packs what the hardware said about one
 * access into bit fields (linux/perf_event.h): the operation, the cache
 * level as a bit set and as a number, snooping, locking, the data TLB,
 * whether it was remote and how far, and what blocked it.  perf report
 * --mem-mode and perf mem show each field as words ("L1 hit", "Walker
 * miss", "HitM"); these functions append the same words.  present is
 * false for an entry without memory information (perf's "N/A" path).
 */
#ifndef PCL_DATA_SRC_H
#define PCL_DATA_SRC_H

#include <stdbool.h>
#include <stdint.h>

struct strbuf;

/* The fields of a data source (perf_event.h's union perf_mem_data_src). */
struct data_src {
	unsigned op, lvl, snoop, lock, dtlb, lvl_num, remote, snoopx, blk, hops;
};

void data_src__decode(uint64_t raw, struct data_src *d);

/* "Memory access": the levels ("L1 or L2 hit", "Remote RAM (1 hop) miss") */
void data_src__mem(struct strbuf *sb, uint64_t raw, bool present);
/* "Snoop": "None", "Hit", "HitM", "Fwd", "Peer", ... */
void data_src__snoop(struct strbuf *sb, uint64_t raw, bool present);
/* "TLB access": "L1 or L2 hit", "Walker miss", ... */
void data_src__tlb(struct strbuf *sb, uint64_t raw, bool present);
/* "Locked": "Yes", "No", "N/A" */
void data_src__locked(struct strbuf *sb, uint64_t raw, bool present);
/* "Blocked": " Data", " Addr", " Data Addr", " N/A" (perf's leading blank) */
void data_src__blocked(struct strbuf *sb, uint64_t raw, bool present);

/* A page size as perf names it: "4K", "2M", "1024M"; "N/A" for 0. */
void page_size__name(struct strbuf *sb, uint64_t size);

#endif
