-- One bot process per database: the process serving it holds this single row and renews its heartbeat.
-- A second process refuses to start while the heartbeat is fresh; it may take over once it is older than
-- the holder's own takeover time (the holder promised to renew well within it).
CREATE TABLE lease (
    id INTEGER PRIMARY KEY CHECK (id = 1),   -- at most one row
    holder TEXT NOT NULL,                    -- a random id per process (pids are reused, hosts shared)
    pid INTEGER NOT NULL,
    host TEXT NOT NULL,
    taken_at REAL NOT NULL,                  -- unix time
    heartbeat_at REAL NOT NULL,              -- unix time of the last renewal
    seconds REAL NOT NULL                    -- the takeover time: stale once the heartbeat is this old
);

-- Small facts about the deployment, e.g. a hash of the slash commands last synced to Discord.
CREATE TABLE meta (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
) WITHOUT ROWID;
