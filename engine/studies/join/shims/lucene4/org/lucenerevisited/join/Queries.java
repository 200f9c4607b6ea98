package org.lucenerevisited.join;

import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.FilteredQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.QueryWrapperFilter;
import org.apache.lucene.search.TermQuery;

/** The request's parts, Lucene 4: a mutable BooleanQuery, and a FilteredQuery for the join filter. */
final class Queries {

  private Queries() {}

  /** {@code field:(t1 OR t2 ...)}, scored (with 4.x's coord factor, as Solr 4 scores it). */
  static Query text(String field, String[] terms) {
    BooleanQuery query = new BooleanQuery();
    for (String term : terms) {
      query.add(new TermQuery(new Term(field, term)), BooleanClause.Occur.SHOULD);
    }
    return query;
  }

  /** {@code scored}, restricted to the docs {@code filter} matches, which adds nothing to the scores. */
  static Query filtered(Query scored, Query filter) {
    return new FilteredQuery(scored, new QueryWrapperFilter(filter));
  }
}
