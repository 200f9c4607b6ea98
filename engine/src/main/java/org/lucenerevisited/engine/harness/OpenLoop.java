package org.lucenerevisited.engine.harness;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;

/**
 * An open-loop load, as a constant-throughput load generator offers it to a server: requests are
 * due at the times of a seeded Poisson process ({@link ArrivalSchedule}) whatever the server
 * does, and a request's latency runs from its intended send time to its completion. Time spent
 * queued therefore counts: a slow server cannot hold back the arrivals that would have measured
 * its slowness (no coordinated omission).
 *
 * <p>One dispatcher thread waits for each due time and appends the request to an unbounded queue;
 * it never waits for a worker, so when the {@code workers} fall behind, the queue (the backlog)
 * grows. Workers run arrival {@code i} as {@code request.run(i % streamSize)}. After
 * {@code durationNanos} the dispatcher stops; requests already dispatched get up to
 * {@code drainNanos} more to finish, and those that do not are reported as unfinished, never
 * dropped silently. A request that throws ends the run: {@link #run} throws an
 * {@link ExecutionException} whose cause is what the request threw.
 *
 * <p>Warm-up: run {@code withDuration(warmup).run(null)} and discard its result. The steps of a
 * saturation search: {@link #withRate}.
 *
 * <p>Pinning ({@link #withPinning}): a load generator sharing CPUs with the server it loads is
 * late to send when the server is busy, and its lateness reads as the server's latency. Pinned,
 * the workers (and every thread a request starts) run on the server's CPUs, while the dispatcher
 * and the thread that calls {@link #run} (it writes the intervals) run on the generator's. The
 * JVM's own threads (JIT compilers, GC) are left where they were.
 */
public final class OpenLoop {

  static final String LOAD = "load";
  static final String DRAIN = "drain";

  public static final long DEFAULT_INTERVAL_NANOS = 1_000_000_000L;
  public static final long DEFAULT_DRAIN_NANOS = 10_000_000_000L;

  /** How often the end of the drain is checked for; short next to any request worth measuring. */
  private static final long DRAIN_POLL_NANOS = 1_000_000L;
  /** How long stopped workers get, together, to leave the requests they are in. */
  private static final long JOIN_NANOS = 1_000_000_000L;

  /** Tells a worker to leave; never dispatched as a request. */
  private static final Job STOP = new Job(-1, 0);

  private final Request request;
  private final int streamSize;
  private final double rate;
  private final int workers;
  private final long durationNanos;
  private final long intervalNanos;
  private final long drainNanos;
  private final long seed;
  /** CPU lists (taskset's syntax) of the generator's and the workers' threads; null: unpinned. */
  private final String generatorCpus;
  private final String serverCpus;

  /** A load with 1 s intervals and a 10 s drain. */
  public OpenLoop(Request request, int streamSize, double rate, int workers, long durationNanos,
      long seed) {
    this(request, streamSize, rate, workers, durationNanos, DEFAULT_INTERVAL_NANOS,
        DEFAULT_DRAIN_NANOS, seed);
  }

  /**
   * @param rate requests offered per second, on average
   * @param workers the fixed number of threads that run requests
   * @param intervalNanos the length of one row of {@link LoadResult#intervals()}
   * @param drainNanos how long dispatched requests may take to finish after the load's end
   */
  public OpenLoop(Request request, int streamSize, double rate, int workers, long durationNanos,
      long intervalNanos, long drainNanos, long seed) {
    this(request, streamSize, rate, workers, durationNanos, intervalNanos, drainNanos, seed, null,
        null);
  }

  private OpenLoop(Request request, int streamSize, double rate, int workers, long durationNanos,
      long intervalNanos, long drainNanos, long seed, String generatorCpus, String serverCpus) {
    if (request == null) {
      throw new IllegalArgumentException("request must not be null");
    }
    if (streamSize <= 0) {
      throw new IllegalArgumentException("streamSize must be > 0, got " + streamSize);
    }
    if (!(rate > 0) || Double.isInfinite(rate)) {
      throw new IllegalArgumentException("rate must be a finite number > 0, got " + rate);
    }
    if (workers <= 0) {
      throw new IllegalArgumentException("workers must be > 0, got " + workers);
    }
    if (durationNanos <= 0) {
      throw new IllegalArgumentException("durationNanos must be > 0, got " + durationNanos);
    }
    if (intervalNanos <= 0) {
      throw new IllegalArgumentException("intervalNanos must be > 0, got " + intervalNanos);
    }
    if (drainNanos < 0) {
      throw new IllegalArgumentException("drainNanos must be >= 0, got " + drainNanos);
    }
    this.request = request;
    this.streamSize = streamSize;
    this.rate = rate;
    this.workers = workers;
    this.durationNanos = durationNanos;
    this.intervalNanos = intervalNanos;
    this.drainNanos = drainNanos;
    this.seed = seed;
    this.generatorCpus = generatorCpus;
    this.serverCpus = serverCpus;
  }

