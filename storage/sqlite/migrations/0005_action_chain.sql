-- A hash chain over each game's action log, so a damaged row is found when the game is loaded, not
-- first when a repair needs it: hash = sha256(the previous move's hash + this row's content), see
-- chain.py. Rows already stored are chained by this migration's Python step (migrate.py), so every
-- row is checked; none is left unchecked as "legacy".
ALTER TABLE actions ADD COLUMN hash BLOB;  -- sha256, 32 bytes
