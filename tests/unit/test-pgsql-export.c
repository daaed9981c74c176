/* Unit tests for ui/pgsql-export: COPY's text escapes, and the error of a
 * server that is not there. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "ui/pgsql-export.h"
#include "util/strbuf.h"

static void copy_text_escapes(void **state)
{
	struct strbuf sb = STRBUF_INIT;

	pgsql_copy_text(&sb, "a\tb\\c\nd\re [k]");
	assert_string_equal(strbuf_str(&sb), "a\\tb\\\\c\\nd\\re [k]");
	strbuf_release(&sb);
}

static void unreachable_server(void **state)
{
	char *err = NULL;

	setenv("PGHOST", "/nonexistent-pcl-socket-dir", 1);
	setenv("PGPORT", "1", 1);
	assert_null(pgsql_writer__new("pcl_unit", &err));
	assert_non_null(err);
	assert_non_null(strstr(err, "cannot connect to the PostgreSQL server"));
	assert_non_null(strstr(err, "PGHOST"));
	free(err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(copy_text_escapes),
		cmocka_unit_test(unreachable_server),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
