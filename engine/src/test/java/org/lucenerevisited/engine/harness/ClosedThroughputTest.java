package org.lucenerevisited.engine.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class ClosedThroughputTest {

  /** A clock that moves one tick per reading, so the run's length is counted in readings, not time. */
  private static java.util.function.LongSupplier ticks() {
    AtomicLong t = new AtomicLong();
    return t::incrementAndGet;
  }

  @Test
  void everyRequestRunIsCountedAndTheStreamRunsInTurn() throws Exception {
    Map<Integer, Integer> seen = Collections.synchronizedMap(new HashMap<>());
    Table row = new ClosedThroughput(i -> seen.merge(i, 1, Integer::sum), 5, 3, 200, ticks()).run(null);
    long ops = row.longs("ops")[0];
    assertTrue(ops > 0);
    assertEquals(3L, row.longs("workers")[0]);
    // ops requests of a stream of 5, handed out in turn: each position ran ops / 5 times, or once more.
    assertEquals(ops, seen.values().stream().mapToLong(Integer::longValue).sum());
    for (int i = 0; i < 5; i++) {
      long expected = ops / 5 + (i < ops % 5 ? 1 : 0);
      assertEquals(expected, (long) seen.getOrDefault(i, 0), "position " + i);
    }
    assertEquals(ops * 1e9 / row.longs("nanos")[0], row.doubles("throughput_rps")[0], 1e-9);
  }

  @Test
  void aRequestThatThrowsEndsTheRunWithItsCause() {
    ClosedThroughput load = new ClosedThroughput(i -> {
      throw new IllegalStateException("boom " + i);
    }, 2, 2, 1_000_000, ticks());
    ExecutionException e = assertThrows(ExecutionException.class, () -> load.run(null));
    assertTrue(e.getCause().getMessage().startsWith("boom "), e.getCause().getMessage());
  }

  @Test
  void badArgumentsAreRefused() {
    assertThrows(IllegalArgumentException.class, () -> new ClosedThroughput(i -> { }, 0, 1, 1));
    assertThrows(IllegalArgumentException.class, () -> new ClosedThroughput(i -> { }, 1, 0, 1));
    assertThrows(IllegalArgumentException.class, () -> new ClosedThroughput(i -> { }, 1, 1, 0));
  }
}
