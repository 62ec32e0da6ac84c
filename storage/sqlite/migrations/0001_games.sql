-- Games per channel: the current snapshot, and the append-only log of actions that produced it.
CREATE TABLE games (
    id INTEGER PRIMARY KEY,
    guild_id INTEGER NOT NULL,
    channel_id INTEGER NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('lobby', 'active', 'finished', 'cancelled', 'quarantined')),
    version INTEGER NOT NULL DEFAULT 0,      -- bumped by every write; guards against stale writers
    setup TEXT NOT NULL,                     -- JSON: lobby seats, then players/seed/start_player for replay
    snapshot TEXT,                           -- JSON engine GameState; NULL while in the lobby
    snapshot_sha256 TEXT,
    created_at REAL NOT NULL,
    updated_at REAL NOT NULL,
    finished_at REAL
);
-- At most one open (lobby or active) game per channel.
CREATE UNIQUE INDEX games_one_open_per_channel ON games (channel_id) WHERE status IN ('lobby', 'active');
CREATE INDEX games_by_status ON games (status);

CREATE TABLE actions (
    game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    move INTEGER NOT NULL,                   -- 1, 2, 3 ...: the state's `moves` after this action
    version INTEGER NOT NULL,                -- the game's version after this action
    player TEXT NOT NULL,
    action TEXT NOT NULL,                    -- JSON, as engine.parse_action reads it
    at REAL NOT NULL,
    PRIMARY KEY (game_id, move)
) WITHOUT ROWID;
