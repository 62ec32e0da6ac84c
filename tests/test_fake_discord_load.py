"""The fake under load: what a long run with many interactions in flight needs of it."""

from __future__ import annotations

import json

from support.gateway import Session


def test_a_gateway_session_keeps_a_bounded_backlog_for_resume() -> None:
    session = Session({"intents": 0}, backlog=3)
    for n in range(5):
        session.queue("MESSAGE_CREATE", json.dumps({"n": n}))
    assert [seq for seq, _ in session.backlog] == [3, 4, 5] and json.loads(session.backlog[-1][1])["d"] == {"n": 4}
    assert session.resumable(2) and session.resumable(5) and not session.resumable(1)
