"""The replay engine: a game replayed event by event, its records, and the walls it deals."""
