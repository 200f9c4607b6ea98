package org.lucenerevisited.engine.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.LongSupplier;
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

    /** Units of 10 ops each, logged once per iteration, until the fake clock passes the deadline. */
    @Override
    public long runUntil(long deadline, LongSupplier ignored) {
      log.add(name);
      long ops = 0;
      do {
        clock.now += costOfCall.applyAsLong(calls[0]++);
        ops += 10;
      } while (clock.now < deadline);
      return ops;
    }
  }

  @Test
  void everyContenderRunsEveryRoundInVaryingOrder() throws Exception {
    FakeClock clock = new FakeClock();
    List<String> log = new ArrayList<>();
    List<Fake> fakes = List.of(new Fake("a", clock, c -> 100, log),
        new Fake("b", clock, c -> 100, log), new Fake("c", clock, c -> 100, log));
    Table t = new InterleavedRunner(1, 2, 10, 3, 0.01, 0.02, 8, 7, () -> clock.now, () -> 0, () -> 0)
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
    Table t = new InterleavedRunner(1, 2, 50, 3, 0.01, 0.02, 4, 1, () -> clock.now, () -> 0, () -> 0)
        .run("test", fakes, Progress.NONE);
    assertEquals(8, warmupRounds(t), "5 noisy rounds + 3 stable ones");
    assertEquals(1, t.longs("stable")[0]);
  }

  /** 10 ops per 1 ms of fake time, always; the JIT works {@code jitOfCall(call)} ms meanwhile. */
  private record Flat(String name, FakeClock clock, long[] jit, LongUnaryOperator jitOfCall,
      long[] calls) implements InterleavedRunner.Contender {
    Flat(String name, FakeClock clock, long[] jit, LongUnaryOperator jitOfCall) {
      this(name, clock, jit, jitOfCall, new long[1]);
    }

    @Override
    public long runUntil(long deadline, LongSupplier ignored) {
      clock.now += 1_000_000;
      jit[0] += jitOfCall.applyAsLong(calls[0]++);
      return 10;
    }
  }

  @Test
  void aFlatSeriesIsNotSteadyWhileTheJitIsStillCompiling() throws Exception {
    FakeClock clock = new FakeClock();
    long[] jit = {0};
    // Perfectly flat rates throughout, but the JIT works 10 ms in each of the first 6 iterations
    // (each lasts 1 ms): a profiling plateau, not a steady state.
    Table t = new InterleavedRunner(1, 2, 50, 3, 0.01, 0.02, 2, 1, () -> clock.now, () -> jit[0], () -> 0)
        .run("test", List.of(new Flat("flat", clock, jit, c -> c < 6 ? 10 : 0)), Progress.NONE);
    assertEquals(9, warmupRounds(t), "6 compiling iterations, then 3 quiet ones");
    assertEquals(1, t.longs("stable")[0]);
    assertEquals(10, t.longs("jit_ms")[0]);
    assertEquals(0, t.longs("jit_ms")[t.rowCount() - 1]);

    Table u = new InterleavedRunner(1, 2, 7, 3, 0.01, 0.02, 2, 1, () -> clock.now, () -> jit[0], () -> 0)
        .run("test", List.of(new Flat("busy", clock, jit, c -> 1)), Progress.NONE);
    assertEquals(7 + 2, warmupRounds(u), "7 warm-up iterations, then both measure iterations re-run");
    assertEquals(0, u.longs("stable")[0], "a JIT busy all along never lets warm-up converge");
  }

  @Test
  void aSeriesWhoseJitTailOutlastsTheWarmUpConvergesOnItsQuietFlatMeasuredWindow() throws Exception {
    FakeClock clock = new FakeClock();
    long[] jit = {0};
    // The JIT works through all 4 warm-up iterations, then falls quiet: the measure iterations (3,
    // the stable window) are flat and quiet, so the timed window itself shows the steady state.
    Table t = new InterleavedRunner(1, 2, 4, 3, 0.01, 0.02, 3, 1, () -> clock.now, () -> jit[0], () -> 0)
        .run("test", List.of(new Flat("tail", clock, jit, c -> c < 4 ? 10 : 0)), Progress.NONE);
    assertEquals(4, warmupRounds(t), "quiet from the first measure iteration: no re-runs");
    assertEquals(1, t.longs("stable")[0]);

    // The same tail, one iteration longer than the re-runs allow: the window timed is not quiet.
    Table u = new InterleavedRunner(1, 2, 4, 3, 0.01, 0.02, 1, 1, () -> clock.now, () -> jit[0], () -> 0)
        .run("test", List.of(new Flat("tail", clock, jit, c -> c < 6 ? 10 : 0)), Progress.NONE);
    assertEquals(0, u.longs("stable")[0]);
  }

  /** Two flat series, "a" quiet and "b" compiling {@code jitOfCall(call)} ms; GC takes 1 ms per call. */
  private static Table runFlatPair(LongUnaryOperator jitOfCall, int measureIterations) throws Exception {
    FakeClock clock = new FakeClock();
    long[] jit = {0};
    return new InterleavedRunner(1, 2, 50, 3, 0.01, 0.02, measureIterations, 1, () -> clock.now,
        () -> jit[0], () -> clock.now / 1_000_000)
        .run("test", List.of(new Flat("a", clock, jit, c -> 0), new Flat("b", clock, jit, jitOfCall)),
            Progress.NONE);
  }

  @Test
  void aJitBurstWhileMeasuringMovesThatIterationIntoWarmupAndOneMoreIsMeasured() throws Exception {
    // Warm-up converges after 3 quiet iterations; b's JIT bursts in the second measure iteration.
    Table t = runFlatPair(c -> c == 4 ? 10 : 0, 4);
    assertEquals(4, warmupRounds(t), "3 warm-up iterations and the one that compiled");
    List<String> measured = new ArrayList<>();
    for (int r = 0; r < t.rowCount(); r++) {
      String at = t.strings("contender")[r] + t.strings("phase")[r] + t.longs("iteration")[r];
      if (t.strings("phase")[r].equals("measure")) {
        measured.add(at);
        assertEquals(0, t.longs("jit_ms")[r], at);
      } else if (t.longs("jit_ms")[r] > 0) {
        assertEquals("bwarmup3", at, "the burst is a warm-up iteration, numbered after the warm-up's");
      }
      assertEquals(1, t.longs("gc_ms")[r], "GC time over the sample");
      assertEquals(1, t.longs("stable")[r]);
    }
    assertEquals(List.of(0L, 1L, 2L, 3L), measuredIterations(t, "a"));
    assertEquals(List.of(0L, 1L, 2L, 3L), measuredIterations(t, "b"));
    assertEquals(8, measured.size());
  }

  @Test
  void aJitThatNeverFallsQuietWhileMeasuringIsMeasuredOnceTheRerunsRunOutAndFlagged() throws Exception {
    Table t = runFlatPair(c -> c >= 3 ? 10 : 0, 2);
    assertEquals(3 + 2, warmupRounds(t), "3 warm-up iterations, then at most 2 re-runs");
    assertEquals(List.of(0L, 1L), measuredIterations(t, "b"));
    for (int r = 0; r < t.rowCount(); r++) {
      assertEquals(t.strings("contender")[r].equals("a") ? 1 : 0, t.longs("stable")[r],
          "only the series that compiled while measured is flagged");
    }
  }

  private static List<Long> measuredIterations(Table t, String contender) {
    List<Long> out = new ArrayList<>();
    for (int r = 0; r < t.rowCount(); r++) {
      if (t.strings("contender")[r].equals(contender) && t.strings("phase")[r].equals("measure")) {
        out.add(t.longs("iteration")[r]);
      }
    }
    return out;
  }

  @Test
  void warmupStopsAtMaxWhenNeverStable() throws Exception {
    FakeClock clock = new FakeClock();
    List<String> log = new ArrayList<>();
    List<Fake> fakes = List.of(new Fake("noisy", clock, c -> c % 2 == 0 ? 100 : 300, log));
    Table t = new InterleavedRunner(1, 2, 6, 3, 0.01, 0.02, 4, 1, () -> clock.now, () -> 0, () -> 0)
        .run("test", fakes, Progress.NONE);
    assertEquals(6, warmupRounds(t));
    assertEquals(0, t.longs("stable")[0]);
  }

  @Test
  void warmupRunsAtLeastMinRounds() throws Exception {
    FakeClock clock = new FakeClock();
    List<Fake> fakes = List.of(new Fake("a", clock, c -> 200, new ArrayList<>()));
    Table t = new InterleavedRunner(1, 5, 50, 3, 0.01, 0.02, 1, 1, () -> clock.now, () -> 0, () -> 0)
        .run("test", fakes, Progress.NONE);
    assertEquals(5, warmupRounds(t));
  }

  /** Warm-up iterations = warm-up samples / contenders. */
  private static long warmupRounds(Table t) {
    long n = 0;
    for (String phase : t.strings("phase")) {
      n += phase.equals("warmup") ? 1 : 0;
    }
    return n / new HashSet<>(List.of(t.strings("contender"))).size();
  }

  @Test
  void anIterationLastsAtLeastItsTimeAndCountsEveryUnit() throws Exception {
    FakeClock clock = new FakeClock();
    List<Fake> fakes = List.of(new Fake("a", clock, c -> 300, new ArrayList<>()));
    Table t = new InterleavedRunner(1_000, 0, 0, 3, 0.01, 0.02, 2, 1, () -> clock.now, () -> 0, () -> 0)
        .run("test", fakes, Progress.NONE);
    assertEquals(2, t.rowCount());
    for (int r = 0; r < t.rowCount(); r++) {
      assertEquals(1_200, t.longs("nanos")[r], "4 units of 300 ns: the first to pass 1000 ns ends it");
      assertEquals(40, t.longs("ops")[r]);
      assertEquals(r, t.longs("iteration")[r]);
    }
    assertEquals(0, t.longs("stable")[0], "no warm-up at all cannot have converged");
  }

  @Test
  void eachSeriesConvergesOnItsOwnAndAnUnsteadyOneIsFlagged() throws Exception {
    FakeClock clock = new FakeClock();
    List<String> log = new ArrayList<>();
    // "early" is steady from the start; "late" settles after 6 calls; "never" keeps bouncing.
    List<Fake> fakes = List.of(new Fake("early", clock, c -> 200, log),
        new Fake("late", clock, c -> c < 6 ? (c % 2 == 0 ? 100 : 300) : 200, log),
        new Fake("never", clock, c -> c % 2 == 0 ? 100 : 300, log));
    Table t = new InterleavedRunner(1, 2, 12, 3, 0.01, 0.02, 2, 1, () -> clock.now, () -> 0, () -> 0)
        .run("test", fakes, Progress.NONE);
    assertEquals(12, warmupRounds(t), "runs to the maximum while one series never settles");
    java.util.Map<String, Long> stable = new java.util.HashMap<>();
    for (int r = 0; r < t.rowCount(); r++) {
      stable.put(t.strings("contender")[r], t.longs("stable")[r]);
    }
    assertEquals(java.util.Map.of("early", 1L, "late", 1L, "never", 0L), stable);

    // A series that was steady once stays converged: warm-up ends when the last one gets there.
    clock.now = 0;
    List<Fake> two = List.of(new Fake("a", clock, c -> c < 3 ? 200 : (c % 2 == 0 ? 100 : 300), log),
        new Fake("b", clock, c -> c < 5 ? (c % 2 == 0 ? 100 : 300) : 200, log));
    Table u = new InterleavedRunner(1, 2, 20, 3, 0.01, 0.02, 1, 1, () -> clock.now, () -> 0, () -> 0)
        .run("test", two, Progress.NONE);
    assertEquals(8, warmupRounds(u), "a converged at 3, b at 8");
  }
}
