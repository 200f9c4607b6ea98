package org.lucenerevisited.engine.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.SortedSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.HistogramLogReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

class OpenLoopTest {

  private static final long MS = 1_000_000L;

  private static long summary(LoadResult r, String column) {
    return r.summary().longs(column)[0];
  }

  /** The arrivals a schedule puts before {@code durationNanos}. */
  private static long arrivals(double rate, long seed, long durationNanos) {
    ArrivalSchedule s = new ArrivalSchedule(rate, seed);
    long n = 0;
    while (s.next() < durationNanos) {
      n++;
    }
    return n;
  }

  @Test
  void everyArrivalRunsItsStreamItemAndCompletesWithinTheDrain() throws Exception {
    Set<Integer> items = ConcurrentHashMap.newKeySet();
    LoadResult r = new OpenLoop(items::add, 7, 200, 2, 300 * MS, 100 * MS, 5_000 * MS, 3)
        .run(null);

    long dispatched = summary(r, "dispatched");
    assertEquals(arrivals(200, 3, 300 * MS), dispatched, "the seed fixes the arrivals");
    assertEquals(dispatched, summary(r, "completed"));
    assertEquals(0, summary(r, "unfinished"));
    assertEquals(Set.of(0, 1, 2, 3, 4, 5, 6), items, "arrival i runs item i % 7");

    Table rows = r.intervals();
    long completed = 0;
    long load = 0;
    for (int i = 0; i < rows.rowCount(); i++) {
      completed += rows.longs("completed")[i];
      load += rows.strings("phase")[i].equals(OpenLoop.LOAD) ? 1 : 0;
      assertEquals(i, rows.longs("interval")[i]);
    }
    assertEquals(dispatched, completed, "every completion is in exactly one interval");
    assertEquals(3, load, "300 ms of load in 100 ms intervals");
    assertEquals(OpenLoop.DRAIN, rows.strings("phase")[rows.rowCount() - 1]);
  }

  @Test
  void theLoadsJitAndGcTimesAreItsIntervals() throws Exception {
    // Garbage in every request, so that the collector has something to do.
    Request allocating = i -> Blackhole.sink = new byte[1 << 16];
    LoadResult r = new OpenLoop(allocating, 7, 500, 2, 300 * MS, 100 * MS, 5_000 * MS, 3).run(null);
    Table rows = r.intervals();
    long jit = 0;
    long gc = 0;
    for (int i = 0; i < rows.rowCount(); i++) {
      assertTrue(rows.longs("jit_ms")[i] >= 0 && rows.longs("gc_ms")[i] >= 0, "interval " + i);
      if (rows.strings("phase")[i].equals(OpenLoop.LOAD)) {
        jit += rows.longs("jit_ms")[i];
        gc += rows.longs("gc_ms")[i];
      }
    }
    assertEquals(jit, summary(r, "jit_ms"), "the summary counts the load, not the drain");
    assertEquals(gc, summary(r, "gc_ms"));
  }

  @Test
  void theWorkersCpuHoldsWhatTheRequestsSpentAndIsPartOfTheProcesss() throws Exception {
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    AtomicLong spent = new AtomicLong();
    Request spinning = i -> {
      long from = threads.getCurrentThreadCpuTime();
      long x = 0;
      for (int k = 0; k < 200_000; k++) {
        x += k * (long) i;
      }
      Blackhole.sink = x;
      spent.addAndGet(threads.getCurrentThreadCpuTime() - from);
    };
    LoadResult r = new OpenLoop(spinning, 7, 200, 2, 300 * MS, 100 * MS, 5_000 * MS, 3).run(null);
    Table rows = r.intervals();
    long workers = 0;
    long process = 0;
    for (int i = 0; i < rows.rowCount(); i++) {
      assertTrue(rows.longs("worker_cpu_ns")[i] >= 0, "interval " + i);
      workers += rows.longs("worker_cpu_ns")[i];
      process += rows.longs("cpu_ns")[i];
    }
    assertTrue(workers >= spent.get(), workers + " ns for the workers, their requests " + spent);
    assertTrue(workers <= process, workers + " ns for the workers, the process " + process);
    assertEquals(summary(r, "cores"), summary(r, "server_cores"), "unpinned: every CPU serves");
  }

  /** Keeps an allocation from being optimized away. */
  private static final class Blackhole {
    static volatile Object sink;
  }

  @Test
  void queueingCountsWhenTheWorkersFallBehind() throws Exception {
    // One worker needs 20 ms a request while 100 arrive per second: twice what it can serve.
    Request slow = i -> Thread.sleep(20);
    LoadResult r = new OpenLoop(slow, 10, 100, 1, 1_000 * MS, 200 * MS, 0, 11).run(null);

    double service = r.summary().doubles("mean_service_ns")[0];
    assertTrue(service >= 20 * MS, "service " + service);
    assertTrue(summary(r, "p50_ns") > 2 * service,
        "latency includes the wait in the queue: p50 " + summary(r, "p50_ns")
            + " vs service " + service);
    assertTrue(summary(r, "backlog_growth") > 0, "backlog " + summary(r, "backlog_growth"));
    long unfinished = summary(r, "unfinished");
    assertTrue(unfinished > 0, "with no drain, the queued requests are left unfinished");
    assertEquals(summary(r, "dispatched"), summary(r, "completed") + unfinished,
        "no request is lost");
  }

