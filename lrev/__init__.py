"""lucene-revisited: re-running classic Lucene performance studies on real Lucene releases."""
