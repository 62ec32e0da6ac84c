"""The /augsburg command group."""

from __future__ import annotations

from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from engine import legal_actions
from engine.actions import Discard, ReturnCard

from . import choices, codes, texts

RuleTopic = Literal[tuple(texts.RULES)]  # type: ignore[valid-type]


class Augsburg(commands.GroupCog, group_name="augsburg", group_description="Play Augsburg 1520 in this channel"):
    def __init__(self, bot):
        self.bot = bot
        super().__init__()

    @property
    def controller(self):
        return self.bot.controller

    @app_commands.command(name="new", description="Open a table for a new game in this channel")
    @app_commands.guild_only()
    async def new(self, interaction: discord.Interaction) -> None:
        await self.controller.new_table(interaction)

    @app_commands.command(name="hand", description="Show your hand, your money and your next move (only you see it)")
    async def hand(self, interaction: discord.Interaction) -> None:
        record = await self.controller._load(interaction)
        if record is None:
            if not interaction.response.is_done():
                await self.controller._say(interaction, "There is no game in this channel.")
            return
        await self.controller.show_panel(interaction, record.id)

    @app_commands.command(name="status", description="Show the table again (only you see it)")
    async def status(self, interaction: discord.Interaction) -> None:
        await self.controller.show_status(interaction)

    @app_commands.command(name="rules", description="The rules of Augsburg 1520, in short")
    @app_commands.describe(topic="Which part of the rules")
    async def rules(self, interaction: discord.Interaction, topic: RuleTopic | None = None) -> None:
        await self.controller.show_rules(interaction, topic)

    @app_commands.command(name="cancel", description="End the game in this channel (host or Manage Channels)")
    async def cancel(self, interaction: discord.Interaction) -> None:
        await self.controller.cancel_request(interaction)

    # --- every decision also as a typed command (the same action codes as the buttons)

    async def _record(self, interaction: discord.Interaction):
        record = self.bot.controller.service.cached(interaction.channel_id)
        return record if record is not None and record.status == "active" else None

    async def _complete(self, interaction: discord.Interaction, current: str, pick) -> list[app_commands.Choice]:
        record = await self._record(interaction)
        if record is None:
            return []
        options = legal_actions(record.state, str(interaction.user.id))
        pairs = choices.filtered(pick(record, options), current)
        return [app_commands.Choice(name=name, value=value) for name, value in pairs]

    @app_commands.command(name="bid", description="Raise: offer more cards than the highest bid")
    @app_commands.describe(count="How many cards you offer")
    async def bid(self, interaction: discord.Interaction, count: app_commands.Range[int, 1, 80]) -> None:
        await self.controller.typed(interaction, f"b{count}")

    @bid.autocomplete("count")
    async def _bid_counts(self, interaction, current: str):
        return await self._complete(interaction, current, lambda r, o: choices.bids(o))

    @app_commands.command(name="call", description="Offer as many cards as the highest bid")
    async def call(self, interaction: discord.Interaction) -> None:
        await self.controller.typed(interaction, "c")

    @app_commands.command(name="pass", description="Leave this auction")
    async def pass_(self, interaction: discord.Interaction) -> None:
        await self.controller.typed(interaction, "p")

    @app_commands.command(name="reveal", description="Lay down your cards for the showdown")
    @app_commands.describe(cards="The cards, separated by commas (e.g. Maria 15, Joker)")
    async def reveal(self, interaction: discord.Interaction, cards: str) -> None:
        await self.controller.typed(interaction, f"rev:{cards}")

    @reveal.autocomplete("cards")
    async def _reveal_cards(self, interaction, current: str):
        return await self._complete(interaction, current, lambda r, o: choices.reveals(o))

    @app_commands.command(name="buy", description="Choose which offered cards to buy")
    @app_commands.describe(cards="The cards, separated by commas, or 'nothing'")
    async def buy(self, interaction: discord.Interaction, cards: str) -> None:
        await self.controller.typed(interaction, cards if cards.startswith("buy:") else f"buy:{cards}")

    @buy.autocomplete("cards")
    async def _buy_cards(self, interaction, current: str):
        return await self._complete(interaction, current, lambda r, o: choices.purchases(o))

    @app_commands.command(name="privilege", description="Take a privilege card after winning an auction")
    @app_commands.describe(card="One of the privilege cards on display")
    async def privilege(self, interaction: discord.Interaction, card: str) -> None:
        await self.controller.typed(interaction, f"t{card}")

    @privilege.autocomplete("card")
    async def _privilege_cards(self, interaction, current: str):
        return await self._complete(interaction, current, lambda r, o: choices.privilege_cards(o))

    @app_commands.command(name="use", description="Use one privilege of your privilege card")
    @app_commands.describe(privilege="Which privilege, and how")
    async def use(self, interaction: discord.Interaction, privilege: str) -> None:
        await self.controller.typed(interaction, privilege)

    @use.autocomplete("privilege")
    async def _uses(self, interaction, current: str):
        return await self._complete(interaction, current, choices.uses)

    @app_commands.command(name="build", description="Master Builder: build a Church or Cathedral in addition")
    @app_commands.describe(what="church or cathedral")
    async def build(self, interaction: discord.Interaction, what: str) -> None:
        await self.controller.typed(interaction, f"B{what.strip().lower()}")

    @build.autocomplete("what")
    async def _buildings(self, interaction, current: str):
        return await self._complete(interaction, current, lambda r, o: choices.buildings(o))

    @app_commands.command(name="done", description="Finish with your privilege card")
    async def done(self, interaction: discord.Interaction) -> None:
        await self.controller.typed(interaction, "d")

    @app_commands.command(name="discard", description="Discard one card from your hand after drawing two")
    @app_commands.describe(card="A card from your hand")
    async def discard(self, interaction: discord.Interaction, card: str) -> None:
        await self._card_command(interaction, "x", card)

    @discard.autocomplete("card")
    async def _discards(self, interaction, current: str):
        return await self._complete(interaction, current, lambda r, o: choices.cards_to_give(o, Discard))

    @app_commands.command(name="return", description="Deck shortage: put a card from your hand under the deck")
    @app_commands.describe(card="A card from your hand")
    async def return_(self, interaction: discord.Interaction, card: str) -> None:
        await self._card_command(interaction, "r", card)

    @return_.autocomplete("card")
    async def _returns(self, interaction, current: str):
        return await self._complete(interaction, current, lambda r, o: choices.cards_to_give(o, ReturnCard))

    async def _card_command(self, interaction: discord.Interaction, head: str, card: str) -> None:
        try:
            code = head + codes.card_from_name(card)
        except ValueError:
            code = head + "?"  # not a card: refused politely like any illegal choice
        await self.controller.typed(interaction, code)

    @app_commands.command(name="compensate", description="Choose compensation for a step tile taken from you")
    @app_commands.describe(take="100 guilders or 1 prestige")
    @app_commands.choices(
        take=[
            app_commands.Choice(name="100 guilders", value="money"),
            app_commands.Choice(name="1 prestige", value="prestige"),
        ]
    )
    async def compensate(self, interaction: discord.Interaction, take: app_commands.Choice[str]) -> None:
        await self.controller.typed(interaction, f"m{take.value}")

    @app_commands.command(name="help", description="What you can do right now, and the commands for it")
    async def help(self, interaction: discord.Interaction) -> None:
        await self.controller.show_help(interaction)
