"""Fails before reading anything: a crash on every tick."""
raise RuntimeError("this bot crashes on start")
