package org.lucenerevisited.join;

import java.io.Closeable;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.QueryWrapperFilter;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.join.FixedBitSetCachingWrapperFilter;
import org.apache.lucene.search.join.ScoreMode;
import org.apache.lucene.search.join.ToParentBlockJoinQuery;

/**
 * {@code block}, Lucene 4: ToParentBlockJoinQuery from the children in the acl range to their parent,
 * the next {@code kind:body} document in docID order. The parents filter is cached per segment as a
 * FixedBitSet (the block join requires one), built once per reader and shared by all requests.
 */
final class BlockJoin extends LuceneJoin {

  private final FixedBitSetCachingWrapperFilter parents = new FixedBitSetCachingWrapperFilter(
      new QueryWrapperFilter(new TermQuery(new Term(JoinSchema.KIND, JoinSchema.PARENT_KIND))));

  BlockJoin(IndexReader reader, Closeable owned) {
    super(reader, owned);
  }

  @Override
  Query join(JoinQuery query) {
    return new ToParentBlockJoinQuery(Acl.range(JoinSchema.ACL, query.aclLo(), query.aclHi()), parents, ScoreMode.None);
  }
}
