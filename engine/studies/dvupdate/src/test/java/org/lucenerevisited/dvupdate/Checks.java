package org.lucenerevisited.dvupdate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.store.Directory;
import org.apache.lucene.util.BytesRef;
import org.lucenerevisited.engine.harness.Table;
import org.lucenerevisited.engine.shim.LuceneShim;

/** What every method's verification and timed run must show, whatever the version. */
final class Checks {

  private Checks() {}

  /** The verification of {@code spec}, asserting that every check matched. */
  static Table verify(DvuSpec spec) throws Exception {
    try (DvuBench bench = new DvuBench(spec)) {
      Table t = bench.verify();
      assertEquals(spec.verifyReopens * Math.min(Verifier.CHECKED_QUERIES, spec.queries.length) + 2, t.rowCount());
      for (int r = 0; r < t.rowCount(); r++) {
        assertEquals(1L, t.get("match", r), spec.method + ": " + t.get("step", r) + " " + t.get("item", r));
      }
      return t;
    }
  }

  /** The checksum of {@code item} in a verification's final step. */
  static String finalActual(Table verified, String item) {
    for (int r = 0; r < verified.rowCount(); r++) {
      if (verified.get("step", r).equals("final") && verified.get("item", r).equals(item)) {
        return (String) verified.get("actual", r);
      }
    }
    throw new AssertionError("no final " + item);
  }

  /**
   * A timed run of {@code spec} (about 2 s): its rows count updates consistently, its latencies have
   * every metric, and the index is as committed afterwards. Returns the rows.
   */
  static Table run(TestIndex test, DvuSpec spec) throws Exception {
    Table rows;
    Table latencies;
    List<String> stages = new ArrayList<>();
    try (DvuBench bench = new DvuBench(spec)) {
      rows = bench.run((stage, done, total) -> stages.add(stage));
      latencies = bench.latencies();
    }
    assertTrue(stages.contains("combination 0"));
    assertTrue(rows.rowCount() >= 5, rows.rowCount() + " reopens");
    long[] due = rows.longs("due");
    long[] done = rows.longs("done");
    long[] updates = rows.longs("updates");
    long sum = 0;
    for (int r = 0; r < rows.rowCount(); r++) {
      assertTrue(done[r] <= due[r], "reopen " + r + ": done " + done[r] + " > due " + due[r]);
      assertEquals(r + 1L, rows.get("reopen", r));
      sum += updates[r];
    }
    assertEquals(done[done.length - 1], sum);
    assertEquals(1L, rows.get("warmup", 0));
    int lastRow = rows.rowCount() - 1;
    assertEquals(0L, rows.get("warmup", lastRow));
    // The warm-up ended between its minimum and maximum; every measured reopen started after it and
    // carries its verdict, and nothing was due after the measured time.
    long warmedAt = (long) rows.get("warmup_ms", lastRow);
    assertTrue(warmedAt >= spec.warmupMillis && warmedAt <= spec.maxWarmupMillis + 150, warmedAt + " ms");
    for (int r = 0; r < rows.rowCount(); r++) {
      assertTrue(rows.longs("jit_ms")[r] >= 0 && rows.longs("gc_ms")[r] >= 0, "reopen " + r);
      if ((long) rows.get("warmup", r) == 0) {
        assertTrue((long) rows.get("t_ms", r) >= warmedAt, "reopen " + r + " measured during the warm-up");
        assertEquals(warmedAt, rows.get("warmup_ms", r));
        assertEquals(rows.get("stable", lastRow), rows.get("stable", r));
      }
    }
    long measured = 0;
    for (long w : rows.longs("warmup")) {
      measured += 1 - w;
    }
    assertTrue(measured >= spec.minReopens, measured + " measured reopens");
    long last = due[due.length - 1];
    assertTrue(sum > 0 && last <= (warmedAt + spec.maxMeasureMillis) * spec.rates[0] / 1000 + 1,
        sum + " done, " + last + " due");
    assertEquals(Latencies.METRICS, List.of(latencies.strings("metric")));
    assertTrue((long) latencies.get("count", 0) > 0, "no update after the warm-up");
    assertIndexAsCommitted(test);
    return rows;
  }

  /** Every document of the index has the row, lastmod and title_dv it was indexed with. */
  static void assertIndexAsCommitted(TestIndex test) throws Exception {
    try (Directory d = LuceneShim.INSTANCE.openMMapDirectory(test.index);
        DirectoryReader reader = DirectoryReader.open(d)) {
      assertEquals(test.docs.size(), reader.maxDoc());
      assertEquals(test.docs.size(), reader.numDocs());
      for (LuceneShim.Leaf leaf : LuceneShim.INSTANCE.leaves(reader)) {
        for (int doc = 0; doc < leaf.reader().maxDoc(); doc++) {
          int row = leaf.docBase() + doc;
          TestIndex.Doc expected = test.docs.get(row);
          assertEquals(row, DvuSchema.row(reader, row), "docID " + row);
          assertEquals(expected.lastmod(row), DocValuesAt.numeric(leaf.reader(), DvuSchema.LASTMOD, doc));
          assertEquals(new BytesRef(expected.title()), DocValuesAt.binary(leaf.reader(), DvuSchema.TITLE_DV, doc));
        }
      }
    }
  }
}
