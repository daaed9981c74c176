/* db-export: the database perf 6.1's export-to-sqlite.py and
 * export-to-postgresql.py write, made here.  Ids follow perf's db-export:
 * each table counts from 1 in the order rows are first needed, row 0 of
 * each is "unknown".  Threads keep their comm history (perf's comm list)
 * because samples name the comm that was current when they were taken. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/analysis/db-export.h"
#include "core/symbols/dso.h"
#include "core/symbols/machine.h"
#include "core/symbols/thread.h"
#include "util/hashmap.h"
#include "util/strbuf.h"
#include "util/util.h"

#define MAX_STACK 127		/* perf's PERF_MAX_STACK_DEPTH */
#define DATA_SRC_NONE 0x5080021	/* PERF_MEM_DATA_SRC_NONE, a sample without one */

const char *const db_table_names[DB_NR] = {
	"selected_events", "machines", "threads", "comms", "comm_threads", "dsos", "symbols",
	"branch_types", "samples", "call_paths", "calls", "context_switches",
};

/* The tables, column for column as the scripts declare them ("id" first,
 * left out here).  FLAG: a boolean the SQLite script declares integer. */
#define FLAG NULL
struct db_column {
	const char *name, *type;
};
struct db_table_def {
	const char *name;
	const struct db_column *columns;
	bool int_id;		/* an integer id in PostgreSQL too, not a bigint */
	int needs;		/* NEEDS_*: made only for those arguments */
};
enum { NEEDS_NOTHING, NEEDS_PATHS, NEEDS_CALLS };
#define COLUMNS(...) ((const struct db_column[]){ __VA_ARGS__, { NULL, NULL } })

/* samples' columns 15 to 18 (id is 0), which "branches" leaves out */
#define SAMPLE_ALL_FIRST 15
#define SAMPLE_ALL_LAST 18
#define NR_SAMPLE_COLUMNS 25

static const struct db_table_def tables[] = {
	{ "selected_events", COLUMNS({ "name", "varchar(80)" }), false, NEEDS_NOTHING },
	{ "machines", COLUMNS({ "pid", "integer" }, { "root_dir", "varchar(4096)" }), false,
	  NEEDS_NOTHING },
	{ "threads", COLUMNS({ "machine_id", "bigint" }, { "process_id", "bigint" },
			     { "pid", "integer" }, { "tid", "integer" }), false, NEEDS_NOTHING },
	{ "comms", COLUMNS({ "comm", "varchar(16)" }, { "c_thread_id", "bigint" },
			   { "c_time", "bigint" }, { "exec_flag", "boolean" }), false,
	  NEEDS_NOTHING },
	{ "comm_threads", COLUMNS({ "comm_id", "bigint" }, { "thread_id", "bigint" }), false,
	  NEEDS_NOTHING },
	{ "dsos", COLUMNS({ "machine_id", "bigint" }, { "short_name", "varchar(256)" },
			  { "long_name", "varchar(4096)" }, { "build_id", "varchar(64)" }), false,
	  NEEDS_NOTHING },
	{ "symbols", COLUMNS({ "dso_id", "bigint" }, { "sym_start", "bigint" },
			     { "sym_end", "bigint" }, { "binding", "integer" },
			     { "name", "varchar(2048)" }), false, NEEDS_NOTHING },
	{ "branch_types", COLUMNS({ "name", "varchar(80)" }), true, NEEDS_NOTHING },
	{ "samples", COLUMNS({ "evsel_id", "bigint" }, { "machine_id", "bigint" },
			     { "thread_id", "bigint" }, { "comm_id", "bigint" },
			     { "dso_id", "bigint" }, { "symbol_id", "bigint" },
			     { "sym_offset", "bigint" }, { "ip", "bigint" }, { "time", "bigint" },
			     { "cpu", "integer" }, { "to_dso_id", "bigint" },
			     { "to_symbol_id", "bigint" }, { "to_sym_offset", "bigint" },
			     { "to_ip", "bigint" }, { "period", "bigint" }, { "weight", "bigint" },
			     { "transaction", "bigint" }, { "data_src", "bigint" },
			     { "branch_type", "integer" }, { "in_tx", "boolean" },
			     { "call_path_id", "bigint" }, { "insn_count", "bigint" },
			     { "cyc_count", "bigint" }, { "flags", "integer" }), false,
	  NEEDS_NOTHING },
	{ "call_paths", COLUMNS({ "parent_id", "bigint" }, { "symbol_id", "bigint" },
				{ "ip", "bigint" }), false, NEEDS_PATHS },
	{ "calls", COLUMNS({ "thread_id", "bigint" }, { "comm_id", "bigint" },
			   { "call_path_id", "bigint" }, { "call_time", "bigint" },
			   { "return_time", "bigint" }, { "branch_count", "bigint" },
			   { "call_id", "bigint" }, { "return_id", "bigint" },
			   { "parent_call_path_id", "bigint" }, { "flags", "integer" },
			   { "parent_id", "bigint" }, { "insn_count", "bigint" },
			   { "cyc_count", "bigint" }), false, NEEDS_CALLS },
	/* Intel PT's synthesized events and the context switches; the empty
	 * ones are dropped at the end */
	{ "ptwrite", COLUMNS({ "payload", "bigint" }, { "exact_ip", FLAG }), false,
	  NEEDS_NOTHING },
	{ "cbr", COLUMNS({ "cbr", "integer" }, { "mhz", "integer" }, { "percent", "integer" }),
	  false, NEEDS_NOTHING },
	{ "mwait", COLUMNS({ "hints", "integer" }, { "extensions", "integer" }), false,
	  NEEDS_NOTHING },
	{ "pwre", COLUMNS({ "cstate", "integer" }, { "subcstate", "integer" }, { "hw", FLAG }),
	  false, NEEDS_NOTHING },
	{ "exstop", COLUMNS({ "exact_ip", FLAG }), false, NEEDS_NOTHING },
	{ "pwrx", COLUMNS({ "deepest_cstate", "integer" }, { "last_cstate", "integer" },
			  { "wake_reason", "integer" }), false, NEEDS_NOTHING },
	{ "context_switches", COLUMNS({ "machine_id", "bigint" }, { "time", "bigint" },
				      { "cpu", "integer" }, { "thread_out_id", "bigint" },
				      { "comm_out_id", "bigint" }, { "thread_in_id", "bigint" },
				      { "comm_in_id", "bigint" }, { "flags", "integer" }), false,
	  NEEDS_NOTHING },
};
#define NR_TABLES (sizeof(tables) / sizeof(tables[0]))

static char *create_table(const struct db_table_def *t, enum db_dialect d, bool branches)
{
	struct strbuf sql = STRBUF_INIT;
	bool samples = !strcmp(t->name, "samples");

	strbuf_addf(&sql, "CREATE TABLE %s (id %s", t->name,
		    d == DB_SQLITE ? "integer NOT NULL PRIMARY KEY" :
		    t->int_id ? "integer NOT NULL" : "bigint NOT NULL");
	for (int i = 0; t->columns[i].name; i++) {
		const struct db_column *c = &t->columns[i];

		if (samples && branches && i + 1 >= SAMPLE_ALL_FIRST && i + 1 <= SAMPLE_ALL_LAST)
			continue;
		/* a keyword to SQLite */
		strbuf_addf(&sql, ", %s%s %s", c->name,
			    d == DB_SQLITE && !strcmp(c->name, "transaction") ? "_" : "",
			    c->type ? c->type : d == DB_SQLITE ? "integer" : "boolean");
	}
	strbuf_addch(&sql, ')');
	return strbuf_detach(&sql);
}

