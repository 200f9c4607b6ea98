package org.lucenerevisited.dvupdate;

/**
 * One fork's benchmark, set field by field from Python: the index copy and its corpus, the update
 * method, the (rate, reopen interval) combinations, threads, queries, and the verification's size.
 */
public final class DvuSpec {
  /** A scratch copy of a {@link DvuIndexer} index; every combination rolls back to its commit. */
  public String indexPath;
  public String docsTsv;
  /** reindex, numeric, binary, two-fields, soft (7.4+), ram-buffer (7+) or overlays-N (10.6+): see {@link Methods}. */
  public String method;
  /** The id field's postings format (SPI name) the index was built with; empty for the default. */
  public String idFormat;
  /** Updates per second of combination i; {@link #intervalsMillis} has its reopen interval. */
  public int[] rates;
  public int[] intervalsMillis;
  /**
   * Each combination warms up for at least {@link #warmupMillis}, then until the JIT compilers' share of
   * the last {@link #quietProbes} probes, {@link #probeMillis} apart, was at most {@link #jitQuietShare}
   * or fell by at most {@link #jitSettledDrop} from the probes before (at most {@link #maxWarmupMillis};
   * see {@link org.lucenerevisited.engine.harness.WarmupMonitor}). It is then measured for at least
   * {@link #measureMillis} and until {@link #minReopens} reopens that started after it are done, at most for
   * {@link #maxMeasureMillis}: a cell whose reopens fall behind holds fewer, and its rows show it.
   */
  public int warmupMillis;
  public int maxWarmupMillis;
  /**
   * The first combination warms up for at least this long, the fork's own warm-up: a JVM's compilers stay busy
   * for tens of seconds after it starts, longer than a combination's warm-up. Its maximum moves out by as much.
   */
  public int firstWarmupMillis;
  public int measureMillis;
  public int minReopens;
  public int maxMeasureMillis;
  public int probeMillis;
  public int quietProbes;
  public double jitQuietShare;
  public double jitSettledDrop;
  public int indexThreads;
  public int searchThreads;
  /** Terms of the body field, searched in turn. */
  public String[] queries;
  public int topN;
  /** The RAM buffer flushes its pending updates into Lucene once their estimated RAM exceeds this. */
  public long ramBufferBudgetBytes;
  public long seed;
  /** Verification: this many updates, in this many batches, each followed by a reopen and checks. */
  public int verifyUpdates;
  public int verifyReopens;
}
