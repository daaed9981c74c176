/* sqlite-export: perf.data into an SQLite database with the schema of perf
 * 6.1's export-to-sqlite.py (its tables, views, ids and "unknown" rows 0),
 * written through prepared statements in one transaction. */
#ifndef PCL_SQLITE_EXPORT_H
#define PCL_SQLITE_EXPORT_H

#include <stdbool.h>

#include "core/data/session.h"

struct sqlite_export;

struct sqlite_export_opts {
	bool branches;		/* "branches": samples without period .. data_src */
	bool calls;		/* "calls": calls and call_paths tables */
	bool callchains;	/* "callchains": call_paths only */
};

/* Parses the script's arguments after DB ([columns] [calls] [callchains]);
 * false for one the script refuses. */
bool sqlite_export_opts__parse(struct sqlite_export_opts *o, int argc, const char **argv);

/* Creates the database at path (which must not exist); NULL and *err
 * (malloc'd) on failure. */
struct sqlite_export *sqlite_export__new(const char *path, const struct sqlite_export_opts *o,
					 char **err);
/* The records it reads; the session's machine has taken them already. */
int sqlite_export__sample(struct sqlite_export *e, struct perf_session *s, struct evsel *evsel,
			  const struct perf_sample *sample);
void sqlite_export__comm(struct sqlite_export *e, struct perf_session *s,
			 const struct perf_event_header *rec, const struct perf_sample *sample);
void sqlite_export__fork(struct sqlite_export *e, struct perf_session *s,
			 const struct perf_event_header *rec, const struct perf_sample *sample);
int sqlite_export__switch(struct sqlite_export *e, struct perf_session *s,
			  const struct perf_event_header *rec, const struct perf_sample *sample);
/* Commits, adds the indexes and drops the empty optional tables as the
 * script does; returns 0, or -1 with *err set.  Frees e either way. */
int sqlite_export__finish(struct sqlite_export *e, char **err);
/* Gives up: closes the database without finishing it, frees e; returns
 * the first error met (malloc'd), or NULL. */
char *sqlite_export__abort(struct sqlite_export *e);

#endif
