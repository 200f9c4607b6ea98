"""The `dvjump` study (seed 000): DocValues jump tables, from Lucene 6's random access through Lucene 7's
sequential reads to the jump tables of Lucene 8 (LUCENE-8585) and the search-time ones of LUCENE-8374."""
