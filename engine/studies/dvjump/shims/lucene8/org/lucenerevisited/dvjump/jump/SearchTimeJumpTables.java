package org.lucenerevisited.dvjump.jump;

import java.io.Closeable;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import org.apache.lucene.codecs.CodecUtil;
import org.apache.lucene.codecs.perfield.PerFieldDocValuesFormat;
import org.apache.lucene.index.FieldInfo;
import org.apache.lucene.index.IndexFileNames;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.SegmentReader;
import org.apache.lucene.store.ChecksumIndexInput;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.IOContext;
import org.apache.lucene.store.IndexInput;
import org.apache.lucene.util.LongValues;
import org.apache.lucene.util.packed.DirectReader;

/**
 * Search-time jump tables (the design of LUCENE-8374, never released) for one segment whose
 * DocValues are in the Lucene 7.0 format: built lazily, on a field's first access, and kept for the
 * segment's life. This is a clean-room implementation from the format's description; it reads the
 * segment's {@code .dvm} and {@code .dvd} files itself and answers doc-to-value lookups without
 * walking the blocks before the document, as Lucene 7's own reader must. Terms of sorted fields are
 * still resolved by Lucene's reader ({@code lookupOrd}), whose terms index needs no jump table.
 *
 * <p>Not thread-safe; one instance per searching thread. {@link #buildNanos} and {@link
 * #ramBytesUsed} report what the tables built so far cost.
 */
public final class SearchTimeJumpTables implements Closeable {

  private static final String FORMAT = "Lucene70";

  private final int maxDoc;
  private final IndexInput dvd;
  final Lucene70Entries entries;
  private final Map<String, Numeric> numerics = new HashMap<>();
  private final Map<String, Sorted> sorted = new HashMap<>();
  private long buildNanos;

  /** Opens the Lucene 7.0 DocValues files of {@code leaf}, whose fields must all use that format. */
  public SearchTimeJumpTables(LeafReader leaf) throws IOException {
    if (!(leaf instanceof SegmentReader segment)) {
      throw new IllegalArgumentException("not a segment: " + leaf);
    }
    String suffix = null;
    for (FieldInfo info : leaf.getFieldInfos()) {
      String format = info.getAttribute(PerFieldDocValuesFormat.PER_FIELD_FORMAT_KEY);
      if (format == null) {
        continue;
      }
      if (!FORMAT.equals(format)) {
        throw new IllegalArgumentException(
            "field " + info.name + " uses DocValues format " + format + ", not " + FORMAT);
      }
      String mine = format + "_" + info.getAttribute(PerFieldDocValuesFormat.PER_FIELD_SUFFIX_KEY);
      if (suffix != null && !suffix.equals(mine)) {
        throw new IllegalArgumentException("DocValues in two files (" + suffix + ", " + mine + ")");
      }
      suffix = mine;
    }
    if (suffix == null) {
      throw new IllegalArgumentException("segment has no DocValues");
    }
    var info = segment.getSegmentInfo().info;
    if (info.getUseCompoundFile()) {
      throw new IllegalArgumentException("segment " + info.name + " is a compound file; build without");
    }
    Directory dir = segment.directory();
    maxDoc = leaf.maxDoc();
    String meta = IndexFileNames.segmentFileName(info.name, suffix, "dvm");
    try (ChecksumIndexInput in = dir.openChecksumInput(meta, IOContext.READONCE)) {
      entries = new Lucene70Entries(in, leaf.getFieldInfos(), info.getId(), suffix);
    }
    dvd = dir.openInput(IndexFileNames.segmentFileName(info.name, suffix, "dvd"), IOContext.DEFAULT);
    CodecUtil.checkIndexHeader(dvd, Lucene70Entries.DATA_CODEC, Lucene70Entries.VERSION,
        Lucene70Entries.VERSION, info.getId(), suffix);
  }

