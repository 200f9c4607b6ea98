package org.lucenerevisited.engine.harness;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogWriter;
import org.HdrHistogram.Recorder;

/**
 * The measurements of one open-loop load: each completed request's latency (completion minus its
 * intended send time, so time spent queued counts) and service time (completion minus start),
 * recorded by the workers into {@link Recorder}s, which hand out one histogram per interval
 * without stopping the writers. Every interval is added to whole-run histograms and, when a log
 * is given, written to it tagged {@value #LATENCY} or {@value #SERVICE} (values in ns).
 *
 * <p>Workers call {@link #record} concurrently; everything else is called by one thread.
 */
final class LoadRecorder implements AutoCloseable {

  static final String LATENCY = "latency";
  static final String SERVICE = "service";

  /** Three significant digits: percentiles within 0.1%, at any magnitude (the histograms resize). */
  private static final int DIGITS = 3;

  private final Recorder latency;
  private final Recorder service;
  private final Histogram allLatency = new Histogram(DIGITS);
  private final Histogram allService = new Histogram(DIGITS);
  private final HistogramLogWriter log;
  private final LongSupplier cpuNanos;
  private final LongSupplier workerCpuNanos;
  private final LongSupplier jitMillis;
  private final LongSupplier gcMillis;
  private final long start;
  private final List<Row> rows = new ArrayList<>();
  private long lastEnd;
  private long lastCpu;
  private long lastWorkerCpu;
  private long lastJit;
  private long lastGc;

  /**
   * Starts recording now; {@code start} is the load's start (System.nanoTime), {@code logFile}
   * the interval log to write (null: none), {@code cpuNanos} the process's cumulative CPU time,
   * {@code workerCpuNanos} its workers' (the threads that run requests), and {@code jitMillis} and
   * {@code gcMillis} the JVM's cumulative JIT and GC times (see {@link JvmCounters}).
   */
  LoadRecorder(long start, Path logFile, LongSupplier cpuNanos, LongSupplier workerCpuNanos,
      LongSupplier jitMillis, LongSupplier gcMillis) throws IOException {
    // The Recorders stamp intervals with wall-clock ms, from their creation on; the log gives
    // those stamps relative to a base taken before, so that none is negative.
    long base = System.currentTimeMillis();
    this.latency = new Recorder(DIGITS);
    this.service = new Recorder(DIGITS);
    this.start = start;
    this.lastEnd = start;
    this.cpuNanos = cpuNanos;
    this.lastCpu = cpuNanos.getAsLong();
    this.workerCpuNanos = workerCpuNanos;
    this.lastWorkerCpu = workerCpuNanos.getAsLong();
    this.jitMillis = jitMillis;
    this.gcMillis = gcMillis;
    this.lastJit = jitMillis.getAsLong();
    this.lastGc = gcMillis.getAsLong();
    this.log = logFile == null ? null : new HistogramLogWriter(logFile.toFile());
    if (log != null) {
      log.outputLogFormatVersion();
      log.outputStartTime(base);
      log.setBaseTime(base);
      log.outputBaseTime(base);
      log.outputComment("values: ns; tags: " + LATENCY + " (completion - intended send), "
          + SERVICE + " (completion - start)");
      log.outputLegend();
    }
  }

  /** One completed request; times from System.nanoTime. */
  void record(long intended, long started, long completed) {
    latency.recordValue(completed - intended);
    service.recordValue(completed - started);
  }

  /** Closes the interval that ends now, with the queue's state at its end. */
  void endInterval(String phase, long backlog, long undispatched) {
    long now = System.nanoTime();
    long cpu = cpuNanos.getAsLong();
    long workerCpu = workerCpuNanos.getAsLong();
    long jit = jitMillis.getAsLong();
    long gc = gcMillis.getAsLong();
    Histogram lat = interval(latency, allLatency, LATENCY);
    Histogram svc = interval(service, allService, SERVICE);
    rows.add(new Row(rows.size(), phase, (now - start) / 1_000_000, now - lastEnd,
        lat.getTotalCount(), lat.getValueAtPercentile(50), lat.getValueAtPercentile(90),
        lat.getValueAtPercentile(99), lat.getMaxValue(),
        svc.getTotalCount() == 0 ? Double.NaN : svc.getMean(), backlog, undispatched,
        cpu - lastCpu, workerCpu - lastWorkerCpu, jit - lastJit, gc - lastGc));
    lastEnd = now;
    lastCpu = cpu;
    lastWorkerCpu = workerCpu;
    lastJit = jit;
    lastGc = gc;
  }