/* The views.  The dialects spell a few things differently: hex digits
 * (HEX), a number a CASE does not name (OTHER, with PostgreSQL's VARCHAR
 * length), false (NO), the IPC column and power_events_view. */
#define BY_ID(table, col, id) "(SELECT " col " FROM " table " WHERE id = " id ")"
#define BOOL_TEXT(NO, col) "CASE WHEN " col "=" NO " THEN 'False' ELSE 'True' END AS " col
#define WAKE_REASON(OTHER, col) "CASE WHEN " col "=1 THEN 'Interrupt' " \
	"WHEN " col "=2 THEN 'Timer Deadline' WHEN " col "=4 THEN 'Monitored Address' " \
	"WHEN " col "=8 THEN 'HW' ELSE " OTHER(col, "2") " END"
#define JOIN_SAMPLES(t) " FROM " t " INNER JOIN samples ON samples.id = " t ".id"

#define VIEWS(HEX, OTHER, NO, IPC, POWER_EVENTS_VIEW) { \
	{ NEEDS_NOTHING, "CREATE VIEW machines_view AS SELECT id, pid, root_dir, " \
	  "CASE WHEN id=0 THEN 'unknown' WHEN pid=-1 THEN 'host' ELSE 'guest' END " \
	  "AS host_or_guest FROM machines" }, \
	{ NEEDS_NOTHING, "CREATE VIEW dsos_view AS SELECT id, machine_id, " \
	  BY_ID("machines_view", "host_or_guest", "machine_id") " AS host_or_guest, " \
	  "short_name, long_name, build_id FROM dsos" }, \
	{ NEEDS_NOTHING, "CREATE VIEW symbols_view AS SELECT id, name, " \
	  BY_ID("dsos", "short_name", "dso_id") " AS dso, dso_id, sym_start, sym_end, " \
	  "CASE WHEN binding=0 THEN 'local' WHEN binding=1 THEN 'global' ELSE 'weak' END " \
	  "AS binding FROM symbols" }, \
	{ NEEDS_NOTHING, "CREATE VIEW threads_view AS SELECT id, machine_id, " \
	  BY_ID("machines_view", "host_or_guest", "machine_id") " AS host_or_guest, " \
	  "process_id, pid, tid FROM threads" }, \
	{ NEEDS_NOTHING, "CREATE VIEW comm_threads_view AS SELECT comm_id, " \
	  BY_ID("comms", "comm", "comm_id") " AS command, thread_id, " \
	  BY_ID("threads", "pid", "thread_id") " AS pid, " \
	  BY_ID("threads", "tid", "thread_id") " AS tid FROM comm_threads" }, \
	{ NEEDS_PATHS, "CREATE VIEW call_paths_view AS SELECT c.id, " HEX("c.ip") " AS ip, " \
	  "c.symbol_id, " BY_ID("symbols", "name", "c.symbol_id") " AS symbol, " \
	  BY_ID("symbols", "dso_id", "c.symbol_id") " AS dso_id, " \
	  BY_ID("symbols_view", "dso", "c.symbol_id") " AS dso_short_name, c.parent_id, " \
	  HEX("p.ip") " AS parent_ip, p.symbol_id AS parent_symbol_id, " \
	  BY_ID("symbols", "name", "p.symbol_id") " AS parent_symbol, " \
	  BY_ID("symbols", "dso_id", "p.symbol_id") " AS parent_dso_id, " \
	  BY_ID("symbols_view", "dso", "p.symbol_id") " AS parent_dso_short_name " \
	  "FROM call_paths c INNER JOIN call_paths p ON p.id = c.parent_id" }, \
	{ NEEDS_CALLS, "CREATE VIEW calls_view AS SELECT calls.id, thread_id, " \
	  BY_ID("threads", "pid", "thread_id") " AS pid, " \
	  BY_ID("threads", "tid", "thread_id") " AS tid, " \
	  BY_ID("comms", "comm", "comm_id") " AS command, call_path_id, " HEX("ip") " AS ip, " \
	  "symbol_id, " BY_ID("symbols", "name", "symbol_id") " AS symbol, call_time, " \
	  "return_time, return_time - call_time AS elapsed_time, branch_count, insn_count, " \
	  "cyc_count, " IPC ", call_id, return_id, CASE WHEN flags=0 THEN '' " \
	  "WHEN flags=1 THEN 'no call' WHEN flags=2 THEN 'no return' " \
	  "WHEN flags=3 THEN 'no call/return' WHEN flags=6 THEN 'jump' " \
	  "ELSE " OTHER("flags", "6") " END AS flags, parent_call_path_id, calls.parent_id " \
	  "FROM calls INNER JOIN call_paths ON call_paths.id = call_path_id" }, \
	{ NEEDS_NOTHING, "CREATE VIEW samples_view AS SELECT id, time, cpu, " \
	  BY_ID("threads", "pid", "thread_id") " AS pid, " \
	  BY_ID("threads", "tid", "thread_id") " AS tid, " \
	  BY_ID("comms", "comm", "comm_id") " AS command, " \
	  BY_ID("selected_events", "name", "evsel_id") " AS event, " HEX("ip") " AS ip_hex, " \
	  BY_ID("symbols", "name", "symbol_id") " AS symbol, sym_offset, " \
	  BY_ID("dsos", "short_name", "dso_id") " AS dso_short_name, " \
	  HEX("to_ip") " AS to_ip_hex, " BY_ID("symbols", "name", "to_symbol_id") \
	  " AS to_symbol, to_sym_offset, " BY_ID("dsos", "short_name", "to_dso_id") \
	  " AS to_dso_short_name, " BY_ID("branch_types", "name", "branch_type") \
	  " AS branch_type_name, in_tx, insn_count, cyc_count, " IPC ", flags FROM samples" }, \
	{ NEEDS_NOTHING, "CREATE VIEW ptwrite_view AS SELECT ptwrite.id, time, cpu, " \
	  HEX("payload") " AS payload_hex, " BOOL_TEXT(NO, "exact_ip") JOIN_SAMPLES("ptwrite") }, \
	{ NEEDS_NOTHING, "CREATE VIEW cbr_view AS SELECT cbr.id, time, cpu, cbr, mhz, percent" \
	  JOIN_SAMPLES("cbr") }, \
	{ NEEDS_NOTHING, "CREATE VIEW mwait_view AS SELECT mwait.id, time, cpu, " \
	  HEX("hints") " AS hints_hex, " HEX("extensions") " AS extensions_hex" \
	  JOIN_SAMPLES("mwait") }, \
	{ NEEDS_NOTHING, "CREATE VIEW pwre_view AS SELECT pwre.id, time, cpu, cstate, " \
	  "subcstate, " BOOL_TEXT(NO, "hw") JOIN_SAMPLES("pwre") }, \
	{ NEEDS_NOTHING, "CREATE VIEW exstop_view AS SELECT exstop.id, time, cpu, " \
	  BOOL_TEXT(NO, "exact_ip") JOIN_SAMPLES("exstop") }, \
	{ NEEDS_NOTHING, "CREATE VIEW pwrx_view AS SELECT pwrx.id, time, cpu, deepest_cstate, " \
	  "last_cstate, " WAKE_REASON(OTHER, "wake_reason") " AS wake_reason" \
	  JOIN_SAMPLES("pwrx") }, \
	{ NEEDS_NOTHING, POWER_EVENTS_VIEW }, \
	{ NEEDS_NOTHING, "CREATE VIEW context_switches_view AS SELECT context_switches.id, " \
	  "context_switches.machine_id, context_switches.time, context_switches.cpu, " \
	  "th_out.pid AS pid_out, th_out.tid AS tid_out, comm_out.comm AS comm_out, " \
	  "th_in.pid AS pid_in, th_in.tid AS tid_in, comm_in.comm AS comm_in, " \
	  "CASE WHEN context_switches.flags = 0 THEN 'in' " \
	  "WHEN context_switches.flags = 1 THEN 'out' " \
	  "WHEN context_switches.flags = 3 THEN 'out preempt' " \
	  "ELSE " OTHER("context_switches.flags", "11") " END AS flags FROM context_switches " \
	  "INNER JOIN threads AS th_out ON th_out.id = context_switches.thread_out_id " \
	  "INNER JOIN threads AS th_in ON th_in.id = context_switches.thread_in_id " \
	  "INNER JOIN comms AS comm_out ON comm_out.id = context_switches.comm_out_id " \
	  "INNER JOIN comms AS comm_in ON comm_in.id = context_switches.comm_in_id" }, \
	{ 0, NULL } }

