package org.lucenerevisited.dvupdate;

import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.lucenerevisited.engine.harness.Progress;
import org.lucenerevisited.engine.harness.Table;

/**
 * The seed's benchmark of one update method ({@link DvuSpec#method}) on a copy of a {@link DvuIndexer}
 * index: {@link #run} times every (rate, reopen interval) combination, each in a writer session that
 * ends in a rollback, {@link #latencies} returns their distributions, and {@link #verify} checks the
 * method's answers. The corpus is scanned once, here, so that a reindex re-reads any row directly.
 */
public final class DvuBench implements Closeable {

  private final DvuSpec spec;
  private final DvuCorpus corpus;
  private final List<Latencies> latencies = new ArrayList<>();

  public DvuBench(DvuSpec spec) throws IOException {
    Methods.config(spec.method, spec.idFormat); // refuses a method this version does not have, early
    this.spec = spec;
    this.corpus = new DvuCorpus(Path.of(spec.docsTsv));
  }

  /**
   * Runs every combination, warm-up then {@code spec.measureMillis}; one row per reopen (see
   * {@link TimedRun}): combo, rate, interval_ms, reopen, t_ms, late_ns, reopen_ns, changed, updates,
   * update_ns, due, done, max_lag_ns, queries, elapsed_ns, fell_behind, heap_bytes, ram_buffer_bytes, flushed,
   * segments, warmup (1 for a reopen that started during the warm-up), stable (the warm-up ended with the
   * JIT quiet or steady, not at its maximum, and the JIT compiled for at most {@code jitQuietShare} of the
   * measured window), warmup_ms (when it ended; -1 while it had not), jit_ms and gc_ms (the JIT compilers'
   * and the collectors' time since the previous reopen).
   */
  public Table run(Progress progress) throws Exception {
    if (spec.rates.length != spec.intervalsMillis.length) {
      throw new IllegalArgumentException(spec.rates.length + " rates but " + spec.intervalsMillis.length
          + " reopen intervals: one of each per combination");
    }
    latencies.clear();
    Table.Builder out = TimedRun.columns();
    for (int combo = 0; combo < spec.rates.length; combo++) {
      try (UpdateSession session = new UpdateSession(spec, corpus)) {
        latencies.add(new TimedRun(spec, combo, corpus.rows(), session.method).run(session.open(), out, progress));
      }
    }
    return out.build();
  }

  /**
   * The latency distributions of the last {@link #run}, warm-up excluded: one row per combination and
   * metric (update_ns, lag_ns, reopen_ns, query_ns): combo, rate, interval_ms, metric, count, mean_ns,
   * p50_ns, p90_ns, p99_ns, max_ns.
   */
  public Table latencies() {
    Table.Builder out = Latencies.columns();
    for (Latencies l : latencies) {
      l.addRows(out);
    }
    return out.build();
  }

  /** The method's answers against brute force (see {@link Verifier}): step, item, expected, actual, match. */
  public Table verify() throws IOException {
    Table.Builder out = Verifier.columns();
    try (UpdateSession session = new UpdateSession(spec, corpus)) {
      new Verifier(spec, corpus).run(session, out);
    }
    return out.build();
  }

  @Override
  public void close() throws IOException {
    corpus.close();
  }
}
