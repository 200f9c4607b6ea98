package org.lucenerevisited.engine.harness;

import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * A closed loop held for a time, for a workload whose cost moves with the state it builds: an
 * index taking updates flushes, merges and reopens as it goes, so its iterations never agree as
 * {@link InterleavedRunner} asks. The warm-up therefore waits for the JIT alone
 * ({@link WarmupMonitor}: quiet, or working at a steady rate), and the measured time is long
 * enough to average over the state's cycles.
 *
 * <p>One row per probe: phase ("warmup" or "measure"), probe (from 0 in each phase), ops, nanos,
 * jit_ms, gc_ms, and stable on every row (1 when the warm-up ended before its maximum).
 */
public final class HeldLoop {

  static final String WARMUP = "warmup";
  static final String MEASURE = "measure";

  private final long probeNanos;
  private final long minWarmupNanos;
  private final long maxWarmupNanos;
  private final int window;
  private final double jitQuietShare;
  private final double settledDrop;
  private final long measureNanos;
  private final LongSupplier clock;
  private final LongSupplier jit;
  private final LongSupplier gc;

  /** See {@link WarmupMonitor} for the warm-up's parameters; the loop runs in probes of {@code probeNanos}. */
  public HeldLoop(long probeNanos, long minWarmupNanos, long maxWarmupNanos, int window,
      double jitQuietShare, double settledDrop, long measureNanos) {
    this(probeNanos, minWarmupNanos, maxWarmupNanos, window, jitQuietShare, settledDrop,
        measureNanos, System::nanoTime, JvmCounters.jitMillis(), JvmCounters.gcMillis());
  }

  /** With an injectable clock and JIT and GC counters (cumulative ms), so tests decide the warm-up. */
  HeldLoop(long probeNanos, long minWarmupNanos, long maxWarmupNanos, int window,
      double jitQuietShare, double settledDrop, long measureNanos, LongSupplier clock,
      LongSupplier jit, LongSupplier gc) {
    if (probeNanos < 1 || measureNanos < probeNanos) {
      throw new IllegalArgumentException("need probeNanos >= 1 and measureNanos >= probeNanos, got "
          + probeNanos + " and " + measureNanos);
    }
    this.probeNanos = probeNanos;
    this.minWarmupNanos = minWarmupNanos;
    this.maxWarmupNanos = maxWarmupNanos;
    this.window = window;
    this.jitQuietShare = jitQuietShare;
    this.settledDrop = settledDrop;
    this.measureNanos = measureNanos;
    this.clock = clock;
    this.jit = jit;
    this.gc = gc;
  }

  /** Runs {@code loop} through its warm-up and measured time; {@code progress} gets each phase's nanoseconds. */
  public Table run(ClosedLoop loop, Progress progress) throws Exception {
    YoungGeneration.touchOnce();
    List<Probe> probes = new ArrayList<>();
    long start = clock.getAsLong();
    WarmupMonitor warmup = new WarmupMonitor(start, minWarmupNanos, maxWarmupNanos, window,
        jitQuietShare, settledDrop, jit);
    String phase = WARMUP;
    long phaseStart = start;
    long phaseLength = maxWarmupNanos;
    for (long t = start, probe = 0; !phase.equals(MEASURE) || t - phaseStart < measureNanos; probe++) {
      long j = jit.getAsLong();
      long g = gc.getAsLong();
      long ops = loop.runUntil(t + probeNanos, clock);
      long now = clock.getAsLong();
      probes.add(new Probe(phase, probe, ops, now - t, jit.getAsLong() - j, gc.getAsLong() - g));
      t = now;
      if (phase.equals(WARMUP) && warmup.probe(now)) {
        phase = MEASURE;
        phaseStart = now;
        phaseLength = measureNanos;
        probe = -1;
      }
      progress.report(phase, Math.min(now - phaseStart, phaseLength), phaseLength);
    }
    Table.Builder rows = Table.builder().stringColumn("phase").longColumn("probe").longColumn("ops")
        .longColumn("nanos").longColumn("jit_ms").longColumn("gc_ms").longColumn("stable");
    for (Probe p : probes) {
      rows.addRow(p.phase, p.index, p.ops, p.nanos, p.jit, p.gc, warmup.stable() ? 1L : 0L);
    }
    return rows.build();
  }

  private record Probe(String phase, long index, long ops, long nanos, long jit, long gc) {}
}
