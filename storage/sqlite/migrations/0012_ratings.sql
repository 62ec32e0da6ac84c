-- Ratings (issue 46): a skill rating per server, across servers and per season (storage/ratings.py), the
-- games rated (each exactly once: its row is written in the transaction that rates it), the seasons, and
-- each seat's own decisions and those a stand-in made (reliability, and the rated-game rule).
ALTER TABLE player_results ADD COLUMN own_decisions INTEGER NOT NULL DEFAULT 0;
ALTER TABLE player_results ADD COLUMN stood_in INTEGER NOT NULL DEFAULT 0;
UPDATE player_results SET
    own_decisions = (SELECT COUNT(*) FROM actions a WHERE a.game_id = player_results.game_id
                     AND a.player = player_results.player AND a.actor IN ('player', 'ahead')),
    stood_in = (SELECT COUNT(*) FROM actions a WHERE a.game_id = player_results.game_id
                AND a.player = player_results.player AND a.actor IN ('stand_in', 'clock', 'away'));

CREATE TABLE ratings (
    guild_id INTEGER NOT NULL,               -- 0: across every server
    season TEXT NOT NULL,                    -- '': all time; else the server's season
    player TEXT NOT NULL,
    name TEXT NOT NULL,                      -- the name at their latest rated game
    mu REAL NOT NULL,
    sigma REAL NOT NULL,
    ordinal REAL NOT NULL,                   -- mu - 3 sigma: what the leaderboard ranks by
    games INTEGER NOT NULL,
    updated_at REAL NOT NULL,
    PRIMARY KEY (guild_id, season, player)
) WITHOUT ROWID;
CREATE INDEX ratings_board ON ratings (guild_id, season, ordinal DESC);

CREATE TABLE rated_games (
    game_id INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    guild_id INTEGER NOT NULL,
    season TEXT NOT NULL,                    -- the server's season it counted in ('': none)
    people INTEGER NOT NULL,                 -- how many people it rated (0: not rated, computers only)
    rated_at REAL NOT NULL
);

CREATE TABLE seasons (
    guild_id INTEGER NOT NULL,
    season TEXT NOT NULL,                    -- 'S1', 'S2'... started by a manager; '2026-11' a month; '2026-Q4'
    started_at REAL NOT NULL,
    ended_at REAL,                           -- NULL: under way
    PRIMARY KEY (guild_id, season)
) WITHOUT ROWID;
