/* pgsql-export: rows into PostgreSQL as perf's export-to-postgresql.py
 * stores them: each table's rows gathered in a temporary file, then sent
 * with COPY FROM STDIN (text format) once the recording is read, before
 * the keys are added. */
#include <errno.h>
#include <libpq-fe.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ui/pgsql-export.h"
#include "util/strbuf.h"
#include "util/util.h"

/* libpq is opened on the first export, not linked: its TLS, Kerberos and
 * LDAP libraries would cost every other command 5-6 MB of memory. */
#define LIBPQ_FUNCTIONS(X) X(PQclear) X(PQconnectdbParams) X(PQerrorMessage) \
	X(PQescapeIdentifier) X(PQexec) X(PQfinish) X(PQfreemem) X(PQgetResult) X(PQntuples) \
	X(PQputCopyData) X(PQputCopyEnd) X(PQresultErrorField) X(PQresultStatus) X(PQstatus)
#define LIBPQ_POINTER(name) __typeof__(name) *name;

static struct {
	LIBPQ_FUNCTIONS(LIBPQ_POINTER)
} pq;

static char *load_libpq(void)
{
#define LIBPQ_NAME(name) #name,
#define LIBPQ_SLOT(name) (void **)&pq.name,
	static const char *const names[] = { LIBPQ_FUNCTIONS(LIBPQ_NAME) };
	void **const slots[] = { LIBPQ_FUNCTIONS(LIBPQ_SLOT) };
	static void *lib;

	return dl_load_symbols("libpq.so.5", "libpq (the PostgreSQL client "
			       "library; Debian package libpq5)", names, slots,
			       ARRAY_SIZE(names), &lib);
}

struct pgsql_writer {
	struct db_writer w;
	PGconn *conn;
	FILE *rows[DB_NR];	/* COPY text of each table, made on its first row */
	struct strbuf line;
	char *err;
};

/* libpq's messages end in a newline */
static char *message(const char *msg)
{
	char *s = xstrdup(msg && *msg ? msg : "unknown error");
	size_t len = strlen(s);

	while (len && (s[len - 1] == '\n' || s[len - 1] == ' '))
		s[--len] = '\0';
	return s;
}

/* The server's own words when a result has them, else libpq's */
static char *result_message(PGconn *conn, const PGresult *res)
{
	const char *primary = res ? pq.PQresultErrorField(res, PG_DIAG_MESSAGE_PRIMARY) : NULL;

	return message(primary ? primary : pq.PQerrorMessage(conn));
}

static int fail(struct pgsql_writer *pw, const char *what, const PGresult *res)
{
	if (!pw->err) {
		char *msg = result_message(pw->conn, res);

		pw->err = xasprintf("%s: %s", what, msg);
		free(msg);
	}
	return -1;
}

static int pgsql_exec(struct db_writer *w, const char *sql)
{
	struct pgsql_writer *pw = (struct pgsql_writer *)w;
	PGresult *res = pq.PQexec(pw->conn, sql);
	ExecStatusType status = pq.PQresultStatus(res);
	int ret = 0;

	if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK)
		ret = fail(pw, sql, res);
	pq.PQclear(res);
	return ret;
}

static int temp_file_failed(struct pgsql_writer *pw, const char *what)
{
	if (!pw->err)
		pw->err = xasprintf("cannot %s a temporary file: %s", what, strerror(errno));
	return -1;
}

void pgsql_copy_text(struct strbuf *out, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '\\': strbuf_addstr(out, "\\\\"); break;
		case '\n': strbuf_addstr(out, "\\n"); break;
		case '\r': strbuf_addstr(out, "\\r"); break;
		case '\t': strbuf_addstr(out, "\\t"); break;
		default: strbuf_addch(out, *s);
		}
	}
}

static int pgsql_row(struct db_writer *w, enum db_table t, const char *types,
		     const struct db_value *v)
{
	struct pgsql_writer *pw = (struct pgsql_writer *)w;

	if (!pw->rows[t] && !(pw->rows[t] = tmpfile()))
		return temp_file_failed(pw, "make");
	strbuf_reset(&pw->line);
	for (int i = 0; types[i]; i++) {
		if (i)
			strbuf_addch(&pw->line, '\t');
		if (types[i] == 'i')	/* booleans too: PostgreSQL reads 0 and 1 */
			strbuf_addf(&pw->line, "%" PRId64, v[i].i);
		else
			pgsql_copy_text(&pw->line, v[i].s);
	}
	strbuf_addch(&pw->line, '\n');
	if (fwrite(pw->line.buf, 1, pw->line.len, pw->rows[t]) != pw->line.len)
		return temp_file_failed(pw, "write");
	return 0;
}

