package org.lucenerevisited.dvupdate;

import java.io.IOException;
import org.apache.lucene.codecs.Codec;
import org.apache.lucene.codecs.PostingsFormat;
import org.apache.lucene.document.BinaryDocValuesField;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.NumericDocValuesField;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.Sort;
import org.apache.lucene.search.SortField;
import org.apache.lucene.util.BytesRef;
import org.lucenerevisited.engine.FieldPostingsCodec;
import org.lucenerevisited.engine.shim.LuceneShim;

/**
 * The study's documents, as in the seed: an id for updates by term, the row for answer checks, title
 * and body as text, the title again as binary DocValues and the last-modification time as numeric
 * DocValues, the two fields the DocValues updates rewrite.
 */
final class DvuSchema {

  static final String ID = "id";
  static final String ROW = "row";
  static final String TITLE = "title";
  static final String TITLE_DV = "title_dv";
  static final String BODY = "body";
  static final String LASTMOD = "lastmod";

  /** The searches' order: most recently modified first, so updated documents come on top. */
  static final Sort BY_LASTMOD = new Sort(new SortField(LASTMOD, SortField.Type.LONG, true));

  /** A row is the low part of its lastmod, so no two documents tie on it while rows stay below this. */
  static final long ROWS_PER_SECOND = 10_000_000L;
  /** Above every base lastmod (epoch seconds up to year 2286 times {@link #ROWS_PER_SECOND}). */
  static final long UPDATED = 100_000_000_000_000_000L;

  private DvuSchema() {}

  /** The stored row of {@code doc}. */
  static int row(IndexReader reader, int doc) throws IOException {
    return LuceneShim.INSTANCE.document(reader, doc).getField(ROW).numericValue().intValue();
  }

  /** The base lastmod of a row: unique per document, so a sort by it has no ties. */
  static long lastmod(long epochSeconds, int row) {
    return epochSeconds * ROWS_PER_SECOND + row;
  }

  /** The lastmod that update {@code k} sets: later updates are more recent, and all beat the base. */
  static long value(long k) {
    return UPDATED + k;
  }

  /** The title_dv that update {@code k} sets. */
  static String title(String title, long k) {
    return title + " #" + k;
  }

  static Term idTerm(String id) {
    return new Term(ID, id);
  }

  static Document document(DvuCorpus.Row row, long lastmod, String titleDv) {
    Document doc = new Document();
    doc.add(new StringField(ID, row.id(), Field.Store.YES));
    doc.add(new StoredField(ROW, row.row()));
    doc.add(new TextField(TITLE, row.title(), Field.Store.NO));
    doc.add(new BinaryDocValuesField(TITLE_DV, new BytesRef(titleDv)));
    doc.add(new TextField(BODY, row.body(), Field.Store.NO));
    doc.add(new NumericDocValuesField(LASTMOD, lastmod));
    return doc;
  }

  /** The document as the indexer writes it. */
  static Document original(DvuCorpus.Row row) {
    return document(row, row.lastmod(), row.title());
  }

  /** The document as a reindex by update {@code k} writes it. */
  static Document updated(DvuCorpus.Row row, long k) {
    return document(row, value(k), title(row.title(), k));
  }

  /** The default codec, with the id field's postings in {@code idFormat} (SPI name) unless empty. */
  static Codec codec(String idFormat) {
    Codec base = Codec.getDefault();
    return idFormat.isEmpty() ? base : new FieldPostingsCodec(base, ID, PostingsFormat.forName(idFormat));
  }
}
