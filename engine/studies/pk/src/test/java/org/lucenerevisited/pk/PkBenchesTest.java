package org.lucenerevisited.pk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.store.Directory;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lucenerevisited.engine.harness.Progress;
import org.lucenerevisited.engine.harness.Table;
import org.lucenerevisited.engine.shim.LuceneShim;

/** The lookup, footprint, reopen and plain-loop workloads on one small shared corpus. */
class PkBenchesTest {

  @TempDir
  static Path tmp;
  static TestCorpus corpus;
  static Path indexes;
  /** Memory where the version still has it, else FST50: a heap-resident terms format. */
  static String inHeapFormat;

  @BeforeAll
  static void buildIndexes() throws Exception {
    corpus = TestCorpus.padded(tmp.resolve("corpus"), 4000);
    indexes = tmp.resolve("idx");
    List<String> available = List.of(PkContenders.available());
    inHeapFormat = available.contains("Memory") ? "Memory" : "FST50";
    PkIndexer.build(corpus.docs.toString(), indexes.toString(),
        new String[] {"default", "BloomFilter", inHeapFormat, "GlobalPkMap"}, 500, true,
        Progress.NONE);
  }

  private static String path(String contender, String layout) {
    return indexes.resolve(PkContenders.indexOf(contender)).resolve(layout).toString();
  }

  private static PkLookupSpec spec(String[] contenders, String[] layouts, int[] threads) {
    PkLookupSpec spec = new PkLookupSpec();
    int n = contenders.length;
    spec.contenders = contenders;
    spec.indexPaths = new String[n];
    spec.keysPaths = new String[n];
    spec.labels = new String[n];
    for (int i = 0; i < n; i++) {
      spec.indexPaths[i] = path(contenders[i].replace("-aa", ""), layouts[i]);
      spec.keysPaths[i] = corpus.keys.toString();
      spec.labels[i] = layouts[i];
    }
    spec.threads = threads;
    spec.iterationMillis = 5;
    spec.minWarmupIterations = 1;
    spec.maxWarmupIterations = 3;
    spec.measureIterations = 2;
    return spec;
  }

  @Test
  void lookupBenchRunsEverySeriesInEveryIteration() throws Exception {
    PkLookupSpec spec = spec(new String[] {inHeapFormat, inHeapFormat, inHeapFormat},
        new String[] {"multi", "multi", "merged"}, new int[] {1, 2, 1});
    Table t = PkLookupBench.run(spec, Progress.NONE);

    assertEquals(List.of("contender", "series", "threads", "phase", "iteration", "ops", "nanos",
        "jit_ms", "gc_ms", "stable"), List.of(t.columnNames()));
    assertEquals(Set.of(inHeapFormat), new HashSet<>(List.of(t.strings("contender"))));
    Map<String, Set<String>> byIteration = new HashMap<>();
    long keys = Files.readAllLines(corpus.keys).size();
    for (int r = 0; r < t.rowCount(); r++) {
      // Whole batches (the key file is one batch here), at least one per thread.
      assertEquals(0, t.longs("ops")[r] % keys);
      assertTrue(t.longs("ops")[r] >= keys * t.longs("threads")[r]);
      assertTrue(t.longs("nanos")[r] >= 5_000_000, "an iteration lasts at least its 5 ms");
      byIteration.computeIfAbsent(t.strings("phase")[r] + t.longs("iteration")[r],
          k -> new HashSet<>()).add(t.strings("series")[r] + "@" + t.longs("threads")[r]);
    }
    for (Set<String> iteration : byIteration.values()) {
      assertEquals(Set.of("multi@1", "multi@2", "merged@1"), iteration);
    }
    assertTrue(byIteration.containsKey("measure1"), byIteration.keySet().toString());
  }

  @Test
  void aaIsTheDefaultOnItsOwnReader() throws Exception {
    Table t = PkLookupBench.run(spec(new String[] {"default-aa"}, new String[] {"multi"},
        new int[] {1}), Progress.NONE);
    assertEquals(Set.of("default-aa"), new HashSet<>(List.of(t.strings("contender"))));
  }

  @Test
  void lookupBenchFailsOnWrongAnswers() throws Exception {
    Path badKeys = tmp.resolve("bad-keys.tsv");
    Files.writeString(badKeys, "00000005\t6\n", StandardCharsets.UTF_8);
    PkLookupSpec spec = spec(new String[] {"default"}, new String[] {"merged"}, new int[] {1});
    spec.keysPaths = new String[] {badKeys.toString()};
    IllegalStateException e = assertThrows(IllegalStateException.class,
        () -> PkLookupBench.run(spec, Progress.NONE));
    assertTrue(e.getMessage().contains("default") && e.getMessage().contains("00000005")
        && e.getMessage().contains("expected 6") && e.getMessage().contains(" 5,"),
        e.getMessage());
  }

