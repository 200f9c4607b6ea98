package org.lucenerevisited.dvupdate;

import org.apache.lucene.index.IndexReader;
import org.apache.lucene.search.IndexSearcher;

/**
 * A searcher without a query cache: with one, methods that keep segments unchanged for longer would
 * search faster for that reason alone.
 */
final class Searchers {

  private Searchers() {}

  static IndexSearcher newSearcher(IndexReader reader) {
    IndexSearcher searcher = new IndexSearcher(reader);
    searcher.setQueryCache(null);
    return searcher;
  }
}
