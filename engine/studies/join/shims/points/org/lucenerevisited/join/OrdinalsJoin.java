package org.lucenerevisited.join;

import java.io.Closeable;
import java.io.IOException;
import java.util.List;
import org.apache.lucene.index.DocValues;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.OrdinalMap;
import org.apache.lucene.index.SortedDocValues;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.join.JoinUtil;
import org.apache.lucene.search.join.ScoreMode;
import org.apache.lucene.util.packed.PackedInts;

/**
 * {@code ordinals}: JoinUtil's global-ordinals join on the SortedDocValues field {@code jk}. Per request
 * it marks the global ordinals of the children in the acl range in a bitset and matches the parents
 * whose ordinal is marked. The OrdinalMap (segment ordinals to global ones) is built once, when the
 * contender opens; on a single segment JoinUtil ignores it, as segment ordinals are global.
 */
final class OrdinalsJoin extends LuceneJoin implements OrdinalMapBuild {

  static final boolean AVAILABLE = true;

  private final Query parents = new TermQuery(new Term(JoinSchema.KIND, JoinSchema.PARENT_KIND));
  private final OrdinalMap ordinals;
  private final long ordinalMapMillis;

  private OrdinalsJoin(IndexReader reader, Closeable owned) throws IOException {
    super(reader, owned);
    long started = System.nanoTime();
    List<LeafReaderContext> leaves = reader.leaves();
    SortedDocValues[] values = new SortedDocValues[leaves.size()];
    for (int i = 0; i < values.length; i++) {
      values[i] = DocValues.getSorted(leaves.get(i).reader(), JoinSchema.JK);
    }
    ordinals = OrdinalMap.build(reader.getReaderCacheHelper().getKey(), values, PackedInts.DEFAULT);
    ordinalMapMillis = (System.nanoTime() - started) / 1_000_000;
  }

  static JoinContender open(IndexReader reader, Closeable owned) throws IOException {
    return new OrdinalsJoin(reader, owned);
  }

  @Override
  public long ordinalMapMillis() {
    return ordinalMapMillis;
  }

  @Override
  Query join(JoinQuery query) throws IOException {
    return JoinUtil.createJoinQuery(JoinSchema.JK, Acl.range(JoinSchema.ACL, query.aclLo(), query.aclHi()),
        parents, searcher, ScoreMode.None, ordinals);
  }
}
