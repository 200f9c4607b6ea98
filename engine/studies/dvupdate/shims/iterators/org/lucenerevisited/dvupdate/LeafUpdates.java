package org.lucenerevisited.dvupdate;

import java.io.IOException;
import java.util.Arrays;
import org.apache.lucene.index.NumericDocValues;

/**
 * The RAM buffer's values in one leaf: docIDs ascending, each with the value that replaces the
 * segment's own. Filled while the RAM buffer resolves its ids, then sorted once.
 */
final class LeafUpdates {

  private int[] docs = new int[8];
  private long[] values = new long[8];
  private int size;
  private boolean sorted = true;

  void add(int doc, long value) {
    if (size == docs.length) {
      docs = Arrays.copyOf(docs, 2 * size);
      values = Arrays.copyOf(values, 2 * size);
    }
    sorted &= size == 0 || docs[size - 1] < doc;
    docs[size] = doc;
    values[size++] = value;
  }

  /** Orders the entries by docID (pending ids come in hash order). */
  LeafUpdates sort() {
    if (!sorted) {
      long[] keyed = new long[size];
      for (int i = 0; i < size; i++) {
        keyed[i] = (long) docs[i] << 32 | i;
      }
      Arrays.sort(keyed);
      int[] d = new int[size];
      long[] v = new long[size];
      for (int i = 0; i < size; i++) {
        d[i] = (int) (keyed[i] >>> 32);
        v[i] = values[(int) keyed[i]];
      }
      docs = d;
      values = v;
      sorted = true;
    }
    return this;
  }

  /** {@code base} with this leaf's values in place of its own. */
  NumericDocValues over(NumericDocValues base) {
    return new Overlaid(base, docs, values, size);
  }

  /**
   * The base iterator, positioned as it is: only the value of a document with a RAM-buffer entry
   * differs. DocValues iterators only move forward, so one cursor finds each document's entry.
   */
  private static final class Overlaid extends NumericDocValues {
    private final NumericDocValues base;
    private final int[] docs;
    private final long[] values;
    private final int size;
    /** The first entry whose docID is not below the current document. */
    private int next;

    Overlaid(NumericDocValues base, int[] docs, long[] values, int size) {
      this.base = base;
      this.docs = docs;
      this.values = values;
      this.size = size;
    }

    @Override
    public long longValue() throws IOException {
      int doc = base.docID();
      while (next < size && docs[next] < doc) {
        next++;
      }
      return next < size && docs[next] == doc ? values[next] : base.longValue();
    }

    @Override
    public boolean advanceExact(int target) throws IOException {
      return base.advanceExact(target);
    }

    @Override
    public int docID() {
      return base.docID();
    }

    @Override
    public int nextDoc() throws IOException {
      return base.nextDoc();
    }

    @Override
    public int advance(int target) throws IOException {
      return base.advance(target);
    }

    @Override
    public long cost() {
      return base.cost();
    }
  }
}
