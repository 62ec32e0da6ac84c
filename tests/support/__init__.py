"""Shared test helpers. ``support.fake_discord`` is the one fake Discord every bot test runs against.

One model of Discord (``model``: a guild with one or many text channels (``channels``), its users,
messages, each user's ephemeral messages and DMs with the bot (``dms``), interactions and their tokens on
a clock a test can move, synced commands, recorded requests, injected failures (``failures``: a route
answered a test's way, failed, or done with its answer lost to a 5xx)), one route table (``routes``,
``interaction_routes``, ``dms``), one set of Discord's documented limits (``validation``,
``command_limits``) and, when asked, Discord's rate limits (``ratelimits``), applied to every request
whichever way it came in. Every 4xx the fake answers by Discord's rules (429s aside) is listed in
``problems``; ``assert_no_errors`` fails on any, and closing a Harness fails on a refused body (50035,
50006, or 413 40005 for a file past 10 MiB) a test did not clear. A refusal the test expects (a 404 for a
message a user deleted, 403 50007 for a user who accepts no DMs) is asserted and then cleared:
``h.problems.clear()``.

Each message remembers its ``allowed_mentions``; ``StoredMessage.notified(members)`` says whom Discord
would ping for it (``mentions``).

Files a message is sent or edited with (multipart ``files[N]`` parts, on every message route: channel
messages, interaction callbacks 4 and 7, followups, webhook edits) become attachment objects as on Discord
(``attachments``): ``StoredMessage.attachments`` (and ``Output.attachments``) lists them with their cdn
``url``, ``attachment(filename)`` gives one and ``attachment_bytes(filename)`` the bytes uploaded for it;
``RecordedRequest.files`` holds a request's uploads. An edit's ``attachments`` list keeps exactly the
attachments it names (by id) plus the new files; without one, all stay. An embed image or thumbnail
``attachment://NAME`` is resolved to that attachment's url, or dropped if there is none.

Two doors lead to it, both a loopback aiohttp server (``server``, with the websocket ``gateway``):

* ``Harness`` (``harness``), for tests with the bot in process: discord.py's ``Route.BASE`` points at
  the server, the bot logs in over HTTP, its guild comes from the GUILD_CREATE payload, interactions go
  straight to ``parse_interaction_create`` and message events straight to discord.py's parsers.
* ``FakeDiscord`` (``server``), for ``python -m bot`` in a subprocess: ``env()`` gives it the API and
  gateway URLs; interactions and message events travel over the gateway (zlib-stream, READY,
  GUILD_CREATE, RESUME from a bounded backlog), one ordered writer per connection.

Both doors have the same user actions (``actions``: slash, autocomplete, click, select, built from the
synced command JSON and the visible components, as Discord's client does; slash and autocomplete in any
text channel with ``channel_id=``) and the same ``Result``, which carries the interaction's ``latency``
(dispatch to accepted callback).

For a load run (the benchmark: ``python -m bot`` with a thousand games): ``FakeDiscord(channels=1000,
rate_limits=True, record_requests=False, keep_outputs=1000)``. ``rate_limits`` models Discord's buckets
(message create/edit/delete 5 per 5 s per channel, other routes 50/s, sliding windows with every
``X-RateLimit-*`` header) and the global 50 requests/s per token that interaction callbacks and
webhooks escape; a 429 is Discord's to the byte discord.py reads. ``stats()`` (``accounting``) counts
requests by route, global vs interaction-token, 429s by scope, invalid requests, the peak global rate
and the busiest channel's message operations in any 5 s, whether or not requests are recorded. Many
interactions can be in flight (``settle=False``, then ``wait_answered``). ``load`` and ``load_bot``
measure what the fake itself takes (``python -m support.load`` from tests/).

Why the in-process door also goes over loopback HTTP rather than patching ``HTTPClient.request``: the
bot then runs discord.py's real request path (rate-limit buckets, retries on 429 and 5xx, error
parsing, the interaction webhook adapter), so a test can inject a 429 and watch discord.py wait and
retry, and a refused body reaches the bot as the HTTPException Discord would cause. It stays
deterministic because the server shares the test's event loop: ``settle()`` waits for every task a
dispatch started, the server's request handlers included, and ignores only keep-alive connection loops
and discord.py's timers. Measured on this machine, tests/test_bot.py + tests/test_typed_commands.py went
from 5.5 s with the patched transport to 6.3 s; the whole suite's time did not change measurably.

Public threads (``threads``): opened by the bot in a text channel, interactions from them, archived ones
refusing the bot's messages (50083) until unarchived, THREAD_DELETE; and the bot's permissions per channel
(``deny``). Not modelled: private and forum threads, thread members, group DMs, messages users write, slash
commands in DMs, the ``mentions`` arrays of message objects (use ``notified``), modal submits, attachments'
filename clean-up and signed CDN urls, the layout rules of components v2 (their per-component limits are
checked), Discord's invalid-request ban (only counted), and routes' own limits other than the message bucket
(each gets the generous default).
"""
