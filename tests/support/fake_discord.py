"""The one fake Discord, for tests to import: ``from support.fake_discord import Harness, FakeUser``."""

from .errors import DiscordError, HarnessError, SettleTimeout
from .failures import DEFAULT
from .harness import Harness
from .model import TOKEN_LIFETIME
from .payloads import FakeUser
from .processes import stop_process
from .ratelimits import RateLimits
from .records import Output, RecordedRequest, StoredMessage
from .results import Result
from .server import FakeDiscord
from .validation import EPHEMERAL

__all__ = [
    "DEFAULT",
    "EPHEMERAL",
    "TOKEN_LIFETIME",
    "DiscordError",
    "FakeDiscord",
    "FakeUser",
    "Harness",
    "HarnessError",
    "Output",
    "RateLimits",
    "RecordedRequest",
    "Result",
    "SettleTimeout",
    "StoredMessage",
    "stop_process",
]