  @Test
  void aThrowingRequestEndsTheRunWithItsException() {
    IllegalStateException boom = new IllegalStateException("boom");
    Request failsOnThree = i -> {
      if (i == 3) {
        throw boom;
      }
    };
    ExecutionException e = assertThrows(ExecutionException.class,
        () -> new OpenLoop(failsOnThree, 5, 1_000, 2, 10_000 * MS, 3).run(null));
    assertSame(boom, e.getCause());
    assertTrue(e.getMessage().contains("stream item 3"), e.getMessage());
  }

  @Test
  void writesAnIntervalLogOfEveryCompletion(@TempDir Path dir) throws Exception {
    Path log = dir.resolve("load.hlog");
    LoadResult r = new OpenLoop(i -> {}, 4, 500, 2, 300 * MS, 100 * MS, 5_000 * MS, 5).run(log);

    assertTrue(Files.size(log) > 0);
    long latencies = 0;
    long services = 0;
    HistogramLogReader reader = new HistogramLogReader(new File(log.toString()));
    for (EncodableHistogram h; (h = reader.nextIntervalHistogram()) != null; ) {
      long count = ((org.HdrHistogram.Histogram) h).getTotalCount();
      if (LoadRecorder.LATENCY.equals(h.getTag())) {
        latencies += count;
      } else if (LoadRecorder.SERVICE.equals(h.getTag())) {
        services += count;
      }
    }
    reader.close();
    assertTrue(summary(r, "completed") > 0);
    assertEquals(summary(r, "completed"), latencies);
    assertEquals(summary(r, "completed"), services);
  }

  @Test
  void aPinnedLoadRunsItsRequestsOnTheServersCpusAndGivesTheCallerItsOwnBack() throws Exception {
    SortedSet<Integer> mine = CpuAffinity.current();
    assumeTrue(mine.size() >= 2, "pinning needs two CPUs");
    String generator = String.valueOf(mine.last());
    String server = String.valueOf(mine.first());
    Set<SortedSet<Integer>> seen = ConcurrentHashMap.newKeySet();
    LoadResult r = new OpenLoop(i -> seen.add(CpuAffinity.current()), 5, 200, 3, 200 * MS, 7)
        .withPinning(generator, server).run(null);

    assertEquals(Set.of(CpuAffinity.parse(server)), seen, "every request ran on the server's CPUs");
    assertEquals(mine, CpuAffinity.current(), "the caller's CPUs are its own again");
    assertEquals(mine.size(), summary(r, "cores"), "the CPU share is over all the caller's CPUs");
    assertEquals(1, summary(r, "server_cores"), "the workers' share is over the server's CPUs");
  }

  @Test
  void pinningRefusesOverlappingOrMalformedCpuLists() {
    OpenLoop load = new OpenLoop(i -> {}, 1, 10, 1, MS, 1);
    IllegalArgumentException overlap = assertThrows(IllegalArgumentException.class,
        () -> load.withPinning("0-1", "1"));
    assertTrue(overlap.getMessage().contains("overlap"), overlap.getMessage());
    assertThrows(IllegalArgumentException.class, () -> load.withPinning("a", "0"));
    assertThrows(IllegalArgumentException.class, () -> load.withPinning("3-1", "0"));
  }

  @Test
  void rejectsBadArgumentsNamingThem() {
    Request noop = i -> {};
    assertRejects("rate", () -> new OpenLoop(noop, 1, 0, 1, MS, 1));
    assertRejects("rate", () -> new OpenLoop(noop, 1, -5, 1, MS, 1));
    assertRejects("rate", () -> new OpenLoop(noop, 1, Double.NaN, 1, MS, 1));
    assertRejects("workers", () -> new OpenLoop(noop, 1, 10, 0, MS, 1));
    assertRejects("durationNanos", () -> new OpenLoop(noop, 1, 10, 1, 0, 1));
    assertRejects("durationNanos", () -> new OpenLoop(noop, 1, 10, 1, MS, 1).withDuration(-1));
    assertRejects("rate", () -> new OpenLoop(noop, 1, 10, 1, MS, 1).withRate(0));
    assertRejects("streamSize", () -> new OpenLoop(noop, 0, 10, 1, MS, 1));
    assertRejects("intervalNanos", () -> new OpenLoop(noop, 1, 10, 1, MS, 0, 0, 1));
    assertRejects("drainNanos", () -> new OpenLoop(noop, 1, 10, 1, MS, MS, -1, 1));
    assertRejects("request", () -> new OpenLoop(null, 1, 10, 1, MS, 1));
  }

  private static void assertRejects(String argument, Executable construct) {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, construct);
    assertTrue(e.getMessage().contains(argument), e.getMessage());
  }
}
