/* sqlite-export: the writer of export-to-sqlite, an SQLite database filled
 * through prepared statements in one transaction (core/analysis/db-export
 * makes the rows). */
#ifndef PCL_SQLITE_EXPORT_H
#define PCL_SQLITE_EXPORT_H

#include "core/analysis/db-export.h"

/* Creates the database at path (which must not exist); NULL and *err
 * (malloc'd) on failure. */
struct db_writer *sqlite_writer__new(const char *path, char **err);

#endif
