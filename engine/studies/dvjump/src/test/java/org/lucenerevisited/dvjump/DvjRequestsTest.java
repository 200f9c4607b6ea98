package org.lucenerevisited.dvjump;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.lucene.util.BytesRef;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lucenerevisited.engine.harness.Digest;
import org.lucenerevisited.engine.harness.Progress;
import org.lucenerevisited.engine.harness.Table;

/**
 * Every request's answer, read through the version's own DocValues, equals the answer computed by
 * brute force from the corpus rows: facet counts, groups, sort order, retrieved and exported values.
 * The corpus spans several 65,536-document blocks and has a sparse field, so that the answers depend
 * on reading the right value at the right document.
 */
class DvjRequestsTest {

  private static final int DOCS = 70_000;
  private static final List<String> FIELDS = TestArchive.FIELDS;
  private static final Request.Limits LIMITS = new Request.Limits(5, 4, 3);
  @TempDir static Path dir;
  private static List<String[]> rows;
  private static DvjBench bench;

  @BeforeAll
  static void build() throws Exception {
    rows = TestArchive.write(dir.resolve("docs.tsv"), DOCS, 3);
    Path corpus = dir.resolve("docs.tsv");
    Progress quiet = (stage, done, total) -> {};
    Table built = DvjIndexer.build(corpus.toString(), dir.resolve("index").toString(), "", quiet);
    assertEquals(1L, built.get("segments", 0));
    DvjSpec spec = new DvjSpec();
    spec.indexPath = dir.resolve("index").toString();
    spec.access = "native";
    spec.workloads = Request.NAMES.toArray(new String[0]);
    spec.terms = new String[] {"common", "rare", "absent"};
    spec.buckets = new int[] {4, 1, 0};
    spec.exportTerm = "rare";
    spec.exportBucket = 1;
    spec.rows = LIMITS.rows();
    spec.facets = LIMITS.facets();
    spec.groups = LIMITS.groups();
    bench = new DvjBench(spec);
  }

  @AfterAll
  static void close() throws IOException {
    bench.close();
  }

  private static int col(String field) {
    return FIELDS.indexOf(field);
  }

  private static int freq(int doc, String term) {
    return (int) Arrays.stream(rows.get(doc)[col("text")].split(" ")).filter(term::equals).count();
  }

  private static List<Integer> hits(String term) {
    List<Integer> out = new ArrayList<>();
    for (int doc = 0; doc < DOCS; doc++) {
      if (freq(doc, term) > 0) {
        out.add(doc);
      }
    }
    return out;
  }

  private static List<Integer> ranked(String term) {
    List<Integer> out = hits(term);
    out.sort(Comparator.comparingInt((Integer d) -> -freq(d, term)).thenComparingInt(d -> d));
    return out;
  }

  private static void value(Digest digest, int doc, String field) {
    String v = rows.get(doc)[col(field)];
    if (v.isEmpty()) {
      digest.add(Long.MIN_VALUE);
    } else if (DvjSchema.numeric(field)) {
      digest.add(Long.parseLong(v));
    } else {
      digest.add(new BytesRef(v));
    }
  }

  private static Digest retrieve(List<Integer> docs, List<String> fields, Digest digest) {
    for (int doc : docs) {
      digest.add(doc);
      for (String f : fields) {
        value(digest, doc, f);
      }
    }
    return digest;
  }

  private static void facets(List<Integer> hits, Digest digest) {
    for (String field : DvjSchema.FACETS) {
      boolean numeric = DvjSchema.numeric(field);
      Map<String, Integer> counts = new HashMap<>();
      for (int doc : hits) {
        String v = rows.get(doc)[col(field)];
        if (!v.isEmpty()) {
          counts.merge(v, 1, Integer::sum);
        }
      }
      Comparator<String> byValue = numeric ? Comparator.comparingLong(Long::parseLong)
          : Comparator.comparing(BytesRef::new);
      List<String> top = new ArrayList<>(counts.keySet());
      top.sort(Comparator.comparingInt((String v) -> -counts.get(v)).thenComparing(byValue));
      for (String v : top.subList(0, Math.min(LIMITS.facets(), top.size()))) {
        (numeric ? digest.add(Long.parseLong(v)) : digest.add(new BytesRef(v))).add(counts.get(v));
      }
    }
  }

