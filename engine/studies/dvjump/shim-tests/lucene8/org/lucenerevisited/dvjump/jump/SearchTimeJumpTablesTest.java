package org.lucenerevisited.dvjump.jump;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Random;
import org.apache.lucene.codecs.Codec;
import org.apache.lucene.codecs.DocValuesFormat;
import org.apache.lucene.codecs.FilterCodec;
import org.apache.lucene.codecs.perfield.PerFieldDocValuesFormat;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.NumericDocValuesField;
import org.apache.lucene.document.SortedDocValuesField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.NumericDocValues;
import org.apache.lucene.index.SortedDocValues;
import org.apache.lucene.index.TieredMergePolicy;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.MMapDirectory;
import org.apache.lucene.util.BytesRef;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The search-time jump tables return what Lucene's own Lucene 7.0 reader returns, for every document,
 * in order and at random, on fields built to use each encoding: IndexedDISI blocks that are SPARSE,
 * DENSE, ALL and absent; values that are constant, table-encoded, packed at one width with a common
 * divisor, and packed in blocks of varying width (among them constant blocks, and blocks scaled by a
 * common divisor).
 */
class SearchTimeJumpTablesTest {

  private static final int DOCS = 3 * 65536 + 1000;
  @TempDir static Path dir;
  private static Directory directory;
  private static DirectoryReader reader;
  private static LeafReader leaf;
  private static SearchTimeJumpTables tables;

  /** Has block 0 SPARSE (every 100th doc), block 1 DENSE (every 2nd), block 2 ALL, block 3 none. */
  private static boolean patterned(int doc) {
    int block = doc >>> 16;
    return block == 0 ? doc % 100 == 0 : block == 1 ? doc % 2 == 0 : block == 2;
  }

  @BeforeAll
  static void build() throws IOException {
    directory = new MMapDirectory(dir);
    Codec base = Codec.getDefault();
    DocValuesFormat lucene70 = DocValuesFormat.forName("Lucene70");
    IndexWriterConfig config = new IndexWriterConfig().setUseCompoundFile(false)
        .setCodec(new FilterCodec(base.getName(), base) {
          @Override
          public DocValuesFormat docValuesFormat() {
            return new PerFieldDocValuesFormat() {
              @Override
              public DocValuesFormat getDocValuesFormatForField(String field) {
                return lucene70;
              }
            };
          }
        });
    TieredMergePolicy policy = new TieredMergePolicy();
    policy.setNoCFSRatio(0.0);
    config.setMergePolicy(policy);
    Random random = new Random(42);
    int patternedValues = 0;
    try (IndexWriter writer = new IndexWriter(directory, config)) {
      for (int doc = 0; doc < DOCS; doc++) {
        Document d = new Document();
        // Blocks of 16,384 values alternate between 5 and 29 bits of range.
        int width = (doc >>> 14) % 2 == 0 ? 5 : 29;
        d.add(new NumericDocValuesField("varying", -1000 + random.nextInt(1 << width)));
        d.add(new NumericDocValuesField("table", new long[] {3, 1_000, 1_000_000}[random.nextInt(3)]));
        d.add(new NumericDocValuesField("constant", 42));
        // Blocks of 16,384 values: one value throughout (width 0), 30 bits, 6 bits, in turn.
        int run = (doc >>> 14) % 3;
        d.add(new NumericDocValuesField("runs", run == 0 ? 77 : random.nextInt(1 << (run == 1 ? 30 : 6))));
        // Multiples of 4 in blocks of 4 and 20 bits: each block packs (value - its minimum) / 4.
        d.add(new NumericDocValuesField("gcd_varying", 4L * random.nextInt(1 << (width == 5 ? 4 : 20))));
        if (patterned(doc)) {
          d.add(new NumericDocValuesField("gcd", 7L * random.nextInt(100_000)));
          // Value blocks count documents with a value: alternate widths by that count.
          d.add(new NumericDocValuesField("patterned_varying",
              (patternedValues++ >>> 14) % 2 == 0 ? random.nextInt(8) : random.nextInt(1 << 30)));
          d.add(new SortedDocValuesField("patterned_sorted", new BytesRef("t" + random.nextInt(500))));
        }
        d.add(new SortedDocValuesField("sorted", new BytesRef("s" + random.nextInt(2_000))));
        writer.addDocument(d);
      }
      writer.forceMerge(1);
    }
    reader = DirectoryReader.open(directory);
    leaf = reader.leaves().get(0).reader();
    tables = new SearchTimeJumpTables(leaf);
  }

  @AfterAll
  static void close() throws IOException {
    tables.close();
    reader.close();
    directory.close();
  }

