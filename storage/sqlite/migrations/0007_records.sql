-- Records (issue 16): statistics kept as rows written when a game ends, so /augsburg stats, leaderboard
-- and history are index queries, never a scan of every game's JSON.

-- Who sat in each result: a computer's seat (listed apart, never ranked) and the name shown then.
ALTER TABLE player_results ADD COLUMN computer INTEGER NOT NULL DEFAULT 0;
ALTER TABLE player_results ADD COLUMN name TEXT NOT NULL DEFAULT '';
UPDATE player_results SET
    computer = COALESCE((
        SELECT json_extract(s.value, '$.kind') = 'computer'
        FROM games g, json_each(g.setup, '$.seats') s
        WHERE g.id = player_results.game_id AND json_extract(s.value, '$.id') = player_results.player
    ), player LIKE 'ai%'),
    name = COALESCE((
        SELECT json_extract(s.value, '$.name')
        FROM games g, json_each(g.setup, '$.seats') s
        WHERE g.id = player_results.game_id AND json_extract(s.value, '$.id') = player_results.player
    ), '');
CREATE INDEX player_results_by_guild_player ON player_results (guild_id, player);

-- Auctions each player won in each finished game, by noble (a player's favourite noble).
CREATE TABLE noble_wins (
    game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    player TEXT NOT NULL,
    guild_id INTEGER NOT NULL,
    noble TEXT NOT NULL,
    wins INTEGER NOT NULL,
    PRIMARY KEY (game_id, player, noble)
) WITHOUT ROWID;
CREATE INDEX noble_wins_by_player ON noble_wins (player, guild_id);
INSERT INTO noble_wins (game_id, player, guild_id, noble, wins)
    SELECT a.game_id, json_extract(e.value, '$.player'), g.guild_id, json_extract(e.value, '$.noble'), COUNT(*)
    FROM player_results r JOIN games g ON g.id = r.game_id JOIN actions a ON a.game_id = g.id, json_each(a.events) e
    WHERE r.seat = 0 AND json_extract(e.value, '$.type') = 'auction_won'
    GROUP BY a.game_id, json_extract(e.value, '$.player'), json_extract(e.value, '$.noble');

-- Each player's totals per server, kept up to date when a game ends: the leaderboard reads only these.
CREATE TABLE player_totals (
    guild_id INTEGER NOT NULL,
    player TEXT NOT NULL,
    computer INTEGER NOT NULL,
    name TEXT NOT NULL,                      -- the name at their latest game
    games INTEGER NOT NULL,
    wins INTEGER NOT NULL,
    score_sum INTEGER NOT NULL,
    best_score INTEGER NOT NULL,
    PRIMARY KEY (guild_id, player)
) WITHOUT ROWID;
CREATE INDEX player_totals_board ON player_totals (guild_id, computer, wins DESC);
INSERT INTO player_totals (guild_id, player, computer, name, games, wins, score_sum, best_score)
    SELECT guild_id, player, MAX(computer),
           (SELECT r2.name FROM player_results r2 WHERE r2.guild_id = r.guild_id AND r2.player = r.player
            ORDER BY r2.finished_at DESC LIMIT 1),
           COUNT(*), SUM(winner), SUM(score), MAX(score)
    FROM player_results r GROUP BY guild_id, player;

-- The last games of a server (history); games_by_channel serves a channel's.
CREATE INDEX games_by_guild ON games (guild_id, id);
