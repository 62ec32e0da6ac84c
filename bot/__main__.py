"""`python -m bot`: the Discord bot (bot/app/main.py starts it)."""

import sys

from .app.main import main

sys.exit(main())
