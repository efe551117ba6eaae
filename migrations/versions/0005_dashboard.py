"""the dashboard: a source may be paused

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-24 14:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # A plain ADD COLUMN with a default: no table rebuild on SQLite.
    op.add_column("source", sa.Column("paused", sa.Boolean(), server_default=sa.false(), nullable=False))


def downgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        op.execute("ALTER TABLE source DROP COLUMN paused")
    else:
        op.drop_column("source", "paused")
