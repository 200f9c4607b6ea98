"""The `join` study: query-time join against block join under open-loop load (seed 002)."""