#define SQLITE_HEX(x) "printf(\"%x\", " x ")"
#define SQLITE_OTHER(x, len) x
#define SQLITE_IPC "CASE WHEN cyc_count=0 THEN CAST(0 AS FLOAT) " \
	"ELSE ROUND(CAST(insn_count AS FLOAT) / cyc_count, 2) END AS IPC"
/* one column per event's field, "" for the other events' */
#define SQLITE_POWER(ev, col, table) "CASE WHEN selected_events.name='" ev "' THEN (SELECT " \
	col " FROM " table " WHERE " table ".id = samples.id) ELSE \"\" END"
#define SQLITE_POWER_EVENTS_VIEW "CREATE VIEW power_events_view AS SELECT samples.id, time, " \
	"cpu, selected_events.name AS event, " \
	SQLITE_POWER("cbr", "cbr", "cbr") " AS cbr, " SQLITE_POWER("cbr", "mhz", "cbr") " AS mhz, " \
	SQLITE_POWER("cbr", "percent", "cbr") " AS percent, " \
	SQLITE_POWER("mwait", SQLITE_HEX("hints"), "mwait") " AS hints_hex, " \
	SQLITE_POWER("mwait", SQLITE_HEX("extensions"), "mwait") " AS extensions_hex, " \
	SQLITE_POWER("pwre", "cstate", "pwre") " AS cstate, " \
	SQLITE_POWER("pwre", "subcstate", "pwre") " AS subcstate, " \
	SQLITE_POWER("pwre", "hw", "pwre") " AS hw, " \
	SQLITE_POWER("exstop", "exact_ip", "exstop") " AS exact_ip, " \
	SQLITE_POWER("pwrx", "deepest_cstate", "pwrx") " AS deepest_cstate, " \
	SQLITE_POWER("pwrx", "last_cstate", "pwrx") " AS last_cstate, " \
	SQLITE_POWER("pwrx", WAKE_REASON(SQLITE_OTHER, "wake_reason"), "pwrx") " AS wake_reason " \
	"FROM samples INNER JOIN selected_events ON selected_events.id = evsel_id " \
	"WHERE selected_events.name IN ('cbr','mwait','exstop','pwre','pwrx')"

#define PG_HEX(x) "to_hex(" x ")"
#define PG_OTHER(x, len) "CAST ( " x " AS VARCHAR(" len ") )"
#define PG_IPC "CASE WHEN cyc_count=0 THEN CAST(0 AS NUMERIC(20, 2)) " \
	"ELSE CAST((CAST(insn_count AS FLOAT) / cyc_count) AS NUMERIC(20, 2)) END AS IPC"
#define PG_BOOL(col) "CASE WHEN " col "=FALSE THEN 'False' WHEN " col "=TRUE THEN 'True' " \
	"ELSE NULL END"
/* the five tables joined, a column each */
#define PG_POWER_EVENTS_VIEW "CREATE VIEW power_events_view AS SELECT samples.id, " \
	"samples.time, samples.cpu, selected_events.name AS event, " \
	"FORMAT('%6s', cbr.cbr) AS cbr, FORMAT('%6s', cbr.mhz) AS MHz, " \
	"FORMAT('%5s', cbr.percent) AS percent, " PG_HEX("mwait.hints") " AS hints_hex, " \
	PG_HEX("mwait.extensions") " AS extensions_hex, FORMAT('%3s', pwre.cstate) AS cstate, " \
	"FORMAT('%3s', pwre.subcstate) AS subcstate, " PG_BOOL("pwre.hw") " AS hw, " \
	PG_BOOL("exstop.exact_ip") " AS exact_ip, " \
	"FORMAT('%3s', pwrx.deepest_cstate) AS deepest_cstate, " \
	"FORMAT('%3s', pwrx.last_cstate) AS last_cstate, CASE WHEN pwrx.wake_reason=1 " \
	"THEN 'Interrupt' WHEN pwrx.wake_reason=2 THEN 'Timer Deadline' " \
	"WHEN pwrx.wake_reason=4 THEN 'Monitored Address' WHEN pwrx.wake_reason=8 THEN 'HW' " \
	"ELSE FORMAT('%2s', pwrx.wake_reason) END AS wake_reason FROM cbr " \
	"FULL JOIN mwait ON mwait.id = cbr.id FULL JOIN pwre ON pwre.id = cbr.id " \
	"FULL JOIN exstop ON exstop.id = cbr.id FULL JOIN pwrx ON pwrx.id = cbr.id " \
	"INNER JOIN samples ON samples.id = coalesce(cbr.id, mwait.id, pwre.id, exstop.id, " \
	"pwrx.id) INNER JOIN selected_events ON selected_events.id = samples.evsel_id " \
	"ORDER BY samples.id"

struct db_view {
	int needs;
	const char *sql;
};
static const struct db_view views[2][20] = {
	[DB_SQLITE] = VIEWS(SQLITE_HEX, SQLITE_OTHER, "0", SQLITE_IPC, SQLITE_POWER_EVENTS_VIEW),
	[DB_POSTGRESQL] = VIEWS(PG_HEX, PG_OTHER, "FALSE", PG_IPC, PG_POWER_EVENTS_VIEW),
};

