"""Replay engine, hand analysis, scoring, audit checks, review and stats."""
