/* db-export: perf.data as the database of perf 6.1's export-to-sqlite.py
 * and export-to-postgresql.py (their tables, views, ids and "unknown" rows
 * 0).  This part makes the schema and the rows; a writer (ui/sqlite-export,
 * ui/pgsql-export) stores them in its database. */
#ifndef PCL_DB_EXPORT_H
#define PCL_DB_EXPORT_H

#include <stdbool.h>
#include <stdint.h>

#include "core/data/session.h"

/* The tables the rows go to, in the order perf's scripts load them. */
enum db_table {
	DB_EVSEL, DB_MACHINE, DB_THREAD, DB_COMM, DB_COMM_THREAD, DB_DSO, DB_SYMBOL,
	DB_BRANCH_TYPE, DB_SAMPLE, DB_CALL_PATH, DB_CALL, DB_CONTEXT_SWITCH, DB_NR
};
extern const char *const db_table_names[DB_NR];

/* The SQL the two scripts write differently. */
enum db_dialect { DB_SQLITE, DB_POSTGRESQL };

/* One value of a row: 'i' types read i, 't' types s. */
struct db_value {
	int64_t i;
	const char *s;
};

struct db_writer;
struct db_writer_ops {
	enum db_dialect dialect;
	/* Runs one statement; 0, or -1 with the writer's error set. */
	int (*exec)(struct db_writer *w, const char *sql);
	/* Stores a row of strlen(types) values ('i' or 't' each). */
	int (*row)(struct db_writer *w, enum db_table t, const char *types,
		   const struct db_value *v);
	/* Every row is written: make them the tables' (commit, copy). */
	int (*load)(struct db_writer *w);
	bool (*empty)(struct db_writer *w, const char *table);
	/* Frees the writer; returns its first error (malloc'd), or NULL. */
	char *(*close)(struct db_writer *w);
};
struct db_writer {
	const struct db_writer_ops *ops;
};

struct db_export_opts {
	bool branches;		/* "branches": samples without period .. data_src */
	bool calls;		/* "calls": calls and call_paths tables */
	bool callchains;	/* "callchains": call_paths only */
};

/* Parses the scripts' arguments after DB ([columns] [calls] [callchains]);
 * false for one the scripts refuse. */
bool db_export_opts__parse(struct db_export_opts *o, int argc, const char **argv);

struct db_export;

/* Creates the schema and the first rows through w, which it owns from now
 * on; NULL and *err (malloc'd) on failure. */
struct db_export *db_export__new(const struct db_export_opts *o, struct db_writer *w,
				 char **err);
/* The records it reads; the session's machine has taken them already. */
int db_export__sample(struct db_export *e, struct perf_session *s, struct evsel *evsel,
		      const struct perf_sample *sample);
void db_export__comm(struct db_export *e, struct perf_session *s,
		     const struct perf_event_header *rec, const struct perf_sample *sample);
void db_export__fork(struct db_export *e, struct perf_session *s,
		     const struct perf_event_header *rec, const struct perf_sample *sample);
int db_export__switch(struct db_export *e, struct perf_session *s,
		      const struct perf_event_header *rec, const struct perf_sample *sample);
/* Loads the rows, adds the keys and indexes and drops the empty optional
 * tables as the scripts do; returns 0, or -1 with *err set.  Frees e
 * either way. */
int db_export__finish(struct db_export *e, char **err);
/* Gives up: closes the database without finishing it, frees e; returns
 * the first error met (malloc'd), or NULL. */
char *db_export__abort(struct db_export *e);

#endif
