package org.lucenerevisited.dvupdate;

import java.io.IOException;
import java.nio.file.Path;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.LogDocMergePolicy;
import org.apache.lucene.index.SerialMergeScheduler;
import org.apache.lucene.store.Directory;
import org.lucenerevisited.engine.IndexFiles;
import org.lucenerevisited.engine.corpus.DocsTsv;
import org.lucenerevisited.engine.harness.Progress;
import org.lucenerevisited.engine.harness.Table;
import org.lucenerevisited.engine.shim.LuceneShim;

/**
 * Builds the study's index: the corpus in row order, one segment flushed every {@code flushDocs}
 * documents, merged by {@link LogDocMergePolicy}, committed, never force-merged. The segment layout,
 * which decides how much a DocValues update rewrites, is then the same on every version: one thread
 * adds the rows and a flush depends on the document count alone (the RAM trigger is off), and merges
 * run in that thread ({@link SerialMergeScheduler}), so each merge decision sees the same segments.
 * LogDocMergePolicy merges adjacent segments only, so docID = row. With {@code flushDocs} of at least
 * its minimum merge size (1,000 documents) the layout is also the same across versions; below it,
 * Lucene 9 and later merge the small segments differently.
 */
public final class DvuIndexer {

  private static final int PROGRESS_EVERY = 10_000;

  private DvuIndexer() {}

  /**
   * Indexes {@code docsTsv} into {@code out}, the id field in postings format {@code idFormat} (SPI
   * name; empty for the version's default). One row: docs, segments, bytes (on disk), millis.
   */
  public static Table build(String docsTsv, String out, String idFormat, int flushDocs, Progress progress)
      throws IOException {
    long started = System.nanoTime();
    Path corpus = Path.of(docsTsv);
    long rows = DocsTsv.countRows(corpus) - 1; // the header
    IndexWriterConfig config = Analysis.writerConfig()
        .setOpenMode(IndexWriterConfig.OpenMode.CREATE)
        .setCodec(DvuSchema.codec(idFormat))
        .setMaxBufferedDocs(flushDocs)
        .setRAMBufferSizeMB(IndexWriterConfig.DISABLE_AUTO_FLUSH)
        .setMergePolicy(new LogDocMergePolicy())
        .setMergeScheduler(new SerialMergeScheduler());
    try (Directory dir = LuceneShim.INSTANCE.openMMapDirectory(Path.of(out));
        IndexWriter writer = new IndexWriter(dir, config)) {
      DvuCorpus.forEach(corpus, row -> {
        writer.addDocument(DvuSchema.original(row));
        if (row.row() % PROGRESS_EVERY == 0) {
          progress.report("index", row.row(), rows);
        }
      });
      writer.commit();
    }
    long millis = (System.nanoTime() - started) / 1_000_000;
    progress.report("index", rows, rows);
    IndexFiles.Built built = IndexFiles.built(Path.of(out));
    return Table.builder().longColumn("docs").longColumn("segments").longColumn("bytes").longColumn("millis")
        .addRow(built.docs(), built.segments(), built.bytes(), millis)
        .build();
  }
}
