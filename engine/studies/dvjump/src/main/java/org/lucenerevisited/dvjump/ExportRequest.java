package org.lucenerevisited.dvjump;

import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import org.lucenerevisited.engine.harness.Digest;

/**
 * Solr's streaming export (the seed's /export): every hit, sorted by a string field descending, with
 * the export fields read for each hit in that order. The sort field is read in docID order; the
 * export fields then jump around the segment, each read from a fresh column as Solr 7's export writers
 * read them: the worst case for sequential DocValues, which Solr 7's export then had (SOLR-13013 was
 * still open).
 */
final class ExportRequest implements Request {

  private final String sortField;
  private final List<String> fields;

  ExportRequest(String sortField, List<String> fields) {
    this.sortField = sortField;
    this.fields = fields;
  }

  @Override
  public long run(Matches hits, Columns columns) throws IOException {
    Columns.SortedColumn sort = columns.sorted(sortField);
    long[] keyed = new long[hits.size()]; // ord << 32 | doc: sorting them sorts by ord, then doc
    for (int i = 0; i < hits.size(); i++) {
      int doc = hits.doc(i);
      int ord = sort.advanceExact(doc) ? sort.ordValue() : -1;
      keyed[i] = ((long) (ord + 1) << 32) | doc;
    }
    Arrays.sort(keyed);
    int[] order = new int[keyed.length];
    for (int i = 0; i < keyed.length; i++) {
      order[i] = (int) keyed[keyed.length - 1 - i]; // descending
    }
    return RetrieveRequest.retrieve(order, fields, columns, new Digest()).value();
  }
}
