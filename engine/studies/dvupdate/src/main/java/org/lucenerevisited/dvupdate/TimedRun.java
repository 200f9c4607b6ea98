package org.lucenerevisited.dvupdate;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.TermQuery;
import org.lucenerevisited.engine.harness.JvmCounters;
import org.lucenerevisited.engine.harness.Progress;
import org.lucenerevisited.engine.harness.Table;
import org.lucenerevisited.engine.harness.WarmupMonitor;

/**
 * One combination of the seed's benchmark: update threads held to a rate, one thread reopening at an
 * interval, search threads sorting by lastmod, all at once: a warm-up until the JIT is quiet or steady
 * (see {@link WarmupMonitor}), then a measured time long enough for both {@code spec.measureMillis} and
 * {@code spec.minReopens} reopens, at most {@code spec.maxMeasureMillis}: a mean over two or three reopens
 * of a long interval says little about a reopen's cost.
 *
 * <p>The rate is a schedule, not a pace: update k is due at {@code t0 + k * 1e9 / rate} ns, threads
 * take the next ticket, wait until it is due and apply it. A thread that falls behind runs its
 * tickets late, never skips them, so falling behind shows as lag and as completed updates trailing
 * due ones. Reopen j is due at {@code t0 + j * interval}; a late one starts at once and records how
 * late, until the run ends. Each reopen emits one row, counting what happened since the previous one.
 * The rows are added once the run is over, when the measured window's verdict is known: if the JIT
 * compiled for more than {@code jitQuietShare} of the measured reopens' time (their elapsed_ns), it was
 * no steady state, and the measured rows are flagged {@code stable = 0}, as after a warm-up that never
 * converged.
 */
final class TimedRun {

  private static final long SECOND = 1_000_000_000L;
  private static final long MILLI = 1_000_000L;
  private static final MemoryMXBean MEMORY = ManagementFactory.getMemoryMXBean();
  private static final LongSupplier JIT = JvmCounters.jitMillis();
  private static final LongSupplier GC = JvmCounters.gcMillis();
  private static final List<String> COLUMNS = List.of("combo", "rate", "interval_ms", "reopen", "t_ms", "late_ns",
      "reopen_ns", "changed", "updates", "update_ns", "due", "done", "max_lag_ns", "queries", "elapsed_ns",
      "fell_behind", "heap_bytes", "ram_buffer_bytes", "flushed", "segments", "warmup", "stable", "warmup_ms", "jit_ms",
      "gc_ms");
  private static final int WARMUP = COLUMNS.indexOf("warmup");
  private static final int STABLE = COLUMNS.indexOf("stable");
  private static final int ELAPSED = COLUMNS.indexOf("elapsed_ns");
  private static final int JIT_MS = COLUMNS.indexOf("jit_ms");

  private final DvuSpec spec;
  private final int combo;
  private final int rate;
  private final long intervalNanos;
  private final int rows;
  private final Methods.Method method;
  private final Latencies latencies;

  private long t0;
  /** The latest the run can end; it only ever moves earlier, so no thread is stopped and then needed again. */
  private volatile long end;
  /** Long.MAX_VALUE until the warm-up is over. */
  private volatile long warmupEnd = Long.MAX_VALUE;
  private WarmupMonitor warmup;
  private final AtomicLong tickets = new AtomicLong();
  private final LongAdder done = new LongAdder();
  private final LongAdder updateNanos = new LongAdder();
  private final AtomicLong maxLag = new AtomicLong();
  private final LongAdder queries = new LongAdder();
  /** Reopens done that started after the warm-up. */
  private final AtomicLong measuredReopens = new AtomicLong();
  /** Written by the reopen thread, read once it has ended. */
  private final List<Object[]> rowsOut = new ArrayList<>();

  TimedRun(DvuSpec spec, int combo, int rows, Methods.Method method) {
    this.spec = spec;
    this.combo = combo;
    this.rate = spec.rates[combo];
    this.intervalNanos = spec.intervalsMillis[combo] * 1_000_000L;
    this.rows = rows;
    this.method = method;
    this.latencies = new Latencies(combo, rate, spec.intervalsMillis[combo]);
  }

  static Table.Builder columns() {
    Table.Builder t = Table.builder();
    for (String c : COLUMNS) {
      t.longColumn(c);
    }
    return t;
  }

