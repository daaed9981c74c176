/* perf-data-write: writes perf.data files as perf 6.1 reads them.
 *
 *   open -> write_header (attrs + ids, data size 0) -> write records ... ->
 *   add features -> finish (features after the data, header rewritten)
 *
 * The header goes out first with an empty data section so that a recording
 * killed hard is still a file whose records can be walked to its end.
 * Records are buffered and written in order; a buffer holds whole records
 * only.  With compression on, each flushed buffer becomes one or more
 * PERF_RECORD_COMPRESSED records carrying a slice of one zstd stream, as
 * perf does.  Errors are sticky: the first failing write's errno is kept
 * and every later call returns it.
 *
 * Pipe mode (open_pipe) writes perf's stream format to a descriptor that
 * never seeks: a 16-byte header, HEADER_ATTR records, then the features as
 * HEADER_FEATURE records (write_pipe_features) before the data; finish only
 * flushes.  perf reads it from a pipe or from a file alike.
 */
#ifndef PCL_PERF_DATA_WRITE_H
#define PCL_PERF_DATA_WRITE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/data/perf-data.h"

/* One event as the attrs section stores it. */
struct perf_data_writer_attr {
	const struct perf_event_attr *attr;
	const uint64_t *ids;
	size_t nr_ids;
};

struct perf_data_feature {
	void *data;		/* malloc'ed payload, NULL when absent */
	size_t size;
};

struct perf_data_writer {
	int fd;
	char *path;		/* NULL for a pipe */
	bool pipe;
	struct perf_file_header header;
	uint64_t data_offset;
	uint64_t data_size;	/* bytes of the data section written so far */
	uint64_t raw_size;	/* bytes handed in (before compression) */
	int err;		/* first errno, sticky */
	uint64_t min_data_offset;	/* set before write_header: the data starts
					 * no sooner (room for attrs added later) */

	char *buf;		/* pending records, whole ones only */
	size_t buf_len;

	void *zstd;		/* ZSTD_CCtx when compressing */
	int comp_level;
	char *zbuf;		/* one COMPRESSED record being built */

	struct perf_data_feature features[HEADER_LAST_FEATURE];
};

/* The writer's flush unit; compressed records never decompress to more. */
#define PERF_DATA_WRITE_BUF	(256 * 1024)

/* perf keeps an existing non-empty output (a file, or a directory) as
 * PATH.old, replacing an earlier PATH.old: a file or link, or a directory
 * holding only perf data files ("data", "data.*").  0, or -errno with *why
 * set to perf's line (no newline): -ENOTEMPTY for a PATH.old perf would not
 * remove. */
int perf_data__keep_old(const char *path, char **why);

/* Creates (truncates) path with mode 0600.  Returns 0 or -errno. */
int perf_data_writer__open(struct perf_data_writer *w, const char *path);

/* Pipe mode on fd (say stdout), which the writer closes at the end. */
void perf_data_writer__open_pipe(struct perf_data_writer *w, int fd);

/* Writes the file header, the id arrays and the attrs; the data section
 * starts right after, with size 0 until finish.  In pipe mode: the pipe
 * header and one HEADER_ATTR record per event.  Returns 0 or -errno. */
int perf_data_writer__write_header(struct perf_data_writer *w,
				   const struct perf_data_writer_attr *attrs, size_t nr_attrs);

/* Writes the id arrays and attrs again (events added since write_header);
 * they must fit before the data (min_data_offset).  0, -ENOSPC or -errno. */
int perf_data_writer__rewrite_attrs(struct perf_data_writer *w,
				    const struct perf_data_writer_attr *attrs, size_t nr_attrs);

/* Turns on zstd compression of the records written from now on. */
int perf_data_writer__set_compression(struct perf_data_writer *w, int level);

/* The COMPRESSED feature's mmap_len: the most one compressed record expands to
 * plus room for a record split across two of them. */
uint32_t perf_data_writer__comp_mmap_len(void);

/* Appends records (len bytes of whole records).  Returns 0 or -errno. */
int perf_data_writer__write(struct perf_data_writer *w, const void *data, size_t len);

/* Appends records outside of compression (FINISHED_ROUND, as perf does). */
int perf_data_writer__write_uncompressed(struct perf_data_writer *w, const void *data,
					 size_t len);

/* Writes out what is buffered.  Returns 0 or -errno. */
int perf_data_writer__flush(struct perf_data_writer *w);

/* Sets a feature's payload; the writer takes ownership of data (malloc'ed). */
void perf_data_writer__set_feature(struct perf_data_writer *w, int feat, void *data,
				   size_t size);

/* Pipe mode: writes the features set so far as HEADER_FEATURE records (in
 * feature order, then the closing one) and the tracing data as its
 * HEADER_TRACING_DATA record, as perf 6.1 does; the build ids are left out
 * as perf leaves them.  The payloads are freed.  Returns 0 or -errno. */
int perf_data_writer__write_pipe_features(struct perf_data_writer *w);

/* Bytes in the file so far (header, attrs and data written). */
uint64_t perf_data_writer__size(const struct perf_data_writer *w);

/* Flushes, writes the feature sections after the data and rewrites the
 * header with the final sizes and feature bits, then closes.  The writer
 * can be opened again afterwards.  Returns 0 or -errno. */
int perf_data_writer__finish(struct perf_data_writer *w);

/* Closes without finishing (the file keeps what was written) and frees. */
void perf_data_writer__close(struct perf_data_writer *w);

/* Copies the perf.data file input (not a pipe's, in this machine's byte
 * order) to output with feature feat's payload set to data, in place of
 * the one input has; features keep their order, so perf, which skips
 * those it does not know, reads the copy as the original.  Returns 0 or
 * -errno (-EINVAL: input is no such file, -EEXIST: output is input). */
int perf_data__copy_with_feature(const char *input, const char *output, int feat,
				 const void *data, size_t size);

#endif
