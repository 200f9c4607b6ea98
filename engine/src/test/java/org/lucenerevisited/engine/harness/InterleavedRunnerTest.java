package org.lucenerevisited.engine.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.LongUnaryOperator;
import org.junit.jupiter.api.Test;

class InterleavedRunnerTest {

  /** A fake clock that only contenders advance, by a cost depending on their call count. */
  private static final class FakeClock {
    long now;
  }

  private record Fake(String name, FakeClock clock, LongUnaryOperator costOfCall, List<String> log,
      long[] calls) implements InterleavedRunner.Contender {
    Fake(String name, FakeClock clock, LongUnaryOperator costOfCall, List<String> log) {
      this(name, clock, costOfCall, log, new long[1]);
    }

    @Override
    public long runOnce() {
      log.add(name);
      clock.now += costOfCall.applyAsLong(calls[0]++);
      return 10;
    }
  }

  @Test
  void everyContenderRunsEveryRoundInVaryingOrder() throws Exception {
    FakeClock clock = new FakeClock();
    List<String> log = new ArrayList<>();
    List<Fake> fakes = List.of(new Fake("a", clock, c -> 100, log),
        new Fake("b", clock, c -> 100, log), new Fake("c", clock, c -> 100, log));
    Table t = new InterleavedRunner(2, 10, 3, 0.01, 8, 7, () -> clock.now)
        .run("test", fakes, Progress.NONE);

    assertEquals(0, log.size() % 3);
    Set<String> orders = new HashSet<>();
    for (int r = 0; r < log.size() / 3; r++) {
      List<String> round = log.subList(3 * r, 3 * r + 3);
      assertEquals(Set.of("a", "b", "c"), new HashSet<>(round), "round " + r);
      orders.add(String.join("", round));
    }
    assertTrue(orders.size() > 1, "order never changed: " + orders);
    assertEquals(log.size(), t.rowCount());
    long measured = 0;
    for (String phase : t.strings("phase")) {
      measured += phase.equals("measure") ? 1 : 0;
    }
    assertEquals(3 * 8, measured);
    assertEquals(100, t.longs("nanos")[0]);
    assertEquals(10, t.longs("ops")[0]);
  }

  @Test
  void warmupStopsOnceStable() throws Exception {
    FakeClock clock = new FakeClock();
    List<String> log = new ArrayList<>();
    // Noisy for the first 5 calls, then constant.
    LongUnaryOperator settles = c -> c < 5 ? (c % 2 == 0 ? 100 : 300) : 200;
    List<Fake> fakes = List.of(new Fake("a", clock, settles, log),
        new Fake("b", clock, c -> 200, log));
    Table t = new InterleavedRunner(2, 50, 3, 0.01, 4, 1, () -> clock.now)
        .run("test", fakes, Progress.NONE);
    assertEquals(8, warmupRounds(t), "5 noisy rounds + 3 stable ones");
    assertEquals(1, t.longs("stable")[0]);
  }

  @Test
  void warmupStopsAtMaxWhenNeverStable() throws Exception {
    FakeClock clock = new FakeClock();
    List<String> log = new ArrayList<>();
    List<Fake> fakes = List.of(new Fake("noisy", clock, c -> c % 2 == 0 ? 100 : 300, log));
    Table t = new InterleavedRunner(2, 6, 3, 0.01, 4, 1, () -> clock.now)
        .run("test", fakes, Progress.NONE);
    assertEquals(6, warmupRounds(t));
    assertEquals(0, t.longs("stable")[0]);
  }

  @Test
  void warmupRunsAtLeastMinRounds() throws Exception {
    FakeClock clock = new FakeClock();
    List<Fake> fakes = List.of(new Fake("a", clock, c -> 200, new ArrayList<>()));
    Table t = new InterleavedRunner(5, 50, 3, 0.01, 1, 1, () -> clock.now)
        .run("test", fakes, Progress.NONE);
    assertEquals(5, warmupRounds(t));
  }

  /** Warm-up rounds = warm-up samples / contenders. */
  private static long warmupRounds(Table t) {
    long n = 0;
    for (String phase : t.strings("phase")) {
      n += phase.equals("warmup") ? 1 : 0;
    }
    return n / new HashSet<>(List.of(t.strings("contender"))).size();
  }

  @Test
  void roundHookRunsAfterEveryRoundOutsideTheTimedRegion() throws Exception {
    FakeClock clock = new FakeClock();
    List<String> log = new ArrayList<>();
    List<Fake> fakes = List.of(new Fake("a", clock, c -> 100, log),
        new Fake("b", clock, c -> 100, log));
    Table t = new InterleavedRunner(2, 2, 2, 0.5, 3, 7, () -> clock.now)
        .run("test", fakes, Progress.NONE, (phase, round) -> {
          log.add(phase + round);
          clock.now += 1_000_000;
        });

    assertEquals(List.of("warmup0", "warmup1", "measure0", "measure1", "measure2"),
        log.stream().filter(s -> s.length() > 1).toList());
    for (int r = 0; r < 5; r++) {
      assertEquals(Set.of("a", "b"), new HashSet<>(log.subList(3 * r, 3 * r + 2)), "round " + r);
    }
    for (long nanos : t.longs("nanos")) {
      assertEquals(100, nanos, "the hook's time leaked into a sample");
    }
  }
}
