-- The lease names how many Discord shards its holder counts (issue 28). On SQLite one process serves the
-- whole database, every shard: its one row stays row 1.
ALTER TABLE lease ADD COLUMN shard_count INTEGER NOT NULL DEFAULT 1;
