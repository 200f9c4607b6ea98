package org.lucenerevisited.dvjump;

import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.LongSupplier;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.store.Directory;
import org.lucenerevisited.engine.harness.Digest;
import org.lucenerevisited.engine.harness.InterleavedRunner;
import org.lucenerevisited.engine.harness.Progress;
import org.lucenerevisited.engine.harness.Table;
import org.lucenerevisited.engine.shim.LuceneShim;

/**
 * One contender's requests on one index, in one JVM: the index is opened once, its DocValues read
 * through one {@link Columns.Source} for the JVM's life (search-time jump tables, if any, are built on
 * first access and kept), and every request gets fresh columns, as a Solr request does.
 *
 * <p>{@link #latencies} times the requests: one series per workload and hit-count bucket, in whole
 * passes over the bucket's queries, in the time-based, interleaved iterations of {@link
 * InterleavedRunner}; every request's latency is kept. {@link #answers} then runs each request once
 * more and returns the checksum of its answer, which must agree across contenders.
 */
public final class DvjBench implements Closeable {

  private final DvjSpec spec;
  private final Directory directory;
  private final DirectoryReader reader;
  private final LeafReader leaf;
  private final Columns.Source source;
  /** The second request thread's own source (a search-time jump table is not thread-safe), if any. */
  private final Columns.Source second;
  private final ExecutorService threads;
  /** Values read by {@link #positions}: a volatile write, so that the JIT cannot drop the reads. */
  private volatile long sink;

  public DvjBench(DvjSpec spec) throws Exception {
    this.spec = spec;
    directory = LuceneShim.INSTANCE.openMMapDirectory(Path.of(spec.indexPath));
    reader = DirectoryReader.open(directory);
    if (reader.leaves().size() != 1) {
      throw new IllegalArgumentException(spec.indexPath + " has " + reader.leaves().size()
          + " segments; the study's indexes have one");
    }
    leaf = reader.leaves().get(0).reader();
    source = DvjAccess.open(spec.access, leaf);
    boolean concurrent = spec.concurrentWorkloads != null && spec.concurrentWorkloads.length > 0;
    second = concurrent ? DvjAccess.open(spec.access, leaf) : null;
    threads = concurrent ? Executors.newFixedThreadPool(2, r -> {
      Thread t = new Thread(r, "dvjump-request");
      t.setDaemon(true);
      return t;
    }) : null;
  }

  private Request.Limits limits() {
    return new Request.Limits(spec.rows, spec.facets, spec.groups);
  }

  /**
   * One series: a workload on the queries of one bucket, each request timed on its own. A call (one
   * iteration) keeps its requests' latencies only until it ends, then their summary: a fast request
   * runs tens of thousands of times in an iteration.
   */
  private final class Series implements InterleavedRunner.Contender {
    final String workload;
    final int bucket;
    final int threadCount;
    final Request request;
    final List<String> terms = new ArrayList<>();
    /** Per call: requests, mean hits, then mean, min, q25, median, q75, p95 and max latency (ns). */
    final List<long[]> calls = new ArrayList<>();
    private final Requester[] requesters;

    Series(String workload, int bucket, int threadCount) {
      this.workload = workload;
      this.bucket = bucket;
      this.threadCount = threadCount;
      this.request = Request.named(workload, limits());
      this.requesters = new Requester[threadCount];
      for (int t = 0; t < threadCount; t++) {
        requesters[t] = new Requester(this, t == 0 ? source : second, t);
      }
    }

    @Override
    public String name() {
      return workload + "/" + bucket + "/" + threadCount;
    }

