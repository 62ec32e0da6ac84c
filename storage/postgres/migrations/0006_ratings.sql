-- Ratings (issue 46): a skill rating per server, across servers and per season (storage/ratings.py), the
-- games rated (each exactly once: its row is written in the transaction that rates it), the seasons, and
-- each seat's own decisions and those a stand-in made (reliability, and the rated-game rule).
ALTER TABLE player_results ADD COLUMN own_decisions integer NOT NULL DEFAULT 0;
ALTER TABLE player_results ADD COLUMN stood_in integer NOT NULL DEFAULT 0;
UPDATE player_results r SET
    own_decisions = (SELECT COUNT(*) FROM actions a WHERE a.game_id = r.game_id
                     AND a.player = r.player AND a.actor IN ('player', 'ahead')),
    stood_in = (SELECT COUNT(*) FROM actions a WHERE a.game_id = r.game_id
                AND a.player = r.player AND a.actor IN ('stand_in', 'clock', 'away'));

CREATE TABLE ratings (
    guild_id bigint NOT NULL,                -- 0: across every server
    season text NOT NULL,                    -- '': all time; else the server's season
    player text NOT NULL,
    name text NOT NULL,                      -- the name at their latest rated game
    mu double precision NOT NULL,
    sigma double precision NOT NULL,
    ordinal double precision NOT NULL,       -- mu - 3 sigma: what the leaderboard ranks by
    games integer NOT NULL,
    updated_at double precision NOT NULL,
    PRIMARY KEY (guild_id, season, player)
);
CREATE INDEX ratings_board ON ratings (guild_id, season, ordinal DESC);

CREATE TABLE rated_games (
    game_id bigint PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    guild_id bigint NOT NULL,
    season text NOT NULL,                    -- the server's season it counted in ('': none)
    people integer NOT NULL,                 -- how many people it rated (0: not rated, computers only)
    rated_at double precision NOT NULL
);

CREATE TABLE seasons (
    guild_id bigint NOT NULL,
    season text NOT NULL,                    -- 'S1', 'S2'... started by a manager; '2026-11' a month; '2026-Q4'
    started_at double precision NOT NULL,
    ended_at double precision,               -- NULL: under way
    PRIMARY KEY (guild_id, season)
);
