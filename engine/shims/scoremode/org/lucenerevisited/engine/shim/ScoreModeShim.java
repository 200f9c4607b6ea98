package org.lucenerevisited.engine.shim;

import java.io.IOException;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.search.ConstantScoreScorer;
import org.apache.lucene.search.ConstantScoreWeight;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.QueryVisitor;
import org.apache.lucene.search.ScoreMode;
import org.apache.lucene.search.Scorer;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.search.Weight;
import org.apache.lucene.util.FixedBitSet;

/**
 * What Lucene 8.x and 9.x share past {@link LeafReaderShim}: a total is a {@code TotalHits},
 * collectors and weights take a score mode, a weight says whether it may be cached, and a query lets
 * visitors walk it. Each major's {@code LuceneShimImpl} adds how it counts every hit and reads stored
 * fields.
 */
abstract class ScoreModeShim extends LeafReaderShim {

  @Override
  public long totalHits(TopDocs top) {
    return top.totalHits.value;
  }

  @Override
  public FixedBitSet[] collectDocs(IndexSearcher searcher, Query query) throws IOException {
    FixedBitSet[] sets = SegmentBitSets.empty(searcher.getIndexReader());
    searcher.search(query, new SegmentBitSets(sets) {
      @Override
      public ScoreMode scoreMode() {
        return ScoreMode.COMPLETE_NO_SCORES;
      }
    });
    return sets;
  }

  @Override
  public Query docSetQuery(FixedBitSet[] sets) {
    return new BitSetsQuery(sets) {
      @Override
      public Weight createWeight(IndexSearcher searcher, ScoreMode scoreMode, float boost) {
        return new ConstantScoreWeight(this, boost) {
          @Override
          public Scorer scorer(LeafReaderContext context) {
            return new ConstantScoreScorer(this, score(), scoreMode, docs(context));
          }

          @Override
          public boolean isCacheable(LeafReaderContext context) {
            return false;
          }
        };
      }

      @Override
      public void visit(QueryVisitor visitor) {
        visitor.visitLeaf(this);
      }
    };
  }
}
