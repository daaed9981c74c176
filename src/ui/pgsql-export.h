/* pgsql-export: the writer of export-to-postgresql, a new PostgreSQL
 * database reached through libpq (its PG* environment variables: PGHOST,
 * PGPORT, PGUSER, ...), the rows bulk loaded with COPY at the end
 * (core/analysis/db-export makes them). */
#ifndef PCL_PGSQL_EXPORT_H
#define PCL_PGSQL_EXPORT_H

#include "core/analysis/db-export.h"

struct strbuf;

/* Creates the database dbname as perf's script does (CREATE DATABASE from
 * the server's "postgres" database, or "template1") and connects to it;
 * NULL and *err (malloc'd) on failure. */
struct db_writer *pgsql_writer__new(const char *dbname, char **err);

/* Appends s to out as a value of COPY's text format. */
void pgsql_copy_text(struct strbuf *out, const char *s);

#endif
