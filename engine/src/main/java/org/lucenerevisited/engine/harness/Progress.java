package org.lucenerevisited.engine.harness;

/**
 * Progress callback; Python implements it through JPype. Called from the working thread, so an
 * implementation must be cheap.
 */
@FunctionalInterface
public interface Progress {

  /** Reports that {@code done} of {@code total} units of {@code stage} are finished. */
  void report(String stage, long done, long total);

  /** Discards all reports. */
  Progress NONE = (stage, done, total) -> {};
}
