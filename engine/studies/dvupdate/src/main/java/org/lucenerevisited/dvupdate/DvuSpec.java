package org.lucenerevisited.dvupdate;

/**
 * One fork's benchmark, set field by field from Python: the index copy and its corpus, the update
 * method, the (rate, reopen interval) combinations, threads, queries, and the verification's size.
 */
public final class DvuSpec {
  /** A scratch copy of a {@link DvuIndexer} index; every combination rolls back to its commit. */
  public String indexPath;
  public String docsTsv;
  /** reindex, numeric, binary, soft (Lucene 7.4+) or overlay (Lucene 7+). */
  public String method;
  /** The id field's postings format (SPI name) the index was built with; empty for the default. */
  public String idFormat;
  /** Updates per second of combination i; {@link #intervalsMillis} has its reopen interval. */
  public int[] rates;
  public int[] intervalsMillis;
  /** Length of each combination, the first {@link #warmupMillis} of it excluded from latencies. */
  public int seconds;
  public int warmupMillis;
  public int indexThreads;
  public int searchThreads;
  /** Terms of the body field, searched in turn. */
  public String[] queries;
  public int topN;
  /** The overlay flushes its pending updates into Lucene once their estimated RAM exceeds this. */
  public long overlayBudgetBytes;
  public long seed;
  /** Verification: this many updates, in this many batches, each followed by a reopen and checks. */
  public int verifyUpdates;
  public int verifyReopens;
}
