"""Running many logs: batches, worker pools and executors, and the results store."""
