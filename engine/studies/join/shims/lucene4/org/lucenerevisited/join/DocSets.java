package org.lucenerevisited.join;

import java.io.IOException;
import java.util.List;
import org.apache.lucene.index.AtomicReaderContext;
import org.apache.lucene.search.BitsFilteredDocIdSet;
import org.apache.lucene.search.Collector;
import org.apache.lucene.search.ConstantScoreQuery;
import org.apache.lucene.search.DocIdSet;
import org.apache.lucene.search.Filter;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.Scorer;
import org.apache.lucene.util.Bits;
import org.apache.lucene.util.FixedBitSet;

/** Sets of docs, one FixedBitSet per segment (by leaf ord), Lucene 4: collected from a query, used as a filter. */
final class DocSets {

  private DocSets() {}

  /** The live docs {@code query} matches. */
  static FixedBitSet[] collect(IndexSearcher searcher, Query query) throws IOException {
    List<AtomicReaderContext> leaves = searcher.getIndexReader().leaves();
    FixedBitSet[] sets = new FixedBitSet[leaves.size()];
    for (AtomicReaderContext leaf : leaves) {
      sets[leaf.ord] = new FixedBitSet(leaf.reader().maxDoc());
    }
    searcher.search(query, new Collector() {
      private FixedBitSet set;

      @Override
      public void setScorer(Scorer scorer) {}

      @Override
      public void collect(int doc) {
        set.set(doc);
      }

      @Override
      public void setNextReader(AtomicReaderContext context) {
        set = sets[context.ord];
      }

      @Override
      public boolean acceptsDocsOutOfOrder() {
        return true;
      }
    });
    return sets;
  }

  /** A constant-score query matching the docs of {@code sets}. */
  static Query query(FixedBitSet[] sets) {
    return new ConstantScoreQuery(new Filter() {
      @Override
      public DocIdSet getDocIdSet(AtomicReaderContext context, Bits acceptDocs) {
        return BitsFilteredDocIdSet.wrap(sets[context.ord], acceptDocs);
      }
    });
  }
}
