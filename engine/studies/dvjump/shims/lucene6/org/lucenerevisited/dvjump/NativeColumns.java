package org.lucenerevisited.dvjump;

import java.io.IOException;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.NumericDocValues;
import org.apache.lucene.index.SortedDocValues;
import org.apache.lucene.util.Bits;
import org.apache.lucene.util.BytesRef;

/**
 * Lucene 6's DocValues: random access. A value is read at any docID in constant time, whatever was
 * read before: the "before" of the seed's regression.
 */
public record NativeColumns(LeafReader leaf) implements Columns.Source {

  @Override
  public Columns columns() {
    return new Columns() {
      @Override
      public NumericColumn numeric(String field) throws IOException {
        NumericDocValues values = leaf.getNumericDocValues(field);
        Bits docs = leaf.getDocsWithField(field);
        return new NumericColumn() {
          private int doc = -1;

          @Override
          public boolean advanceExact(int target) {
            doc = target;
            return values != null && docs.get(target);
          }

          @Override
          public long longValue() {
            return values.get(doc);
          }
        };
      }

      @Override
      public SortedColumn sorted(String field) throws IOException {
        SortedDocValues values = leaf.getSortedDocValues(field);
        return new SortedColumn() {
          private int ord = -1;

          @Override
          public boolean advanceExact(int target) {
            ord = values == null ? -1 : values.getOrd(target);
            return ord >= 0;
          }

          @Override
          public int ordValue() {
            return ord;
          }

          @Override
          public BytesRef lookupOrd(int ord) {
            return values.lookupOrd(ord);
          }

          @Override
          public int valueCount() {
            return values == null ? 0 : values.getValueCount();
          }
        };
      }
    };
  }
}
