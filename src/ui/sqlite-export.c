/* sqlite-export: rows into SQLite as perf's export-to-sqlite.py stores
 * them: no journal, one transaction, a prepared INSERT per table. */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "ui/sqlite-export.h"
#include "util/strbuf.h"
#include "util/util.h"

struct sqlite_writer {
	struct db_writer w;
	sqlite3 *db;
	sqlite3_stmt *stmt[DB_NR];	/* prepared on a table's first row */
	char *err;
};

static int fail(struct sqlite_writer *sw, const char *what)
{
	if (!sw->err)
		sw->err = xasprintf("%s: %s", what, sqlite3_errmsg(sw->db));
	return -1;
}

static int sqlite_exec(struct db_writer *w, const char *sql)
{
	struct sqlite_writer *sw = (struct sqlite_writer *)w;
	char *msg = NULL;

	if (sqlite3_exec(sw->db, sql, NULL, NULL, &msg) == SQLITE_OK)
		return 0;
	if (!sw->err)
		sw->err = xasprintf("query failed: %s", msg ? msg : sqlite3_errmsg(sw->db));
	sqlite3_free(msg);
	return -1;
}

static sqlite3_stmt *statement(struct sqlite_writer *sw, enum db_table t, size_t columns)
{
	struct strbuf sql = STRBUF_INIT;

	if (sw->stmt[t])
		return sw->stmt[t];
	strbuf_addf(&sql, "INSERT INTO %s VALUES (?", db_table_names[t]);
	for (size_t i = 1; i < columns; i++)
		strbuf_addstr(&sql, ", ?");
	strbuf_addch(&sql, ')');
	if (sqlite3_prepare_v2(sw->db, strbuf_str(&sql), -1, &sw->stmt[t], NULL) != SQLITE_OK)
		fail(sw, "cannot prepare an insert");
	strbuf_release(&sql);
	return sw->stmt[t];
}

static int sqlite_row(struct db_writer *w, enum db_table t, const char *types,
		      const struct db_value *v)
{
	struct sqlite_writer *sw = (struct sqlite_writer *)w;
	sqlite3_stmt *stmt = statement(sw, t, strlen(types));
	int rc;

	if (!stmt)
		return -1;
	for (int i = 0; types[i]; i++) {
		if (types[i] == 'i')
			sqlite3_bind_int64(stmt, i + 1, v[i].i);
		else
			sqlite3_bind_text(stmt, i + 1, v[i].s, -1, SQLITE_STATIC);
	}
	rc = sqlite3_step(stmt);
	sqlite3_reset(stmt);
	return rc == SQLITE_DONE ? 0 : fail(sw, "insert failed");
}

static int sqlite_load(struct db_writer *w)
{
	return sqlite_exec(w, "END TRANSACTION");
}

static bool sqlite_empty(struct db_writer *w, const char *table)
{
	struct sqlite_writer *sw = (struct sqlite_writer *)w;
	char sql[96];
	sqlite3_stmt *stmt;
	bool empty = true;

	snprintf(sql, sizeof(sql), "SELECT * FROM %s LIMIT 1", table);
	if (sqlite3_prepare_v2(sw->db, sql, -1, &stmt, NULL) == SQLITE_OK) {
		empty = sqlite3_step(stmt) != SQLITE_ROW;
		sqlite3_finalize(stmt);
	}
	return empty;
}

static char *sqlite_close(struct db_writer *w)
{
	struct sqlite_writer *sw = (struct sqlite_writer *)w;
	char *err = sw->err;

	for (int t = 0; t < DB_NR; t++)
		sqlite3_finalize(sw->stmt[t]);
	sqlite3_close(sw->db);
	free(sw);
	return err;
}

static const struct db_writer_ops sqlite_ops = {
	.dialect = DB_SQLITE, .exec = sqlite_exec, .row = sqlite_row, .load = sqlite_load,
	.empty = sqlite_empty, .close = sqlite_close,
};

struct db_writer *sqlite_writer__new(const char *path, char **err)
{
	struct sqlite_writer *sw;
	struct stat st;

	if (!stat(path, &st)) {
		*err = xasprintf("%s already exists", path);
		return NULL;
	}
	sw = xcalloc(1, sizeof(*sw));
	sw->w.ops = &sqlite_ops;
	/* one thread writes: no locking on every bind and step */
	if (sqlite3_open_v2(path, &sw->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE |
			    SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK) {
		sw->err = xasprintf("cannot open %s: %s", path, sqlite3_errmsg(sw->db));
		*err = sqlite_close(&sw->w);
		return NULL;
	}
	/* no journal, as the script; nor syncs: a failed export is redone */
	if (sqlite_exec(&sw->w, "PRAGMA journal_mode = OFF") ||
	    sqlite_exec(&sw->w, "PRAGMA synchronous = OFF") ||
	    sqlite_exec(&sw->w, "BEGIN TRANSACTION")) {
		*err = sqlite_close(&sw->w);
		return NULL;
	}
	return &sw->w;
}
