package org.lucenerevisited.join;

import java.io.IOException;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.TopDocs;

/** Top hits and stored ids, Lucene 7: every search counts all its hits (a long total). */
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
    return searcher.search(query, n);
  }

  static long total(TopDocs top) {
    return top.totalHits;
  }

  static String id(IndexSearcher searcher, int doc) throws IOException {
    return searcher.doc(doc).get(JoinSchema.ID);
  }
}
