"""Shared test helpers; ``support.fake_discord`` is the one fake Discord (design notes to follow)."""
