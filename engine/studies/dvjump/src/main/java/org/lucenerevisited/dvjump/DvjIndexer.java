package org.lucenerevisited.dvjump;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.apache.lucene.codecs.Codec;
import org.apache.lucene.codecs.DocValuesFormat;
import org.apache.lucene.codecs.FilterCodec;
import org.apache.lucene.codecs.perfield.PerFieldDocValuesFormat;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.FieldType;
import org.apache.lucene.document.NumericDocValuesField;
import org.apache.lucene.document.SortedDocValuesField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexOptions;
import org.apache.lucene.index.IndexUpgrader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.LogDocMergePolicy;
import org.apache.lucene.store.Directory;
import org.apache.lucene.util.BytesRef;
import org.lucenerevisited.engine.IndexFiles;
import org.lucenerevisited.engine.harness.Progress;
import org.lucenerevisited.engine.harness.Table;
import org.lucenerevisited.engine.shim.LuceneShim;

/**
 * Builds the study's indexes: the whole corpus in one segment, as the seed's collections were merged
 * down to one, in the order of the corpus, so that docID equals row. One thread adds the records, so
 * segments flush in row order, and {@link LogDocMergePolicy} only merges adjacent segments, so merges
 * keep that order (TieredMergePolicy merges any segments: at 20M documents every version's index had
 * its own docID order). The build checks docID = row before it returns. Compound files are off, since
 * the search-time jump tables read the DocValues files themselves.
 */
public final class DvjIndexer {

  private static final int PROGRESS_EVERY = 10_000;
  private static final String ID = "id";
  private static final FieldType TEXT = textType();

  private DvjIndexer() {}

  private static FieldType textType() {
    FieldType type = new FieldType();
    type.setIndexOptions(IndexOptions.DOCS_AND_FREQS);
    type.setTokenized(true);
    type.setOmitNorms(true);
    type.freeze();
    return type;
  }

  /**
   * Indexes {@code docsTsv} into {@code out}. {@code docValuesFormat}: the SPI name of the DocValues
   * format of every field, or empty for the version's default.
   */
  public static Table build(String docsTsv, String out, String docValuesFormat, Progress progress)
      throws Exception {
    return build(docsTsv, out, docValuesFormat, 0, progress);
  }

  /** As above, flushing every {@code maxBufferedDocs} records if positive (tests: many segments to merge). */
  static Table build(String docsTsv, String out, String docValuesFormat, int maxBufferedDocs,
      Progress progress) throws Exception {
    long started = System.nanoTime();
    Path corpus = Path.of(docsTsv);
    List<String> fields = DvjCorpus.fields(corpus);
    long rows;
    try (Stream<String> lines = Files.lines(corpus)) {
      rows = lines.count() - 1;
    }
    IndexWriterConfig config = LuceneShim.INSTANCE.newIndexWriterConfig()
        .setOpenMode(IndexWriterConfig.OpenMode.CREATE)
        .setRAMBufferSizeMB(256)
        .setUseCompoundFile(false);
    if (maxBufferedDocs > 0) {
      config.setMaxBufferedDocs(maxBufferedDocs);
    }
    LogDocMergePolicy policy = new LogDocMergePolicy();
    policy.setNoCFSRatio(0.0);
    config.setMergePolicy(policy);
    if (!docValuesFormat.isEmpty()) {
      config.setCodec(withDocValuesFormat(DocValuesFormat.forName(docValuesFormat)));
    }
    int idColumn = fields.indexOf(ID);
    if (idColumn < 0) {
      throw new IOException(docsTsv + ": no " + ID + " column");
    }
    int[] idHashes = new int[Math.toIntExact(rows)];
    try (Directory dir = LuceneShim.INSTANCE.openMMapDirectory(Path.of(out));
        IndexWriter writer = new IndexWriter(dir, config)) {
      DvjCorpus.forEach(corpus, (row, values) -> {
        idHashes[row] = values[idColumn].hashCode();
        writer.addDocument(document(fields, values));
        if (row % PROGRESS_EVERY == 0) {
          progress.report("index", row, rows);
        }
      });
      progress.report("merge to one segment", 0, 1);
      writer.forceMerge(1);
      progress.report("merge to one segment", 1, 1);
    }
    checkRowOrder(out, idHashes);
    return stats(out, docValuesFormat, System.nanoTime() - started);
  }

  /** Fails unless the id of every docID is the id of that row of the corpus (compared by hash). */
  static void checkRowOrder(String out, int[] idHashes) throws Exception {
    try (Directory dir = LuceneShim.INSTANCE.openMMapDirectory(Path.of(out));
        DirectoryReader reader = DirectoryReader.open(dir)) {
      LeafReader leaf = reader.leaves().get(0).reader();
      if (leaf.maxDoc() != idHashes.length) {
        throw new IllegalStateException(out + " has " + leaf.maxDoc() + " documents, the corpus " + idHashes.length);
      }
      Columns.SortedColumn ids = DvjAccess.open("native", leaf).columns().sorted(ID);
      for (int doc = 0; doc < idHashes.length; doc++) {
        if (!ids.advanceExact(doc) || ids.lookupOrd(ids.ordValue()).utf8ToString().hashCode() != idHashes[doc]) {
          throw new IllegalStateException(out + ": docID " + doc + " does not hold row " + doc
              + " of the corpus; the study's readers assume docID = row");
        }
      }
    }
  }

  private static Document document(List<String> fields, String[] values) {
    Document doc = new Document();
    for (int i = 0; i < values.length; i++) {
      String field = fields.get(i);
      String value = values[i];
      if (value.isEmpty()) {
        continue;
      }
      if (field.equals(DvjSchema.TEXT)) {
        doc.add(new Field(field, value, TEXT));
      } else if (DvjSchema.numeric(field)) {
        doc.add(new NumericDocValuesField(field, Long.parseLong(value)));
      } else {
        doc.add(new SortedDocValuesField(field, new BytesRef(value)));
      }
    }
    return doc;
  }

  /** The default codec with every field's DocValues in {@code format}; it reads back as the default. */
  private static Codec withDocValuesFormat(DocValuesFormat format) {
    Codec base = Codec.getDefault();
    PerFieldDocValuesFormat perField = new PerFieldDocValuesFormat() {
      @Override
      public DocValuesFormat getDocValuesFormatForField(String field) {
        return format;
      }
    };
    return new FilterCodec(base.getName(), base) {
      @Override
      public DocValuesFormat docValuesFormat() {
        return perField;
      }
    };
  }

  /**
   * Rewrites every segment of the index in {@code out} with this version's codec (IndexUpgrader):
   * an index of an older major gains this major's DocValues format.
   */
  public static Table upgrade(String out) throws IOException {
    long started = System.nanoTime();
    try (Directory dir = LuceneShim.INSTANCE.openMMapDirectory(Path.of(out))) {
      new IndexUpgrader(dir).upgrade();
    }
    return stats(out, "", System.nanoTime() - started);
  }

  /** One row: docs, segments, bytes on disk, build nanos, and the DocValues format asked for. */
  private static Table stats(String out, String docValuesFormat, long nanos) throws IOException {
    IndexFiles.Built built = IndexFiles.built(Path.of(out));
    return Table.builder().longColumn("docs").longColumn("segments").longColumn("bytes")
        .longColumn("build_nanos").stringColumn("docvalues_format")
        .addRow(built.docs(), built.segments(), built.bytes(), nanos, docValuesFormat)
        .build();
  }
}
