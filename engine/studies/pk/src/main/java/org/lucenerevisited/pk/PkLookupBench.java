package org.lucenerevisited.pk;

import java.io.IOException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.LongSupplier;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.store.Directory;
import org.apache.lucene.util.BytesRef;
import org.lucenerevisited.engine.harness.InterleavedRunner;
import org.lucenerevisited.engine.harness.Progress;
import org.lucenerevisited.engine.harness.Table;
import org.lucenerevisited.engine.shim.LuceneShim;

/**
 * The seed's workload: primary-key lookups in sorted batches (default 4000 keys), resolved
 * segment by segment with seekExact on one reused TermsEnum per segment and thread (see
 * {@link SegmentSeekResolver}); GlobalPkMap resolves each key through its heap map instead.
 *
 * <p>A run measures several series (the conditions of one contender: corpora, key files, thread
 * counts) in time-based iterations, interleaved by {@link InterleavedRunner}. In an iteration
 * every thread of a series resolves whole batches, cycling through the key file from where it
 * stopped, until the iteration's time is up; ops = keys resolved by all threads, time = wall
 * clock. Each series' contender must then resolve every key of its file correctly, untimed, or
 * the run fails and none of its timings count. The check comes after the timing, not before:
 * run first, from a call site of its own, it changed what the JIT made of the lookup. FST50 on
 * 10.5.1 then ran at 4.5-4.6M lookups/s in 4 of 8 JVMs and 5.1-5.5M/s in the others; without it
 * first, at 5.0-5.4M/s in all 8.
 */
public final class PkLookupBench {

  private PkLookupBench() {}

  /** Columns: contender, series, threads, phase, iteration, ops, nanos, jit_ms, gc_ms, stable. */
  public static Table run(PkLookupSpec spec, Progress progress) throws Exception {
    int n = spec.contenders.length;
    if (spec.indexPaths.length != n || spec.keysPaths.length != n || spec.threads.length != n
        || spec.labels.length != n) {
      throw new IllegalArgumentException("contenders, indexPaths, keysPaths, threads and labels "
          + "must have one entry per series");
    }
    Map<String, OpenIndex> readers = new LinkedHashMap<>();
    Map<String, PkBatches> keySets = new HashMap<>();
    List<LookupContender> series = new ArrayList<>();
    Map<String, LookupContender> byName = new HashMap<>();
    try {
      for (int i = 0; i < n; i++) {
        String name = spec.contenders[i];
        String contender = baseName(name);
        PkContenders.check(contender);
        OpenIndex index = readers.get(name + "\n" + spec.indexPaths[i]);
        if (index == null) {
          index = OpenIndex.open(name, contender, Paths.get(spec.indexPaths[i]));
          readers.put(name + "\n" + spec.indexPaths[i], index);
        }
        PkBatches batches = keySets.get(spec.keysPaths[i]);
        if (batches == null) {
          batches = PkBatches.load(Paths.get(spec.keysPaths[i]), spec.batchSize);
          keySets.put(spec.keysPaths[i], batches);
        }
        LookupContender c = new LookupContender(spec.labels[i], index, batches, spec.threads[i]);
        series.add(c);
        if (byName.put(c.name(), c) != null) {
          throw new IllegalArgumentException("series " + c.name() + " is listed twice");
        }
      }
      InterleavedRunner runner = new InterleavedRunner(spec.iterationMillis * 1_000_000L,
          spec.minWarmupIterations, spec.maxWarmupIterations, spec.stableWindow, spec.stableCv,
          spec.jitQuietShare, spec.measureIterations, spec.seed);
      Table t = runner.run("lookup", series, progress);
      for (LookupContender c : series) {
        c.index.checkCorrect(c.batches);
      }
      Table.Builder out = Table.builder().stringColumn("contender").stringColumn("series")
          .longColumn("threads").stringColumn("phase").longColumn("iteration").longColumn("ops")
          .longColumn("nanos").longColumn("jit_ms").longColumn("gc_ms").longColumn("stable");
      for (int r = 0; r < t.rowCount(); r++) {
        LookupContender c = byName.get(t.strings("contender")[r]);
        out.addRow(c.index.name, c.label, (long) c.threads(), t.get("phase", r),
            t.get("iteration", r), t.get("ops", r), t.get("nanos", r), t.get("jit_ms", r),
            t.get("gc_ms", r), t.get("stable", r));
      }
      return out.build();
    } finally {
      for (LookupContender c : series) {
        c.close();
      }
      for (OpenIndex index : readers.values()) {
        index.close();
      }
    }
  }

  /**
   * Resolves every key of {@code keysTsv} once with {@code contender}'s lookup path; returns the
   * global docIDs (-1 for misses) in file order.
   */
  public static int[] resolveAll(String contender, String indexPath, String keysTsv)
      throws IOException {
    PkContenders.check(contender);
    PkBatches batches = PkBatches.load(Paths.get(keysTsv), 4000);
    int[] result = new int[batches.size];
    try (OpenIndex index = OpenIndex.open(contender, contender, Paths.get(indexPath))) {
      PkResolver resolver = index.newResolver();
      int[] scratch = new int[4000];
      for (int b = 0; b < batches.keys.length; b++) {
        resolver.resolve(batches.keys[b], scratch);
        for (int i = 0; i < batches.keys[b].length; i++) {
          result[batches.fileIndex[b][i]] = scratch[i];
        }
      }
    }
    return result;
  }

