"""The `dvupdate` study (seed 003): updatable DocValues against reindexing under NRT reopen."""