static int copy_table(struct pgsql_writer *pw, enum db_table t)
{
	FILE *f = pw->rows[t];
	char sql[64], buf[65536];
	PGresult *res;
	size_t n;
	int ret = 0;

	/* a full disk shows here, rewind would forget it */
	if (fflush(f))
		return temp_file_failed(pw, "write");
	snprintf(sql, sizeof(sql), "COPY %s FROM STDIN", db_table_names[t]);
	res = pq.PQexec(pw->conn, sql);
	if (pq.PQresultStatus(res) != PGRES_COPY_IN) {
		fail(pw, sql, res);
		pq.PQclear(res);
		return -1;
	}
	pq.PQclear(res);
	rewind(f);
	while (!ret && (n = fread(buf, 1, sizeof(buf), f)) > 0)
		if (pq.PQputCopyData(pw->conn, buf, (int)n) != 1)
			ret = fail(pw, sql, NULL);
	if (pq.PQputCopyEnd(pw->conn, ret || ferror(f) ? "cannot read the rows" : NULL) != 1)
		ret = fail(pw, sql, NULL);
	while ((res = pq.PQgetResult(pw->conn))) {
		if (pq.PQresultStatus(res) != PGRES_COMMAND_OK)
			ret = fail(pw, sql, res);
		pq.PQclear(res);
	}
	return ret;
}

static int pgsql_load(struct db_writer *w)
{
	struct pgsql_writer *pw = (struct pgsql_writer *)w;

	for (int t = 0; t < DB_NR; t++) {
		if (pw->rows[t] && copy_table(pw, t))
			return -1;
	}
	return 0;
}

static bool pgsql_empty(struct db_writer *w, const char *table)
{
	struct pgsql_writer *pw = (struct pgsql_writer *)w;
	char sql[96];
	PGresult *res;
	bool empty;

	snprintf(sql, sizeof(sql), "SELECT 1 FROM %s LIMIT 1", table);
	res = pq.PQexec(pw->conn, sql);
	empty = pq.PQresultStatus(res) != PGRES_TUPLES_OK || pq.PQntuples(res) == 0;
	pq.PQclear(res);
	return empty;
}

static char *pgsql_close(struct db_writer *w)
{
	struct pgsql_writer *pw = (struct pgsql_writer *)w;
	char *err = pw->err;

	for (int t = 0; t < DB_NR; t++)
		if (pw->rows[t])
			fclose(pw->rows[t]);
	pq.PQfinish(pw->conn);
	strbuf_release(&pw->line);
	free(pw);
	return err;
}

static const struct db_writer_ops pgsql_ops = {
	.dialect = DB_POSTGRESQL, .exec = pgsql_exec, .row = pgsql_row, .load = pgsql_load,
	.empty = pgsql_empty, .close = pgsql_close,
};

/* A connection to one database; the rest (host, port, user, password, ...)
 * is libpq's to find, in PG* variables, ~/.pgpass and its defaults. */
static PGconn *connect_to(const char *dbname)
{
	const char *const keys[] = { "dbname", "fallback_application_name", NULL };
	const char *const values[] = { dbname, "pcl", NULL };

	return pq.PQconnectdbParams(keys, values, 0);
}

static char *unreachable(PGconn *conn)
{
	char *msg = message(pq.PQerrorMessage(conn));
	char *err = xasprintf("cannot connect to the PostgreSQL server: %s\n"
			      "Start the server, or point pcl at it as any libpq client: "
			      "PGHOST, PGPORT, PGUSER, PGPASSWORD (or PGSERVICE).", msg);

	free(msg);
	return err;
}

/* CREATE DATABASE, from the server's maintenance database */
static int create_database(const char *dbname, char **err)
{
	PGconn *conn = connect_to("postgres");
	PGresult *res;
	char *name, *sql;
	int ret = 0;

	if (pq.PQstatus(conn) != CONNECTION_OK) {
		pq.PQfinish(conn);
		conn = connect_to("template1");
	}
	if (pq.PQstatus(conn) != CONNECTION_OK) {
		*err = unreachable(conn);
		pq.PQfinish(conn);
		return -1;
	}
	name = pq.PQescapeIdentifier(conn, dbname, strlen(dbname));
	sql = xasprintf("CREATE DATABASE %s", name ? name : dbname);
	res = pq.PQexec(conn, sql);
	if (pq.PQresultStatus(res) != PGRES_COMMAND_OK) {
		char *msg = result_message(conn, res);

		*err = xasprintf("cannot create the database %s: %s", dbname, msg);
		free(msg);
		ret = -1;
	}
	pq.PQclear(res);
	free(sql);
	pq.PQfreemem(name);
	pq.PQfinish(conn);
	return ret;
}

struct db_writer *pgsql_writer__new(const char *dbname, char **err)
{
	struct pgsql_writer *pw;

	*err = load_libpq();
	if (*err || create_database(dbname, err))
		return NULL;
	pw = xcalloc(1, sizeof(*pw));
	pw->w.ops = &pgsql_ops;
	pw->conn = connect_to(dbname);
	if (pq.PQstatus(pw->conn) != CONNECTION_OK) {
		pw->err = unreachable(pw->conn);
		*err = pgsql_close(&pw->w);
		return NULL;
	}
	if (pgsql_exec(&pw->w, "SET client_min_messages TO WARNING")) {
		*err = pgsql_close(&pw->w);
		return NULL;
	}
	return &pw->w;
}
