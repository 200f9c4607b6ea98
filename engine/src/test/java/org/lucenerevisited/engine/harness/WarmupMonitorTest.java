package org.lucenerevisited.engine.harness;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class WarmupMonitorTest {

  private static final long MS = 1_000_000L;

  /** JIT milliseconds as a test sets them between probes. */
  private static final class FakeJit {
    long millis;
  }

  /** Windows of 3 probes, 100 ms apart: quiet at 2%, steady when the share falls by at most 10 points. */
  private static WarmupMonitor monitor(long minMs, long maxMs, FakeJit jit) {
    return new WarmupMonitor(0, minMs * MS, maxMs * MS, 3, 0.02, 0.10, () -> jit.millis);
  }

  @Test
  void endsAtTheMinimumWhenTheJitIsQuiet() {
    FakeJit jit = new FakeJit();
    WarmupMonitor m = monitor(600, 5000, jit);
    for (long t = 0; t < 600; t += 100) {
      assertFalse(m.probe(t * MS), "before the minimum, at " + t + " ms");
    }
    assertTrue(m.probe(600 * MS));
    assertTrue(m.stable());
  }

  @Test
  void waitsWhileTheJitWorkFalls() {
    FakeJit jit = new FakeJit();
    WarmupMonitor m = monitor(0, 5000, jit);
    // A compiler busy all the time, then half of it, then a tenth: the share falls by more than 10 points
    // from one window to the next until it has been a tenth for two windows.
    long t = 0;
    for (long busy : new long[] {100, 100, 100, 50, 50, 50, 10, 10, 10}) {
      jit.millis += busy;
      assertFalse(m.probe(t * MS), "the JIT's work still falls at " + t + " ms");
      t += 100;
    }
    for (int p = 0; p < 2; p++, t += 100) {
      jit.millis += 10;
      assertFalse(m.probe(t * MS), "the older window still holds a busier probe at " + t + " ms");
    }
    jit.millis += 10;
    assertTrue(m.probe(t * MS));
    assertTrue(m.stable());
  }

  @Test
  void aJitThatStaysBusyAtOneRateIsSteady() {
    FakeJit jit = new FakeJit();
    WarmupMonitor m = monitor(0, 5000, jit);
    boolean over = false;
    long t = 0;
    for (; !over; t += 100) {
      jit.millis += 100;
      over = m.probe(t * MS);
    }
    assertTrue(m.stable());
    assertTrue(t <= 700, "steady from the first two full windows, not at " + t + " ms");
  }

  @Test
  void endsUnconvergedAtTheMaximum() {
    FakeJit jit = new FakeJit();
    WarmupMonitor m = monitor(0, 500, jit);
    boolean over = false;
    long busy = 100;
    for (long t = 0; !over; t += 100) {
      jit.millis += busy;
      busy = Math.max(busy - 20, 0);
      over = m.probe(t * MS);
      assertTrue(t <= 500, "still warming up past the maximum");
    }
    assertFalse(m.stable());
    assertTrue(m.probe(600 * MS), "over stays over");
  }

  @Test
  void refusesAMaximumBelowTheMinimum() {
    assertThrows(IllegalArgumentException.class, () -> new WarmupMonitor(0, 2, 1, 3, 0.02, 0.1, () -> 0));
  }
}
