package org.lucenerevisited.engine.shim;

import java.io.IOException;
import org.apache.lucene.document.Document;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.util.FixedBitSet;

/**
 * What Lucene 6.x and 7.x share past {@link LeafReaderShim}: every search counts all its hits (an int
 * total), stored fields are read through {@code IndexReader.document}, and a collector says it needs
 * no scores with {@code needsScores}. Each major's {@code LuceneShimImpl} adds its weight, which took
 * a boost from 7.
 */
abstract class NeedsScoresShim extends LeafReaderShim {

  @Override
  public TopDocs topDocs(IndexSearcher searcher, Query query, int n) throws IOException {
    return searcher.search(query, n);
  }

  @Override
  public long totalHits(TopDocs top) {
    return top.totalHits;
  }

  @Override
  public Document document(IndexReader reader, int doc) throws IOException {
    return reader.document(doc);
  }

  @Override
  public FixedBitSet[] collectDocs(IndexSearcher searcher, Query query) throws IOException {
    FixedBitSet[] sets = SegmentBitSets.empty(searcher.getIndexReader());
    searcher.search(query, new SegmentBitSets(sets) {
      @Override
      public boolean needsScores() {
        return false;
      }
    });
    return sets;
  }
}
