"""Start-up retries: transient failures are retried with a capped, doubling wait; refusals are not."""

from __future__ import annotations

import aiohttp
import discord
import pytest

from bot.discord_app.backoff import transient, with_backoff


class FakeResponse:
    def __init__(self, status: int):
        self.status = status
        self.reason = "test"


def http_error(status: int) -> discord.HTTPException:
    kind = discord.DiscordServerError if status >= 500 else discord.HTTPException
    return kind(FakeResponse(status), {"message": "test", "code": 0})


def failing(errors: list[BaseException]):
    calls = []

    async def attempt():
        calls.append(1)
        if errors:
            raise errors.pop(0)
        return "done"

    return attempt, calls


async def test_transient_failures_are_retried_with_a_doubling_capped_wait(caplog):
    waits = []

    async def sleep(seconds):
        waits.append(seconds)

    errors = [http_error(503), http_error(502), aiohttp.ClientConnectionError(), ConnectionRefusedError(),
              TimeoutError(), http_error(500)]
    attempt, calls = failing(errors)
    assert await with_backoff("log in", attempt, first=0.5, cap=3, sleep=sleep) == "done"
    assert waits == [0.5, 1, 2, 3, 3, 3] and len(calls) == 7
    warnings = [r for r in caplog.records if r.levelname == "WARNING"]
    assert len(warnings) == 6 and "could not log in" in warnings[0].getMessage()


@pytest.mark.parametrize("error", [http_error(401), http_error(403), http_error(400), discord.LoginFailure("bad"),
                                   ValueError("a bug")])
async def test_refusals_and_bugs_are_raised_at_once(error):
    async def sleep(seconds):
        raise AssertionError("no retry expected")

    attempt, calls = failing([error])
    with pytest.raises(type(error)):
        await with_backoff("log in", attempt, first=0.5, cap=3, sleep=sleep)
    assert len(calls) == 1 and not transient(error)
