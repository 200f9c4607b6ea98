package org.lucenerevisited.dvupdate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lucenerevisited.engine.harness.Progress;
import org.lucenerevisited.engine.harness.Table;

/** The methods every version has: their answers against brute force, and short timed runs. */
class DvuBenchTest {

  @TempDir static Path dir;
  static TestIndex test;

  @BeforeAll
  static void build() throws Exception {
    test = TestIndex.build(dir, 3_000, 150);
  }

  @Test
  void everyCommonMethodAnswersAsBruteForceAndLeavesTheSameFinalValues() throws Exception {
    Table reindex = Checks.verify(test.spec("reindex"));
    Table numeric = Checks.verify(test.spec("numeric"));
    Table binary = Checks.verify(test.spec("binary"));
    Table twoFields = Checks.verify(test.spec("two-fields"));
    assertEquals(Checks.finalActual(reindex, "lastmod"), Checks.finalActual(numeric, "lastmod"));
    assertEquals(Checks.finalActual(reindex, "title_dv"), Checks.finalActual(binary, "title_dv"));
    // Both fields at once leave what each leaves alone.
    assertEquals(Checks.finalActual(reindex, "lastmod"), Checks.finalActual(twoFields, "lastmod"));
    assertEquals(Checks.finalActual(reindex, "title_dv"), Checks.finalActual(twoFields, "title_dv"));
    // A method that leaves a field alone ends with its indexed values, which the others changed.
    assertNotEquals(Checks.finalActual(reindex, "lastmod"), Checks.finalActual(binary, "lastmod"));
    assertNotEquals(Checks.finalActual(reindex, "title_dv"), Checks.finalActual(numeric, "title_dv"));
    // Updated rows reach the top of a sort by lastmod: the checked top hits depend on the updates.
    assertNotEquals(numeric.get("expected", 0), binary.get("expected", 0));
    Checks.assertIndexAsCommitted(test);
  }

  @Test
  void timedRunsCountTheirUpdatesAndRollBack() throws Exception {
    Table rows = Checks.run(test, test.spec("reindex"));
    assertEquals(0L, rows.get("ram_buffer_bytes", 0));
    Checks.run(test, test.spec("numeric"));
  }

  @Test
  void theFirstCombinationAloneCarriesTheForksWarmUp() throws Exception {
    DvuSpec spec = test.spec("numeric");
    spec.rates = new int[] {200, 200};
    spec.intervalsMillis = new int[] {200, 200};
    spec.firstWarmupMillis = 2500;
    Table rows;
    try (DvuBench bench = new DvuBench(spec)) {
      rows = bench.run(Progress.NONE);
    }
    long[] warmedAt = {-1, -1};
    for (int r = 0; r < rows.rowCount(); r++) {
      if ((long) rows.get("warmup", r) == 0) {
        warmedAt[(int) (long) rows.get("combo", r)] = (long) rows.get("warmup_ms", r);
      }
    }
    // The window keeps its length, moved out by the fork's warm-up; 150 ms for the last probe.
    long window = spec.maxWarmupMillis - spec.warmupMillis;
    assertTrue(warmedAt[0] >= 2500 && warmedAt[0] <= 2500 + window + 150, warmedAt[0] + " ms");
    assertTrue(warmedAt[1] >= spec.warmupMillis && warmedAt[1] <= spec.maxWarmupMillis + 150, warmedAt[1] + " ms");
    Checks.assertIndexAsCommitted(test);
  }

  @Test
  void anUnknownMethodIsNamed() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> new DvuBench(test.spec("rewrite")));
    assertTrue(e.getMessage().contains("rewrite"), e.getMessage());
  }

  @Test
  void aCorpusThatIsNotTheIndexsIsRefused() throws Exception {
    Path other = Files.createDirectories(dir.resolve("other"));
    DvuSpec spec = test.spec("numeric");
    spec.docsTsv = TestIndex.build(other, 10, 100).docsTsv.toString();
    try (DvuBench bench = new DvuBench(spec)) {
      IllegalStateException e = assertThrows(IllegalStateException.class, bench::verify);
      assertTrue(e.getMessage().contains("3000 documents"), e.getMessage());
    }
    Checks.assertIndexAsCommitted(test);
  }
}
