package org.lucenerevisited.engine.harness;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongSupplier;

/**
 * The most a server does with {@code workers} threads when none of them ever waits for a request: each
 * runs the stream's next request as soon as it finished the last, for {@code durationNanos}. Beside an
 * open-loop saturation search on the same workers it separates two limits: the rate the server can
 * complete at all (this), and the rate it can be offered before its latency grows (the search). A
 * request that throws ends the run with an {@link ExecutionException} carrying it.
 *
 * <p>Pinned ({@link #run(String)}), the workers run on the server's CPUs, as {@link OpenLoop}'s do.
 * The stream position is shared: request {@code i} of the stream runs once before {@code i + 1}
 * is handed out, so every request of the stream runs in turn, whichever worker takes it.
 */
public final class ClosedThroughput {

  private final Request request;
  private final int streamSize;
  private final int workers;
  private final long durationNanos;
  private final LongSupplier clock;

  public ClosedThroughput(Request request, int streamSize, int workers, long durationNanos) {
    this(request, streamSize, workers, durationNanos, System::nanoTime);
  }

  ClosedThroughput(Request request, int streamSize, int workers, long durationNanos, LongSupplier clock) {
    if (streamSize < 1) {
      throw new IllegalArgumentException("streamSize must be >= 1, got " + streamSize);
    }
    if (workers < 1) {
      throw new IllegalArgumentException("workers must be >= 1, got " + workers);
    }
    if (durationNanos <= 0) {
      throw new IllegalArgumentException("durationNanos must be > 0, got " + durationNanos);
    }
    this.request = request;
    this.streamSize = streamSize;
    this.workers = workers;
    this.durationNanos = durationNanos;
    this.clock = clock;
  }

  /**
   * Runs the load; one row: workers, ops (requests completed), nanos (from the workers' start to the
   * last one's end), throughput_rps, jit_ms and gc_ms (the JIT's and the collectors' time meanwhile).
   *
   * @param serverCpus the CPUs the workers run on (taskset's syntax), or null: wherever the OS puts them
   */
  public Table run(String serverCpus) throws Exception {
    String callerCpus = serverCpus == null ? null : CpuAffinity.format(CpuAffinity.current());
    LongSupplier jit = JvmCounters.jitMillis();
    LongSupplier gc = JvmCounters.gcMillis();
    AtomicLong next = new AtomicLong();
    AtomicLong done = new AtomicLong();
    AtomicReference<Throwable> failure = new AtomicReference<>();
    List<Thread> threads = new ArrayList<>();
    long jit0 = jit.getAsLong();
    long gc0 = gc.getAsLong();
    long start = clock.getAsLong();
    long deadline = start + durationNanos;
    try {
      if (serverCpus != null) {
        CpuAffinity.pin(serverCpus); // threads get their creator's CPUs
      }
      for (int w = 0; w < workers; w++) {
        Thread t = new Thread(() -> {
          try {
            while (failure.get() == null && clock.getAsLong() < deadline) {
              request.run((int) (next.getAndIncrement() % streamSize));
              done.incrementAndGet();
            }
          } catch (Throwable e) {
            failure.compareAndSet(null, e);
          }
        }, "closed-throughput-worker-" + w);
        t.setDaemon(true);
        t.start();
        threads.add(t);
      }
    } finally {
      if (callerCpus != null) {
        CpuAffinity.pin(callerCpus);
      }
    }
    for (Thread t : threads) {
      t.join();
    }
    long nanos = clock.getAsLong() - start;
    if (failure.get() != null) {
      throw new ExecutionException("a request failed", failure.get());
    }
    long ops = done.get();
    return Table.builder().longColumn("workers").longColumn("ops").longColumn("nanos")
        .doubleColumn("throughput_rps").longColumn("jit_ms").longColumn("gc_ms")
        .addRow((long) workers, ops, nanos, ops * 1e9 / nanos, jit.getAsLong() - jit0,
            gc.getAsLong() - gc0)
        .build();
  }
}
