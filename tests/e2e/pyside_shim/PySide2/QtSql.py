"""A stand-in for the part of PySide2.QtSql that perf's export-to-sqlite.py
uses, over Python's sqlite3 module, so that perf 6.1 can write its database on a
machine without PySide: the oracle test_export_sqlite.py compares pcl with.
Values are bound as the script binds them (strings), as Qt would.  The QPSQL
driver, which export-to-postgresql.py opens, goes through libpq (ctypes, as
the script's own COPY does): test_export_postgresql.py's oracle."""
import ctypes
import sqlite3


class _Error:
    def __init__(self, text):
        self._text = text

    def text(self):
        return self._text


class _Libpq:
    """The few libpq calls a query needs; the server is found through PG*."""
    OK_STATUSES = (1, 2)    # PGRES_COMMAND_OK, PGRES_TUPLES_OK

    def __init__(self):
        lib = ctypes.CDLL("libpq.so.5")
        for name, res, args in (("PQconnectdb", ctypes.c_void_p, [ctypes.c_char_p]),
                                ("PQstatus", ctypes.c_int, [ctypes.c_void_p]),
                                ("PQfinish", None, [ctypes.c_void_p]),
                                ("PQexec", ctypes.c_void_p, [ctypes.c_void_p, ctypes.c_char_p]),
                                ("PQresultStatus", ctypes.c_int, [ctypes.c_void_p]),
                                ("PQntuples", ctypes.c_int, [ctypes.c_void_p]),
                                ("PQclear", None, [ctypes.c_void_p]),
                                ("PQerrorMessage", ctypes.c_char_p, [ctypes.c_void_p])):
            fn = getattr(lib, name)
            fn.restype, fn.argtypes = res, args
            setattr(self, name, fn)


class QSqlDatabase:
    @staticmethod
    def addDatabase(driver):
        db = QSqlDatabase()
        db.driver = driver
        db.conn = None
        return db

    def setDatabaseName(self, name):
        self.name = name

    def open(self):
        if self.driver != "QPSQL":
            self.conn = sqlite3.connect(self.name, isolation_level=None)
            return True
        self.pq = _Libpq()
        self.conn = self.pq.PQconnectdb(f"dbname = {self.name}".encode())
        return self.pq.PQstatus(self.conn) == 0

    def close(self):
        if self.driver == "QPSQL" and self.conn:
            self.pq.PQfinish(self.conn)
        self.conn = None


class _PgQuery:
    """QSqlQuery on a QPSQL database: what the script runs and reads back."""
    def __init__(self, db):
        self.db = db
        self.err = ""
        self.rows = 0

    def exec_(self, sql):
        pq, conn = self.db.pq, self.db.conn
        res = pq.PQexec(conn, sql.encode())
        ok = pq.PQresultStatus(res) in pq.OK_STATUSES
        self.rows = pq.PQntuples(res) if ok else 0
        self.err = "" if ok else pq.PQerrorMessage(conn).decode()
        pq.PQclear(res)
        return ok

    def next(self):
        if not self.rows:
            return False
        self.rows -= 1
        return True

    def finish(self):
        self.rows = 0

    clear = finish

    def lastError(self):
        return _Error(self.err)


def QSqlQuery(db):
    return _PgQuery(db) if db.driver == "QPSQL" else _SqliteQuery(db)


class _SqliteQuery:
    def __init__(self, db):
        self.cur = db.conn.cursor()
        self.sql = None
        self.values = []
        self.err = ""
        self.rows = []

    def prepare(self, sql):
        self.sql = sql

    def addBindValue(self, value):
        self.values.append(value)

    def exec_(self, sql=None):
        try:
            if sql is None:
                self.cur.execute(self.sql, self.values)
            else:
                self.cur.execute(sql)
            self.rows = self.cur.fetchall()
            return True
        except sqlite3.Error as e:
            self.err = str(e)
            return False
        finally:
            self.values = []

    def next(self):
        if not self.rows:
            return False
        self.rows.pop(0)
        return True

    def lastError(self):
        return _Error(self.err)
