package org.lucenerevisited.join;

import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.TermQuery;

/** The request's parts, Lucene 7+: built BooleanQueries, the join as a FILTER clause. */
final class Queries {

  private Queries() {}

  /** {@code field:(t1 OR t2 ...)}, scored. */
  static Query text(String field, String[] terms) {
    BooleanQuery.Builder query = new BooleanQuery.Builder();
    for (String term : terms) {
      query.add(new TermQuery(new Term(field, term)), BooleanClause.Occur.SHOULD);
    }
    return query.build();
  }

  /** {@code scored}, restricted to the docs {@code filter} matches, which adds nothing to the scores. */
  static Query filtered(Query scored, Query filter) {
    return new BooleanQuery.Builder()
        .add(scored, BooleanClause.Occur.MUST)
        .add(filter, BooleanClause.Occur.FILTER)
        .build();
  }
}