  @Test
  void theFieldsUseEveryEncodingTheTablesHandle() throws IOException {
    assertTrue(tables.entries.numerics.get("varying").blockShift() >= 0, "varying widths");
    assertTrue(tables.entries.numerics.get("patterned_varying").blockShift() >= 0, "varying widths, patterned");
    assertNotNull(tables.entries.numerics.get("table").table(), "table-encoded");
    assertEquals(0, tables.entries.numerics.get("constant").bitsPerValue(), "constant");
    assertEquals(7, tables.entries.numerics.get("gcd").gcd(), "common divisor");
    assertTrue(tables.entries.numerics.get("gcd_varying").blockShift() >= 0, "varying widths, common divisor");
    assertEquals(4, tables.entries.numerics.get("gcd_varying").gcd(), "varying widths, common divisor");
    String[] widths = tables.numeric("runs").values.widths().split(",");
    assertEquals((DOCS + 16383) / 16384, widths.length);
    for (int b = 0; b < widths.length; b++) {
      assertEquals(b % 3 == 0, widths[b].equals("0"), "block " + b + " of runs has width " + widths[b]);
    }
    assertEquals("single", tables.numeric("gcd").values.widths());
    assertEquals("all", tables.numeric("varying").docs.kinds());
    assertEquals("SPARSE,DENSE,ALL,-", tables.numeric("gcd").docs.kinds());
    assertEquals("SPARSE,DENSE,ALL,-", tables.sorted("patterned_sorted").docs.kinds());
  }

  private static final String[] NUMERIC = {"varying", "table", "constant", "gcd", "patterned_varying", "runs",
      "gcd_varying"};
  private static final String[] SORTED = {"sorted", "patterned_sorted"};
  /** A document without a value; no test field holds this value. */
  private static final long ABSENT = Long.MIN_VALUE;

  /** A field's value at a document, or {@link #ABSENT}. */
  private interface ValueAt {
    long at(int doc) throws IOException;
  }

  /** Lucene's reader of a field, opened anew: its iterators only go forward. */
  private interface Lucene {
    ValueAt open() throws IOException;
  }

  /** Every document in order, then 20,000 at random, each with a fresh Lucene reader. */
  private static void assertSameAsLucene(String field, Lucene lucene, ValueAt mine) throws IOException {
    ValueAt inOrder = lucene.open();
    for (int doc = 0; doc < DOCS; doc++) {
      assertEquals(inOrder.at(doc), mine.at(doc), field + " doc " + doc + " in order");
    }
    Random random = new Random(field.hashCode());
    for (int i = 0; i < 20_000; i++) {
      int doc = random.nextInt(DOCS);
      assertEquals(lucene.open().at(doc), mine.at(doc), field + " doc " + doc + " at random");
    }
  }

  @Test
  void numericValuesAndSortedOrdinalsMatchLucenes() throws IOException {
    for (String field : NUMERIC) {
      SearchTimeJumpTables.Numeric mine = tables.numeric(field);
      assertSameAsLucene(field, () -> numeric(leaf.getNumericDocValues(field)),
          doc -> mine.advanceExact(doc) ? mine.longValue() : ABSENT);
    }
    for (String field : SORTED) {
      SearchTimeJumpTables.Sorted mine = tables.sorted(field);
      assertSameAsLucene(field, () -> sorted(leaf.getSortedDocValues(field)),
          doc -> mine.advanceExact(doc) ? mine.ordValue() : ABSENT);
    }
  }

  private static ValueAt numeric(NumericDocValues values) {
    return doc -> values.advanceExact(doc) ? values.longValue() : ABSENT;
  }

  private static ValueAt sorted(SortedDocValues values) {
    return doc -> values.advanceExact(doc) ? values.ordValue() : ABSENT;
  }

  @Test
  void buildingIsTimedAndItsHeapCounted() throws IOException {
    tables.numeric("gcd");
    assertTrue(tables.buildNanos() > 0);
    assertTrue(tables.ramBytesUsed() > 0);
  }

  @Test
  void aSegmentInAnotherFormatIsRefusedNamingIt() throws IOException {
    Path other = dir.resolveSibling(dir.getFileName() + "-default");
    try (Directory d = new MMapDirectory(other);
        IndexWriter w = new IndexWriter(d, new IndexWriterConfig().setUseCompoundFile(false))) {
      Document doc = new Document();
      doc.add(new NumericDocValuesField("n", 1));
      w.addDocument(doc);
      w.commit();
      try (DirectoryReader r = DirectoryReader.open(w)) {
        IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
            () -> new SearchTimeJumpTables(r.leaves().get(0).reader()));
        assertTrue(e.getMessage().contains("not Lucene70"), e.getMessage());
      }
    }
  }
}
