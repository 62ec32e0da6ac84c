"""The terminal front-end: `augsburg play`, the whole game against computer players without Discord.

It shares the game service (lobby, moves, computers, storage) and the wording
with the Discord front-end; only the way it asks and shows things is its own.
"""
