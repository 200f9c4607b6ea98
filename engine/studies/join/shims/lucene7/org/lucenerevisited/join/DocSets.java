package org.lucenerevisited.join;

import java.io.IOException;
import java.util.List;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.search.ConstantScoreScorer;
import org.apache.lucene.search.ConstantScoreWeight;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.Scorer;
import org.apache.lucene.search.SimpleCollector;
import org.apache.lucene.search.Weight;
import org.apache.lucene.util.BitSetIterator;
import org.apache.lucene.util.FixedBitSet;

/** Sets of docs, one FixedBitSet per segment (by leaf ord), Lucene 7: collected from a query, used as a filter. */
final class DocSets {

  private DocSets() {}

  /** The live docs {@code query} matches. */
  static FixedBitSet[] collect(IndexSearcher searcher, Query query) throws IOException {
    List<LeafReaderContext> leaves = searcher.getIndexReader().leaves();
    FixedBitSet[] sets = new FixedBitSet[leaves.size()];
    for (LeafReaderContext leaf : leaves) {
      sets[leaf.ord] = new FixedBitSet(leaf.reader().maxDoc());
    }
    searcher.search(query, new SimpleCollector() {
      private FixedBitSet set;

      @Override
      protected void doSetNextReader(LeafReaderContext context) {
        set = sets[context.ord];
      }

      @Override
      public void collect(int doc) {
        set.set(doc);
      }

      @Override
      public boolean needsScores() {
        return false;
      }
    });
    return sets;
  }

  /** A constant-score query matching the docs of {@code sets}. */
  static Query query(FixedBitSet[] sets) {
    return new SetQuery(sets);
  }

  private static final class SetQuery extends Query {
    private final FixedBitSet[] sets;

    SetQuery(FixedBitSet[] sets) {
      this.sets = sets;
    }

    @Override
    public Weight createWeight(IndexSearcher searcher, boolean needsScores, float boost) {
      return new ConstantScoreWeight(this, boost) {
        @Override
        public Scorer scorer(LeafReaderContext context) {
          FixedBitSet set = sets[context.ord];
          return new ConstantScoreScorer(this, score(), new BitSetIterator(set, set.cardinality()));
        }

        @Override
        public boolean isCacheable(LeafReaderContext context) {
          return false;
        }
      };
    }

    @Override
    public String toString(String field) {
      return "DocSets.query";
    }

    @Override
    public boolean equals(Object other) {
      return this == other;
    }

    @Override
    public int hashCode() {
      return System.identityHashCode(this);
    }
  }
}
