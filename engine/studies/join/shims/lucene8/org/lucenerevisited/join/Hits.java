package org.lucenerevisited.join;

import java.io.IOException;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.search.TopScoreDocCollector;

/**
 * Top hits and stored ids, Lucene 8: a search stops counting at 1,000 hits unless told otherwise, and
 * may then skip non-competitive docs; the threshold is lifted so that the count is exact, as Solr's.
 */
final class Hits {

  private Hits() {}

  /** A searcher without the query cache, which would keep the joins' filters across requests. */
  static IndexSearcher newSearcher(IndexReader reader) {
    IndexSearcher searcher = new IndexSearcher(reader);
    searcher.setQueryCache(null);
    return searcher;
  }

  /** The top {@code n} by score (ties by docID), with the exact total hit count. */
  static TopDocs top(IndexSearcher searcher, Query query, int n) throws IOException {
    TopScoreDocCollector collector = TopScoreDocCollector.create(n, Integer.MAX_VALUE);
    searcher.search(query, collector);
    return collector.topDocs();
  }

  static long total(TopDocs top) {
    return top.totalHits.value;
  }

  static String id(IndexSearcher searcher, int doc) throws IOException {
    return searcher.doc(doc).get(JoinSchema.ID);
  }
}
