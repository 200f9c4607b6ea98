package org.lucenerevisited.join;

import java.io.Closeable;
import java.io.IOException;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.join.JoinUtil;
import org.apache.lucene.search.join.ScoreMode;

/**
 * {@code terms}: JoinUtil's terms join. Per request it collects the join values of the children in
 * the acl range into a set, then matches the parents whose {@code join_key} term is in it; its cost
 * follows the matching children, not the number of unique join values. JoinUtil reads the from side's
 * values from DocValues (Lucene 4: FieldCache, which returns DocValues when the field has them), so
 * the from field is {@code jk}, whose value on a child is its {@code join_id}.
 */
final class TermsJoin extends LuceneJoin {

  TermsJoin(IndexReader reader, Closeable owned) {
    super(reader, owned);
  }

  @Override
  Query join(JoinQuery query) throws IOException {
    return JoinUtil.createJoinQuery(JoinSchema.JK, false, JoinSchema.JOIN_KEY,
        Acl.range(JoinSchema.ACL, query.aclLo(), query.aclHi()), searcher, ScoreMode.None);
  }
}
