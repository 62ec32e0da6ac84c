"""The /augsburg command group: thin commands that hand over to the handlers.

The cog owns the table's runners (presenter, the deadline scheduler) and drives the bot's
computer runner (owed.py): they start when it loads and stop when it unloads.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from ..service import GameService, Thinkers
from ..wording import ENGLISH, clock, rules
from . import choices, inputs
from .computers import ComputerRunner
from .handlers import Handlers
from .handlers.play import Suggestion
from .me_commands import MeCommands
from .owed import OwedWork
from .pacing import Pacing
from .pictures import Pictures
from .presenter import Presenter
from .records_commands import RecordsCommands
from .upkeep import TimersFor, Upkeep

# Choices are named in English here; command_words.py gives German and Italian clients their names.
TOPICS = [app_commands.Choice(name=rules.topic_title(ENGLISH, t), value=t) for t in rules.TOPICS]
THREAD_CHOICES = [("yes", "yes"), ("no", "no"), ("yes, and from now on for this server (Manage Server)", "always"),
                  ("no, and from now on for this server (Manage Server)", "never")]


# In servers and a DM with the bot (Discord: per top-level command); there only `/augsburg me …` (inputs.py).
@app_commands.allowed_contexts(guilds=True, dms=True, private_channels=False)
class Augsburg(commands.GroupCog, group_name="augsburg", group_description="Play Augsburg 1520 in this channel"):
    def __init__(self, bot: commands.Bot, service: GameService, timers: TimersFor, table_delay: float,
                 computer_delay: float, pacing: Pacing | None = None, pictures: Pictures | None = None,
                 watch_seconds: float = 300.0, owed: OwedWork | None = None):
        """`timers`: makes the process's deadline scheduler (bot/app/scheduler.py), given what fires a deadline;
        `owed`: the bot's game side, begun before Discord was there (owed.py)."""
        self.bot = bot
        self.service = service
        self.presenter = Presenter(bot, service, table_delay, pacing, pictures, watch_seconds)
        self.owed = owed  # its runner is this cog's
        self.computers = owed.computers if owed else ComputerRunner(service, self.presenter.show_move, computer_delay)
        self.handlers = Handlers(service, self.presenter, self.computers)
        self.me.handlers = self.handlers.me  # (discord.py bound a copy of the group to this cog)
        self.records.handlers = self.handlers.records
        self.upkeep = Upkeep(bot, service, self.presenter, self.computers, self.handlers.front)
        self.scheduler = timers(self.upkeep.fire)
        service.on_deadlines(self.scheduler.wake)
        super().__init__()

    async def cog_load(self) -> None:
        """Nothing is loaded at start: a game is read when its channel is next used, its table redrawn when it
        changes or someone looks at it stale. The moves owed are being made already (owed.py); from now on they
        are announced as made, and every change not announced yet is announced now. Deadlines: the scheduler."""
        if self.owed is not None:
            self.owed.announce_with(self.presenter.show_move)
        self.scheduler.start()
        self.upkeep.announce_owed()

    async def cog_unload(self) -> None:
        if self.owed is not None:
            self.owed.announce_with(None)
        await self.scheduler.stop()
        await self.computers.close()
        # Strong players' workers stop with the cog; a load after this one thinks with new ones.
        decisions, thinkers = self.service.decisions, self.service.decisions.thinkers
        decisions.thinkers = Thinkers(thinkers.workers, thinkers.think_seconds)
        thinkers.close()
        await self.presenter.close()
        await self.upkeep.close()

    # --- deleted channels end their games

    @commands.Cog.listener()
    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        await self.upkeep.channel_gone(channel.id)

    @commands.Cog.listener()
    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        await self.upkeep.channel_gone(payload.thread_id)

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        self.upkeep.after_ready()

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction) -> None:
        if inputs.unrouted(interaction):  # nothing else will answer it: never "This interaction failed"
            await inputs.answer_unrouted(interaction)

    # --- the table

    @app_commands.command(name="new", description="Open a table for a new game in this channel")
    @app_commands.describe(thread="In a new thread of this channel, one of several (default: the server's choice)",
                           min_reliability="The least reliability (%) a person needs to join (default: none)")
    @app_commands.choices(thread=[app_commands.Choice(name=n, value=v) for n, v in THREAD_CHOICES])
    async def new(self, interaction: discord.Interaction, thread: app_commands.Choice[str] | None = None,
                  min_reliability: app_commands.Range[int, 0, 100] = 0) -> None:
        await self.handlers.lobby.new_table(interaction, thread.value if thread else None, min_reliability)

    @app_commands.command(name="rematch", description="Play this channel's last game again, with the same seats")
    async def rematch(self, interaction: discord.Interaction) -> None:
        await self.handlers.lobby.rematch(interaction)

    @app_commands.command(name="hand", description="Show your hand, your money and your next move (only you see it)")
    async def hand(self, interaction: discord.Interaction) -> None:
        await self.handlers.play.show_panel(interaction)

    @app_commands.command(name="status", description="Show the table again (only you see it)")
    async def status(self, interaction: discord.Interaction) -> None:
        await self.handlers.info.show_status(interaction)

    @app_commands.command(name="board", description="The table as a picture (only you see it)")
    @app_commands.describe(hand="Show your own hand as a picture instead")
    async def board(self, interaction: discord.Interaction, hand: bool = False) -> None:
        await self.handlers.info.show_board(interaction, hand)

    @app_commands.command(name="rules", description="The rules of Augsburg 1520, in short")
    @app_commands.describe(topic="Which part of the rules")
    @app_commands.choices(topic=TOPICS)
    async def rules(self, interaction: discord.Interaction, topic: app_commands.Choice[str] | None = None) -> None:
        await self.handlers.info.show_rules(interaction, topic.value if topic else None)

    @app_commands.command(name="cancel", description="End the game in this channel (host or Manage Channels)")
    async def cancel(self, interaction: discord.Interaction) -> None:
        await self.handlers.lobby.cancel_request(interaction)

    @app_commands.command(name="help", description="What you can do right now, and the commands for it")
    async def help(self, interaction: discord.Interaction) -> None:
        await self.handlers.info.show_help(interaction)

    @app_commands.command(name="log", description="Everything that happened in this game (only you see it)")
    @app_commands.describe(round="Only this round")
    async def log(self, interaction: discord.Interaction, round: app_commands.Range[int, 1, 7] | None = None) -> None:
        await self.handlers.info.show_log(interaction, round)

    # --- records: statistics, ratings, the leaderboard, seasons, past games (records_commands.py)

    records = RecordsCommands()

    # --- seats during a game, and notifications: a group of their own too

    seat = app_commands.Group(name="seat", description="Your seat: notifications, time away, leaving, coming back")

    @seat.command(name="leave", description="Leave the table or the game (the computer plays your seat)")
    async def leave(self, interaction: discord.Interaction) -> None:
        await self.handlers.seats.leave_request(interaction)

    @seat.command(name="replace", description="Host: let the computer play a seat whose time ran out")
    @app_commands.describe(player="Whose seat")
    async def replace(self, interaction: discord.Interaction, player: str) -> None:
        await self.handlers.seats.replace_request(interaction, player)

    @replace.autocomplete("player")
    async def _replaceable(self, interaction: discord.Interaction, current: str) -> list[Suggestion]:
        return await self.handlers.seats.suggest_replaceable(interaction, current)

    @seat.command(name="back", description="Take your seat back from the computer")
    async def back(self, interaction: discord.Interaction) -> None:
        await self.handlers.seats.back(interaction)

    @seat.command(name="away", description="Go away for some days: your clock does not run out (0: back now)")
    @app_commands.describe(days="How many days (at most what the table's host allows; 0 ends it)")
    async def away(self, interaction: discord.Interaction, days: app_commands.Range[int, 0, 14]) -> None:
        await self.handlers.seats.away(interaction, days)

    @seat.command(name="notify", description="How to tell you it is your move (without options: what is set)")
    @app_commands.describe(how="A mention in the channel, a direct message as well, or nothing",
                           heads_up="Also be told, quietly, when the player before you in an auction is on the clock")
    @app_commands.choices(how=[app_commands.Choice(name=clock.notify_choice(ENGLISH, h), value=h)
                               for h in ("channel", "dm", "none")],
                          heads_up=[app_commands.Choice(name=clock.heads_up_choice(ENGLISH, h), value=h)
                                    for h in ("off", "dm", "channel")])
    async def notify(self, interaction: discord.Interaction, how: app_commands.Choice[str] | None = None,
                     heads_up: app_commands.Choice[str] | None = None) -> None:
        await self.handlers.seats.set_notify(interaction, how.value if how else None,
                                             heads_up.value if heads_up else None)

    me = MeCommands()  # a person's own, in any server and in a DM with the bot (issue 43)

    @app_commands.command(name="undo", description="Take back your last decision, if nobody has acted since")
    async def undo(self, interaction: discord.Interaction) -> None:
        await self.handlers.undo.undo_typed(interaction)

    # --- every decision also as a typed command: the buttons' action codes, or names as typed (typed.py)

    @app_commands.command(name="bid", description="Raise: offer more cards than the highest bid")
    @app_commands.describe(count="How many cards you offer")
    async def bid(self, interaction: discord.Interaction, count: app_commands.Range[int, 1, 80]) -> None:
        await self.handlers.play.typed(interaction, f"b{count}")

    @bid.autocomplete("count")
    async def _bid_counts(self, interaction: discord.Interaction, current: str) -> list[Suggestion]:
        return await self.handlers.play.suggest(interaction, current, choices.bids)

    @app_commands.command(name="call", description="Offer as many cards as the highest bid")
    async def call(self, interaction: discord.Interaction) -> None:
        await self.handlers.play.typed(interaction, "c")

    @app_commands.command(name="pass", description="Leave this auction")
    async def pass_(self, interaction: discord.Interaction) -> None:
        await self.handlers.play.typed(interaction, "p")

    @app_commands.command(name="reveal", description="Lay down your cards for the showdown")
    @app_commands.describe(cards="The cards, separated by commas (e.g. Maria 15, Joker)")
    async def reveal(self, interaction: discord.Interaction, cards: str) -> None:
        await self.handlers.play.typed_choice(interaction, "reveal", cards)

    @reveal.autocomplete("cards")
    async def _reveal_cards(self, interaction: discord.Interaction, current: str) -> list[Suggestion]:
        return await self.handlers.play.suggest(interaction, current, choices.reveals)

    @app_commands.command(name="buy", description="Choose which offered cards to buy")
    @app_commands.describe(cards="The cards, separated by commas, or 'nothing'")
    async def buy(self, interaction: discord.Interaction, cards: str) -> None:
        await self.handlers.play.typed_choice(interaction, "buy", cards)

    @buy.autocomplete("cards")
    async def _buy_cards(self, interaction: discord.Interaction, current: str) -> list[Suggestion]:
        return await self.handlers.play.suggest(interaction, current, choices.purchases)

    @app_commands.command(name="privilege", description="Take a privilege card after winning an auction")
    @app_commands.describe(card="A privilege card on display, by what it gives or its number")
    async def privilege(self, interaction: discord.Interaction, card: str) -> None:
        await self.handlers.play.typed_choice(interaction, "privilege", card)

    @privilege.autocomplete("card")
    async def _privilege_cards(self, interaction: discord.Interaction, current: str) -> list[Suggestion]:
        return await self.handlers.play.suggest(interaction, current, choices.privilege_cards)

    @app_commands.command(name="use", description="Use one privilege of your privilege card")
    @app_commands.describe(privilege="Which privilege, and how (e.g. nobility step)")
    async def use(self, interaction: discord.Interaction, privilege: str) -> None:
        await self.handlers.play.typed_choice(interaction, "use", privilege)

    @use.autocomplete("privilege")
    async def _uses(self, interaction: discord.Interaction, current: str) -> list[Suggestion]:
        return await self.handlers.play.suggest(interaction, current, choices.uses)

    @app_commands.command(name="build", description="Master Builder: build a Church or Cathedral in addition")
    @app_commands.describe(what="church or cathedral")
    async def build(self, interaction: discord.Interaction, what: str) -> None:
        await self.handlers.play.typed_choice(interaction, "build", what)

    @build.autocomplete("what")
    async def _buildings(self, interaction: discord.Interaction, current: str) -> list[Suggestion]:
        return await self.handlers.play.suggest(interaction, current, choices.buildings)

    @app_commands.command(name="done", description="Finish with your privilege card")
    async def done(self, interaction: discord.Interaction) -> None:
        await self.handlers.play.typed(interaction, "d")

    @app_commands.command(name="discard", description="Discard one card from your hand after drawing two")
    @app_commands.describe(card="A card from your hand")
    async def discard(self, interaction: discord.Interaction, card: str) -> None:
        await self.handlers.play.typed_choice(interaction, "discard", card)

    @discard.autocomplete("card")
    async def _discards(self, interaction: discord.Interaction, current: str) -> list[Suggestion]:
        return await self.handlers.play.suggest(interaction, current, choices.discards)

    @app_commands.command(name="return", description="Deck shortage: put a card from your hand under the deck")
    @app_commands.describe(card="A card from your hand")
    async def return_(self, interaction: discord.Interaction, card: str) -> None:
        await self.handlers.play.typed_choice(interaction, "return", card)

    @return_.autocomplete("card")
    async def _returns(self, interaction: discord.Interaction, current: str) -> list[Suggestion]:
        return await self.handlers.play.suggest(interaction, current, choices.returns)

    @app_commands.command(name="compensate", description="Choose compensation for a step tile taken from you")
    @app_commands.describe(take="100 guilders or 1 prestige")
    @app_commands.choices(take=[app_commands.Choice(name="100 guilders", value="money"),
                                app_commands.Choice(name="1 prestige", value="prestige")])
    async def compensate(self, interaction: discord.Interaction, take: app_commands.Choice[str]) -> None:
        await self.handlers.play.typed(interaction, f"m{take.value}")

