package org.lucenerevisited.dvupdate;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.lucenerevisited.engine.harness.Progress;

/**
 * A small corpus in the study's format and its index, for tests: "alpha" in every 3rd body, "beta"
 * in every 7th, "gamma" in every 50th, a few non-ASCII titles, modification times spread over a year.
 */
final class TestIndex {

  static final String[] QUERIES = {"alpha", "beta", "gamma", "absent"};

  /** One row as written: id, title, modified (epoch seconds), body. */
  record Doc(String id, String title, long modified, String body) {
    long lastmod(int row) {
      return DvuSchema.lastmod(modified, row);
    }
  }

  final Path docsTsv;
  final Path index;
  final List<Doc> docs;

  private TestIndex(Path docsTsv, Path index, List<Doc> docs) {
    this.docsTsv = docsTsv;
    this.index = index;
    this.docs = docs;
  }

  /** Writes {@code n} documents under {@code dir} and indexes them, a segment per {@code flushDocs}. */
  static TestIndex build(Path dir, int n, int flushDocs) throws IOException {
    Random random = new Random(42);
    List<Doc> docs = new ArrayList<>();
    StringBuilder tsv = new StringBuilder(DvuCorpus.HEADER).append('\n');
    for (int row = 0; row < n; row++) {
      StringBuilder body = new StringBuilder("w" + random.nextInt(40) + " w" + random.nextInt(40));
      body.append(row % 3 == 0 ? " alpha" : "").append(row % 7 == 0 ? " beta" : "")
          .append(row % 50 == 0 ? " gamma" : "");
      String title = (row % 11 == 0 ? "Ærø " : "Title ") + row;
      Doc doc = new Doc(String.format("d%07x", row * 7919L % 0x10000000L), title,
          1_388_534_400L + random.nextInt(365 * 86_400), body.toString());
      docs.add(doc);
      tsv.append(doc.id()).append('\t').append(title).append('\t').append(Instant.ofEpochSecond(doc.modified()))
          .append('\t').append(body).append('\n');
    }
    Path docsTsv = dir.resolve("docs.tsv");
    Files.writeString(docsTsv, tsv, StandardCharsets.UTF_8);
    Path index = dir.resolve("index");
    DvuIndexer.build(docsTsv.toString(), index.toString(), "", flushDocs, Progress.NONE);
    return new TestIndex(docsTsv, index, docs);
  }

  /** A spec of {@code method} on this index: short runs, a verification of 240 updates in 6 reopens. */
  DvuSpec spec(String method) {
    DvuSpec spec = new DvuSpec();
    spec.indexPath = index.toString();
    spec.docsTsv = docsTsv.toString();
    spec.method = method;
    spec.idFormat = "";
    spec.rates = new int[] {200};
    spec.intervalsMillis = new int[] {200};
    spec.warmupMillis = 1000;
    spec.maxWarmupMillis = 1500;
    spec.measureMillis = 1000;
    spec.minReopens = 8; // 1.6 s of 200 ms reopens: the measured time goes on past measureMillis
    spec.maxMeasureMillis = 3000;
    spec.probeMillis = 100;
    spec.quietProbes = 3;
    spec.jitQuietShare = 0.02;
    spec.jitSettledDrop = 0.1;
    spec.indexThreads = 2;
    spec.searchThreads = 1;
    spec.queries = QUERIES;
    spec.topN = 10;
    spec.ramBufferBudgetBytes = Long.MAX_VALUE;
    spec.seed = 7;
    spec.verifyUpdates = 240;
    spec.verifyReopens = 6;
    return spec;
  }
}