/* PostgreSQL's keys, added once the rows are in as the script does */
static const struct db_view pg_keys[] = {
	{ NEEDS_NOTHING, "ALTER TABLE threads "
	  "ADD CONSTRAINT machinefk FOREIGN KEY (machine_id) REFERENCES machines (id), "
	  "ADD CONSTRAINT processfk FOREIGN KEY (process_id) REFERENCES threads (id)" },
	{ NEEDS_NOTHING, "ALTER TABLE comms "
	  "ADD CONSTRAINT threadfk FOREIGN KEY (c_thread_id) REFERENCES threads (id)" },
	{ NEEDS_NOTHING, "ALTER TABLE comm_threads "
	  "ADD CONSTRAINT commfk FOREIGN KEY (comm_id) REFERENCES comms (id), "
	  "ADD CONSTRAINT threadfk FOREIGN KEY (thread_id) REFERENCES threads (id)" },
	{ NEEDS_NOTHING, "ALTER TABLE dsos "
	  "ADD CONSTRAINT machinefk FOREIGN KEY (machine_id) REFERENCES machines (id)" },
	{ NEEDS_NOTHING, "ALTER TABLE symbols "
	  "ADD CONSTRAINT dsofk FOREIGN KEY (dso_id) REFERENCES dsos (id)" },
	{ NEEDS_NOTHING, "ALTER TABLE samples "
	  "ADD CONSTRAINT evselfk FOREIGN KEY (evsel_id) REFERENCES selected_events (id), "
	  "ADD CONSTRAINT machinefk FOREIGN KEY (machine_id) REFERENCES machines (id), "
	  "ADD CONSTRAINT threadfk FOREIGN KEY (thread_id) REFERENCES threads (id), "
	  "ADD CONSTRAINT commfk FOREIGN KEY (comm_id) REFERENCES comms (id), "
	  "ADD CONSTRAINT dsofk FOREIGN KEY (dso_id) REFERENCES dsos (id), "
	  "ADD CONSTRAINT symbolfk FOREIGN KEY (symbol_id) REFERENCES symbols (id), "
	  "ADD CONSTRAINT todsofk FOREIGN KEY (to_dso_id) REFERENCES dsos (id), "
	  "ADD CONSTRAINT tosymbolfk FOREIGN KEY (to_symbol_id) REFERENCES symbols (id)" },
	{ NEEDS_PATHS, "ALTER TABLE call_paths "
	  "ADD CONSTRAINT parentfk FOREIGN KEY (parent_id) REFERENCES call_paths (id), "
	  "ADD CONSTRAINT symbolfk FOREIGN KEY (symbol_id) REFERENCES symbols (id)" },
	{ NEEDS_CALLS, "ALTER TABLE calls "
	  "ADD CONSTRAINT threadfk FOREIGN KEY (thread_id) REFERENCES threads (id), "
	  "ADD CONSTRAINT commfk FOREIGN KEY (comm_id) REFERENCES comms (id), "
	  "ADD CONSTRAINT call_pathfk FOREIGN KEY (call_path_id) REFERENCES call_paths (id), "
	  "ADD CONSTRAINT callfk FOREIGN KEY (call_id) REFERENCES samples (id), "
	  "ADD CONSTRAINT returnfk FOREIGN KEY (return_id) REFERENCES samples (id), "
	  "ADD CONSTRAINT parent_call_pathfk FOREIGN KEY (parent_call_path_id) "
	  "REFERENCES call_paths (id)" },
	{ NEEDS_NOTHING, "ALTER TABLE context_switches "
	  "ADD CONSTRAINT machinefk FOREIGN KEY (machine_id) REFERENCES machines (id), "
	  "ADD CONSTRAINT toutfk FOREIGN KEY (thread_out_id) REFERENCES threads (id), "
	  "ADD CONSTRAINT tinfk FOREIGN KEY (thread_in_id) REFERENCES threads (id), "
	  "ADD CONSTRAINT coutfk FOREIGN KEY (comm_out_id) REFERENCES comms (id), "
	  "ADD CONSTRAINT cinfk FOREIGN KEY (comm_in_id) REFERENCES comms (id)" },
	{ 0, NULL }
};

/* perf's branch types (PERF_IP_FLAG_* combinations), before the variants
 * "trace begin / X" and "X / trace end" of each */
enum {
	IP_BRANCH = 1, IP_CALL = 2, IP_RETURN = 4, IP_CONDITIONAL = 8, IP_SYSCALLRET = 16,
	IP_ASYNC = 32, IP_INTERRUPT = 64, IP_TX_ABORT = 128, IP_TRACE_BEGIN = 256,
	IP_TRACE_END = 512, IP_VMENTRY = 2048, IP_VMEXIT = 4096,
};
static const struct { unsigned type; const char *name; } branch_types[] = {
	{ 0, "no branch" },
	{ IP_BRANCH | IP_CALL, "call" },
	{ IP_BRANCH | IP_RETURN, "return" },
	{ IP_BRANCH | IP_CONDITIONAL, "conditional jump" },
	{ IP_BRANCH, "unconditional jump" },
	{ IP_BRANCH | IP_CALL | IP_INTERRUPT, "software interrupt" },
	{ IP_BRANCH | IP_RETURN | IP_INTERRUPT, "return from interrupt" },
	{ IP_BRANCH | IP_CALL | IP_SYSCALLRET, "system call" },
	{ IP_BRANCH | IP_RETURN | IP_SYSCALLRET, "return from system call" },
	{ IP_BRANCH | IP_ASYNC, "asynchronous branch" },
	{ IP_BRANCH | IP_CALL | IP_ASYNC | IP_INTERRUPT, "hardware interrupt" },
	{ IP_BRANCH | IP_TX_ABORT, "transaction abort" },
	{ IP_BRANCH | IP_TRACE_BEGIN, "trace begin" },
	{ IP_BRANCH | IP_TRACE_END, "trace end" },
	{ IP_BRANCH | IP_CALL | IP_VMENTRY, "vm entry" },
	{ IP_BRANCH | IP_CALL | IP_VMEXIT, "vm exit" },
};
#define NR_BRANCH_TYPES (sizeof(branch_types) / sizeof(branch_types[0]))

/* One comm of a thread (perf's struct comm); exported once, by id. */
struct comm_entry {
	char *name;
	uint64_t start;
	bool exec;
	int64_t db_id;
};

/* What the export knows of a thread: its comms oldest first. */
struct thread_rec {
	struct comm_entry **comms;
	size_t nr;
	bool comm_set;		/* a COMM named it (perf's thread->comm_set) */
	int64_t db_id;
};

/* A call path: (parent, symbol, ip) as perf's call_path tree keys it. */
struct call_path_key {
	int64_t parent, symbol;
	uint64_t ip;
};
struct call_path_value {
	struct call_path_key key;
	int64_t db_id;
};

/* An "unknown" symbol perf makes for an address no symbol covers. */
struct unknown_sym_key {
	const struct dso *dso;
	uint64_t addr;
};
struct unknown_sym_value {
	struct unknown_sym_key key;
	int64_t db_id;
};

