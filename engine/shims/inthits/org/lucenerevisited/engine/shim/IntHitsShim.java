package org.lucenerevisited.engine.shim;

import java.io.IOException;
import org.apache.lucene.document.Document;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.TopDocs;

/**
 * What Lucene 4.x, 6.x and 7.x share: every search counts all its hits into a plain number ({@code
 * TopDocs.totalHits}, an int before 7, a long in 7), and stored fields are read through {@code
 * IndexReader.document}. From 8 the total is a {@code TotalHits} that may be a lower bound.
 */
interface IntHitsShim extends LuceneShim {

  @Override
  default TopDocs topDocs(IndexSearcher searcher, Query query, int n) throws IOException {
    return searcher.search(query, n);
  }

  @Override
  default long totalHits(TopDocs top) {
    return top.totalHits;
  }

  @Override
  default Document document(IndexReader reader, int doc) throws IOException {
    return reader.document(doc);
  }
}
