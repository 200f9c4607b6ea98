package org.lucenerevisited.dvjump;

import java.io.IOException;
import org.lucenerevisited.engine.harness.Digest;

/**
 * Sorting: the top hits by a numeric field, descending (hits without a value last, ties: the lower
 * docID), reading the field in docID order as a sorting collector does.
 */
record SortRequest(String field, int rows) implements Request {

  @Override
  public long run(Matches hits, Columns columns) throws IOException {
    Columns.NumericColumn column = columns.numeric(field);
    TopK top = new TopK(Math.min(rows, hits.size()));
    long[] values = new long[hits.size()];
    for (int i = 0; i < hits.size(); i++) {
      int doc = hits.doc(i);
      boolean has = column.advanceExact(doc);
      values[i] = has ? column.longValue() : Long.MIN_VALUE; // no value: last
      top.offer(values[i], doc, i);
    }
    Digest digest = new Digest();
    for (int i : top.payloadsBestFirst()) {
      digest.add(hits.doc(i)).add(values[i]);
    }
    return digest.value();
  }
}