  @Test
  void lookupBenchNamesAnUnknownContender() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> PkLookupBench.run(spec(new String[] {"NoSuchFormat"}, new String[] {"multi"},
            new int[] {1}), Progress.NONE));
    assertTrue(e.getMessage().contains("NoSuchFormat"), e.getMessage());
  }

  @Test
  void footprintHasPositiveDiskAndBaselineIsSmallest() throws Exception {
    String[] contenders = {"baseline", "default", inHeapFormat, "GlobalPkMap"};
    String[] paths = new String[contenders.length];
    for (int i = 0; i < contenders.length; i++) {
      paths[i] = path(contenders[i], "multi");
    }
    Table t = PkFootprint.measure(contenders, paths, corpus.keys.toString());
    assertEquals(4, t.rowCount());
    long[] disk = t.longs("disk_bytes");
    for (long d : disk) {
      assertTrue(d > 0);
    }
    assertTrue(disk[0] < disk[1], "baseline < default on disk");
    assertTrue(disk[0] < disk[2], "baseline < " + inHeapFormat + " on disk");
    long[] mapped = t.longs("mapped_bytes");
    for (long m : mapped) {
      assertTrue(m >= 0, "resident mapped bytes are measured on Linux");
    }
    long[] accounted = t.longs("accounted_bytes");
    if (accounted[1] >= 0) {
      assertTrue(accounted[3] > accounted[1], "GlobalPkMap adds its map to accounted bytes");
    } else {
      assertEquals(-1, accounted[3]);
    }
  }

  @Test
  void reopenKeepsUpdatedIdsUnique() throws Exception {
    PkReopenSpec spec = new PkReopenSpec();
    spec.contenders = new String[] {"default", "BloomFilter"};
    spec.indexPaths = new String[] {path("default", "multi"), path("BloomFilter", "multi")};
    spec.docsTsv = corpus.docs.toString();
    spec.workDir = tmp.resolve("work").toString();
    spec.updatesPerReopen = 30;
    spec.reopenIntervalMs = 5;
    spec.warmupReopens = 2;
    spec.rounds = 2;
    spec.reopensPerRound = 3;
    Table t = PkReopenBench.run(spec, Progress.NONE);
    assertEquals(2 * (2 + 2 * 3), t.rowCount());
    for (long nanos : t.longs("reopen_nanos")) {
      assertTrue(nanos > 0);
    }
    try (var copies = Files.list(tmp.resolve("work"))) {
      assertFalse(copies.findAny().isPresent(), "work copies deleted");
    }
    // The source index is untouched: every doc still resolves to exactly one live doc.
    try (Directory dir = LuceneShim.INSTANCE.openMMapDirectory(Path.of(path("default", "multi")));
        DirectoryReader reader = DirectoryReader.open(dir)) {
      assertEquals(4000, reader.numDocs());
      assertEquals(1, PkReopenBench.liveDocsWithId(reader, corpus.ids.get(7)));
    }
  }

  @Test
  void reopenRejectsGlobalPkMap() {
    PkReopenSpec spec = new PkReopenSpec();
    spec.contenders = new String[] {"GlobalPkMap"};
    spec.indexPaths = new String[] {path("default", "multi")};
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> PkReopenBench.run(spec, Progress.NONE));
    assertTrue(e.getMessage().contains("GlobalPkMap"));
  }

  @Test
  void plainLoopPrintsItsTimedPassesAndFindsEveryKey() throws Exception {
    PrintStream original = System.out;
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
    try {
      PlainLookupLoop.main(new String[] {path(inHeapFormat, "multi"), corpus.keys.toString(),
          "0.05", "0.2"});
    } finally {
      System.setOut(original);
    }
    String out = captured.toString(StandardCharsets.UTF_8).trim();
    assertTrue(out.matches(
        "lookups=\\d+ hits=\\d+ seconds=[0-9.]+ warmup_seconds=[0-9.]+ jit_ms=\\d+"), out);
    long lookups = Long.parseLong(out.replaceAll(".*lookups=(\\d+).*", "$1"));
    long gotHits = Long.parseLong(out.replaceAll(".*hits=(\\d+).*", "$1"));
    double seconds = Double.parseDouble(out.replaceAll(".*seconds=([0-9.]+).*", "$1"));
    List<String> keys = Files.readAllLines(corpus.keys);
    long hits = keys.stream().filter(l -> !l.endsWith("\t-1")).count();
    assertEquals(0, lookups % keys.size(), "whole passes only");
    assertEquals(hits * (lookups / keys.size()), gotHits);
    assertTrue(seconds >= 0.2, out);
    double warmup = Double.parseDouble(out.replaceAll(".*warmup_seconds=([0-9.]+).*", "$1"));
    assertTrue(warmup >= 0.05 && warmup < 0.05 * 4 + 2, "warm-up within its bounds: " + out);
  }
}
