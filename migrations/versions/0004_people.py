"""people and labs owning sources; a person's works across sources; ids on changes

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-24 12:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "person",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("from_config", sa.Boolean(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_person")),
        sa.UniqueConstraint("name", name=op.f("uq_person_name")),
    )
    op.create_table(
        "work",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("person_id", sa.Integer(), nullable=False),
        sa.Column("fields", sa.JSON(), nullable=False),
        sa.Column("ids", sa.JSON(), nullable=False),
        sa.Column("first_seen", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_seen", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["person_id"], ["person.id"], name=op.f("fk_work_person_id_person"), ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_work")),
    )
    op.create_index(op.f("ix_work_person_id"), "work", ["person_id"], unique=False)
    op.create_table(
        "work_item",
        sa.Column("item_id", sa.Integer(), nullable=False),
        sa.Column("work_id", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["item_id"], ["item.id"], name=op.f("fk_work_item_item_id_item"), ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["work_id"], ["work.id"], name=op.f("fk_work_item_work_id_work"), ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("item_id", name=op.f("pk_work_item")),
    )
    op.create_index(op.f("ix_work_item_work_id"), "work_item", ["work_id"], unique=False)
    op.create_table(
        "person_source",
        sa.Column("source_id", sa.Integer(), nullable=False),
        sa.Column("person_id", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["person_id"], ["person.id"], name=op.f("fk_person_source_person_id_person"), ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["source_id"], ["source.id"], name=op.f("fk_person_source_source_id_source"), ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("source_id", name=op.f("pk_person_source")),
    )
    op.create_index(op.f("ix_person_source_person_id"), "person_source", ["person_id"], unique=False)
    # A plain ADD COLUMN: no table rebuild on SQLite (rebuilding ``change`` would, with foreign
    # keys on, delete the deliveries' links to it).
    op.add_column("change", sa.Column("ids", sa.JSON(), nullable=True))


def downgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        op.execute("ALTER TABLE change DROP COLUMN ids")  # SQLite 3.35+, without a rebuild
    else:
        op.drop_column("change", "ids")
    op.drop_index(op.f("ix_person_source_person_id"), table_name="person_source")
    op.drop_table("person_source")
    op.drop_index(op.f("ix_work_item_work_id"), table_name="work_item")
    op.drop_table("work_item")
    op.drop_index(op.f("ix_work_person_id"), table_name="work")
    op.drop_table("work")
    op.drop_table("person")
