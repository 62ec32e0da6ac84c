-- Bot bookkeeping that is not game state: ids of the table, lobby and ping messages, etc.
-- Written without bumping the game's version, so it never conflicts with a move.
ALTER TABLE games ADD COLUMN ui TEXT NOT NULL DEFAULT '{}';
