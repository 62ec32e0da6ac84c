-- Several bot processes, each serving its own Discord shards (issue 28): a lease row per shard, row id =
-- shard + 1 (row 1 stays shard 0: the whole database when SHARD_COUNT=1, the lease as it was), each naming
-- how many shards its holder counts.
ALTER TABLE lease DROP CONSTRAINT lease_id_check;
ALTER TABLE lease ADD CONSTRAINT lease_id_check CHECK (id >= 1);
ALTER TABLE lease ADD COLUMN shard_count integer NOT NULL DEFAULT 1;
