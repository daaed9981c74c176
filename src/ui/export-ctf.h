/* export-ctf: a perf.data file as a CTF trace (Common Trace Format 1.8) that
 * babeltrace reads as it reads perf 6.1's data convert --to-ctf. */
#ifndef PCL_EXPORT_CTF_H
#define PCL_EXPORT_CTF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct perf_session;
struct tep_handle;

struct ctf_opts {
	bool all;	/* also COMM, EXIT, FORK, MMAP and MMAP2 records (--all) */
	bool tod;	/* timestamps on the wall clock of the header's clock data */
};

struct ctf_summary {
	uint64_t nr_samples, nr_non_samples;
	uint64_t bytes;		/* of the records converted */
};

/* Writes s (which must have a machine) as a CTF trace into dir (made when
 * missing): one event class per event, perf_stream_N files, one stream per
 * CPU.  Returns 0; -1 with the reason printed as perf prints it; 1 when a
 * stream failed to flush (told, the rest written). */
int ctf_write(const char *dir, struct perf_session *s, const struct ctf_opts *o,
	      struct ctf_summary *sum);

/* A tracepoint field's name as CTF can take it: CTF's keywords get a '_'
 * in front (babeltrace strips it again when it prints). */
const char *ctf_field_name(const char *name, char *buf, size_t size);

/* str (at most max bytes, up to its NUL) into dst as perf writes CTF
 * strings: bytes that are not printable as \xNN.  dst holds 4 * max + 1
 * bytes; returns the length written. */
size_t ctf_printable(char *dst, const char *str, size_t max);

/* A tracepoint's integer of len bytes at p, in the byte order of tep's
 * file, sign-extended when is_signed; 0 for sizes other than 1, 2, 4 and 8,
 * as libtraceevent reads. */
uint64_t ctf_read_number(struct tep_handle *tep, const void *p, unsigned int len,
			 bool is_signed);

#endif
