package org.lucenerevisited.engine.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class HeldLoopTest {

  private static final long MS = 1_000_000L;

  private static long sum(Table t, String column, String phase) {
    long total = 0;
    for (int i = 0; i < t.rowCount(); i++) {
      total += phase == null || t.strings("phase")[i].equals(phase) ? t.longs(column)[i] : 0;
    }
    return total;
  }

  @Test
  void aQuietJitEndsTheWarmUpAfterItsWindowAndTheMeasuredTimeFollows() throws Exception {
    AtomicLong runs = new AtomicLong();
    ClosedLoop loop = new ClosedLoop("count", i -> runs.incrementAndGet(), 3);
    Table t = new HeldLoop(5 * MS, 0, 10_000 * MS, 2, 0.02, 0.1, 40 * MS, System::nanoTime,
        () -> 0L, () -> 0L)
        .run(loop, Progress.NONE);

    int warmups = 0;
    for (int i = 0; i < t.rowCount(); i++) {
      warmups += t.strings("phase")[i].equals(HeldLoop.WARMUP) ? 1 : 0;
      assertEquals(1, t.longs("stable")[i], "row " + i);
    }
    assertEquals(5, warmups, "the monitor decides after 2 x window + 1 probes");
    assertEquals(HeldLoop.MEASURE, t.strings("phase")[t.rowCount() - 1]);
    assertEquals(0, t.longs("probe")[warmups], "the measured probes count from 0");
    assertTrue(sum(t, "nanos", HeldLoop.MEASURE) >= 40 * MS, "the measured time is at least 40 ms");
    assertEquals(runs.get(), sum(t, "ops", null), "every run is in one row");
  }

  @Test
  void aJitThatKeepsSlowingDownIsMeasuredUnstableAfterTheMaximum() throws Exception {
    // A clock that moves 1 ms per reading, and compilers whose cumulative time grows as its square
    // root: over any later span their share is smaller, whatever the spans' lengths.
    AtomicLong now = new AtomicLong();
    ClosedLoop loop = new ClosedLoop("count", i -> {}, 1);
    Table t = new HeldLoop(5 * MS, 0, 60 * MS, 1, 0.0, 0.0, 10 * MS, () -> now.addAndGet(MS),
        () -> (long) (1e6 * Math.sqrt(now.get() / 1e6)), () -> 0L)
        .run(loop, Progress.NONE);
    assertEquals(0, t.longs("stable")[0]);
    assertTrue(sum(t, "nanos", HeldLoop.WARMUP) >= 60 * MS, "the warm-up ran to its maximum");
  }

  @Test
  void rejectsAMeasuredTimeShorterThanAProbe() {
    assertThrows(IllegalArgumentException.class,
        () -> new HeldLoop(10 * MS, 0, 100 * MS, 2, 0.02, 0.1, 5 * MS));
  }
}
