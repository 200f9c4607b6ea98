package org.lucenerevisited.join;

import java.io.Closeable;
import java.io.IOException;
import java.util.List;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.Query;
import org.apache.lucene.util.Bits;
import org.apache.lucene.util.BytesRef;
import org.apache.lucene.util.FixedBitSet;
import org.lucenerevisited.engine.shim.LuceneShim;

/**
 * {@code scan}: the term-scan join of Solr's {@code {!join}} (JoinQParserPlugin's JoinQuery), written
 * from its documented algorithm so that every Lucene version runs it. Per request it collects the
 * children in the acl range into a bitset, then walks EVERY term of the from-field {@code join_id},
 * reads its docFreq (Solr does, to choose between its filter cache and the postings: the seed's
 * profile showed this call on top), and scans its postings; a term with a posting in the from-set is
 * sought in the to-field {@code join_key}, whose postings are added to the result. The result is a
 * constant-score filter. It walks all unique join values on every request, so its cost follows their
 * number, whatever the acl range matches.
 */
final class ScanJoin extends LuceneJoin {

  private static final LuceneShim SHIM = LuceneShim.INSTANCE;

  ScanJoin(IndexReader reader, Closeable owned) {
    super(reader, owned);
  }

  @Override
  Query join(JoinQuery query) throws IOException {
    FixedBitSet[] from = SHIM.collectDocs(searcher, Acl.range(JoinSchema.ACL, query.aclLo(), query.aclHi()));
    List<LuceneShim.Leaf> leaves = SHIM.leaves(reader);
    FixedBitSet[] to = new FixedBitSet[leaves.size()];
    TermsEnum[] toTerms = new TermsEnum[leaves.size()];
    for (int i = 0; i < to.length; i++) {
      to[i] = new FixedBitSet(leaves.get(i).reader().maxDoc());
      toTerms[i] = SHIM.termsEnum(leaves.get(i).reader(), JoinSchema.JOIN_KEY);
    }
    DocIdSetIterator fromPostings = null;
    DocIdSetIterator toPostings = null;
    for (int i = 0; i < to.length; i++) {
      TermsEnum fromTerms = SHIM.termsEnum(leaves.get(i).reader(), JoinSchema.JOIN_ID);
      if (fromTerms == null) {
        continue;
      }
      for (BytesRef term = fromTerms.next(); term != null; term = fromTerms.next()) {
        // Solr sizes its choice between a cached DocSet and the postings on this; its cost is the point.
        if (fromTerms.docFreq() == 0) {
          continue;
        }
        fromPostings = SHIM.postings(fromTerms, fromPostings);
        if (intersects(fromPostings, from[i])) {
          toPostings = addTo(term, toTerms, leaves, to, toPostings);
        }
      }
    }
    return SHIM.docSetQuery(to);
  }

  private static boolean intersects(DocIdSetIterator postings, FixedBitSet set) throws IOException {
    for (int doc = postings.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = postings.nextDoc()) {
      if (set.get(doc)) {
        return true;
      }
    }
    return false;
  }

  /** Adds the live docs of {@code term} in the to-field of every leaf; returns the postings to reuse. */
  private static DocIdSetIterator addTo(BytesRef term, TermsEnum[] toTerms, List<LuceneShim.Leaf> leaves,
      FixedBitSet[] to, DocIdSetIterator reuse) throws IOException {
    for (int j = 0; j < to.length; j++) {
      if (toTerms[j] == null || !toTerms[j].seekExact(term)) {
        continue;
      }
      Bits live = SHIM.liveDocs(leaves.get(j).reader());
      reuse = SHIM.postings(toTerms[j], reuse);
      for (int doc = reuse.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = reuse.nextDoc()) {
        if (live == null || live.get(doc)) {
          to[j].set(doc);
        }
      }
    }
    return reuse;
  }
}
