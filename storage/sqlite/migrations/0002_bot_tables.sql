-- What the bot needs beyond the game itself: deadlines, guild settings, results, and a note log.
CREATE TABLE deadlines (
    game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    player TEXT NOT NULL,                    -- '' for a deadline of the whole game
    kind TEXT NOT NULL,                      -- e.g. 'reminder', 'timeout'
    due_at REAL NOT NULL,                    -- unix time
    payload TEXT NOT NULL DEFAULT '{}',
    PRIMARY KEY (game_id, player, kind)
) WITHOUT ROWID;
CREATE INDEX deadlines_by_due ON deadlines (due_at);

CREATE TABLE guild_settings (
    guild_id INTEGER PRIMARY KEY,
    settings TEXT NOT NULL DEFAULT '{}',     -- JSON
    updated_at REAL NOT NULL
);

CREATE TABLE player_results (
    game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    player TEXT NOT NULL,
    guild_id INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    players INTEGER NOT NULL,
    score INTEGER NOT NULL,
    place INTEGER NOT NULL,                  -- 1 for a winner
    winner INTEGER NOT NULL CHECK (winner IN (0, 1)),
    finished_at REAL NOT NULL,
    PRIMARY KEY (game_id, player)
) WITHOUT ROWID;
CREATE INDEX player_results_by_player ON player_results (player);

CREATE TABLE game_notes (
    id INTEGER PRIMARY KEY,
    game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    at REAL NOT NULL,
    kind TEXT NOT NULL,                      -- 'repaired', 'quarantined', 'log_damaged', ...
    detail TEXT NOT NULL
);
CREATE INDEX game_notes_by_game ON game_notes (game_id);