    @Override
    public long runUntil(long deadline, LongSupplier clock) throws Exception {
      if (threadCount == 1) {
        requesters[0].run(deadline, clock);
      } else {
        // Both threads start together and request until the deadline, each with its own source.
        List<Future<?>> running = new ArrayList<>();
        for (Requester r : requesters) {
          running.add(threads.submit(() -> r.run(deadline, clock)));
        }
        for (Future<?> f : running) {
          f.get();
        }
      }
      int done = 0;
      long hits = 0;
      for (Requester r : requesters) {
        done += r.done;
        hits += r.hits;
      }
      long[] all = new long[done];
      int at = 0;
      for (Requester r : requesters) {
        System.arraycopy(r.latencies, 0, all, at, r.done);
        at += r.done;
      }
      calls.add(summary(all, done, hits));
      return done;
    }
  }

  /** One request thread of a series: its own source and place in the series' queries. */
  private final class Requester {
    final Series series;
    final Columns.Source source;
    int next;
    long[] latencies = new long[1024];
    int done;
    long hits;
    /** Answers folded together, kept so that the JIT cannot drop the requests' work. */
    long checksum;

    Requester(Series series, Columns.Source source, int offset) {
      this.series = series;
      this.source = source;
      this.next = offset;
    }

    /**
     * Requests until the deadline, in whole passes over the series' queries: a bucket's queries differ
     * in hit count, so an iteration that ended mid-pass would weigh them differently from the next one.
     */
    Void run(long deadline, LongSupplier clock) throws IOException {
      done = 0;
      hits = 0;
      List<String> terms = series.terms;
      next %= terms.size();
      int first = next;
      do {
        String term = terms.get(next);
        next = (next + 1) % terms.size();
        long start = clock.getAsLong();
        Matches matches = Matches.of(leaf, term);
        checksum ^= series.request.run(matches, source.columns());
        long latency = clock.getAsLong() - start;
        if (done == latencies.length) {
          latencies = Arrays.copyOf(latencies, 2 * done);
        }
        latencies[done++] = latency;
        hits += matches.size();
      } while (next != first || clock.getAsLong() < deadline);
      return null;
    }
  }

  /** Count, mean hits, and the latencies' mean, min, quartiles, 95th percentile and max (lower nearest rank). */
  static long[] summary(long[] latencies, int n, long hits) {
    Arrays.sort(latencies, 0, n);
    long sum = 0;
    for (int i = 0; i < n; i++) {
      sum += latencies[i];
    }
    return new long[] {n, hits / n, sum / n, latencies[0], rank(latencies, n, 0.25), rank(latencies, n, 0.5),
        rank(latencies, n, 0.75), rank(latencies, n, 0.95), latencies[n - 1]};
  }

  private static long rank(long[] sorted, int n, double p) {
    return sorted[(int) Math.floor(p * (n - 1))];
  }

  /**
   * The terms a workload runs on, with their buckets: export its one query, a workload of another size
   * ({@code facet@100}) the queries of the variation bucket, every other all of them.
   */
  private void forEachQuery(String workload, QueryConsumer consumer) throws IOException {
    if (workload.startsWith("export")) {
      consumer.accept(spec.exportTerm, spec.exportBucket);
      return;
    }
    boolean variation = workload.contains("@");
    for (int i = 0; i < spec.terms.length; i++) {
      if (!variation || spec.buckets[i] == spec.variationBucket) {
        consumer.accept(spec.terms[i], spec.buckets[i]);
      }
    }
  }

  private interface QueryConsumer {
    void accept(String term, int bucket) throws IOException;
  }

  private List<Series> series() throws IOException {
    List<Series> out = new ArrayList<>();
    List<String> concurrent = spec.concurrentWorkloads == null ? List.of() : List.of(spec.concurrentWorkloads);
    for (String workload : spec.workloads) {
      for (int threadCount : concurrent.contains(workload) ? new int[] {1, 2} : new int[] {1}) {
        forEachQuery(workload, (term, bucket) -> {
          Series s = null;
          for (Series existing : out) {
            if (existing.workload.equals(workload) && existing.bucket == bucket
                && existing.threadCount == threadCount) {
              s = existing;
            }
          }
          if (s == null) {
            s = new Series(workload, bucket, threadCount);
            out.add(s);
          }
          s.terms.add(term);
        });
      }
    }
    return out;
  }

