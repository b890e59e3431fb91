"""Hand analysis and scoring: shapes, waits, yaku, fu, points and final results."""
