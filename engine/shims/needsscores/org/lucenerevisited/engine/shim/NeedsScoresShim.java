package org.lucenerevisited.engine.shim;

import java.io.IOException;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.util.FixedBitSet;

/**
 * What Lucene 6.x and 7.x share past {@link LeafReaderShim} and {@link IntHitsShim}: a collector says
 * it needs no scores with {@code needsScores}. Each major's {@code LuceneShimImpl} adds its weight, which took
 * a boost from 7.
 */
abstract class NeedsScoresShim extends LeafReaderShim implements IntHitsShim {

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
