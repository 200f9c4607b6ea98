package org.lucenerevisited.join;

import java.io.IOException;
import java.nio.file.Path;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.store.Directory;
import org.lucenerevisited.engine.IndexFiles;
import org.lucenerevisited.engine.corpus.DocsTsv;
import org.lucenerevisited.engine.harness.Progress;
import org.lucenerevisited.engine.harness.Table;
import org.lucenerevisited.engine.shim.LuceneShim;

/**
 * Builds the study's index from a corpus folder: each block added with one {@code addDocuments} call
 * (children, then the parent: a block join finds a child's parent as the next parent in docID order,
 * and {@code addDocuments} keeps a block's documents adjacent through every flush and merge), then
 * force-merged to one segment and committed. One indexing thread, a large RAM buffer.
 */
public final class JoinIndexer {

  private static final double RAM_BUFFER_MB = 256;
  private static final int PROGRESS_EVERY = 10_000;

  private JoinIndexer() {}

  /**
   * Indexes {@code corpusDir}'s {@code docs.tsv} into {@code out} (replacing any index there). One row:
   * docs, parents, segments, bytes (on disk), millis (indexing, merge and commit).
   */
  public static Table build(String corpusDir, String out, Progress progress) throws IOException {
    Path docsTsv = Path.of(corpusDir).resolve(JoinCorpus.DOCS);
    long blocks = DocsTsv.countRows(docsTsv);
    long started = System.nanoTime();
    IndexWriterConfig config = LuceneShim.INSTANCE.newIndexWriterConfig()
        .setOpenMode(IndexWriterConfig.OpenMode.CREATE)
        .setRAMBufferSizeMB(RAM_BUFFER_MB)
        // One file per extension, so that page-cache residency can be read per file type (join-6).
        .setUseCompoundFile(false);
    config.getMergePolicy().setNoCFSRatio(0.0);
    long[] parents = {0};
    try (Directory dir = LuceneShim.INSTANCE.openMMapDirectory(Path.of(out));
        IndexWriter writer = new IndexWriter(dir, config)) {
      JoinCorpus.forEach(docsTsv, block -> {
        writer.addDocuments(JoinSchema.block(block));
        if (++parents[0] % PROGRESS_EVERY == 0) {
          progress.report("index", parents[0], blocks);
        }
      });
      writer.forceMerge(1);
      writer.commit();
    }
    long millis = (System.nanoTime() - started) / 1_000_000;
    progress.report("index", blocks, blocks);
    IndexFiles.Built built = IndexFiles.built(Path.of(out));
    return Table.builder().longColumn("docs").longColumn("parents").longColumn("segments")
        .longColumn("bytes").longColumn("millis")
        .addRow(built.docs(), parents[0], built.segments(), built.bytes(), millis)
        .build();
  }
}
