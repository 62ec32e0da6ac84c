-- A person's own deadlines (issue 43: the daily word at the hour they chose), which belong to no game: the
-- scheduler fires them with the games' deadlines (storage/people.py).
CREATE TABLE person_deadlines (
    user_id TEXT NOT NULL,
    kind TEXT NOT NULL,                      -- 'daily'
    due_at REAL NOT NULL,                    -- unix time
    payload TEXT NOT NULL DEFAULT '{}',
    PRIMARY KEY (user_id, kind)
);
CREATE INDEX person_deadlines_by_due ON person_deadlines (due_at);
