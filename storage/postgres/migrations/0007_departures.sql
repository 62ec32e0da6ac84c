-- Reliability and rating changes (issue 46). `departures`: each person who left a game that then ended
-- unplayed (cancelled, or abandoned when the last person left), so their reliability counts it as a game
-- left (finished games count from player_results); filled here from the games ended so far. `rating_changes`:
-- each person's rating on the game's server before and after a rated game, for its standings.
CREATE TABLE departures (
    game_id bigint NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    player text NOT NULL,
    status text NOT NULL,                    -- how the game ended: 'cancelled' or 'abandoned'
    own_decisions integer NOT NULL,
    stood_in integer NOT NULL,
    ended_at double precision NOT NULL,
    PRIMARY KEY (game_id, player)
);
CREATE INDEX departures_by_player ON departures (player);
INSERT INTO departures (game_id, player, status, own_decisions, stood_in, ended_at)
SELECT g.id, s ->> 'id', g.status,
       (SELECT COUNT(*) FROM actions a WHERE a.game_id = g.id AND a.player = s ->> 'id'
        AND a.actor IN ('player', 'ahead')),
       (SELECT COUNT(*) FROM actions a WHERE a.game_id = g.id AND a.player = s ->> 'id'
        AND a.actor IN ('stand_in', 'clock', 'away')),
       COALESCE(g.finished_at, g.updated_at)
FROM games g, jsonb_array_elements(g.setup::jsonb -> 'seats') s
WHERE g.status IN ('cancelled', 'abandoned') AND COALESCE((s ->> 'left')::boolean, false)
  AND COALESCE(s ->> 'kind', 'human') = 'human';

CREATE TABLE rating_changes (
    game_id bigint NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    player text NOT NULL,
    mu_before double precision NOT NULL,
    sigma_before double precision NOT NULL,
    mu double precision NOT NULL,
    sigma double precision NOT NULL,
    PRIMARY KEY (game_id, player)
);
