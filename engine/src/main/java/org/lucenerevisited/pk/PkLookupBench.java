package org.lucenerevisited.pk;

import java.io.IOException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.store.Directory;
import org.lucenerevisited.engine.harness.InterleavedRunner;
import org.lucenerevisited.engine.harness.Progress;
import org.lucenerevisited.engine.harness.Table;
import org.lucenerevisited.engine.shim.LuceneShim;

/**
 * The seed's workload: primary-key lookups in sorted batches (default 4000 keys), resolved
 * segment by segment with seekExact on one reused TermsEnum per segment and thread (see
 * {@link SegmentSeekResolver}); GlobalPkMap resolves each key through its heap map instead.
 * One sample = every thread resolving the whole key set once; ops = keys x threads, time = wall
 * clock. Every contender must first resolve every key correctly, untimed.
 */
public final class PkLookupBench {

  private PkLookupBench() {}

  /**
   * Runs the spec: every contender at every thread count, interleaved in the same rounds, so that
   * ratios between thread counts pair by round like those between contenders. Columns: contender,
   * threads, phase, round, ops, nanos, stable.
   */
  public static Table run(PkLookupSpec spec, Progress progress) throws Exception {
    return run(spec, progress, InterleavedRunner.RoundHook.NONE);
  }

  /** As {@link #run(PkLookupSpec, Progress)}, calling {@code afterRound} between rounds. */
  public static Table run(PkLookupSpec spec, Progress progress,
      InterleavedRunner.RoundHook afterRound) throws Exception {
    List<String> names = new ArrayList<>(List.of(spec.contenders));
    List<String> paths = new ArrayList<>(List.of(spec.indexPaths));
    if (names.size() != paths.size()) {
      throw new IllegalArgumentException("contenders and indexPaths differ in length");
    }
    if (spec.aaCalibration) {
      int d = names.indexOf(PkContenders.DEFAULT);
      if (d < 0) {
        throw new IllegalArgumentException("aaCalibration needs the 'default' contender");
      }
      names.add(PkContenders.DEFAULT + "-aa");
      paths.add(paths.get(d));
    }
    PkBatches batches = PkBatches.load(Paths.get(spec.keysTsv), spec.batchSize);
    Table.Builder out = Table.builder().stringColumn("contender").longColumn("threads")
        .stringColumn("phase").longColumn("round").longColumn("ops").longColumn("nanos")
        .longColumn("stable");
    List<OpenIndex> open = new ArrayList<>();
    try {
      for (int i = 0; i < names.size(); i++) {
        String contender = baseName(names.get(i));
        PkContenders.check(contender);
        OpenIndex index = OpenIndex.open(names.get(i), contender, Paths.get(paths.get(i)));
        open.add(index);
        index.checkCorrect(batches);
      }
      Map<String, LookupContender> contenders = new LinkedHashMap<>();
      try {
        for (int threads : spec.threads) {
          for (OpenIndex index : open) {
            LookupContender c = new LookupContender(index, batches, threads);
            contenders.put(c.name(), c);
          }
        }
        InterleavedRunner runner = new InterleavedRunner(spec.minWarmupRounds,
            spec.maxWarmupRounds, spec.stableWindow, spec.stableCv, spec.measureRounds,
            spec.seed);
        Table t = runner.run("lookup threads=" + Arrays.toString(spec.threads),
            new ArrayList<>(contenders.values()), progress, afterRound);
        for (int r = 0; r < t.rowCount(); r++) {
          LookupContender c = contenders.get(t.strings("contender")[r]);
          out.addRow(c.index.name, (long) c.threads(), t.get("phase", r), t.get("round", r),
              t.get("ops", r), t.get("nanos", r), t.get("stable", r));
        }
      } finally {
        for (LookupContender c : contenders.values()) {
          c.close();
        }
      }
    } finally {
      for (OpenIndex index : open) {
        index.close();
      }
    }
    return out.build();
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

    /** The correctness gate: every hit at its row, every miss -1, before any timing. */
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
   * One sample = each of {@code threads} threads resolving every batch once with its own
   * resolver. One thread runs inline; more run on a fixed pool released by one latch.
   */
  private static final class LookupContender implements InterleavedRunner.Contender {
    private final OpenIndex index;
    private final PkBatches batches;
    private final PkResolver[] resolvers;
    private final int[][] scratch;
    private final ExecutorService pool;
    /** Sum of hits; a volatile write per sample keeps the JIT from discarding the lookups. */
    private volatile long sink;

    LookupContender(OpenIndex index, PkBatches batches, int threads) throws IOException {
      if (threads < 1) {
        throw new IllegalArgumentException("threads must be >= 1, got " + threads);
      }
      this.index = index;
      this.batches = batches;
      this.resolvers = new PkResolver[threads];
      this.scratch = new int[threads][];
      int width = batches.keys.length == 0 ? 0 : batches.keys[0].length;
      for (int t = 0; t < threads; t++) {
        resolvers[t] = index.newResolver();
        scratch[t] = new int[width];
      }
      this.pool = threads == 1 ? null : Executors.newFixedThreadPool(threads);
    }

    /** Unique per index and thread count within one run. */
    @Override
    public String name() {
      return index.name + "@" + resolvers.length + "t";
    }

    int threads() {
      return resolvers.length;
    }

    @Override
    public long runOnce() throws Exception {
      if (pool == null) {
        sink += resolvers[0].resolveAll(batches, scratch[0]);
        return batches.size;
      }
      CountDownLatch go = new CountDownLatch(1);
      List<Future<Long>> done = new ArrayList<>();
      for (int t = 0; t < resolvers.length; t++) {
        PkResolver resolver = resolvers[t];
        int[] s = scratch[t];
        done.add(pool.submit(() -> {
          go.await();
          return resolver.resolveAll(batches, s);
        }));
      }
      go.countDown();
      for (Future<Long> f : done) {
        sink += f.get();
      }
      return (long) batches.size * resolvers.length;
    }

    void close() {
      if (pool != null) {
        pool.shutdownNow();
      }
    }
  }
}