  /** The numeric field's values, or null if the segment has no such numeric field. */
  public Numeric numeric(String field) throws IOException {
    Numeric out = numerics.get(field);
    if (out == null && entries.numerics.containsKey(field)) {
      long start = System.nanoTime();
      Lucene70Entries.Numeric entry = entries.numerics.get(field);
      out = new Numeric(docs(entry.docsWithFieldOffset(), entry.docsWithFieldLength()),
          new ValueJumpTable(dvd, entry));
      buildNanos += System.nanoTime() - start;
      numerics.put(field, out);
    }
    return out;
  }

  /** The sorted field's ordinals, or null if the segment has no such sorted field. */
  public Sorted sorted(String field) throws IOException {
    Sorted out = sorted.get(field);
    if (out == null && entries.sorted.containsKey(field)) {
      long start = System.nanoTime();
      Lucene70Entries.Sorted entry = entries.sorted.get(field);
      LongValues ords = entry.bitsPerValue() == 0
          ? LongValues.ZEROES
          : DirectReader.getInstance(dvd.randomAccessSlice(entry.ordsOffset(), entry.ordsLength()),
              entry.bitsPerValue());
      out = new Sorted(docs(entry.docsWithFieldOffset(), entry.docsWithFieldLength()), ords);
      buildNanos += System.nanoTime() - start;
      sorted.put(field, out);
    }
    return out;
  }

  private Docs docs(long offset, long length) throws IOException {
    if (offset == -2) {
      return Docs.NONE;
    }
    if (offset == -1) {
      return Docs.ALL;
    }
    DocJumpTable table = new DocJumpTable(dvd, offset, length, maxDoc);
    return new Docs(table);
  }

  /** Nanoseconds spent building the tables of the fields accessed so far. */
  public long buildNanos() {
    return buildNanos;
  }

  /** Heap held by the tables of the fields accessed so far. */
  public long ramBytesUsed() {
    long bytes = 0;
    for (Numeric n : numerics.values()) {
      bytes += n.docs.ramBytesUsed() + n.values.ramBytesUsed();
    }
    for (Sorted s : sorted.values()) {
      bytes += s.docs.ramBytesUsed();
    }
    return bytes;
  }

  @Override
  public void close() throws IOException {
    dvd.close();
  }

  /** Which documents have a value: none, all (index = docID), or those of a jump table. */
  static final class Docs {
    static final Docs NONE = new Docs(null);
    static final Docs ALL = new Docs(null);
    private final DocJumpTable table;

    private Docs(DocJumpTable table) {
      this.table = table;
    }

    /** The index of {@code doc} among documents with a value, or -1 if it has none. */
    int index(int doc) throws IOException {
      if (this == ALL) {
        return doc;
      }
      if (this == NONE || !table.advanceExact(doc)) {
        return -1;
      }
      return table.index();
    }

    long ramBytesUsed() {
      return table == null ? 0 : table.ramBytesUsed();
    }

    String kinds() {
      return this == ALL ? "all" : this == NONE ? "none" : table.kinds();
    }
  }

  /** A field's documents: {@link #advanceExact} finds the document's position among them, where its value is. */
  abstract static class Column {
    final Docs docs;
    int index = -1;

    Column(Docs docs) {
      this.docs = docs;
    }

    public final boolean advanceExact(int doc) throws IOException {
      index = docs.index(doc);
      return index >= 0;
    }
  }

  /** A numeric field: {@link #advanceExact}, then {@link #longValue}, as Lucene's iterators read. */
  public static final class Numeric extends Column {
    final ValueJumpTable values;

    Numeric(Docs docs, ValueJumpTable values) {
      super(docs);
      this.values = values;
    }

    public long longValue() {
      return values.get(index);
    }
  }

  /** A sorted field: {@link #advanceExact}, then {@link #ordValue}. */
  public static final class Sorted extends Column {
    private final LongValues ords;

    Sorted(Docs docs, LongValues ords) {
      super(docs);
      this.ords = ords;
    }

    public int ordValue() {
      return (int) ords.get(index);
    }
  }
}
