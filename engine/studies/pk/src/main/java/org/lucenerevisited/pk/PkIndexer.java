package org.lucenerevisited.pk;

import java.io.IOException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.lucene.codecs.perfield.PerFieldPostingsFormat;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.store.Directory;
import org.lucenerevisited.engine.IndexFiles;
import org.lucenerevisited.engine.corpus.DocsTsv;
import org.lucenerevisited.engine.harness.Progress;
import org.lucenerevisited.engine.harness.Table;
import org.lucenerevisited.engine.shim.LuceneShim;

/**
 * Builds the pk study's indexes from docs.tsv: per contender {@code <outDir>/<contender>/multi}
 * (a segment flushed every segmentDocs docs, merged as LogDocMergePolicy decides: ten segments of
 * one level become one of the next, so a large index has segments of unequal, log-spaced sizes)
 * and, when asked, {@code <outDir>/<contender>/merged} (a copy of multi force-merged to one
 * segment). Global docID equals the docs.tsv row in both. A {@code baseline} index without the id field is
 * always built too, so the id field's bytes can be found by subtraction.
 */
public final class PkIndexer {

  private static final LuceneShim SHIM = LuceneShim.INSTANCE;
  /** Docs between progress reports: often enough for a bar, rare enough to cost nothing. */
  private static final int PROGRESS_EVERY = 10_000;

  private PkIndexer() {}

  /**
   * Builds every index; GlobalPkMap needs no index of its own (it reads {@code default}, which
   * is built when GlobalPkMap is asked for). Existing index directories are replaced. Columns:
   * contender, layout, path, docs, segments, segment_docs (sizes, largest first, comma-separated),
   * disk_bytes, postings_format, codec, seconds.
   */
  public static Table build(String docsTsv, String outDir, String[] contenders, int segmentDocs,
      boolean merged, Progress progress) throws IOException {
    if (segmentDocs < 2) {
      throw new IllegalArgumentException("segmentDocs must be >= 2, got " + segmentDocs);
    }
    Set<String> toBuild = new LinkedHashSet<>();
    for (String c : contenders) {
      PkContenders.check(c);
      toBuild.add(PkContenders.indexOf(c));
    }
    toBuild.add(PkContenders.BASELINE);

    Path docs = Paths.get(docsTsv);
    long total = DocsTsv.countRows(docs);
    Table.Builder table = Table.builder().stringColumn("contender").stringColumn("layout")
        .stringColumn("path").longColumn("docs").longColumn("segments")
        .stringColumn("segment_docs")
        .longColumn("disk_bytes").stringColumn("postings_format").stringColumn("codec")
        .doubleColumn("seconds");
    for (String contender : toBuild) {
      Path multi = Paths.get(outDir, contender, "multi");
      long start = System.nanoTime();
      writeMulti(docs, multi, contender, segmentDocs, total, progress);
      addRow(table, contender, "multi", multi, secondsSince(start));
      if (merged) {
        Path one = Paths.get(outDir, contender, "merged");
        start = System.nanoTime();
        PkIndexes.copyIndex(multi, one);
        try (Directory dir = SHIM.openMMapDirectory(one);
            IndexWriter writer = new IndexWriter(dir, appendConfig(contender, segmentDocs))) {
          writer.forceMerge(1);
          writer.commit();
        }
        addRow(table, contender, "merged", one, secondsSince(start));
        progress.report("merged " + contender, 1, 1);
      }
    }
    return table.build();
  }

  private static void writeMulti(Path docs, Path indexDir, String contender, int segmentDocs,
      long total, Progress progress) throws IOException {
    PkIndexes.deleteRecursively(indexDir);
    String stage = "index " + contender;
    PkIndexes.PkDocument doc = new PkIndexes.PkDocument(!PkContenders.BASELINE.equals(contender));
    IndexWriterConfig iwc = PkIndexes.writerConfig(contender, segmentDocs);
    iwc.setOpenMode(IndexWriterConfig.OpenMode.CREATE);
    try (Directory dir = SHIM.openMMapDirectory(indexDir);
        IndexWriter writer = new IndexWriter(dir, iwc)) {
      DocsTsv.forEach(docs, (row, id, body) -> {
        writer.addDocument(doc.set(id, body));
        if ((row + 1) % PROGRESS_EVERY == 0) {
          progress.report(stage, row + 1, total);
        }
      });
      writer.commit();
    }
    progress.report(stage, total, total);
  }

  private static IndexWriterConfig appendConfig(String contender, int segmentDocs) {
    IndexWriterConfig iwc = PkIndexes.writerConfig(contender, segmentDocs);
    iwc.setOpenMode(IndexWriterConfig.OpenMode.APPEND);
    return iwc;
  }

  private static String segmentSizes(List<LuceneShim.Leaf> leaves) {
    return leaves.stream().map(l -> l.reader().maxDoc()).sorted(Comparator.reverseOrder())
        .map(String::valueOf).collect(Collectors.joining(","));
  }

  private static double secondsSince(long startNanos) {
    return (System.nanoTime() - startNanos) / 1e9;
  }

  private static void addRow(Table.Builder table, String contender, String layout, Path path,
      double seconds) throws IOException {
    try (Directory dir = SHIM.openMMapDirectory(path);
        DirectoryReader reader = DirectoryReader.open(dir)) {
      var leaves = SHIM.leaves(reader);
      String format = leaves.isEmpty() ? null : SHIM.fieldAttribute(leaves.get(0).reader(),
          PkContenders.ID_FIELD, PerFieldPostingsFormat.PER_FIELD_FORMAT_KEY);
      table.addRow(contender, layout, path.toAbsolutePath().toString(), reader.numDocs(),
          leaves.size(), segmentSizes(leaves), IndexFiles.bytes(path),
          format == null ? "none" : format,
          PkContenders.codec(contender).getName(), seconds);
    }
  }
}
