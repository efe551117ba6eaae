"""per-host next request time, shared by daemons

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-21 23:58:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "host",
        sa.Column("name", sa.String(length=300), nullable=False),
        sa.Column("next_request_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("name", name=op.f("pk_host")),
    )


def downgrade() -> None:
    op.drop_table("host")
