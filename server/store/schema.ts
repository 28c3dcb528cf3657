/**
 * Tables shared by every data set. Each data set's own rows live in per-data-set tables
 * (see dataset-tables.ts), so replacing a state is "load new tables, flip `live`, drop old ones".
 */
export const SCHEMA = `
CREATE TABLE IF NOT EXISTS datasets (
  id          INTEGER PRIMARY KEY,
  state       TEXT NOT NULL,
  source      TEXT NOT NULL,
  as_of       TEXT,
  records     INTEGER NOT NULL DEFAULT 0,
  created_at  TEXT NOT NULL,
  status      TEXT NOT NULL CHECK (status IN ('loading', 'live', 'retired'))
);
CREATE UNIQUE INDEX IF NOT EXISTS datasets_one_live_per_state ON datasets (state) WHERE status = 'live';

CREATE TABLE IF NOT EXISTS api_keys (
  id          INTEGER PRIMARY KEY,
  hash        TEXT NOT NULL UNIQUE,
  states      TEXT NOT NULL,
  label       TEXT,
  created_at  TEXT NOT NULL,
  revoked_at  TEXT
);
`;
