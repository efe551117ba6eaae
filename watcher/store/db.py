"""The database: engine from a URL, migrations on first use, sessions.

SQLite is the embedded default (a file in the user's data directory); PostgreSQL works
from a plain ``postgresql://user@host/db`` URL, which is mapped to the psycopg 3 driver.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import platformdirs
from sqlalchemy import Connection, Engine, create_engine, event, inspect, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError, OperationalError
from sqlalchemy.orm import Session, sessionmaker

from watcher.errors import ConfigError, StorageError

__all__ = ["Database", "default_database_url", "normalise_url", "utcnow"]

MIGRATIONS_DIR = Path(__file__).resolve().parent.parent.parent / "migrations"
#: The newest migration's revision (a test checks it against the migration scripts).
SCHEMA_REVISION = "0006"


def utcnow() -> datetime:
    return datetime.now(UTC)


def default_database_url() -> str:
    path = Path(platformdirs.user_data_dir("watcher")) / "watcher.db"
    return f"sqlite:///{path}"


def normalise_url(url: str) -> str:
    """Map the URLs users write to the drivers watcher ships with."""
    try:
        parsed = make_url(url)
    except ArgumentError as exc:
        raise ConfigError(f"not a database URL: {url!r}") from exc
    if parsed.drivername in {"postgresql", "postgres"}:
        parsed = parsed.set(drivername="postgresql+psycopg")
    elif parsed.drivername == "sqlite" and parsed.database and parsed.database != ":memory:":
        Path(parsed.database).expanduser().parent.mkdir(parents=True, exist_ok=True)
    elif not parsed.drivername.startswith(("sqlite", "postgresql")):
        raise ConfigError(f"unsupported database {parsed.drivername!r}: use sqlite:/// or postgresql://")
    return parsed.render_as_string(hide_password=False)


def _stored_revision(conn: Connection) -> str | None:
    """The migration revision a database records (None: new, or not one plain revision)."""
    if not inspect(conn).has_table("alembic_version"):
        return None
    revisions = conn.execute(text("SELECT version_num FROM alembic_version")).scalars().all()
    return revisions[0] if len(revisions) == 1 else None


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    cur = dbapi_conn.cursor()
    # WAL lets readers (watcher diff) run while a check writes; busy_timeout makes a
    # locked database wait instead of failing at once.
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA busy_timeout=10000")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.close()


class Database:
    """An engine plus a session factory; migrations are applied by ``upgrade``."""

    def __init__(self, url: str, *, echo: bool = False) -> None:
        self.url = normalise_url(url)
        # A server connection can drop between daemon ticks; a SQLite file cannot.
        pre_ping = not self.url.startswith("sqlite")
        self.engine: Engine = create_engine(self.url, echo=echo, pool_pre_ping=pre_ping)
        if self.engine.dialect.name == "sqlite":
            event.listen(self.engine, "connect", _sqlite_pragmas)
        self.sessions = sessionmaker(self.engine, expire_on_commit=False)

    @property
    def is_sqlite(self) -> bool:
        return self.engine.dialect.name == "sqlite"

    def alembic_config(self) -> Any:
        from alembic.config import Config

        cfg = Config()
        cfg.set_main_option("script_location", str(MIGRATIONS_DIR))
        cfg.attributes["engine"] = self.engine
        return cfg

    def upgrade(self, revision: str = "head") -> None:
        """Bring the schema up to ``revision`` (run on first use and by ``watcher db upgrade``)."""
        from alembic import command

        try:
            command.upgrade(self.alembic_config(), revision)
        except OperationalError as exc:
            raise StorageError(f"cannot migrate {self.display_url}: {exc.orig}") from exc

    def downgrade(self, revision: str) -> None:
        from alembic import command

        command.downgrade(self.alembic_config(), revision)

    def ensure_schema(self) -> None:
        """Apply migrations when the database is new or behind; one query when current.

        A current database is recognised without Alembic (importing it and reading the
        migration scripts took 0.15 s of every command); anything else goes through Alembic.
        """
        try:
            with self.engine.connect() as conn:
                current = _stored_revision(conn)
        except OperationalError as exc:
            raise StorageError(f"cannot open database {self.display_url}: {exc.orig}") from exc
        if current == SCHEMA_REVISION:
            return
        from alembic.script import ScriptDirectory

        if current != ScriptDirectory.from_config(self.alembic_config()).get_current_head():
            self.upgrade()

    @property
    def display_url(self) -> str:
        return make_url(self.url).render_as_string(hide_password=True)

    @contextmanager
    def session(self) -> Iterator[Session]:
        """A session in one transaction: committed on success, rolled back on error."""
        session = self.sessions()
        try:
            yield session
            session.commit()
        except OperationalError as exc:
            session.rollback()
            raise StorageError(f"database error: {exc.orig}") from exc
        except BaseException:
            session.rollback()
            raise
        finally:
            session.close()

    def table_names(self) -> list[str]:
        return inspect(self.engine).get_table_names()

    def dispose(self) -> None:
        self.engine.dispose()
