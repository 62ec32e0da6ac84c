"""The Discord front-end: the client, the /augsburg cog (loaded as an extension), its handlers,
the presenter of public messages, durable buttons, and the computer-player runner."""
