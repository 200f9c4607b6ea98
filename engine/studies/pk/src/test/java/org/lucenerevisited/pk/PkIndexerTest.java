package org.lucenerevisited.pk;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lucenerevisited.engine.harness.Progress;
import org.lucenerevisited.engine.harness.Table;

class PkIndexerTest {

  @TempDir
  Path tmp;

  @Test
  void buildsAreDeterministicAndDocIdIsRow() throws Exception {
    TestCorpus corpus = TestCorpus.padded(tmp.resolve("corpus"), 3000);
    String[] contenders = {"default", "GlobalPkMap"};
    Table a = PkIndexer.build(corpus.docs.toString(), tmp.resolve("a").toString(), contenders,
        400, true, Progress.NONE);
    Table b = PkIndexer.build(corpus.docs.toString(), tmp.resolve("b").toString(), contenders,
        400, true, Progress.NONE);

    // default (GlobalPkMap reuses it) and baseline, each in two layouts.
    assertEquals(List.of("default", "default", "baseline", "baseline"),
        List.of(a.strings("contender")));
    assertArrayEquals(a.longs("segments"), b.longs("segments"));
    assertArrayEquals(a.longs("docs"), b.longs("docs"));
    assertEquals(3000, a.longs("docs")[0]);
    // 3000 docs flushed every 400 = 8 segments, below LogDocMergePolicy's merge factor of 10.
    assertEquals(8, a.longs("segments")[0]);
    assertEquals(1, a.longs("segments")[1]);
    assertEquals(PkContenders.defaultPostingsFormat().getName(), a.strings("postings_format")[0]);
    assertEquals("none", a.strings("postings_format")[2]);
    assertTrue(a.longs("disk_bytes")[2] < a.longs("disk_bytes")[0]);

    for (int i = 0; i < 2; i++) {
      String path = a.strings("path")[i];
      int[] got = PkLookupBench.resolveAll("default", path, corpus.keys.toString());
      int[] expected = PkLookupBench.resolveAll("default", b.strings("path")[i],
          corpus.keys.toString());
      assertArrayEquals(expected, got);
      List<String> lines = java.nio.file.Files.readAllLines(corpus.keys);
      for (int k = 0; k < lines.size(); k++) {
        String[] kv = lines.get(k).split("\t", -1);
        assertEquals(Integer.parseInt(kv[1]), got[k], "key " + kv[0] + " in " + path);
      }
    }
  }

  @Test
  void mergesKeepDocOrder() throws Exception {
    TestCorpus corpus = TestCorpus.padded(tmp.resolve("corpus"), 3000);
    // 100-doc flushes: LogDocMergePolicy merges runs of 10 adjacent segments along the way.
    Table t = PkIndexer.build(corpus.docs.toString(), tmp.resolve("idx").toString(),
        new String[] {"default"}, 100, true, Progress.NONE);
    assertTrue(t.longs("segments")[0] < 30, "expected merges, got " + t.longs("segments")[0]);
    int[] got = PkLookupBench.resolveAll("default", t.strings("path")[0], corpus.keys.toString());
    List<String> lines = java.nio.file.Files.readAllLines(corpus.keys);
    for (int k = 0; k < lines.size(); k++) {
      assertEquals(Integer.parseInt(lines.get(k).split("\t", -1)[1]), got[k]);
    }
  }

  @Test
  void withoutMergedOnlyMultiIsBuiltWithLogSpacedSegments() throws Exception {
    TestCorpus corpus = TestCorpus.padded(tmp.resolve("corpus"), 3000);
    // 100-doc flushes: ten become one of 1000, so the layout mixes sizes.
    Table t = PkIndexer.build(corpus.docs.toString(), tmp.resolve("idx").toString(),
        new String[] {"default"}, 100, false, Progress.NONE);
    assertEquals(List.of("multi", "multi"), List.of(t.strings("layout")));
    assertTrue(!java.nio.file.Files.exists(tmp.resolve("idx").resolve("default").resolve("merged")));
    String[] sizes = t.strings("segment_docs")[0].split(",");
    assertEquals(t.longs("segments")[0], sizes.length);
    assertTrue(Integer.parseInt(sizes[0]) >= 1000 && Integer.parseInt(sizes[sizes.length - 1]) <= 100,
        t.strings("segment_docs")[0]);
  }
}
