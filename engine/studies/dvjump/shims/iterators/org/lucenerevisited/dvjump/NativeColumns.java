package org.lucenerevisited.dvjump;

import java.io.IOException;
import org.apache.lucene.index.DocValues;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.NumericDocValues;
import org.apache.lucene.index.SortedDocValues;
import org.apache.lucene.util.BytesRef;

/**
 * DocValues of Lucene 7 and later, read the way Solr 7 reads them: one forward-only iterator per
 * column; when a request needs an earlier document than the iterator is on, a fresh iterator, which
 * reaches the document from the segment's start (export and retrieval take a fresh column for every
 * document, as Solr 7 did). Without jump tables that walk visits every block before the document.
 */
public record NativeColumns(LeafReader leaf) implements Columns.Source {

  @Override
  public Columns columns() {
    return new Columns() {
      @Override
      public NumericColumn numeric(String field) throws IOException {
        return new NumericColumn() {
          private NumericDocValues values = DocValues.getNumeric(leaf, field);

          @Override
          public boolean advanceExact(int doc) throws IOException {
            if (doc < values.docID()) {
              values = DocValues.getNumeric(leaf, field);
            }
            return values.advanceExact(doc);
          }

          @Override
          public long longValue() throws IOException {
            return values.longValue();
          }
        };
      }

      @Override
      public SortedColumn sorted(String field) throws IOException {
        return new SortedColumn() {
          private SortedDocValues values = DocValues.getSorted(leaf, field);

          @Override
          public boolean advanceExact(int doc) throws IOException {
            if (doc < values.docID()) {
              values = DocValues.getSorted(leaf, field);
            }
            return values.advanceExact(doc);
          }

          @Override
          public int ordValue() throws IOException {
            return values.ordValue();
          }

          @Override
          public BytesRef lookupOrd(int ord) throws IOException {
            return values.lookupOrd(ord);
          }

          @Override
          public int valueCount() {
            return values.getValueCount();
          }
        };
      }
    };
  }
}