struct db_export {
	struct db_writer *w;
	struct db_export_opts opts;
	bool comm_exec;		/* the file's events report exec comms */
	bool comm_exec_known;
	int64_t machine_id;	/* 0 until the first sample exports the host */
	int64_t last_id[DB_NR];
	struct hashmap evsels;		/* evsel idx -> id */
	struct hashmap threads;		/* struct thread * -> struct thread_rec * */
	struct hashmap dsos;		/* struct dso * -> id */
	struct hashmap symbols;		/* struct symbol * -> id */
	struct hashmap unknown_syms;	/* struct unknown_sym_value */
	struct hashmap call_paths;	/* struct call_path_value */
	struct thread_rec **recs;	/* every record made, to free */
	size_t nr_recs;
	struct callchain_frame *frames;
};

static int exec_sql(struct db_export *e, const char *sql)
{
	return e->w->ops->exec(e->w, sql);
}

/* Writes a row of the values given by type: 'i' an int64_t, 't' a string. */
static int insert(struct db_export *e, enum db_table t, const char *types, ...)
{
	struct db_value v[16];
	va_list ap;

	va_start(ap, types);
	for (int i = 0; types[i]; i++) {
		if (types[i] == 'i')
			v[i].i = va_arg(ap, int64_t);
		else
			v[i].s = va_arg(ap, const char *);
	}
	va_end(ap);
	return e->w->ops->row(e->w, t, types, v);
}

bool db_export_opts__parse(struct db_export_opts *o, int argc, const char **argv)
{
	memset(o, 0, sizeof(*o));
	if (argc >= 1) {
		if (!strcmp(argv[0], "branches"))
			o->branches = true;
		else if (strcmp(argv[0], "all"))
			return false;
	}
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "calls"))
			o->calls = true;
		else if (!strcmp(argv[i], "callchains"))
			o->callchains = true;
		else if (strcmp(argv[i], "pyside-version-1"))
			return false;
	}
	return true;
}

static bool wanted(const struct db_export *e, int needs)
{
	return needs == NEEDS_NOTHING || (needs == NEEDS_PATHS &&
					  (e->opts.calls || e->opts.callchains)) ||
	       (needs == NEEDS_CALLS && e->opts.calls);
}

static int create_schema(struct db_export *e)
{
	enum db_dialect d = e->w->ops->dialect;
	int err = 0;

	for (size_t i = 0; i < NR_TABLES && !err; i++) {
		if (wanted(e, tables[i].needs)) {
			char *sql = create_table(&tables[i], d, e->opts.branches);

			err = exec_sql(e, sql);
			free(sql);
		}
	}
	for (size_t i = 0; views[d][i].sql && !err; i++)
		if (wanted(e, views[d][i].needs))
			err = exec_sql(e, views[d][i].sql);
	return err;
}

/* the branches layout leaves out period, weight, transaction, data_src */
static int insert_sample_row(struct db_export *e, const int64_t *v)
{
	struct db_value row[NR_SAMPLE_COLUMNS];
	char types[NR_SAMPLE_COLUMNS + 1];
	int n = 0;

	for (int i = 0; i < NR_SAMPLE_COLUMNS; i++) {
		if (e->opts.branches && i >= SAMPLE_ALL_FIRST && i <= SAMPLE_ALL_LAST)
			continue;
		row[n].i = v[i];
		types[n++] = 'i';
	}
	types[n] = '\0';
	return e->w->ops->row(e->w, DB_SAMPLE, types, row);
}

/* The rows 0 of "unknown" the scripts start with, then the branch types. */
static int insert_first_rows(struct db_export *e)
{
	int64_t zeros[NR_SAMPLE_COLUMNS] = { 0 };
	int err = 0;

	err |= insert(e, DB_EVSEL, "it", (int64_t)0, "unknown");
	err |= insert(e, DB_MACHINE, "iit", (int64_t)0, (int64_t)0, "unknown");
	err |= insert(e, DB_THREAD, "iiiii", (int64_t)0, (int64_t)0, (int64_t)0, (int64_t)-1,
		      (int64_t)-1);
	err |= insert(e, DB_COMM, "itiii", (int64_t)0, "unknown", (int64_t)0, (int64_t)0,
		      (int64_t)0);
	err |= insert(e, DB_DSO, "iittt", (int64_t)0, (int64_t)0, "unknown", "unknown", "");
	err |= insert(e, DB_SYMBOL, "iiiiit", (int64_t)0, (int64_t)0, (int64_t)0, (int64_t)0,
		      (int64_t)0, "unknown");
	err |= insert_sample_row(e, zeros);
	if (e->opts.calls || e->opts.callchains)
		err |= insert(e, DB_CALL_PATH, "iiii", (int64_t)0, (int64_t)0, (int64_t)0,
			      (int64_t)0);
	if (e->opts.calls)
		err |= insert(e, DB_CALL, "iiiiiiiiiiiiii", (int64_t)0, (int64_t)0, (int64_t)0,
			      (int64_t)0, (int64_t)0, (int64_t)0, (int64_t)0, (int64_t)0,
			      (int64_t)0, (int64_t)0, (int64_t)0, (int64_t)0, (int64_t)0,
			      (int64_t)0);
	for (size_t i = 0; i < NR_BRANCH_TYPES; i++)
		err |= insert(e, DB_BRANCH_TYPE, "it", (int64_t)branch_types[i].type,
			      branch_types[i].name);
	for (size_t i = 0; i < NR_BRANCH_TYPES; i++) {
		unsigned type = branch_types[i].type;
		char name[80];

		if (type == IP_BRANCH || (type & (IP_TRACE_BEGIN | IP_TRACE_END)))
			continue;
		snprintf(name, sizeof(name), "trace begin / %s", branch_types[i].name);
		err |= insert(e, DB_BRANCH_TYPE, "it", (int64_t)(type | IP_TRACE_BEGIN), name);
		snprintf(name, sizeof(name), "%s / trace end", branch_types[i].name);
		err |= insert(e, DB_BRANCH_TYPE, "it", (int64_t)(type | IP_TRACE_END), name);
	}
	return err ? -1 : 0;
}

struct db_export *db_export__new(const struct db_export_opts *o, struct db_writer *w,
				 char **err)
{
	struct db_export *e = xcalloc(1, sizeof(*e));

	e->w = w;
	e->opts = *o;
	hashmap_init(&e->evsels, sizeof(int64_t));
	hashmap_init(&e->threads, sizeof(void *));
	hashmap_init(&e->dsos, sizeof(int64_t));
	hashmap_init(&e->symbols, sizeof(int64_t));
	hashmap_init(&e->unknown_syms, sizeof(struct unknown_sym_value));
	hashmap_init(&e->call_paths, sizeof(struct call_path_value));
	e->frames = xcalloc(MAX_STACK * 2 + 8, sizeof(*e->frames));
	if (create_schema(e) || insert_first_rows(e)) {
		*err = db_export__abort(e);
		return NULL;
	}
	return e;
}

/* Comms --------------------------------------------------------------- */

static struct comm_entry *comm_entry__new(const char *name, uint64_t start, bool exec)
{
	struct comm_entry *c = xcalloc(1, sizeof(*c));

	c->name = xstrdup(name);
	c->start = start;
	c->exec = exec;
	return c;
}

