"""Kivy screens: layout in .kv beside each module, no game logic."""
