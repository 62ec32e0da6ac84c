-- Play across a day: who made each move and what it caused, the table's own events, per-player
-- settings, and games abandoned by all their players.

-- Each move keeps who made it (the player, the clock when time ran out, or the computer standing in)
-- and the events it produced, public and private, so anyone can catch up on what happened since.
ALTER TABLE actions ADD COLUMN actor TEXT NOT NULL DEFAULT 'player';
ALTER TABLE actions ADD COLUMN events TEXT NOT NULL DEFAULT '[]';

-- What happened at the table outside the moves: the opening deal, timeouts, stand-ins, players leaving.
CREATE TABLE table_log (
    game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seq INTEGER NOT NULL,                    -- 1, 2, 3 ... per game
    move INTEGER NOT NULL,                   -- the game's moves when it happened: it follows that move's events
    at REAL NOT NULL,
    entry TEXT NOT NULL,                     -- JSON: an engine event or a table event
    PRIMARY KEY (game_id, seq)
) WITHOUT ROWID;

CREATE TABLE player_settings (
    user_id TEXT PRIMARY KEY,
    settings TEXT NOT NULL DEFAULT '{}',     -- JSON, e.g. how to be notified
    updated_at REAL NOT NULL
);

-- A wider status check ('abandoned'): SQLite cannot alter a CHECK, so the table is rebuilt
-- (its 12-step procedure; migrations run with foreign keys off, see migrate.py).
CREATE TABLE games_new (
    id INTEGER PRIMARY KEY,
    guild_id INTEGER NOT NULL,
    channel_id INTEGER NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('lobby', 'active', 'finished', 'cancelled', 'abandoned', 'quarantined')),
    version INTEGER NOT NULL DEFAULT 0,
    setup TEXT NOT NULL,
    snapshot TEXT,
    snapshot_sha256 TEXT,
    created_at REAL NOT NULL,
    updated_at REAL NOT NULL,
    finished_at REAL,
    ui TEXT NOT NULL DEFAULT '{}'
);
INSERT INTO games_new SELECT id, guild_id, channel_id, status, version, setup, snapshot, snapshot_sha256,
    created_at, updated_at, finished_at, ui FROM games;
DROP TABLE games;
ALTER TABLE games_new RENAME TO games;
CREATE UNIQUE INDEX games_one_open_per_channel ON games (channel_id) WHERE status IN ('lobby', 'active');
CREATE INDEX games_by_status ON games (status);
CREATE INDEX games_by_channel ON games (channel_id, id);
