package org.lucenerevisited.pk;

import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.lucenerevisited.engine.corpus.KeysTsv;
import org.lucenerevisited.engine.harness.Progress;
import org.lucenerevisited.engine.harness.Table;

/**
 * Checks that {@link PkLookupBench} measures lookups and not itself: the pipeline's lookup run
 * (every contender interleaved, as measured for the results) with one pass of the independent
 * {@link PlainLookupLoop} over the same keys on one contender's index after every round. Harness
 * sample and plain pass of a round are seconds apart at most, so the drift of the host and of the
 * JVM hits both alike and their per-round ratio isolates the difference of the two codes.
 *
 * <p>Each round the plain loop runs two passes, as a standalone loop running pass after pass would;
 * the second is the comparison. The first, kept as its own source, shows what running right after
 * other code costs: it measured 17-19% slower than the second here (8.11.4 and 10.5.1, default
 * format), while the harness's samples, whose lookup code every term-dictionary contender shares,
 * ran at the speed of the second.
 */
public final class PkCrossCheck {

  static final String PLAIN = "plain loop";
  static final String FIRST_PASS = "plain loop, first pass";

  private PkCrossCheck() {}

  /**
   * Columns: source ("harness"|"plain loop"|"plain loop, first pass"), contender, threads, phase,
   * round, ops, nanos. Plain-loop rows carry {@code checked} as contender and one thread.
   * {@code spec} runs as in the pipeline, all its thread counts interleaved; it must include one.
   */
  public static Table run(PkLookupSpec spec, String checked, String checkedIndexPath,
      Progress progress) throws Exception {
    if (!Arrays.stream(spec.threads).anyMatch(t -> t == 1)) {
      throw new IllegalArgumentException("the cross-check needs one thread, the plain loop's case");
    }
    if (!List.of(spec.contenders).contains(checked)) {
      throw new IllegalArgumentException("checked contender '" + checked + "' is not in the run");
    }
    long hitsPerPass = expectedHits(KeysTsv.read(Paths.get(spec.keysTsv)));
    List<Object[]> plain = new ArrayList<>();
    Table harness;
    try (PlainLookupLoop loop = PlainLookupLoop.open(checkedIndexPath, spec.keysTsv,
        spec.batchSize)) {
      harness = PkLookupBench.run(spec, progress, (phase, round) -> {
        PlainLookupLoop.Result first = checkHits(loop.pass(), hitsPerPass, checkedIndexPath);
        PlainLookupLoop.Result second = checkHits(loop.pass(), hitsPerPass, checkedIndexPath);
        plain.add(new Object[] {FIRST_PASS, phase, (long) round, first.lookups(),
            Math.round(first.seconds() * 1e9)});
        plain.add(new Object[] {PLAIN, phase, (long) round, second.lookups(),
            Math.round(second.seconds() * 1e9)});
      });
    }
    Table.Builder out = Table.builder().stringColumn("source").stringColumn("contender")
        .longColumn("threads").stringColumn("phase").longColumn("round").longColumn("ops")
        .longColumn("nanos");
    for (int r = 0; r < harness.rowCount(); r++) {
      out.addRow("harness", harness.get("contender", r), harness.get("threads", r),
          harness.get("phase", r), harness.get("round", r), harness.get("ops", r),
          harness.get("nanos", r));
    }
    for (Object[] p : plain) {
      out.addRow(p[0], checked, 1L, p[1], p[2], p[3], p[4]);
    }
    return out.build();
  }

  private static long expectedHits(KeysTsv keys) {
    long hits = 0;
    for (int i = 0; i < keys.size(); i++) {
      hits += keys.expectedRow(i) >= 0 ? 1 : 0;
    }
    return hits;
  }

  private static PlainLookupLoop.Result checkHits(PlainLookupLoop.Result r, long expected,
      String indexPath) {
    if (r.hits() != expected) {
      throw new IllegalStateException("plain loop found " + r.hits() + " of " + expected
          + " keys in " + indexPath);
    }
    return r;
  }
}