  /** Runs the combination on {@code reader} (its reference is taken over), one row per reopen into {@code out}. */
  Latencies run(IndexReader reader, Table.Builder out, Progress progress) throws Exception {
    ExecutorService threads = Executors.newFixedThreadPool(spec.indexThreads + spec.searchThreads + 1, r -> {
      Thread t = new Thread(r, "dvupdate-" + combo);
      t.setDaemon(true);
      return t;
    });
    try (SearcherSlot slot = new SearcherSlot(reader)) {
      t0 = System.nanoTime() + 10 * MILLI; // every thread is waiting by then
      long measureNanos = spec.measureMillis * MILLI;
      long maxMeasureNanos = spec.maxMeasureMillis * MILLI;
      // The first combination carries the fork's warm-up (spec.firstWarmupMillis); the window's length stays.
      long warmupNanos = (combo == 0 ? Math.max(spec.warmupMillis, spec.firstWarmupMillis) : spec.warmupMillis)
          * MILLI;
      long maxWarmupNanos = warmupNanos + (spec.maxWarmupMillis - spec.warmupMillis) * MILLI;
      end = t0 + maxWarmupNanos + maxMeasureNanos;
      warmup = new WarmupMonitor(t0, warmupNanos, maxWarmupNanos, spec.quietProbes, spec.jitQuietShare,
          spec.jitSettledDrop);
      List<Future<?>> running = new ArrayList<>();
      running.add(threads.submit(call(() -> reopens(slot))));
      for (int t = 0; t < spec.indexThreads; t++) {
        running.add(threads.submit(call(this::updates)));
      }
      for (int t = 0; t < spec.searchThreads; t++) {
        int offset = t * spec.queries.length / spec.searchThreads;
        running.add(threads.submit(call(() -> searches(slot, offset))));
      }
      String stage = "combination " + combo;
      long reported = 0;
      parkUntil(t0);
      for (long now = System.nanoTime(); now < end; now = System.nanoTime()) {
        if (warmupEnd == Long.MAX_VALUE && warmup.probe(now)) {
          warmupEnd = now;
          end = now + maxMeasureNanos;
        } else if (warmupEnd != Long.MAX_VALUE && now - warmupEnd >= measureNanos
            && measuredReopens.get() >= spec.minReopens) {
          end = now;
          break;
        }
        if (now - reported >= SECOND) { // progress calls into Python: rarely
          progress.report(stage, (now - t0) / MILLI, (end - t0) / MILLI);
          reported = now;
        }
        parkUntil(Math.min(end, now + spec.probeMillis * MILLI));
      }
      progress.report(stage, (end - t0) / MILLI, (end - t0) / MILLI);
      // Every thread ends by itself at the end of the run; all are awaited, even after a failure,
      // so that no search still holds the slot's reader when it closes.
      Exception failure = null;
      for (Future<?> f : running) {
        try {
          f.get();
        } catch (ExecutionException e) {
          failure = failure != null ? failure : e.getCause() instanceof Exception cause ? cause : e;
        }
      }
      if (failure != null) {
        throw failure;
      }
      long jitMillis = 0;
      long nanos = 0;
      for (Object[] row : rowsOut) {
        if ((long) row[WARMUP] == 0) {
          jitMillis += (long) row[JIT_MS];
          nanos += (long) row[ELAPSED];
        }
      }
      boolean quiet = jitMillis * 1e6 <= spec.jitQuietShare * nanos;
      for (Object[] row : rowsOut) {
        if ((long) row[WARMUP] == 0 && !quiet) {
          row[STABLE] = 0L;
        }
        out.addRow(row);
      }
    } finally {
      threads.shutdownNow();
    }
    return latencies;
  }

  private interface Body {
    void run() throws Exception;
  }

  private static Callable<Void> call(Body body) {
    return () -> {
      body.run();
      return null;
    };
  }

  private static void parkUntil(long deadline) {
    for (long now = System.nanoTime(); now < deadline; now = System.nanoTime()) {
      LockSupport.parkNanos(deadline - now);
    }
  }

  /** When ticket {@code k} is due, relative to t0. */
  private long dueOffset(long k) {
    return k * SECOND / rate;
  }

