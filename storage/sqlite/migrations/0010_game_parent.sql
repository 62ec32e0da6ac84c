-- A game opened in a thread (issue 29) keeps, beside the thread (its channel_id), the channel the thread
-- belongs to, so a channel's history lists the games of its threads too. NULL: not in a thread, or opened
-- before this was kept.
ALTER TABLE games ADD COLUMN parent_id INTEGER;
CREATE INDEX games_by_parent ON games (parent_id, id);
