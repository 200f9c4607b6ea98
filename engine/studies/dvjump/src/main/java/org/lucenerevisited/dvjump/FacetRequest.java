package org.lucenerevisited.dvjump;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.lucene.util.BytesRef;
import org.lucenerevisited.engine.harness.Digest;

/**
 * Faceting: the top values of each field among the hits, by count (ties: the smaller value first).
 * String fields count ordinals in an array, numeric fields values in a map, both reading the hits in
 * docID order, as Solr's per-segment faceting does; only the top values are resolved to terms.
 */
record FacetRequest(List<String> fields, int limit) implements Request {

  @Override
  public long run(Matches hits, Columns columns) throws IOException {
    Digest digest = new Digest();
    for (String field : fields) {
      if (DvjSchema.numeric(field)) {
        numeric(hits, columns.numeric(field), digest);
      } else {
        sorted(hits, columns.sorted(field), digest);
      }
    }
    return digest.value();
  }

  private void sorted(Matches hits, Columns.SortedColumn column, Digest digest) throws IOException {
    int[] counts = new int[column.valueCount()];
    for (int i = 0; i < hits.size(); i++) {
      if (column.advanceExact(hits.doc(i))) {
        counts[column.ordValue()]++;
      }
    }
    // Ordinals follow term order, so "smaller ordinal first" breaks ties by term.
    List<long[]> top = new ArrayList<>();
    for (int ord = 0; ord < counts.length; ord++) {
      if (counts[ord] > 0) {
        top.add(new long[] {counts[ord], ord});
      }
    }
    top.sort((a, b) -> a[0] != b[0] ? Long.compare(b[0], a[0]) : Long.compare(a[1], b[1]));
    for (long[] entry : top.subList(0, Math.min(limit, top.size()))) {
      BytesRef term = column.lookupOrd((int) entry[1]);
      digest.add(term).add(entry[0]);
    }
  }

  private void numeric(Matches hits, Columns.NumericColumn column, Digest digest) throws IOException {
    Map<Long, int[]> counts = new HashMap<>();
    for (int i = 0; i < hits.size(); i++) {
      if (column.advanceExact(hits.doc(i))) {
        counts.computeIfAbsent(column.longValue(), v -> new int[1])[0]++;
      }
    }
    List<Map.Entry<Long, int[]>> top = new ArrayList<>(counts.entrySet());
    top.sort((a, b) -> a.getValue()[0] != b.getValue()[0] ? Integer.compare(b.getValue()[0], a.getValue()[0])
        : Long.compare(a.getKey(), b.getKey()));
    for (Map.Entry<Long, int[]> entry : top.subList(0, Math.min(limit, top.size()))) {
      digest.add(entry.getKey()).add(entry.getValue()[0]);
    }
  }
}