  /**
   * Times every workload on every bucket (concurrent workloads also with two request threads). One row
   * per series and iteration: phase ("warmup"|"measure"), workload, bucket, threads, iteration (from 0
   * within its phase), stable (the series' warm-up converged), nanos (the series' wall time in the iteration),
   * jit_ms and gc_ms (JIT and GC time during it),
   * requests, hits (mean per request), and the requests' latency in ns: mean, min, q25, median, q75, p95,
   * max. Warm-up rows are returned so that a series that never converged can be told apart: still
   * compiling, or spread.
   */
  public Table latencies(Progress progress) throws Exception {
    List<Series> all = series();
    InterleavedRunner runner = new InterleavedRunner(spec.iterationMillis * 1_000_000L, spec.minWarmupIterations,
        spec.maxWarmupIterations, spec.stableWindow, spec.stableCv, spec.jitQuietShare, spec.measureIterations,
        spec.seed);
    Table iterations = runner.run("requests", all, progress);
    Table.Builder out = Table.builder().stringColumn("phase").stringColumn("workload").longColumn("bucket")
        .longColumn("threads").longColumn("iteration").longColumn("stable").longColumn("nanos")
        .longColumn("jit_ms").longColumn("gc_ms")
        .longColumn("requests").longColumn("hits");
    for (String stat : SUMMARY) {
      out.longColumn(stat + "_nanos");
    }
    for (Series s : all) {
      // The series ran once per iteration, in the runner's row order: its k-th row is its call k.
      int call = 0;
      for (int r = 0; r < iterations.rowCount(); r++) {
        if (!iterations.get("contender", r).equals(s.name())) {
          continue;
        }
        long[] c = s.calls.get(call++);
        Object[] row = new Object[11 + SUMMARY.size()];
        row[0] = iterations.get("phase", r);
        row[1] = s.workload;
        row[2] = (long) s.bucket;
        row[3] = (long) s.threadCount;
        row[4] = iterations.get("iteration", r);
        row[5] = iterations.get("stable", r);
        row[6] = iterations.get("nanos", r);
        row[7] = iterations.get("jit_ms", r);
        row[8] = iterations.get("gc_ms", r);
        for (int i = 0; i < c.length; i++) {
          row[9 + i] = c[i];
        }
        out.addRow(row);
      }
    }
    return out.build();
  }

  private static final List<String> SUMMARY = List.of("mean", "min", "q25", "median", "q75", "p95", "max");

  /** Each workload's answer to each of its queries, once. Columns: workload, term, bucket, hits, checksum. */
  public Table answers() throws Exception {
    Table.Builder out = Table.builder().stringColumn("workload").stringColumn("term").longColumn("bucket")
        .longColumn("hits").longColumn("checksum");
    for (String workload : spec.workloads) {
      Request request = Request.named(workload, limits());
      forEachQuery(workload, (term, bucket) -> {
        Matches hits = Matches.of(leaf, term);
        out.addRow(workload, term, (long) bucket, (long) hits.size(), request.run(hits, source.columns()));
      });
    }
    return out.build();
  }

  /**
   * The seed's export test: the same export request {@code runs} times in a row, each timed, the first
   * on whatever the page cache holds (the caller evicts the index's files before opening it). Columns:
   * run (from 1), hits, nanos, checksum.
   */
  public Table exportRuns(String term, int runs) throws IOException {
    Request export = Request.named("export", limits());
    Table.Builder out = Table.builder().longColumn("run").longColumn("hits").longColumn("nanos")
        .longColumn("checksum");
    for (int run = 1; run <= runs; run++) {
      long start = System.nanoTime();
      Matches hits = Matches.of(leaf, term);
      long checksum = export.run(hits, source.columns());
      out.addRow((long) run, (long) hits.size(), System.nanoTime() - start, checksum);
    }
    return out.build();
  }