  /** The same load at another rate. */
  public OpenLoop withRate(double rate) {
    return new OpenLoop(request, streamSize, rate, workers, durationNanos, intervalNanos,
        drainNanos, seed, generatorCpus, serverCpus);
  }

  /** The same load for another duration, e.g. a warm-up whose result is discarded. */
  public OpenLoop withDuration(long durationNanos) {
    return new OpenLoop(request, streamSize, rate, workers, durationNanos, intervalNanos,
        drainNanos, seed, generatorCpus, serverCpus);
  }

  /**
   * The same load with the generator's threads on {@code generatorCpus} and the workers on
   * {@code serverCpus} (CPU lists such as "1" or "0-2", which must not overlap).
   */
  public OpenLoop withPinning(String generatorCpus, String serverCpus) {
    if (!Collections.disjoint(CpuAffinity.parse(generatorCpus), CpuAffinity.parse(serverCpus))) {
      throw new IllegalArgumentException("the generator's CPUs " + generatorCpus
          + " overlap the server's " + serverCpus);
    }
    return new OpenLoop(request, streamSize, rate, workers, durationNanos, intervalNanos,
        drainNanos, seed, generatorCpus, serverCpus);
  }

  /**
   * Runs the load, writing the HdrHistogram interval log of its latencies and service times to
   * {@code histogramLog} (null: no log).
   */
  public LoadResult run(Path histogramLog) throws Exception {
    return new Run().execute(histogramLog);
  }

  /** The process's cumulative CPU time; a JVM that cannot tell fails, not passes. */
  static LongSupplier processCpuNanos() {
    if (ManagementFactory.getOperatingSystemMXBean()
        instanceof com.sun.management.OperatingSystemMXBean os && os.getProcessCpuTime() >= 0) {
      return os::getProcessCpuTime;
    }
    throw new IllegalStateException(
        "this JVM does not report process CPU time, which the load's CPU share needs");
  }

  /** A dispatched request: its arrival number and intended send time (System.nanoTime). */
  private record Job(long index, long intended) {}

  /** The threads and counters of one run. */
  private final class Run {
    private final BlockingQueue<Job> queue = new LinkedBlockingQueue<>();
    private final AtomicLong completed = new AtomicLong();
    private final AtomicReference<ExecutionException> failure = new AtomicReference<>();
    private final CountDownLatch failed = new CountDownLatch(1);
    private final List<Thread> workerThreads = new ArrayList<>();
    private final LongSupplier cpuNanos = processCpuNanos();
    private final LongSupplier jitMillis = JvmCounters.jitMillis();
    private final LongSupplier gcMillis = JvmCounters.gcMillis();
    private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    private final long[] workerCpu = new long[workers];
    private Thread dispatcher;
    /** Set before the dispatcher starts, so workers see it once they have a request. */
    private LoadRecorder recorder;
    private volatile long dispatched;
    private volatile boolean stopping;
    private int leftQueued = -1;

    LoadResult execute(Path histogramLog) throws Exception {
      // Threads get their creator's CPUs: the workers are started on the server's, the
      // dispatcher on the generator's, and the caller gets its own CPUs back at the end.
      String callerCpus = serverCpus == null ? null : CpuAffinity.format(CpuAffinity.current());
      // The CPU share is over every CPU the process has, counted before the caller is pinned.
      int cores = Runtime.getRuntime().availableProcessors();
      try {
        if (serverCpus != null) {
          CpuAffinity.pin(serverCpus);
        }
        for (int w = 0; w < workers; w++) {
          Thread t = new Thread(this::work, "open-loop-worker-" + w);
          t.setDaemon(true);
          t.start();
          workerThreads.add(t);
        }
        if (generatorCpus != null) {
          CpuAffinity.pin(generatorCpus);
        }
        // The clock starts once the workers are up, so their start-up does not delay arrivals.
        long start = System.nanoTime();
        try (LoadRecorder rec = new LoadRecorder(start, histogramLog, cpuNanos,
            this::workerCpuNanos, jitMillis, gcMillis)) {
          recorder = rec;
          dispatcher = new Thread(() -> dispatch(start), "open-loop-dispatcher");
          dispatcher.setDaemon(true);
          dispatcher.start();
          load(start, rec);
          drain(start + durationNanos, rec);
          int left = stop();
          throwIfFailed();
          // Taken after the workers stopped, so that every completion is in a row or unfinished.
          rec.endInterval(DRAIN, left, 0);
          int serverCores = serverCpus == null ? cores : CpuAffinity.parse(serverCpus).size();
          return new LoadResult(rec.intervals(), rec.summary(rate, workers, durationNanos,
              dispatched, cores, serverCores));
        }
      } finally {
        stop();
        if (callerCpus != null) {
          CpuAffinity.pin(callerCpus);
        }
      }
    }

