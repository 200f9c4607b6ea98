package org.lucenerevisited.dvupdate;

/**
 * The rows updates go to: pseudo-random (SplitMix64) from the seed and the update number, so every
 * method and version updates the same rows in the same order.
 */
final class Targets {

  private static final long GOLDEN = 0x9E3779B97F4A7C15L;
  /** Salts that keep verification's subset, and its draws from it, apart from the timed run's rows. */
  private static final long SUBSET = 0x5DEECE66DL;
  private static final long DRAW = 0x2545F4914F6CDD1DL;

  private Targets() {}

  /** The row of update {@code k} of a timed run, over all {@code rows}. */
  static int row(long seed, long k, int rows) {
    return (int) Math.floorMod(mix(seed + (k + 1) * GOLDEN), (long) rows);
  }

  /**
   * The row of verification update {@code k}: drawn from {@code subset} rows only (themselves
   * pseudo-random), so that rows are updated again and later updates must win.
   */
  static int verifyRow(long seed, long k, int rows, int subset) {
    int slot = row(seed ^ DRAW, k, subset);
    return row(seed ^ SUBSET, slot, rows);
  }

  private static long mix(long z) {
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }
}
