"""A stand-in for the part of PySide2.QtSql that perf's export-to-sqlite.py
uses, over Python's sqlite3 module, so that perf 6.1 can write its database on a
machine without PySide: the oracle test_export_sqlite.py compares pcl with.
Values are bound as the script binds them (strings), as Qt would."""
import sqlite3


class _Error:
    def __init__(self, text):
        self._text = text

    def text(self):
        return self._text


class QSqlDatabase:
    @staticmethod
    def addDatabase(driver):
        return QSqlDatabase()

    def setDatabaseName(self, name):
        self.name = name

    def open(self):
        self.conn = sqlite3.connect(self.name, isolation_level=None)
        return True


class QSqlQuery:
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
