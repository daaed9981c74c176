"""Test stand-in for PySide2 (see QtSql.py)."""
