package org.lucenerevisited.dvjump.jump;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lucenerevisited.dvjump.DvjBench;
import org.lucenerevisited.dvjump.DvjIndexer;
import org.lucenerevisited.dvjump.DvjSpec;
import org.lucenerevisited.dvjump.Request;
import org.lucenerevisited.dvjump.TestArchive;
import org.lucenerevisited.engine.harness.Table;

/** Every request answers the same through search-time jump tables as through Lucene's own reader. */
class JumpColumnsTest {

  @TempDir Path dir;

  @Test
  void jumpTablesAnswerAsLucenesReaderDoes() throws Exception {
    TestArchive.write(dir.resolve("docs.tsv"), 140_000, 9);
    DvjIndexer.build(dir.resolve("docs.tsv").toString(), dir.resolve("index").toString(), "Lucene70",
        (stage, done, total) -> {});
    Table nativeAnswers = answers("native");
    Table jumpAnswers;
    DvjSpec spec = spec("jump");
    try (DvjBench bench = new DvjBench(spec)) {
      jumpAnswers = bench.answers();
      Table cost = bench.sourceCost();
      assertTrue((long) cost.get("build_nanos", 0) > 0 && (long) cost.get("heap_bytes", 0) > 0);
    }
    assertEquals(nativeAnswers.rowCount(), jumpAnswers.rowCount());
    for (int r = 0; r < nativeAnswers.rowCount(); r++) {
      assertEquals(nativeAnswers.get("checksum", r), jumpAnswers.get("checksum", r),
          nativeAnswers.get("workload", r) + " on " + nativeAnswers.get("term", r));
    }
  }

  private DvjSpec spec(String access) {
    DvjSpec spec = new DvjSpec();
    spec.indexPath = dir.resolve("index").toString();
    spec.access = access;
    spec.workloads = Request.NAMES.toArray(new String[0]);
    spec.terms = new String[] {"common", "rare"};
    spec.buckets = new int[] {4, 1};
    spec.exportTerm = "common";
    spec.exportBucket = 4;
    spec.rows = 20;
    spec.facets = 20;
    spec.groups = 20;
    return spec;
  }

  private Table answers(String access) throws Exception {
    try (DvjBench bench = new DvjBench(spec(access))) {
      return bench.answers();
    }
  }
}
