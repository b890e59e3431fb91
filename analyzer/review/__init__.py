"""Play review: every seat's waits and furiten as the replay goes."""
