"""The audit: one game's replay checked against every claim its log makes."""