static struct thread_rec *thread_rec__new(struct db_export *e, const struct thread *t)
{
	struct thread_rec *r = xcalloc(1, sizeof(*r));
	char name[32];

	/* perf's idle thread is named at startup; others wait for a COMM */
	if (t->pid == 0 && t->tid == 0) {
		snprintf(name, sizeof(name), "swapper");
		r->comm_set = true;
	} else {
		snprintf(name, sizeof(name), ":%d", (int)t->tid);
	}
	r->comms = xcalloc(1, sizeof(*r->comms));
	r->comms[r->nr++] = comm_entry__new(name, 0, false);
	e->recs = xrealloc(e->recs, (e->nr_recs + 1) * sizeof(*e->recs));
	e->recs[e->nr_recs++] = r;
	hashmap_u64_put(&e->threads, (uintptr_t)t, r);
	return r;
}

static struct thread_rec *thread_rec(struct db_export *e, const struct thread *t)
{
	struct thread_rec *r = hashmap_u64_get(&e->threads, (uintptr_t)t);

	return r ? r : thread_rec__new(e, t);
}

/* perf's thread__set_comm: the first COMM renames the placeholder */
static void thread_rec__set_comm(struct thread_rec *r, const char *name, uint64_t time,
				 bool exec)
{
	if (!r->comm_set) {
		struct comm_entry *c = r->comms[r->nr - 1];

		free(c->name);
		c->name = xstrdup(name);
		c->start = time;
		c->exec = c->exec || exec;
	} else {
		r->comms = xrealloc(r->comms, (r->nr + 1) * sizeof(*r->comms));
		r->comms[r->nr++] = comm_entry__new(name, time, exec);
	}
	r->comm_set = true;
}

void db_export__comm(struct db_export *e, struct perf_session *s,
			 const struct perf_event_header *rec, const struct perf_sample *sample)
{
	const struct perf_rec_comm *c = (const void *)rec;
	struct thread *t = machine__find_thread(s->machine, (pid_t)c->pid, (pid_t)c->tid);

	if (t)
		thread_rec__set_comm(thread_rec(e, t), c->comm, sample->time,
				     rec->misc & PERF_RECORD_MISC_COMM_EXEC);
}

void db_export__fork(struct db_export *e, struct perf_session *s,
			 const struct perf_event_header *rec, const struct perf_sample *sample)
{
	const struct perf_rec_fork *f = (const void *)rec;
	struct thread *child = machine__find_thread(s->machine, (pid_t)f->pid, (pid_t)f->tid);
	struct thread *parent = machine__find_thread(s->machine, (pid_t)f->ppid, (pid_t)f->ptid);
	struct thread_rec *r, *p;

	if (!child || !parent || child == parent)
		return;
	p = thread_rec(e, parent);
	r = thread_rec__new(e, child);	/* a new thread, whatever the tid was before */
	if (p->comm_set)
		thread_rec__set_comm(r, p->comms[p->nr - 1]->name, sample->time, false);
}

/* perf's thread__exec_comm: the latest exec comm, else the oldest, but not
 * a main thread's timeless inherited one when it has a later one */
static struct comm_entry *exec_comm(const struct thread_rec *r, const struct thread *t)
{
	for (size_t i = r->nr; i-- > 0;)
		if (r->comms[i]->exec)
			return r->comms[i];
	if (r->nr >= 2 && !r->comms[0]->start && t->pid == t->tid)
		return r->comms[1];
	return r->comms[0];
}

static int export_comm(struct db_export *e, struct comm_entry *c, int64_t thread_id)
{
	c->db_id = ++e->last_id[DB_COMM];
	return insert(e, DB_COMM, "itiii", c->db_id, c->name, thread_id, (int64_t)c->start,
		      (int64_t)c->exec);
}

static int export_comm_thread(struct db_export *e, int64_t comm_id, int64_t thread_id)
{
	return insert(e, DB_COMM_THREAD, "iii", ++e->last_id[DB_COMM_THREAD], comm_id, thread_id);
}

/* process_id: its main thread's id (main is r itself for a main thread) */
static int export_thread(struct db_export *e, struct thread_rec *r, const struct thread *t,
			 const struct thread_rec *main)
{
	if (r->db_id)
		return 0;
	r->db_id = ++e->last_id[DB_THREAD];
	return insert(e, DB_THREAD, "iiiii", r->db_id, e->machine_id, main ? main->db_id : 0,
		      (int64_t)t->pid, (int64_t)t->tid);
}

static bool comm_exec(struct db_export *e, struct perf_session *s)
{
	if (!e->comm_exec_known) {
		evlist__for_each(&s->evlist, evsel)
			e->comm_exec = e->comm_exec || evsel->attr.comm_exec;
		e->comm_exec_known = true;
	}
	return e->comm_exec;
}

/* perf's thread__main_thread: the process's first thread, if known */
static struct thread *main_thread(struct perf_session *s, struct thread *t)
{
	if (t->pid == t->tid)
		return t;
	return t->pid == -1 ? NULL : machine__find_thread(s->machine, t->pid, t->pid);
}

/* perf's db_export__threads: the main thread and its exec comm first, then
 * the thread and its current comm; *comm_id is the exec comm's (0: none) */
static int export_threads(struct db_export *e, struct perf_session *s, struct thread *t,
			  int64_t *thread_id, int64_t *comm_id)
{
	struct thread *main = main_thread(s, t);
	struct thread_rec *r = thread_rec(e, t), *mr = NULL;
	struct comm_entry *comm = NULL, *curr;
	int err = 0;

	*comm_id = 0;
	if (main) {
		mr = thread_rec(e, main);
		err |= export_thread(e, mr, main, mr);
		comm = comm_exec(e, s) ? exec_comm(mr, main) : mr->comms[mr->nr - 1];
		if (!comm->db_id) {
			err |= export_comm(e, comm, mr->db_id);
			err |= export_comm_thread(e, comm->db_id, mr->db_id);
		}
		*comm_id = comm->db_id;
	}
	if (t != main) {
		bool new_thread = !r->db_id;

		err |= export_thread(e, r, t, mr);
		if (comm && new_thread)
			err |= export_comm_thread(e, comm->db_id, r->db_id);
	}
	/* comm_threads pair threads with exec comms only */
	curr = r->comms[r->nr - 1];
	if (!curr->db_id)
		err |= export_comm(e, curr, r->db_id);
	*thread_id = r->db_id;
	return err;
}

/* DSOs and symbols ---------------------------------------------------- */

static int64_t dso_id(struct db_export *e, struct dso *dso)
{
	bool added;
	int64_t *id = hashmap_u64_findnew(&e->dsos, (uintptr_t)dso, &added);
	char build_id[41] = "";

	if (!added)
		return *id;
	*id = ++e->last_id[DB_DSO];
	for (int i = 0; i < dso->build_id_size && i < 20; i++)
		snprintf(build_id + 2 * i, 3, "%02x", dso->build_id[i]);
	insert(e, DB_DSO, "iittt", *id, e->machine_id, dso->short_name, dso->long_name, build_id);
	return *id;
}

static bool unknown_sym_eq(const void *value, const void *key)
{
	return !memcmp(value, key, sizeof(struct unknown_sym_key));
}

