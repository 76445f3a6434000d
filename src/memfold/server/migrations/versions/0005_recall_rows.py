"""Recall rows: what recall reads, kept in PostgreSQL so a replica answers it from the
database with no copy of the bank (`memfold serve --recall-from postgres`).

Derived, like `facts`, from the bank's files and journal in the transaction of every write
(memfold.server.recall_rows), and rebuilt by `memfold server bank check --repair`:

- `recall_facts`: every row the local SQLite index holds for the bank's files (facts, text
  chunks and their sentences, secrets flagged) with the index's own columns, plus `terms`, a
  tsvector of the very terms SQLite's FTS5 tokenizer makes of it (body at its places, entity
  names after a gap, weight A), and `length`, its count of terms (FTS5's document length);
  `shadowed` marks a later copy of a duplicated block id.  GIN on `terms`.
- `recall_links`: each row's entity links (key, name, day); `recall_aliases`: entity pages'
  names; `recall_files`: each file's parse-warning count.
- `recall_life`: each fact id's lifecycle state folded from the journal (`state`, JSON), with
  the day and file it was first retained to.
- `recall_stats` (per bank: rows, terms, the journal seq folded to) and `recall_terms` (per
  bank and term: how many rows hold it): the statistics FTS5's bm25 weighs by, so the
  ranking matches local memfold's.

Row-level security as on every tenant table; each row's (tenant_id, bank_id) references
its bank (as schema 0003 made every bank's row do).

Revision ID: 0005
Revises: 0004
"""

from alembic import op

revision = "0005"
down_revision = "0004"

TENANT = "current_setting('memfold.tenant', true)"
TABLES = ("recall_facts", "recall_links", "recall_aliases", "recall_files", "recall_life",
          "recall_stats", "recall_terms")

SCHEMA = """
CREATE TABLE recall_facts (
    tenant_id   text NOT NULL,
    bank_id     integer NOT NULL,
    rowid       bigserial PRIMARY KEY,
    path        text NOT NULL,
    fact_id     text NOT NULL,
    line        integer NOT NULL,
    end_line    integer NOT NULL,
    kind        text NOT NULL,
    content     text NOT NULL,
    entities    text NOT NULL,
    params      text,
    confidence  double precision,
    importance  integer,
    valid_from  integer,
    valid_until integer,
    day         integer,
    explicit    integer NOT NULL,
    terms       tsvector NOT NULL,
    length      integer NOT NULL,
    shadowed    boolean NOT NULL DEFAULT false
);
CREATE INDEX recall_facts_by_place ON recall_facts (bank_id, path, line);
CREATE INDEX recall_facts_by_id ON recall_facts (bank_id, fact_id);
CREATE INDEX recall_facts_by_day ON recall_facts (bank_id, day);
CREATE INDEX recall_facts_terms ON recall_facts USING gin (terms);
CREATE TABLE recall_links (
    tenant_id   text NOT NULL,
    bank_id     integer NOT NULL,
    fact        bigint NOT NULL REFERENCES recall_facts ON DELETE CASCADE,
    key         text NOT NULL,
    name        text NOT NULL,
    day         integer
);
CREATE INDEX recall_links_by_key ON recall_links (bank_id, key, day);
CREATE INDEX recall_links_by_fact ON recall_links (fact);
CREATE TABLE recall_aliases (
    tenant_id   text NOT NULL,
    bank_id     integer NOT NULL,
    path        text NOT NULL,
    place       integer NOT NULL,
    entity      text NOT NULL,
    key         text NOT NULL,
    name        text NOT NULL,
    PRIMARY KEY (bank_id, path, place)
);
CREATE INDEX recall_aliases_by_key ON recall_aliases (bank_id, key);
CREATE TABLE recall_files (
    tenant_id   text NOT NULL,
    bank_id     integer NOT NULL,
    path        text NOT NULL,
    warnings    integer NOT NULL,
    PRIMARY KEY (bank_id, path)
);
CREATE TABLE recall_life (
    tenant_id   text NOT NULL,
    bank_id     integer NOT NULL,
    id          text NOT NULL,
    state       jsonb NOT NULL,
    retained_on text,
    retained_to text,
    PRIMARY KEY (bank_id, id)
);
CREATE TABLE recall_stats (
    tenant_id   text NOT NULL,
    bank_id     integer PRIMARY KEY,
    rows        bigint NOT NULL,
    terms       bigint NOT NULL,
    folded_seq  bigint NOT NULL
);
CREATE TABLE recall_terms (
    tenant_id   text NOT NULL,
    bank_id     integer NOT NULL,
    term        text NOT NULL,
    rows        bigint NOT NULL,
    PRIMARY KEY (bank_id, term)
);
"""


def upgrade() -> None:
    op.execute(SCHEMA)
    for table in TABLES:
        op.execute(f"ALTER TABLE {table} ENABLE ROW LEVEL SECURITY")
        op.execute(f"ALTER TABLE {table} FORCE ROW LEVEL SECURITY")
        op.execute(f"CREATE POLICY tenant_rows ON {table} USING (tenant_id = {TENANT}) "
                   f"WITH CHECK (tenant_id = {TENANT})")
        op.execute(f"GRANT SELECT, INSERT, UPDATE, DELETE ON {table} TO memfold_app")
        # a row names its bank's own tenant (as schema 0003 made every bank's row do)
        op.execute(f"ALTER TABLE {table} ADD CONSTRAINT {table}_tenant_bank FOREIGN KEY "
                   "(tenant_id, bank_id) REFERENCES banks (tenant_id, bank_id) "
                   "ON DELETE CASCADE")
    op.execute("GRANT USAGE ON SEQUENCE recall_facts_rowid_seq TO memfold_app")


def downgrade() -> None:
    for table in reversed(TABLES):
        op.execute(f"DROP TABLE {table}")