  private static void groups(String term, Digest digest) {
    Map<String, Integer> head = new TreeMap<>();
    for (int doc : ranked(term)) {
      head.putIfAbsent(rows.get(doc)[col("url_norm")], doc);
    }
    List<String> urls = new ArrayList<>(head.keySet());
    urls.sort(Comparator.comparingInt((String u) -> -freq(head.get(u), term)).thenComparingInt(head::get));
    for (String url : urls.subList(0, Math.min(LIMITS.groups(), urls.size()))) {
      digest.add(new BytesRef(url)).add(head.get(url)).add(freq(head.get(url), term));
    }
  }

  private static long expected(String workload, String term) {
    List<Integer> hits = hits(term);
    Digest digest = new Digest();
    switch (workload) {
      case "search" -> {
        return hits.size();
      }
      case "facet" -> facets(hits, digest);
      case "group" -> groups(term, digest);
      case "sort" -> {
        List<Integer> sorted = new ArrayList<>(hits);
        sorted.sort(Comparator.comparingLong((Integer d) -> -Long.parseLong(rows.get(d)[col("content_length")]))
            .thenComparingInt(d -> d));
        for (int doc : sorted.subList(0, Math.min(LIMITS.rows(), sorted.size()))) {
          digest.add(doc).add(Long.parseLong(rows.get(doc)[col("content_length")]));
        }
      }
      case "retrieve" -> retrieve(ranked(term).subList(0, Math.min(LIMITS.rows(), hits.size())), DvjSchema.RETRIEVE,
          digest);
      case "export" -> {
        List<Integer> order = new ArrayList<>(hits);
        order.sort(Comparator.comparing((Integer d) -> new BytesRef(rows.get(d)[col("id")]))
            .thenComparingInt(d -> d).reversed());
        retrieve(order, DvjSchema.EXPORT, digest);
      }
      case "combined" -> {
        groups(term, digest);
        Digest facets = new Digest();
        facets(hits, facets);
        digest.add(facets.value());
        digest.add(hits.stream().map(d -> rows.get(d)[col("domain")]).distinct().count());
        retrieve(ranked(term).subList(0, Math.min(LIMITS.rows(), hits.size())), DvjSchema.RETRIEVE, digest);
      }
      default -> throw new AssertionError(workload);
    }
    return digest.value();
  }

  @Test
  void everyAnswerEqualsTheBruteForceAnswer() throws Exception {
    Table answers = bench.answers();
    assertEquals((Request.NAMES.size() - 1) * 3 + 1, answers.rowCount()); // export: its one query
    for (int r = 0; r < answers.rowCount(); r++) {
      String workload = (String) answers.get("workload", r);
      String term = (String) answers.get("term", r);
      assertEquals(expected(workload, term), answers.get("checksum", r), workload + " on " + term);
      assertEquals((long) hits(term).size(), answers.get("hits", r));
    }
  }

  @Test
  void theCorpusExercisesWhatTheRequestsDependOn() {
    assertTrue(hits("rare").size() >= 30 && hits("common").size() > 9_000);
    assertTrue(hits("common").stream().anyMatch(d -> d >= 65_536), "hits beyond the first block");
  }

  @Test
  void anUnknownWorkloadOrAccessIsNamed() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> Request.named("facets", LIMITS));
    assertTrue(e.getMessage().contains("facets"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> Request.named("facet@ten", LIMITS));
    assertTrue(e.getMessage().contains("facet@ten"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> DvjAccess.open("warp", null));
    assertTrue(e.getMessage().contains("warp"), e.getMessage());
  }

  @Test
  void positionsCoverTheSegment() throws Exception {
    Table t = bench.positions("content_language", 8, 3);
    assertEquals(8, t.rowCount());
    assertEquals(0L, t.get("has_value", 0)); // no language in the first docs
    assertTrue((long) t.get("doc", 7) > 60_000);
  }

  @Test
  void readsVisitEveryPointOnceInAShuffledOrder() throws Exception {
    Table t = bench.reads("export", 8, 3);
    assertEquals(8, t.rowCount());
    long[] docs = new long[8];
    for (int i = 0; i < 8; i++) {
      assertEquals("export", t.get("workload", i));
      assertTrue((long) t.get("nanos", i) > 0);
      docs[i] = (long) t.get("doc", i);
    }
    long[] sorted = docs.clone();
    Arrays.sort(sorted);
    for (int i = 0; i < 8; i++) {
      assertEquals((long) DOCS * i / 8, sorted[i]);
    }
    assertTrue(!Arrays.equals(docs, sorted), "points read in docID order: " + Arrays.toString(docs));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> bench.reads("facet", 8, 3));
    assertTrue(e.getMessage().contains("facet"), e.getMessage());
  }
}
