package org.lucenerevisited.dvjump.jump;

import java.io.Closeable;
import java.io.IOException;
import org.apache.lucene.index.DocValues;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.SortedDocValues;
import org.apache.lucene.util.BytesRef;
import org.lucenerevisited.dvjump.Columns;

/**
 * Search-time jump tables (LUCENE-8374's design) over a Lucene 7.0-format segment: the tables are
 * built on a field's first access and kept, so a request reaches any document directly, backwards
 * too. Terms come from Lucene's own reader.
 */
public final class JumpColumns implements Columns.Source, Closeable {

  private final LeafReader leaf;
  private final SearchTimeJumpTables tables;

  public JumpColumns(LeafReader leaf) throws IOException {
    this.leaf = leaf;
    this.tables = new SearchTimeJumpTables(leaf);
  }

  /** Closes the tables' own handle on the DocValues data file. */
  @Override
  public void close() throws IOException {
    tables.close();
  }

  @Override
  public long buildNanos() {
    return tables.buildNanos();
  }

  @Override
  public long heapBytes() {
    return tables.ramBytesUsed();
  }

  @Override
  public Columns columns() {
    return new Columns() {
      @Override
      public NumericColumn numeric(String field) throws IOException {
        SearchTimeJumpTables.Numeric values = tables.numeric(field); // null: no document has the field
        return new NumericColumn() {
          @Override
          public boolean advanceExact(int doc) throws IOException {
            return values != null && values.advanceExact(doc);
          }

          @Override
          public long longValue() {
            return values.longValue();
          }
        };
      }

      @Override
      public SortedColumn sorted(String field) throws IOException {
        SearchTimeJumpTables.Sorted ords = tables.sorted(field); // null: no document has the field
        SortedDocValues terms = DocValues.getSorted(leaf, field);
        return new SortedColumn() {
          @Override
          public boolean advanceExact(int doc) throws IOException {
            return ords != null && ords.advanceExact(doc);
          }

          @Override
          public int ordValue() {
            return ords.ordValue();
          }

          @Override
          public BytesRef lookupOrd(int ord) throws IOException {
            return terms.lookupOrd(ord);
          }

          @Override
          public int valueCount() {
            return terms.getValueCount();
          }
        };
      }
    };
  }
}