  /** Flushes and closes the log, if any. */
  @Override
  public void close() {
    if (log != null) {
      log.close();
    }
  }

  private Histogram interval(Recorder recorder, Histogram all, String tag) {
    Histogram h = recorder.getIntervalHistogram();
    all.add(h);
    if (log != null) {
      h.setTag(tag);
      log.outputIntervalHistogram(h);
    }
    return h;
  }

  /** The interval rows; columns in {@link LoadResult}. */
  Table intervals() {
    Table.Builder t = Table.builder().longColumn("interval").stringColumn("phase")
        .longColumn("t_ms").longColumn("interval_ns").longColumn("completed")
        .longColumn("p50_ns").longColumn("p90_ns").longColumn("p99_ns").longColumn("max_ns")
        .doubleColumn("mean_service_ns").longColumn("backlog").longColumn("undispatched")
        .longColumn("cpu_ns").longColumn("worker_cpu_ns").longColumn("jit_ms")
        .longColumn("gc_ms");
    for (Row r : rows) {
      t.addRow(r.index, r.phase, r.tMs, r.nanos, r.completed, r.p50, r.p90, r.p99, r.max,
          r.meanService, r.backlog, r.undispatched, r.cpu, r.workerCpu, r.jit, r.gc);
    }
    return t.build();
  }

  /** The summary row; columns in {@link LoadResult}. */
  Table summary(double rate, int workers, long durationNanos, long dispatched, int cores,
      int serverCores) {
    long loadCompleted = 0;
    long loadNanos = 0;
    long loadCpu = 0;
    long loadWorkerCpu = 0;
    long loadJit = 0;
    long loadGc = 0;
    long maxUndispatched = 0;
    Row first = null;
    Row last = null;
    for (Row r : rows) {
      if (r.phase.equals(OpenLoop.LOAD)) {
        loadCompleted += r.completed;
        loadNanos += r.nanos;
        loadCpu += r.cpu;
        loadWorkerCpu += r.workerCpu;
        loadJit += r.jit;
        loadGc += r.gc;
        maxUndispatched = Math.max(maxUndispatched, r.undispatched);
        first = first == null ? r : first;
        last = r;
      }
    }
    long backlogEnd = last == null ? 0 : last.backlog;
    long baseline = first == null || first == last ? 0 : first.backlog;
    return Table.builder().doubleColumn("offered_rate").longColumn("workers")
        .longColumn("duration_ns").longColumn("cores").longColumn("server_cores")
        .longColumn("dispatched")
        .longColumn("completed").doubleColumn("completion_rate").longColumn("unfinished")
        .longColumn("p50_ns").longColumn("p90_ns").longColumn("p99_ns").longColumn("p999_ns")
        .longColumn("max_ns").doubleColumn("mean_service_ns").doubleColumn("cpu_share")
        .doubleColumn("worker_cpu_share")
        .longColumn("backlog_end").longColumn("backlog_growth").longColumn("max_undispatched")
        .longColumn("jit_ms").longColumn("gc_ms")
        .addRow(rate, workers, durationNanos, cores, serverCores, dispatched, allLatency.getTotalCount(),
            loadCompleted * 1e9 / durationNanos, dispatched - allLatency.getTotalCount(),
            allLatency.getValueAtPercentile(50), allLatency.getValueAtPercentile(90),
            allLatency.getValueAtPercentile(99), allLatency.getValueAtPercentile(99.9),
            allLatency.getMaxValue(),
            allService.getTotalCount() == 0 ? Double.NaN : allService.getMean(),
            loadNanos == 0 ? Double.NaN : loadCpu / ((double) loadNanos * cores),
            loadNanos == 0 ? Double.NaN : loadWorkerCpu / ((double) loadNanos * serverCores),
            backlogEnd, backlogEnd - baseline, maxUndispatched, loadJit, loadGc)
        .build();
  }

  private record Row(int index, String phase, long tMs, long nanos, long completed, long p50,
      long p90, long p99, long max, double meanService, long backlog, long undispatched,
      long cpu, long workerCpu, long jit, long gc) {}
}
