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
import java.util.HashSet;
import java.util.List;
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
        new String[] {"default", "BloomFilter", inHeapFormat, "GlobalPkMap"}, 500,
        Progress.NONE);
  }

  private static String path(String contender, String layout) {
    return indexes.resolve(PkContenders.indexOf(contender)).resolve(layout).toString();
  }

  @Test
  void lookupBenchRunsEveryContenderPerThreadCount() throws Exception {
    PkLookupSpec spec = new PkLookupSpec();
    spec.contenders = new String[] {"default", inHeapFormat, "GlobalPkMap"};
    spec.indexPaths = new String[] {path("default", "multi"), path(inHeapFormat, "multi"),
        path("GlobalPkMap", "multi")};
    spec.keysTsv = corpus.keys.toString();
    spec.threads = new int[] {1, 2};
    spec.minWarmupRounds = 1;
    spec.maxWarmupRounds = 3;
    spec.measureRounds = 2;
    spec.aaCalibration = true;
    Table t = PkLookupBench.run(spec, Progress.NONE);

    assertEquals(List.of("contender", "threads", "phase", "round", "ops", "nanos", "stable"),
        List.of(t.columnNames()));
    assertEquals(Set.of("default", inHeapFormat, "GlobalPkMap", "default-aa"),
        new HashSet<>(List.of(t.strings("contender"))));
    long keys = Files.readAllLines(corpus.keys).size();
    for (int r = 0; r < t.rowCount(); r++) {
      assertEquals(keys * t.longs("threads")[r], t.longs("ops")[r]);
      assertTrue(t.longs("nanos")[r] > 0);
    }
    assertEquals(Set.of(1L, 2L), new HashSet<>(List.of(
        java.util.Arrays.stream(t.longs("threads")).boxed().toArray(Long[]::new))));
    // Both thread counts run in the same rounds, so their ratio pairs by round.
    java.util.Map<String, Set<String>> byRound = new java.util.HashMap<>();
    for (int r = 0; r < t.rowCount(); r++) {
      byRound.computeIfAbsent(t.strings("phase")[r] + t.longs("round")[r], k -> new HashSet<>())
          .add(t.strings("contender")[r] + "@" + t.longs("threads")[r]);
    }
    for (Set<String> round : byRound.values()) {
      assertEquals(8, round.size(), round.toString());
    }
    assertTrue(byRound.containsKey("measure1"), byRound.keySet().toString());
  }

  @Test
  void lookupBenchRefusesWrongAnswersBeforeTiming() throws Exception {
    Path badKeys = tmp.resolve("bad-keys.tsv");
    Files.writeString(badKeys, "00000005\t6\n", StandardCharsets.UTF_8);
    PkLookupSpec spec = new PkLookupSpec();
    spec.contenders = new String[] {"default"};
    spec.indexPaths = new String[] {path("default", "merged")};
    spec.keysTsv = badKeys.toString();
    IllegalStateException e = assertThrows(IllegalStateException.class,
        () -> PkLookupBench.run(spec, Progress.NONE));
    assertTrue(e.getMessage().contains("default") && e.getMessage().contains("00000005")
        && e.getMessage().contains("expected 6") && e.getMessage().contains(" 5,"),
        e.getMessage());
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
  void plainLoopPrintsLookupsPerSecond() throws Exception {
    PrintStream original = System.out;
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
    try {
      PlainLookupLoop.main(new String[] {path("default", "multi"), corpus.keys.toString(), "0.2"});
    } finally {
      System.setOut(original);
    }
    String out = captured.toString(StandardCharsets.UTF_8);
    assertTrue(out.startsWith("lookups/s: "), out);
    long hits = Files.readAllLines(corpus.keys).stream().filter(l -> !l.endsWith("\t-1")).count();
    assertTrue(out.contains("hits: "), out);
    long lookups = Long.parseLong(out.replaceAll("(?s).*lookups: (\\d+).*", "$1"));
    long gotHits = Long.parseLong(out.replaceAll("(?s).*hits: (\\d+).*", "$1"));
    long keys = Files.readAllLines(corpus.keys).size();
    assertEquals(hits * (lookups / keys), gotHits);
  }

  private static PkLookupSpec crossCheckSpec() {
    PkLookupSpec spec = new PkLookupSpec();
    spec.contenders = new String[] {"default", inHeapFormat};
    spec.indexPaths = new String[] {path("default", "multi"), path(inHeapFormat, "multi")};
    spec.keysTsv = corpus.keys.toString();
    spec.minWarmupRounds = 1;
    spec.maxWarmupRounds = 2;
    spec.measureRounds = 3;
    return spec;
  }

  @Test
  void crossCheckPairsEveryHarnessRoundWithOnePlainPass() throws Exception {
    Table t = PkCrossCheck.run(crossCheckSpec(), inHeapFormat, path(inHeapFormat, "multi"),
        Progress.NONE);

    assertEquals(List.of("source", "contender", "threads", "phase", "round", "ops", "nanos"),
        List.of(t.columnNames()));
    long keys = Files.readAllLines(corpus.keys).size();
    Set<String> harnessRounds = new HashSet<>();
    Set<String> plainRounds = new HashSet<>();
    Set<String> firstPassRounds = new HashSet<>();
    for (int r = 0; r < t.rowCount(); r++) {
      String round = t.strings("phase")[r] + t.longs("round")[r];
      String source = t.strings("source")[r];
      if (source.equals("harness")) {
        harnessRounds.add(round);
      } else {
        assertEquals(inHeapFormat, t.strings("contender")[r]);
        Set<String> seen = source.equals("plain loop") ? plainRounds : firstPassRounds;
        assertTrue(seen.add(round), "two '" + source + "' rows in " + round);
      }
      assertEquals(keys, t.longs("ops")[r]);
      assertTrue(t.longs("nanos")[r] > 0);
    }
    assertEquals(harnessRounds, plainRounds);
    assertEquals(harnessRounds, firstPassRounds);
    assertTrue(plainRounds.containsAll(Set.of("measure0", "measure1", "measure2")));
  }

  @Test
  void crossCheckRefusesAPlainLoopOnAnIndexWithoutTheKeys() throws Exception {
    IllegalStateException e = assertThrows(IllegalStateException.class,
        () -> PkCrossCheck.run(crossCheckSpec(), "default", path("baseline", "multi"),
            Progress.NONE));
    assertTrue(e.getMessage().contains("plain loop found 0 of"), e.getMessage());
  }
}
