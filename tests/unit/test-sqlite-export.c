/* Unit tests for core/analysis/db-export with ui/sqlite-export: the
 * script's arguments, and the database of a recording without records: perf 6.1's rows 0 and branch types (the
 * values below are those perf's export-to-sqlite.py writes). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include <sqlite3.h>

#include "ui/sqlite-export.h"

static void arguments(void **state)
{
	struct db_export_opts o;
	const char *calls[] = { "branches", "calls", "callchains" };
	const char *bad_columns[] = { "some" };
	const char *bad_extra[] = { "all", "call" };
	const char *pyside[] = { "all", "pyside-version-1" };

	assert_true(db_export_opts__parse(&o, 0, NULL));
	assert_false(o.branches || o.calls || o.callchains);
	assert_true(db_export_opts__parse(&o, 3, calls));
	assert_true(o.branches && o.calls && o.callchains);
	assert_false(db_export_opts__parse(&o, 1, bad_columns));
	assert_false(db_export_opts__parse(&o, 2, bad_extra));
	assert_true(db_export_opts__parse(&o, 2, pyside));
}

static int64_t query_int(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *stmt;
	int64_t v = -1;

	assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &stmt, NULL), SQLITE_OK);
	if (sqlite3_step(stmt) == SQLITE_ROW)
		v = sqlite3_column_int64(stmt, 0);
	sqlite3_finalize(stmt);
	return v;
}

static void empty_recording(void **state)
{
	char path[] = "/tmp/pcl-sqlite-XXXXXX";
	struct db_export_opts o = { .calls = true };
	struct db_export *e;
	char *err = NULL;
	sqlite3 *db;
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	close(fd);
	assert_null(sqlite_writer__new(path, &err));	/* the script's "already exists" */
	assert_non_null(strstr(err, "already exists"));
	free(err);
	err = NULL;
	unlink(path);
	e = db_export__new(&o, sqlite_writer__new(path, &err), &err);
	assert_non_null(e);
	assert_int_equal(db_export__finish(e, &err), 0);
	assert_null(err);

	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	assert_int_equal(query_int(db, "SELECT count(*) FROM branch_types"), 42);
	assert_int_equal(query_int(db, "SELECT id FROM branch_types WHERE name = "
				       "'trace begin / hardware interrupt'"), 355);
	assert_int_equal(query_int(db, "SELECT id FROM branch_types WHERE name = "
				       "'transaction abort / trace end'"), 641);
	assert_int_equal(query_int(db, "SELECT max(id) FROM branch_types"), 4611);
	assert_int_equal(query_int(db, "SELECT count(*) FROM samples WHERE id = 0"), 1);
	assert_int_equal(query_int(db, "SELECT count(*) FROM calls"), 1);
	assert_int_equal(query_int(db, "SELECT has_calls FROM comms WHERE id = 0"), 1);
	assert_int_equal(query_int(db, "SELECT pid FROM threads WHERE id = 0"), -1);
	/* the empty optional tables are gone, the others stay */
	assert_int_equal(query_int(db, "SELECT count(*) FROM sqlite_master WHERE name IN "
				       "('ptwrite', 'cbr', 'pwrx', 'context_switches', "
				       "'power_events_view')"), 0);
	assert_int_equal(query_int(db, "SELECT count(*) FROM sqlite_master WHERE type = 'view'"),
			 8);
	sqlite3_close(db);
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(arguments),
		cmocka_unit_test(empty_recording),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
