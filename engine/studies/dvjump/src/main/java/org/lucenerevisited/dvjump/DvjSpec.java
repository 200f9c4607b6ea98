package org.lucenerevisited.dvjump;

/**
 * One fork's measurement, set field by field from Python (lrev/dvjump/engine.py): the index, how its
 * DocValues are read, the workloads and the query terms with their hit-count buckets, request sizes,
 * and the steady-state rule of {@link org.lucenerevisited.engine.harness.InterleavedRunner}.
 */
public final class DvjSpec {
  public String indexPath;
  /** {@link DvjAccess} kind: native or jump. */
  public String access;
  public String[] workloads;
  /** Workloads also run by two request threads at once (the seed's "concurrent requests"). */
  public String[] concurrentWorkloads;
  public String[] terms;
  /** Per term, its bucket: the m of its 10^m hits. */
  public int[] buckets;
  /** The bucket whose queries a workload of another size ({@code facet@100}, …) runs on. */
  public int variationBucket;
  /** The export workload's one query (the seed exported about 0.02% of its index), and its bucket. */
  public String exportTerm;
  public int exportBucket;
  public int rows;
  public int facets;
  public int groups;
  public int iterationMillis;
  public int minWarmupIterations;
  public int maxWarmupIterations;
  public int stableWindow;
  public double stableCv;
  public double jitQuietShare;
  public int measureIterations;
  public long seed;
}
