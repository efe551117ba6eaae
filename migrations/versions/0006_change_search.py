"""an index for searching the changes' text: FTS5 trigrams on SQLite, pg_trgm on PostgreSQL

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-24 15:00:00

The dashboard searches the changes' item text for a substring. Without an index that reads
every change (a quarter of a second at 100,000 changes); with one, milliseconds. Both indexes
are optional: SQLite without FTS5's trigram tokenizer (before 3.34) or a PostgreSQL where
pg_trgm cannot be created keeps working, and the search reads every change. Neither is a
model: ``watcher.store.models.SEARCH_TABLES`` names what the models leave out.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None

#: The expression PostgreSQL indexes; watcher.web.queries searches exactly this text.
PG_SEARCH_TEXT = "coalesce(CAST(after AS TEXT), '') || ' ' || coalesce(CAST(before AS TEXT), '')"


def _sqlite_upgrade(bind: sa.Connection) -> None:
    try:
        bind.exec_driver_sql(
            "CREATE VIRTUAL TABLE change_search USING fts5("
            "after, before, content='change', content_rowid='id', tokenize='trigram')"
        )
    except sa.exc.OperationalError:
        return  # no FTS5 or no trigram tokenizer: searching reads every change
    # An external-content index follows its table through triggers (cascaded deletes fire them too).
    op.execute(
        "CREATE TRIGGER change_search_insert AFTER INSERT ON change BEGIN "
        "INSERT INTO change_search(rowid, after, before) VALUES (new.id, new.after, new.before); END"
    )
    op.execute(
        "CREATE TRIGGER change_search_delete AFTER DELETE ON change BEGIN "
        "INSERT INTO change_search(change_search, rowid, after, before) "
        "VALUES ('delete', old.id, old.after, old.before); END"
    )
    op.execute(
        "CREATE TRIGGER change_search_update AFTER UPDATE OF after, before ON change BEGIN "
        "INSERT INTO change_search(change_search, rowid, after, before) "
        "VALUES ('delete', old.id, old.after, old.before); "
        "INSERT INTO change_search(rowid, after, before) VALUES (new.id, new.after, new.before); END"
    )
    op.execute("INSERT INTO change_search(change_search) VALUES ('rebuild')")


def upgrade() -> None:
    bind = op.get_bind()
    if bind.dialect.name == "sqlite":
        _sqlite_upgrade(bind)
        return
    try:
        with bind.begin_nested():
            bind.exec_driver_sql("CREATE EXTENSION IF NOT EXISTS pg_trgm")
    except sa.exc.DBAPIError:
        return  # not allowed to create it here: searching reads every change
    op.execute(f"CREATE INDEX ix_change_search ON change USING gin (({PG_SEARCH_TEXT}) gin_trgm_ops)")


def downgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        for trigger in ("insert", "delete", "update"):
            op.execute(f"DROP TRIGGER IF EXISTS change_search_{trigger}")
        op.execute("DROP TABLE IF EXISTS change_search")
    else:
        op.execute("DROP INDEX IF EXISTS ix_change_search")
