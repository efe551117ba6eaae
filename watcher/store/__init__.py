"""Storage: typed models and the database engine (SQLite by default, PostgreSQL by URL)."""
