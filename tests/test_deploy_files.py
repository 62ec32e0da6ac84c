"""What a Heroku-style platform builds the bot from (issue 42): a requirements file that installs this project
with pyproject.toml's dependencies, a Python version the project supports, and a Procfile that starts the bot."""

from __future__ import annotations

import tomllib

from conftest import ROOT


def test_the_requirements_file_installs_this_project_and_nothing_else():
    """`.` is this checkout: pip builds it from pyproject.toml, whose dependencies come with it (one list of
    them, never two to keep in step)."""
    lines = [line.strip() for line in (ROOT / "requirements.txt").read_text().splitlines()]
    assert [line for line in lines if line and not line.startswith("#")] == ["."]
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert project["name"] == "augsburg-bot" and project["dependencies"]


def test_the_python_version_is_one_the_project_supports_and_the_procfile_starts_the_bot():
    wanted = (ROOT / ".python-version").read_text().strip()
    requires = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["requires-python"]
    assert requires == ">=3.11" and tuple(map(int, wanted.split("."))) >= (3, 11)
    processes = [line for line in (ROOT / "Procfile").read_text().splitlines() if line and not line.startswith("#")]
    assert processes == ["worker: python -m bot"]
