"""robots.txt kept per origin for a day

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-21 23:50:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "robots_txt",
        sa.Column("origin", sa.String(length=300), nullable=False),
        sa.Column("fetched_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("body", sa.Text(), nullable=True),
        sa.PrimaryKeyConstraint("origin", name=op.f("pk_robots_txt")),
    )


def downgrade() -> None:
    op.drop_table("robots_txt")