  /** "default-aa" runs the default contender's code on its own reader. */
  private static String baseName(String name) {
    return name.endsWith("-aa") ? name.substring(0, name.length() - 3) : name;
  }

  /** A reader (plus GlobalPkMap when asked for), opened before and outside any timing. */
  static final class OpenIndex implements AutoCloseable {
    final String name;
    final String contender;
    final Directory dir;
    final DirectoryReader reader;
    final GlobalPkMap map;

    private OpenIndex(String name, String contender, Directory dir, DirectoryReader reader,
        GlobalPkMap map) {
      this.name = name;
      this.contender = contender;
      this.dir = dir;
      this.reader = reader;
      this.map = map;
    }

    static OpenIndex open(String name, String contender, Path path) throws IOException {
      Directory dir = LuceneShim.INSTANCE.openMMapDirectory(path);
      DirectoryReader reader = DirectoryReader.open(dir);
      GlobalPkMap map = PkContenders.GLOBAL_MAP.equals(contender)
          ? GlobalPkMap.build(reader, PkContenders.ID_FIELD)
          : null;
      return new OpenIndex(name, contender, dir, reader, map);
    }

    PkResolver newResolver() throws IOException {
      return PkResolver.create(contender, reader, map);
    }

    /** The correctness gate: every hit at its row, every miss -1. */
    void checkCorrect(PkBatches batches) throws IOException {
      PkResolver resolver = newResolver();
      int[] got = new int[batches.keys.length == 0 ? 0 : batches.keys[0].length];
      for (int b = 0; b < batches.keys.length; b++) {
        resolver.resolve(batches.keys[b], got);
        for (int i = 0; i < batches.keys[b].length; i++) {
          if (got[i] != batches.expected[b][i]) {
            throw new IllegalStateException("contender " + name + " resolved key '"
                + batches.keys[b][i].utf8ToString() + "' to " + got[i] + ", expected "
                + batches.expected[b][i]);
          }
        }
      }
    }

    @Override
    public void close() throws IOException {
      reader.close();
      dir.close();
    }
  }

  /**
   * One series: {@code threads} threads, each with its own resolver and its own position in the
   * key batches (spread apart, so threads do not walk the same keys in step). Every thread count,
   * one included, runs on a fixed pool of its own released by one latch, so one and two threads
   * run on the same kind of thread (the caller's is a JNI-attached Python thread).
   */
  private static final class LookupContender implements InterleavedRunner.Contender {
    private final String label;
    private final OpenIndex index;
    private final PkBatches batches;
    private final PkResolver[] resolvers;
    private final int[][] scratch;
    private final int[] next;
    private final ExecutorService pool;
    /** Sum of hits; a volatile write per iteration keeps the JIT from discarding the lookups. */
    private volatile long sink;

    LookupContender(String label, OpenIndex index, PkBatches batches, int threads)
        throws IOException {
      if (threads < 1) {
        throw new IllegalArgumentException("threads must be >= 1, got " + threads);
      }
      this.label = label;
      this.index = index;
      this.batches = batches;
      this.resolvers = new PkResolver[threads];
      this.scratch = new int[threads][];
      this.next = new int[threads];
      int width = batches.keys.length == 0 ? 0 : batches.keys[0].length;
      for (int t = 0; t < threads; t++) {
        resolvers[t] = index.newResolver();
        scratch[t] = new int[width];
        next[t] = t * batches.keys.length / threads;
      }
      this.pool = Executors.newFixedThreadPool(threads);
    }

    /** Unique per series within one run. */
    @Override
    public String name() {
      return label + "|" + index.name + "@" + resolvers.length + "t";
    }

    int threads() {
      return resolvers.length;
    }

    @Override
    public long runUntil(long deadline, LongSupplier clock) throws Exception {
      CountDownLatch go = new CountDownLatch(1);
      List<Future<Long>> done = new ArrayList<>();
      for (int t = 0; t < resolvers.length; t++) {
        int thread = t;
        done.add(pool.submit(() -> {
          go.await();
          return lookUntil(thread, deadline, clock);
        }));
      }
      go.countDown();
      long ops = 0;
      for (Future<Long> f : done) {
        ops += f.get();
      }
      return ops;
    }

    /** The timed loop of one thread: whole batches until the deadline; returns keys resolved. */
    private long lookUntil(int thread, long deadline, LongSupplier clock) throws IOException {
      PkResolver resolver = resolvers[thread];
      int[] out = scratch[thread];
      BytesRef[][] keys = batches.keys;
      int b = next[thread];
      long ops = 0;
      long hits = 0;
      do {
        hits += resolver.resolveCounting(keys[b], out);
        ops += keys[b].length;
        b = b + 1 == keys.length ? 0 : b + 1;
      } while (clock.getAsLong() < deadline);
      next[thread] = b;
      sink += hits;
      return ops;
    }

    void close() {
      pool.shutdownNow();
    }
  }
}
