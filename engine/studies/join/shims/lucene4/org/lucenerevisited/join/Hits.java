package org.lucenerevisited.join;

import java.io.IOException;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.TopDocs;

/** Top hits and stored ids, Lucene 4: no query cache exists, and every search counts all its hits. */
final class Hits {

  private Hits() {}

  static IndexSearcher newSearcher(IndexReader reader) {
    return new IndexSearcher(reader);
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
