package org.lucenerevisited.engine.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ClosedLoopTest {

  @Test
  void runsTheStreamInTurnAcrossIterations() throws Exception {
    List<Integer> seen = new ArrayList<>();
    ClosedLoop loop = new ClosedLoop("q", seen::add, 3);
    long[] clock = {0};
    // Each request advances the clock by 1: an iteration ending at 2 runs two requests, the next one three.
    assertEquals(2, loop.runUntil(2, () -> ++clock[0]));
    assertEquals(3, loop.runUntil(5, () -> ++clock[0]));
    assertEquals(List.of(0, 1, 2, 0, 1), seen);
  }

  @Test
  void runsAtLeastOneRequestPastItsDeadline() throws Exception {
    List<Integer> seen = new ArrayList<>();
    assertEquals(1, new ClosedLoop("q", seen::add, 5).runUntil(0, () -> 10));
    assertEquals(List.of(0), seen);
  }

  @Test
  void aRequestThatThrowsStopsTheIteration() {
    ClosedLoop loop = new ClosedLoop("q", i -> {
      throw new IllegalStateException("boom " + i);
    }, 2);
    assertEquals("boom 0", assertThrows(IllegalStateException.class, () -> loop.runUntil(10, () -> 0)).getMessage());
  }

  @Test
  void anEmptyStreamIsRefused() {
    assertThrows(IllegalArgumentException.class, () -> new ClosedLoop("q", i -> { }, 0));
  }
}
