package org.lucenerevisited.dvupdate;

import org.apache.lucene.index.IndexReader;
import org.apache.lucene.search.IndexSearcher;

/** A searcher; Lucene 4 has no query cache, so every method already searches uncached. */
final class Searchers {

  private Searchers() {}

  static IndexSearcher newSearcher(IndexReader reader) {
    return new IndexSearcher(reader);
  }
}