    /** One row per interval until the load's end. */
    private void load(long start, LoadRecorder rec) throws Exception {
      // The monitor's own copy of the schedule counts the arrivals due so far.
      ArrivalSchedule due = new ArrivalSchedule(rate, seed);
      long dueCount = 0;
      long nextDue = due.next();
      long loadEnd = start + durationNanos;
      for (long k = 1, end = start; end < loadEnd; k++) {
        end = Math.min(start + k * intervalNanos, loadEnd);
        awaitUntil(end);
        long sent = dispatched;
        long now = System.nanoTime() - start;
        while (nextDue <= now && nextDue < durationNanos) {
          dueCount++;
          nextDue = due.next();
        }
        rec.endInterval(LOAD, queue.size(), Math.max(0, dueCount - sent));
      }
    }

    /** Waits for the dispatched requests to complete, up to drainNanos, one row per interval. */
    private void drain(long loadEnd, LoadRecorder rec) throws Exception {
      dispatcher.join();
      long drainEnd = loadEnd + drainNanos;
      long nextRow = loadEnd + intervalNanos;
      while (completed.get() < dispatched && System.nanoTime() < drainEnd) {
        failed.await(DRAIN_POLL_NANOS, TimeUnit.NANOSECONDS);
        throwIfFailed();
        if (System.nanoTime() >= nextRow) {
          rec.endInterval(DRAIN, queue.size(), 0);
          nextRow += intervalNanos;
        }
      }
    }

    /**
     * The workers' CPU time so far. A worker that has ended reports none, so each one's last
     * reading stands for it from then on.
     */
    private long workerCpuNanos() {
      long total = 0;
      for (int w = 0; w < workerThreads.size(); w++) {
        long t = threads.getThreadCpuTime(workerThreads.get(w).getId());
        if (t >= 0) {
          workerCpu[w] = t;
        }
        total += workerCpu[w];
      }
      return total;
    }

    private void awaitUntil(long deadline) throws Exception {
      for (long wait = deadline - System.nanoTime(); wait > 0;
          wait = deadline - System.nanoTime()) {
        if (failed.await(wait, TimeUnit.NANOSECONDS)) {
          break;
        }
      }
      throwIfFailed();
    }

    private void throwIfFailed() throws ExecutionException {
      ExecutionException e = failure.get();
      if (e != null) {
        throw e;
      }
    }

    private void dispatch(long start) {
      ArrivalSchedule schedule = new ArrivalSchedule(rate, seed);
      for (long i = 0; ; i++) {
        long offset = schedule.next();
        if (offset >= durationNanos) {
          return;
        }
        long due = start + offset;
        for (long wait = due - System.nanoTime(); wait > 0; wait = due - System.nanoTime()) {
          if (stopping) {
            return;
          }
          LockSupport.parkNanos(wait);
        }
        if (stopping) {
          return;
        }
        queue.add(new Job(i, due));
        dispatched = i + 1;
      }
    }

    private void work() {
      while (true) {
        Job job;
        try {
          job = queue.take();
        } catch (InterruptedException e) {
          return;
        }
        if (job == STOP) {
          return;
        }
        int item = (int) (job.index % streamSize);
        long started = System.nanoTime();
        try {
          request.run(item);
        } catch (Throwable t) {
          failure.compareAndSet(null, new ExecutionException(
              "request " + job.index + " (stream item " + item + ") failed: " + t, t));
          failed.countDown();
          continue;
        }
        recorder.record(job.intended, started, System.nanoTime());
        completed.incrementAndGet();
      }
    }

    /**
     * Stops the dispatcher, empties the queue, and lets every worker leave once it is out of its
     * request; returns the number of requests that were still queued. Workers are not
     * interrupted: an interrupt can close the file channels a request reads. Idempotent.
     */
    private int stop() throws InterruptedException {
      if (leftQueued >= 0) {
        return leftQueued;
      }
      stopping = true;
      if (dispatcher != null) {
        LockSupport.unpark(dispatcher);
        dispatcher.join();
      }
      List<Job> left = new ArrayList<>();
      queue.drainTo(left);
      for (int w = 0; w < workerThreads.size(); w++) {
        queue.add(STOP);
      }
      long deadline = System.nanoTime() + JOIN_NANOS;
      for (Thread t : workerThreads) {
        t.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
      }
      leftQueued = left.size();
      return leftQueued;
    }
  }
}
