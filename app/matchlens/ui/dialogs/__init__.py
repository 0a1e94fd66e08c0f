"""Dialogs shared by the whole window (Settings)."""
