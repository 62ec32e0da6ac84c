"""What each slash command, button and menu does: the glue between Discord and the game service.

Every entry point answers its interaction exactly once, with a polite
ephemeral message on any refusal, and never lets an exception reach Discord.
"""

from __future__ import annotations

import asyncio
import functools
import logging

import discord

from engine import player_view, spectator_view, to_act
from engine.events import Event
from storage import GameQuarantined, GameRecord

from . import codes, components, render, texts
from .choices import help_lines
from .service import GameService, is_computer, name_lookup, with_log

log = logging.getLogger(__name__)

SORRY = "Sorry, something went wrong on our side. The game is safe; please try again in a moment."


def guarded(func):
    """Log any error with its game and channel; the player gets a short apology, never a traceback."""

    @functools.wraps(func)
    async def wrapper(self, interaction: discord.Interaction, *args, **kwargs):
        try:
            return await func(self, interaction, *args, **kwargs)
        except Exception:
            log.exception("error in %s (channel %s, args %s)", func.__name__, interaction.channel_id, args)
            await self._say(interaction, SORRY)

    return wrapper


class Controller:
    def __init__(
        self, client: discord.Client, service: GameService, table_delay: float = 1.0, computer_delay: float = 2.0
    ):
        self.client = client
        self.service = service
        self.table_delay = table_delay
        self.computer_delay = computer_delay
        self._refreshing: dict[int, asyncio.Task] = {}
        self._computers: dict[int, asyncio.Task] = {}
        self._pending: tuple[list[GameRecord], list[GameQuarantined]] = ([], [])

    # --- answering

    async def _say(self, interaction: discord.Interaction, message: str) -> None:
        if interaction.response.is_done():
            await interaction.followup.send(message, ephemeral=True)
        else:
            await interaction.response.send_message(message, ephemeral=True)

    async def _load(self, interaction: discord.Interaction) -> GameRecord | None:
        try:
            return await self.service.current(interaction.channel_id)
        except GameQuarantined as exc:
            await self._say(interaction, quarantine_text(exc))
            return None

    # --- slash commands

    @guarded
    async def new_table(self, interaction: discord.Interaction) -> None:
        if interaction.guild_id is None:
            await self._say(interaction, "Augsburg 1520 is played in a server channel, not in direct messages.")
            return
        outcome = await self.service.open_table(
            interaction.guild_id, interaction.channel_id, interaction.user.id, interaction.user.display_name
        )
        if not outcome.ok:
            await self._say(interaction, outcome.message)
            return
        record = outcome.record
        await interaction.response.send_message(embed=render.lobby_embed(record), view=components.lobby_view(record.id))
        message = await interaction.original_response()
        await self.service.set_ui(record, {**record.ui, "table": message.id})

    @guarded
    async def show_status(self, interaction: discord.Interaction) -> None:
        record = await self._load(interaction)
        if record is None:
            if not interaction.response.is_done():
                await self._say(interaction, "There is no game in this channel. Open one with `/augsburg new`.")
            return
        embed = (
            render.lobby_embed(record)
            if record.status == "lobby"
            else render.table_embed(record, spectator_view(record.state))
        )
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @guarded
    async def show_rules(self, interaction: discord.Interaction, topic: str | None) -> None:
        if topic:
            body = f"**{topic.title()}**\n{texts.RULES[topic]}"
        else:
            body = "\n\n".join(f"**{t.title()}**\n{text}" for t, text in texts.RULES.items())
        await interaction.response.send_message(body[:2000], ephemeral=True)

    @guarded
    async def show_help(self, interaction: discord.Interaction) -> None:
        record = await self._load(interaction)
        general = (
            "`/augsburg new` opens a table · `/augsburg hand` your cards and next move · "
            "`/augsburg status` the table · `/augsburg rules` the rules · `/augsburg cancel` ends the game"
        )
        if record is None or record.status != "active" or str(interaction.user.id) not in record.setup["players"]:
            if not interaction.response.is_done():
                await self._say(interaction, general)
            return
        lines = ["**What you can do now:**", *help_lines(record, str(interaction.user.id)), "", general]
        await self._say(interaction, "\n".join(lines))

    @guarded
    async def cancel_request(self, interaction: discord.Interaction) -> None:
        record = await self._load(interaction)
        if record is None:
            if not interaction.response.is_done():
                await self._say(interaction, "There is no game in this channel.")
            return
        view = discord.ui.View(timeout=None)
        view.add_item(components.CancelButton(record.id))
        await interaction.response.send_message(
            "Cancel the game in this channel for everyone? This cannot be undone.", view=view, ephemeral=True
        )

    @guarded
    async def cancel_confirmed(self, interaction: discord.Interaction, game_id: int) -> None:
        record = await self._load(interaction)
        if record is None or record.id != game_id:
            if not interaction.response.is_done():
                await self._say(interaction, "That game has already ended.")
            return
        manage = bool(interaction.permissions and interaction.permissions.manage_channels)
        outcome = await self.service.cancel(interaction.channel_id, interaction.user.id, manage)
        if not outcome.ok:
            await self._say(interaction, outcome.message)
            return
        await interaction.response.edit_message(content="The game was cancelled.", view=None)
        await self._channel(record.channel_id).send(
            f"The game of Augsburg 1520 in this channel was cancelled by {interaction.user.mention}."
        )
        await self._draw_table(outcome.record, final_note="This game was cancelled.")

    # --- lobby buttons

    @guarded
    async def lobby_click(self, interaction: discord.Interaction, game_id: int, what: str) -> None:
        user = interaction.user
        channel = interaction.channel_id
        if what == "join":
            outcome = await self.service.join(channel, game_id, user.id, user.display_name)
        elif what == "leave":
            outcome = await self.service.leave(channel, game_id, user.id)
        elif what == "ai":
            outcome = await self.service.add_computer(channel, game_id, user.id)
        else:
            outcome = await self.service.start(channel, game_id, user.id)
        if not outcome.ok:
            await self._say(interaction, outcome.message)
            return
        record = outcome.record
        if record.status == "lobby":
            await interaction.response.edit_message(
                embed=render.lobby_embed(record), view=components.lobby_view(record.id)
            )
            return
        # Started: the lobby message becomes the table.
        ui = {**with_log(record, outcome.events), "table": interaction.message.id}
        record = await self.service.set_ui(record, ui)
        await interaction.response.edit_message(
            embed=render.table_embed(record, spectator_view(record.state)), view=components.table_view(record.id)
        )
        await self._ping(record, [])
        self.schedule_computers(record.channel_id)

    # --- playing

    @guarded
    async def show_panel(self, interaction: discord.Interaction, game_id: int, note: str = "") -> None:
        record = await self._load(interaction)
        if record is None or record.id != game_id or record.status != "active":
            if not interaction.response.is_done():
                await self._say(interaction, "That game is no longer running in this channel.")
            return
        if str(interaction.user.id) not in record.setup["players"]:
            await self._say(interaction, "You are not playing in this game, so you have no hand to show.")
            return
        content, view = components.panel(record, interaction.user.id, note)
        await interaction.response.send_message(content, view=view, ephemeral=True)

    @guarded
    async def act_click(self, interaction: discord.Interaction, game_id: int, key: str, code: str) -> None:
        try:
            action = codes.decode(code)
        except ValueError:
            await self._say(interaction, "That button is not one of ours any more; open your hand again.")
            return
        await self._act(interaction, game_id, key, action)

    @guarded
    async def act_select(
        self, interaction: discord.Interaction, game_id: int, key: str, kind: str, values: list[str]
    ) -> None:
        if kind == "pick":
            try:
                action = codes.decode(values[0])
            except (ValueError, IndexError):
                await self._say(interaction, "That choice is not one of ours any more; open your hand again.")
                return
            await self._act(interaction, game_id, key, action)
            return
        # Reveal and purchase: show the selection (with the running total) and a confirm button.
        record = await self._load(interaction)
        if record is None or record.id != game_id or record.status != "active":
            if not interaction.response.is_done():
                await self._say(interaction, "That game is no longer running in this channel.")
            return
        try:
            positions = [int(v) for v in values]
        except ValueError:
            await self._say(interaction, "That choice is not one of ours any more; open your hand again.")
            return
        content, view = components.panel(record, interaction.user.id, selection=(kind, positions))
        await interaction.response.edit_message(content=content, view=view)

    @guarded
    async def typed(self, interaction: discord.Interaction, code: str) -> None:
        """A decision typed as a slash command: the same action code and service call as its button."""
        record = await self._load(interaction)
        if record is None or record.status != "active":
            if not interaction.response.is_done():
                await self._say(interaction, "There is no running game in this channel. Open one with `/augsburg new`.")
            return
        try:
            action = codes.decode(code)
        except ValueError as exc:
            content, view = (
                components.panel(record, interaction.user.id, f"⚠️ That is not a choice I know ({exc}).")
                if str(interaction.user.id) in record.setup["players"]
                else ("You are not playing in this game.", None)
            )
            await interaction.response.send_message(content, view=view or discord.utils.MISSING, ephemeral=True)
            return
        await self._act(interaction, record.id, None, action)

    async def _act(self, interaction: discord.Interaction, game_id: int, key: str | None, action) -> None:
        outcome = await self.service.act(interaction.channel_id, game_id, interaction.user.id, key, action)
        record = outcome.record
        if record is None or record.status not in ("active", "finished"):
            await self._say(interaction, outcome.message or "That game is no longer running in this channel.")
            return
        if str(interaction.user.id) not in record.setup.get("players", []):
            await self._say(interaction, outcome.message)
            return
        note = f"⚠️ {outcome.message}" if not outcome.ok else _private_notes(outcome.events, interaction.user.id)
        # A click redraws the panel it came from; a typed command answers with a fresh private panel.
        typed = interaction.type == discord.InteractionType.application_command
        if record.status == "finished":
            content, view = f"{note}\nThe game is over — see the channel.", None
        else:
            content, view = components.panel(record, interaction.user.id, note)
        if typed:
            await interaction.response.send_message(content, view=view or discord.utils.MISSING, ephemeral=True)
        else:
            await interaction.response.edit_message(content=content, view=view)
        if outcome.ok:
            if record.status == "finished":
                await self._draw_table(record)  # the last picture of the table, without buttons
            else:
                self.refresh(record.channel_id)
            await self._ping(record, outcome.previous_to_act, outcome.events)
            self.schedule_computers(record.channel_id)

    # --- the public table

    def _channel(self, channel_id: int) -> discord.PartialMessageable:
        return self.client.get_partial_messageable(channel_id)

    def refresh(self, channel_id: int) -> None:
        """Redraw the table soon; a burst of moves becomes one edit (Discord's rate limits)."""
        task = self._refreshing.get(channel_id)
        if task is None or task.done():
            self._refreshing[channel_id] = asyncio.get_running_loop().create_task(self._refresh_later(channel_id))

    async def _refresh_later(self, channel_id: int) -> None:
        await asyncio.sleep(self.table_delay)
        record = self.service.cached(channel_id)
        try:
            if record is not None:
                await self._draw_table(record)
        except Exception:
            log.exception("could not redraw the table in channel %s", channel_id)

    async def _draw_table(self, record: GameRecord, final_note: str = "") -> GameRecord:
        """Edit the table message; post a new one if it was deleted."""
        if record.status == "lobby":
            embed, view = render.lobby_embed(record), components.lobby_view(record.id)
        elif record.state is None:
            return record
        else:
            embed = render.table_embed(record, spectator_view(record.state))
            view = components.table_view(record.id) if record.status == "active" else None
        if final_note:
            embed.set_footer(text=final_note)
        channel = self._channel(record.channel_id)
        message_id = record.ui.get("table")
        if message_id:
            try:
                await channel.get_partial_message(message_id).edit(embed=embed, view=view)
                return record
            except discord.NotFound:
                pass
        message = await channel.send(embed=embed, view=view)
        return await self.service.set_ui(record, {**record.ui, "table": message.id})

    async def _ping(self, record: GameRecord, before: list[str], events: list[Event] = ()) -> None:
        """Mention whoever must act now (a message edit would not notify them); announce the end."""
        channel = self._channel(record.channel_id)
        over = next((e for e in events if e.type == "game_over"), None)
        if over is not None:
            await channel.send(final_standings(record, over))
            return
        now = to_act(record.state)
        fresh = [p for p in now if p not in before and not is_computer(p)]
        if not fresh:
            return
        old = record.ui.get("ping")
        view = spectator_view(record.state)
        text = (
            f"{' '.join(render.mention(p) for p in fresh)} — your move. {render.status_line(view, name_lookup(record))}"
        )
        message = await channel.send(
            text[:2000], view=components.table_view(record.id), allowed_mentions=discord.AllowedMentions(users=True)
        )
        record = self.service.cached(record.channel_id) or record
        await self.service.set_ui(record, {**record.ui, "ping": message.id})
        if old:
            try:
                await channel.get_partial_message(old).delete()
            except discord.HTTPException:
                pass

    # --- computer players

    def schedule_computers(self, channel_id: int) -> None:
        """Let computer players take their turns, a short moment after their turn comes."""
        task = self._computers.get(channel_id)
        if task is None or task.done():
            self._computers[channel_id] = asyncio.get_running_loop().create_task(self._computers_play(channel_id))

    async def _computers_play(self, channel_id: int) -> None:
        try:
            while True:
                await asyncio.sleep(self.computer_delay)
                record = self.service.cached(channel_id)
                if record is None or record.status != "active":
                    return
                acting = [p for p in to_act(record.state) if is_computer(p)]
                if not acting:
                    return
                from engine.ai import ComputerPlayer  # only tables with computers need it

                player = acting[0]
                seed = record.setup["seed"] + record.setup["players"].index(player)
                action = ComputerPlayer(seed).decide(player_view(record.state, player))
                outcome = await self.service.act(channel_id, record.id, player, None, action)
                if not outcome.ok:
                    log.error("computer %s in channel %s was refused: %s", player, channel_id, outcome.message)
                    return
                if outcome.record.status == "finished":
                    await self._draw_table(outcome.record)
                else:
                    self.refresh(channel_id)
                await self._ping(outcome.record, outcome.previous_to_act, outcome.events)
        except Exception:
            log.exception("computer players stopped in channel %s", channel_id)

    async def restore(self) -> None:
        """At start-up: load every open game now; redraw the tables once connected, in the background."""
        self._pending = await self.service.restore()

    async def redraw_restored(self) -> None:
        """Once connected: bring every restored table up to date (a crash may have come between a move and
        its redraw) and explain any game that could not be loaded."""
        games, lost = self._pending
        self._pending = ([], [])
        for record in games:
            self.schedule_computers(record.channel_id)
            try:
                await self._draw_table(record)
            except Exception:
                log.exception("could not redraw game %s in channel %s", record.id, record.channel_id)
        for exc in lost:
            try:
                await self._channel(exc.channel_id).send(quarantine_text(exc))
            except Exception:
                log.exception("could not tell channel %s about quarantined game %s", exc.channel_id, exc.game_id)