  /** What the contender's reader built on first access: nanos and heap bytes (0 for Lucene's own). */
  public Table sourceCost() {
    return Table.builder().longColumn("build_nanos").longColumn("heap_bytes")
        .addRow(source.buildNanos(), source.heapBytes()).build();
  }

  /**
   * The cost of reading one value of {@code field} with fresh columns (a new request), at {@code points}
   * docIDs spread evenly over the segment: the median of {@code repeats} reads at each. This is the
   * mechanism: without jump tables the cost grows with the docID. Columns: field, doc, has_value, nanos.
   */
  public Table positions(String field, int points, int repeats) throws IOException {
    Table.Builder out = Table.builder().stringColumn("field").longColumn("doc").longColumn("has_value")
        .longColumn("nanos");
    boolean numeric = DvjSchema.numeric(field);
    long[] times = new long[repeats];
    for (int p = 0; p < points; p++) {
      int doc = (int) ((long) leaf.maxDoc() * p / points);
      boolean has = false;
      for (int r = 0; r < repeats; r++) {
        long start = System.nanoTime();
        Columns columns = source.columns();
        if (numeric) {
          Columns.NumericColumn c = columns.numeric(field);
          has = c.advanceExact(doc);
          sink = has ? c.longValue() : 0;
        } else {
          Columns.SortedColumn c = columns.sorted(field);
          has = c.advanceExact(doc);
          sink = has ? c.ordValue() : 0;
        }
        times[r] = System.nanoTime() - start;
      }
      Arrays.sort(times);
      out.addRow(field, (long) doc, has ? 1L : 0L, times[repeats / 2]);
    }
    return out.build();
  }

  /**
   * The cost of reading one document as {@code workload} reads each of its documents (retrieve or export:
   * every field of the request, each with a fresh column), at {@code points} docIDs spread evenly over the
   * segment: the median of {@code repeats} reads at each. Without jump tables a fresh column walks the
   * segment from its first block, so the cost is a fixed part plus a part per docID: the slope that the
   * study extrapolates to the seed's segment. The points are visited once untimed, then in a shuffled order
   * (the fork's seed), so that neither the JIT's warm-up nor the page cache lines up with the docID.
   * Columns: workload, doc, nanos.
   */
  public Table reads(String workload, int points, int repeats) throws IOException {
    List<String> fields = switch (workload) {
      case "retrieve" -> DvjSchema.RETRIEVE;
      case "export" -> DvjSchema.EXPORT;
      default -> throw new IllegalArgumentException("workload '" + workload
          + "' does not read documents one by one (retrieve and export do)");
    };
    int[] docs = new int[points];
    for (int p = 0; p < points; p++) {
      docs[p] = (int) ((long) leaf.maxDoc() * p / points);
    }
    for (int doc : docs) {
      sink = RetrieveRequest.retrieve(new int[] {doc}, fields, source.columns(), new Digest()).value();
    }
    int[] order = docs.clone();
    Random random = new Random(spec.seed);
    for (int i = order.length - 1; i > 0; i--) {
      int j = random.nextInt(i + 1);
      int t = order[i];
      order[i] = order[j];
      order[j] = t;
    }
    Table.Builder out = Table.builder().stringColumn("workload").longColumn("doc").longColumn("nanos");
    long[] times = new long[repeats];
    for (int doc : order) {
      for (int r = 0; r < repeats; r++) {
        long start = System.nanoTime();
        sink = RetrieveRequest.retrieve(new int[] {doc}, fields, source.columns(), new Digest()).value();
        times[r] = System.nanoTime() - start;
      }
      Arrays.sort(times);
      out.addRow(workload, (long) doc, times[repeats / 2]);
    }
    return out.build();
  }

  @Override
  public void close() throws IOException {
    if (threads != null) {
      threads.shutdownNow();
    }
    for (Columns.Source s : new Columns.Source[] {source, second}) {
      if (s instanceof Closeable closeable) {
        closeable.close();
      }
    }
    reader.close();
    directory.close();
  }
}