static uint64_t unknown_sym_hash(const struct unknown_sym_key *key)
{
	return hash_add(hash_mix((uintptr_t)key->dso), key->addr);
}

/* perf's db_ids_from_al: a mapped address without a symbol gets a symbol
 * "unknown" of its own, [addr, addr) */
static int64_t symbol_id(struct db_export *e, struct dso *dso, int64_t dso_db_id,
			 const struct symbol *sym, uint64_t addr)
{
	bool added;

	if (sym) {
		int64_t *id = hashmap_u64_findnew(&e->symbols, (uintptr_t)sym, &added);

		if (added) {
			*id = ++e->last_id[DB_SYMBOL];
			insert(e, DB_SYMBOL, "iiiiit", *id, dso_db_id, (int64_t)sym->start,
			       (int64_t)sym->end, (int64_t)sym->binding, sym->name);
		}
		return *id;
	}
	struct unknown_sym_key key = { dso, addr };
	struct unknown_sym_value *v = hashmap_findnew(&e->unknown_syms, unknown_sym_hash(&key),
						      unknown_sym_eq, &key, &added);
	if (added) {
		v->key = key;
		v->db_id = ++e->last_id[DB_SYMBOL];
		insert(e, DB_SYMBOL, "iiiiit", v->db_id, dso_db_id, (int64_t)addr, (int64_t)addr,
		       (int64_t)0, "unknown");
	}
	return v->db_id;
}

/* perf puts its "unknown" symbols into the DSO's symbol table: a frame
 * without a symbol finds the one a sample (or an earlier frame) made at
 * its address; 0 when there is none */
static int64_t unknown_symbol_at(struct db_export *e, const struct dso *dso,
				 const struct symbol *sym, uint64_t addr)
{
	struct unknown_sym_key key = { dso, addr };
	struct unknown_sym_value *v;

	if (sym)
		return 0;
	v = hashmap_find(&e->unknown_syms, unknown_sym_hash(&key), unknown_sym_eq, &key);
	return v ? v->db_id : 0;
}

/* Call paths ---------------------------------------------------------- */

static bool call_path_eq(const void *value, const void *key)
{
	return !memcmp(value, key, sizeof(struct call_path_key));
}

static int64_t call_path_id(struct db_export *e, int64_t parent, int64_t symbol, uint64_t ip)
{
	struct call_path_key key = { parent, symbol, symbol ? 0 : ip };
	uint64_t hash = hash_add(hash_add(hash_mix((uint64_t)parent), (uint64_t)symbol), key.ip);
	bool added;
	struct call_path_value *v = hashmap_findnew(&e->call_paths, hash, call_path_eq, &key,
						    &added);
	if (added) {
		v->key = key;
		v->db_id = ++e->last_id[DB_CALL_PATH];
		insert(e, DB_CALL_PATH, "iiii", v->db_id, parent, symbol, (int64_t)key.ip);
	}
	return v->db_id;
}

/* A frame's symbol; for one without, the symbol perf's export looks up
 * at the frame's ip taken as a DSO address (perf's quirk, not the address
 * mapped into the DSO: it finds a symbol in non-PIE executables) */
static struct symbol *frame_symbol(const struct callchain_frame *f)
{
	return f->al.sym ? f->al.sym : dso__find_symbol(f->al.map->dso, f->ip);
}

/* The sample's stack as a path from the root (perf's root is exported
 * first, as id 1, on the first stack) to its leaf; 0 for none. */
static int64_t sample_call_path(struct db_export *e, struct perf_session *s,
				struct evsel *evsel, const struct perf_sample *sample,
				struct thread *thread)
{
	struct callchain_request req = { .max_stack = MAX_STACK, .keep_outermost = true };
	int n = perf_sample__resolve_callchain(sample, &evsel->attr, s->machine, thread, &req,
					       e->frames, MAX_STACK * 2 + 8);
	int64_t path;

	if (n <= 0)
		return 0;
	path = call_path_id(e, 0, 0, 0);
	for (int i = n; i-- > 0;) {
		struct callchain_frame *f = &e->frames[i];
		int64_t dso_db_id = 0, sym = 0;

		/* an inlined function is a node of its own, as in perf */
		if (f->al.map) {
			dso_db_id = dso_id(e, f->al.map->dso);
			sym = unknown_symbol_at(e, f->al.map->dso, f->al.sym, f->al.addr);
			if (!sym)
				sym = symbol_id(e, f->al.map->dso, dso_db_id,
						frame_symbol(f), f->ip);
		}
		path = call_path_id(e, path, sym, f->ip);
	}
	return path;
}

/* The host, the only machine pcl knows */
static int export_machine(struct db_export *e)
{
	if (e->machine_id)
		return 0;
	e->machine_id = ++e->last_id[DB_MACHINE];
	return insert(e, DB_MACHINE, "iit", e->machine_id, (int64_t)-1, "");
}

/* perf's sample_addr_correlates_sym: page faults' addresses (and BTS's,
 * which pcl does not decode) are looked up as the samples' ips are */
static bool addr_is_code_or_data(const struct perf_event_attr *attr)
{
	return (attr->sample_type & PERF_SAMPLE_ADDR) && attr->type == PERF_TYPE_SOFTWARE &&
	       (attr->config == PERF_COUNT_SW_PAGE_FAULTS ||
		attr->config == PERF_COUNT_SW_PAGE_FAULTS_MIN ||
		attr->config == PERF_COUNT_SW_PAGE_FAULTS_MAJ);
}

/* Samples ------------------------------------------------------------- */

int db_export__sample(struct db_export *e, struct perf_session *s, struct evsel *evsel,
			  const struct perf_sample *sample)
{
	struct addr_location al, to;
	int64_t v[NR_SAMPLE_COLUMNS] = { 0 }, *evsel_id;
	bool added;
	int err = 0;

	/* the script's tracepoint handlers export nothing */
	if (evsel->attr.type == PERF_TYPE_TRACEPOINT)
		return 0;
	evsel_id = hashmap_u64_findnew(&e->evsels, (uint64_t)evsel->idx, &added);
	if (added) {
		*evsel_id = ++e->last_id[DB_EVSEL];
		err |= insert(e, DB_EVSEL, "it", *evsel_id, evsel->name);
	}
	err |= export_machine(e);
	perf_session__resolve_sample(s, sample, &al);
	if (!al.thread)
		return err;
	v[1] = *evsel_id;
	v[2] = e->machine_id;
	err |= export_threads(e, s, al.thread, &v[3], &v[4]);
	v[0] = ++e->last_id[DB_SAMPLE];
	if (al.map) {
		v[5] = dso_id(e, al.map->dso);
		v[6] = symbol_id(e, al.map->dso, v[5], al.sym, al.addr);
		v[7] = (int64_t)(al.addr - (al.sym ? al.sym->start : al.addr));
	}
	v[8] = (int64_t)sample->ip;
	v[9] = (int64_t)sample->time;
	v[10] = (int32_t)sample->cpu;
	v[15] = (int64_t)sample->period;
	v[16] = (int64_t)sample->weight;
	v[17] = (int64_t)sample->transaction;
	v[18] = (int64_t)(evsel->attr.sample_type & PERF_SAMPLE_DATA_SRC ? sample->data_src :
			  DATA_SRC_NONE);
	if (e->opts.callchains && sample->callchain)
		v[21] = sample_call_path(e, s, evsel, sample, al.thread);
	v[14] = (int64_t)sample->addr;
	if (addr_is_code_or_data(&evsel->attr) &&
	    machine__find_symbol_fb(s->machine, al.thread, sample->cpumode, sample->addr, &to) &&
	    to.map) {
		v[11] = dso_id(e, to.map->dso);
		v[12] = symbol_id(e, to.map->dso, v[11], to.sym, to.addr);
		v[13] = (int64_t)(to.addr - (to.sym ? to.sym->start : to.addr));
	}
	err |= insert_sample_row(e, v);
	return err ? -1 : 0;
}

