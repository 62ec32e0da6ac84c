-- Who keeps games moving (issue 29): each finished game's decisions per seat (storage/decisions.py), and
-- whether the person left it. Games finished before this know neither: their rows say 0 and '[]'.
ALTER TABLE player_results ADD COLUMN decisions INTEGER NOT NULL DEFAULT 0;
ALTER TABLE player_results ADD COLUMN in_time INTEGER NOT NULL DEFAULT 0;
ALTER TABLE player_results ADD COLUMN decide_seconds TEXT NOT NULL DEFAULT '[]';  -- JSON: seconds per decision
ALTER TABLE player_results ADD COLUMN left_game INTEGER NOT NULL DEFAULT 0 CHECK (left_game IN (0, 1));
ALTER TABLE player_totals ADD COLUMN left_games INTEGER NOT NULL DEFAULT 0;
UPDATE player_results SET left_game = COALESCE((
    SELECT json_extract(s.value, '$.left') = 1
    FROM games g, json_each(g.setup, '$.seats') s
    WHERE g.id = player_results.game_id AND json_extract(s.value, '$.id') = player_results.player
), 0);
UPDATE player_totals SET left_games = (
    SELECT COUNT(*) FROM player_results r
    WHERE r.guild_id = player_totals.guild_id AND r.player = player_totals.player AND r.left_game = 1
);
