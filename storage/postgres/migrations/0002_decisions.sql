-- Who keeps games moving (issue 29): each finished game's decisions per seat (storage/decisions.py), and
-- whether the person left it. Games finished before this know neither: their rows say 0 and '[]'.
ALTER TABLE player_results ADD COLUMN decisions integer NOT NULL DEFAULT 0;
ALTER TABLE player_results ADD COLUMN in_time integer NOT NULL DEFAULT 0;
ALTER TABLE player_results ADD COLUMN decide_seconds text NOT NULL DEFAULT '[]';  -- JSON: seconds per decision
ALTER TABLE player_results ADD COLUMN left_game integer NOT NULL DEFAULT 0 CHECK (left_game IN (0, 1));
ALTER TABLE player_totals ADD COLUMN left_games integer NOT NULL DEFAULT 0;
UPDATE player_results r SET left_game = 1
FROM games g, jsonb_array_elements(g.setup::jsonb -> 'seats') s
WHERE g.id = r.game_id AND s ->> 'id' = r.player AND (s ->> 'left')::boolean;
UPDATE player_totals t SET left_games = (
    SELECT COUNT(*) FROM player_results r WHERE r.guild_id = t.guild_id AND r.player = t.player AND r.left_game = 1
);
