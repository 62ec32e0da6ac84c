-- Reliability and rating changes (issue 46). `departures`: each person who left a game that then ended
-- unplayed (cancelled, or abandoned when the last person left), so their reliability counts it as a game
-- left (finished games count from player_results); filled here from the games ended so far. `rating_changes`:
-- each person's rating on the game's server before and after a rated game, for its standings.
CREATE TABLE departures (
    game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    player TEXT NOT NULL,
    status TEXT NOT NULL,                    -- how the game ended: 'cancelled' or 'abandoned'
    own_decisions INTEGER NOT NULL,
    stood_in INTEGER NOT NULL,
    ended_at REAL NOT NULL,
    PRIMARY KEY (game_id, player)
) WITHOUT ROWID;
CREATE INDEX departures_by_player ON departures (player);
INSERT INTO departures (game_id, player, status, own_decisions, stood_in, ended_at)
SELECT g.id, json_extract(s.value, '$.id'), g.status,
       (SELECT COUNT(*) FROM actions a WHERE a.game_id = g.id AND a.player = json_extract(s.value, '$.id')
        AND a.actor IN ('player', 'ahead')),
       (SELECT COUNT(*) FROM actions a WHERE a.game_id = g.id AND a.player = json_extract(s.value, '$.id')
        AND a.actor IN ('stand_in', 'clock', 'away')),
       COALESCE(g.finished_at, g.updated_at)
FROM games g, json_each(g.setup, '$.seats') s
WHERE g.status IN ('cancelled', 'abandoned') AND json_extract(s.value, '$.left') = 1
  AND COALESCE(json_extract(s.value, '$.kind'), 'human') = 'human';

CREATE TABLE rating_changes (
    game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    player TEXT NOT NULL,
    mu_before REAL NOT NULL,
    sigma_before REAL NOT NULL,
    mu REAL NOT NULL,
    sigma REAL NOT NULL,
    PRIMARY KEY (game_id, player)
) WITHOUT ROWID;