/* Context switches ---------------------------------------------------- */

/* perf's db_export__pid_tid: a known, named thread's ids */
static int switch_thread(struct db_export *e, struct perf_session *s, pid_t pid, pid_t tid,
			 int64_t *thread_id, int64_t *comm_id, bool *idle)
{
	struct thread *t = machine__find_thread(s->machine, pid, tid);

	*thread_id = *comm_id = 0;
	*idle = false;
	if (!t || !thread_rec(e, t)->comm_set)
		return 0;
	*idle = !t->pid && !t->tid;
	return export_threads(e, s, t, thread_id, comm_id);
}

int db_export__switch(struct db_export *e, struct perf_session *s,
			  const struct perf_event_header *rec, const struct perf_sample *sample)
{
	const struct perf_rec_switch *sw = (const void *)rec;
	bool out = rec->misc & PERF_RECORD_MISC_SWITCH_OUT;
	int64_t flags = out | (out && (rec->misc & PERF_RECORD_MISC_SWITCH_OUT_PREEMPT)) << 1;
	int64_t a_id, a_comm, b_id = 0, b_comm = 0;
	bool a_idle, b_idle = false;
	int err;

	err = export_machine(e);
	err |= switch_thread(e, s, (pid_t)sample->pid, (pid_t)sample->tid, &a_id, &a_comm, &a_idle);
	if (rec->type == PERF_RECORD_SWITCH_CPU_WIDE)
		err |= switch_thread(e, s, (pid_t)sw->next_prev_pid, (pid_t)sw->next_prev_tid,
				     &b_id, &b_comm, &b_idle);
	/* nothing to say of two unknown (or idle) tasks */
	if ((!a_id || a_idle) && (!b_id || b_idle))
		return err;
	err |= insert(e, DB_CONTEXT_SWITCH, "iiiiiiiii", ++e->last_id[DB_CONTEXT_SWITCH],
		      e->machine_id, (int64_t)sample->time, (int64_t)(int32_t)sample->cpu,
		      out ? a_id : b_id, out ? a_comm : b_comm, out ? b_id : a_id,
		      out ? b_comm : a_comm, flags);
	return err ? -1 : 0;
}

/* Finishing ----------------------------------------------------------- */

/* PostgreSQL's keys, which its script adds once the rows are in */
static int add_keys(struct db_export *e)
{
	static const char *const optional[] = { "ptwrite", "cbr", "mwait", "pwre", "exstop",
						"pwrx" };
	char sql[128];
	int err = 0;

	for (size_t i = 0; i < NR_TABLES && !err; i++) {
		if (!wanted(e, tables[i].needs))
			continue;
		snprintf(sql, sizeof(sql), "ALTER TABLE %s ADD PRIMARY KEY (id)", tables[i].name);
		err = exec_sql(e, sql);
	}
	for (size_t i = 0; pg_keys[i].sql && !err; i++)
		if (wanted(e, pg_keys[i].needs))
			err = exec_sql(e, pg_keys[i].sql);
	for (size_t i = 0; i < sizeof(optional) / sizeof(optional[0]) && !err; i++) {
		snprintf(sql, sizeof(sql), "ALTER TABLE %s ADD CONSTRAINT idfk FOREIGN KEY (id) "
			 "REFERENCES samples (id)", optional[i]);
		err = exec_sql(e, sql);
	}
	return err;
}

static int drop(struct db_export *e, const char *table)
{
	char sql[96];

	snprintf(sql, sizeof(sql), "DROP VIEW %s_view", table);
	if (exec_sql(e, sql))
		return -1;
	snprintf(sql, sizeof(sql), "DROP TABLE %s", table);
	return exec_sql(e, sql);
}

static bool table_empty(struct db_export *e, const char *table)
{
	return e->w->ops->empty(e->w, table);
}

static int drop_unused(struct db_export *e)
{
	static const char *const power[] = { "mwait", "pwre", "exstop", "pwrx" };
	bool power_empty = true;
	int err = 0;

	if (table_empty(e, "ptwrite"))
		err |= drop(e, "ptwrite");
	for (size_t i = 0; i < 4; i++)
		power_empty = power_empty && table_empty(e, power[i]);
	if (power_empty) {
		err |= exec_sql(e, "DROP VIEW power_events_view");
		for (size_t i = 0; i < 4; i++)
			err |= drop(e, power[i]);
		if (table_empty(e, "cbr"))
			err |= drop(e, "cbr");
	}
	if (table_empty(e, "context_switches"))
		err |= drop(e, "context_switches");
	return err ? -1 : 0;
}

int db_export__finish(struct db_export *e, char **err)
{
	bool pg = e->w->ops->dialect == DB_POSTGRESQL;
	int ret = e->w->ops->load(e->w);

	if (!ret && pg)
		ret = add_keys(e);
	if (!ret && e->opts.calls)
		ret = exec_sql(e, "CREATE INDEX pcpid_idx ON calls (parent_call_path_id)") ||
		      exec_sql(e, "CREATE INDEX pid_idx ON calls (parent_id)") ||
		      exec_sql(e, "ALTER TABLE comms ADD has_calls boolean") ||
		      exec_sql(e, pg ? "UPDATE comms SET has_calls = TRUE WHERE comms.id IN "
				       "(SELECT DISTINCT comm_id FROM calls)" :
				       "UPDATE comms SET has_calls = 1 WHERE comms.id IN "
				       "(SELECT DISTINCT comm_id FROM calls)");
	if (!ret)
		ret = drop_unused(e);
	*err = db_export__abort(e);
	if (!ret && *err)	/* a row failed on the way */
		ret = -1;
	return ret ? -1 : 0;
}

char *db_export__abort(struct db_export *e)
{
	char *err = e->w->ops->close(e->w);

	for (size_t i = 0; i < e->nr_recs; i++) {
		for (size_t j = 0; j < e->recs[i]->nr; j++) {
			free(e->recs[i]->comms[j]->name);
			free(e->recs[i]->comms[j]);
		}
		free(e->recs[i]->comms);
		free(e->recs[i]);
	}
	free(e->recs);
	hashmap_release(&e->evsels);
	hashmap_release(&e->threads);
	hashmap_release(&e->dsos);
	hashmap_release(&e->symbols);
	hashmap_release(&e->unknown_syms);
	hashmap_release(&e->call_paths);
	free(e->frames);
	free(e);
	return err;
}
