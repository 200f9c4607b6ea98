package org.lucenerevisited.dvjump;

import java.io.IOException;
import org.lucenerevisited.engine.harness.Digest;

/**
 * The seed's production request: grouping, faceting, cardinality and retrieval together on the same
 * hits, each part with columns of its own, as Solr's search components get theirs.
 */
final class CombinedRequest implements Request {

  private final Request.Limits limits;
  private final FacetRequest facets;

  CombinedRequest(Request.Limits limits) {
    this.limits = limits;
    this.facets = new FacetRequest(DvjSchema.FACETS, limits.facets());
  }

  @Override
  public long run(Matches hits, Columns columns) throws IOException {
    Digest digest = new Digest();
    GroupRequest.groups(hits, columns.sorted(DvjSchema.GROUP), limits.groups(), digest);
    digest.add(facets.run(hits, columns));
    digest.add(cardinality(hits, columns.sorted(DvjSchema.CARDINALITY)));
    RetrieveRequest.retrieve(hits.top(limits.rows()), DvjSchema.RETRIEVE, columns, digest);
    return digest.value();
  }

  /** Distinct values of the field among the hits. */
  private static long cardinality(Matches hits, Columns.SortedColumn column) throws IOException {
    boolean[] seen = new boolean[column.valueCount()];
    long distinct = 0;
    for (int i = 0; i < hits.size(); i++) {
      if (column.advanceExact(hits.doc(i)) && !seen[column.ordValue()]) {
        seen[column.ordValue()] = true;
        distinct++;
      }
    }
    return distinct;
  }
}