def _private_notes(events: list[Event], user_id: int) -> str:
    mine = [line for e in events if e.to == str(user_id) and (line := texts.private_line(e))]
    return "✅ Done." + (" " + " ".join(mine) if mine else "")


def final_standings(record: GameRecord, over: Event) -> str:
    name = name_lookup(record)
    scores = sorted(over.data["scores"].items(), key=lambda kv: -kv[1])
    winners = over.data["winners"]
    lines = ["**Augsburg 1520 — final standings**"]
    lines += [f"{i}. {name(p)} — {s} prestige{' 🏆' if p in winners else ''}" for i, (p, s) in enumerate(scores, 1)]
    tiebreak = over.data.get("tiebreak")
    if tiebreak in ("cathedral", "church"):
        lines.append(f"The tie was decided by the most expensive {tiebreak}.")
    elif tiebreak == "shared":
        lines.append("The tied players share the win.")
    verb = "win" if len(winners) > 1 else "wins"
    lines.append(f"{' and '.join(render.mention(w) for w in winners)} {verb}!")
    return "\n".join(lines)


def quarantine_text(exc: GameQuarantined) -> str:
    return (
        f"Sorry — the saved game in this channel (#{exc.game_id}) is damaged and could not be restored. It has "
        "been set aside for the developers; you can open a new table with `/augsburg new`."
    )