  /** Tickets due by {@code t} (those with {@code dueOffset(k) <= t - t0}), at most those due before the end. */
  private long dueBy(long t) {
    long elapsed = t - t0;
    return elapsed < 0 ? 0 : Math.min(((end - t0) * rate + SECOND - 1) / SECOND,
        ((elapsed + 1) * rate + SECOND - 1) / SECOND);
  }

  private void updates() throws Exception {
    Update update = method.update();
    for (long k = tickets.getAndIncrement(); ; k = tickets.getAndIncrement()) {
      long due = t0 + dueOffset(k);
      if (due >= end) {
        return;
      }
      parkUntil(due);
      long start = System.nanoTime();
      if (start >= end) {
        return; // a thread that fell behind leaves its late tickets undone: the backlog is in the rows
      }
      long lag = start - due;
      maxLag.accumulateAndGet(lag, Math::max);
      update.apply(k, Targets.row(spec.seed, k, rows));
      long nanos = System.nanoTime() - start;
      updateNanos.add(nanos);
      done.increment();
      if (start >= warmupEnd) {
        latencies.update.recordValue(nanos);
        latencies.lag.recordValue(lag);
      }
    }
  }

  private void searches(SearcherSlot slot, int offset) throws Exception {
    for (int n = 0; System.nanoTime() < end; n++) {
      TermQuery query = new TermQuery(new Term(DvuSchema.BODY, spec.queries[(n + offset) % spec.queries.length]));
      SearcherSlot.Current current = slot.acquire();
      long start = System.nanoTime();
      try {
        current.searcher().search(query, spec.topN, DvuSchema.BY_LASTMOD);
      } finally {
        slot.release(current);
      }
      long nanos = System.nanoTime() - start;
      queries.increment();
      if (start >= warmupEnd) {
        latencies.query.recordValue(nanos);
      }
    }
  }

  private void reopens(SearcherSlot slot) throws Exception {
    Reopener reopener = method.reopener();
    long previousStart = t0;
    long previousEnd = t0;
    long previousDone = 0;
    long previousNanos = 0;
    long previousQueries = 0;
    long previousJit = JIT.getAsLong();
    long previousGc = GC.getAsLong();
    for (long j = 1; t0 + j * intervalNanos <= end; j++) {
      long scheduled = t0 + j * intervalNanos;
      parkUntil(scheduled);
      if (scheduled > end || System.nanoTime() >= end) {
        // The run ended while this reopen waited, or while the ones before it ran late: a reopen after the
        // updates stopped finds nothing to do, and late ones would follow each other at once.
        return;
      }
      // Counted before the clock is read, so every update counted done was due by the reopen's start.
      long doneNow = done.sum();
      long nanosNow = updateNanos.sum();
      long queriesNow = queries.sum();
      long jitNow = JIT.getAsLong();
      long gcNow = GC.getAsLong();
      long lag = maxLag.getAndSet(0);
      long start = System.nanoTime();
      Reopener.Reopened reopened = reopener.reopen(slot.reader());
      long reopenNanos = System.nanoTime() - start;
      if (reopened.reader() != null) {
        slot.swap(reopened.reader());
      }
      long warmedAt = warmupEnd;
      boolean warmingUp = start < warmedAt;
      if (!warmingUp) {
        latencies.reopen.recordValue(reopenNanos);
        measuredReopens.incrementAndGet();
      }
      rowsOut.add(new Object[] {(long) combo, (long) rate, intervalNanos / 1_000_000, j, (start - t0) / 1_000_000,
          start - scheduled, reopenNanos, reopened.reader() != null ? 1L : 0L, doneNow - previousDone,
          nanosNow - previousNanos, dueBy(start), doneNow, lag, queriesNow - previousQueries,
          start - previousStart, previousEnd > scheduled ? 1L : 0L, MEMORY.getHeapMemoryUsage().getUsed(),
          reopened.ramBufferBytes(), reopened.flushed() ? 1L : 0L, (long) slot.reader().leaves().size(),
          warmingUp ? 1L : 0L, warmup.stable() ? 1L : 0L,
          warmedAt == Long.MAX_VALUE ? -1L : (warmedAt - t0) / MILLI, jitNow - previousJit, gcNow - previousGc});
      previousStart = start;
      previousEnd = System.nanoTime();
      previousDone = doneNow;
      previousNanos = nanosNow;
      previousQueries = queriesNow;
      previousJit = jitNow;
      previousGc = gcNow;
    }
  }
}
