package org.lucenerevisited.pk;

import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.util.Bits;
import org.apache.lucene.util.BytesRef;
import org.lucenerevisited.engine.shim.LuceneShim;

/**
 * The measured PK lookup: a sorted batch is resolved segment by segment, with seekExact on ONE
 * TermsEnum per segment reused for the whole run (its cached terms-index state makes sorted
 * seeks cheaper), then the first live doc of the term's postings. Keys found in an earlier
 * segment are skipped in later ones. With {@code ceil}, each key is sought with seekCeil and found
 * when the enum lands on it: the same answers, without seekExact's shortcut on a miss.
 */
final class SegmentSeekResolver extends PkResolver {

  private static final LuceneShim SHIM = LuceneShim.INSTANCE;

  private final TermsEnum[] termsEnums;
  private final Bits[] liveDocs;
  private final int[] docBases;
  private final DocIdSetIterator[] postings;
  private final boolean ceil;

  SegmentSeekResolver(IndexReader reader, boolean ceil) throws IOException {
    this.ceil = ceil;
    List<LuceneShim.Leaf> leaves = SHIM.leaves(reader);
    int n = leaves.size();
    termsEnums = new TermsEnum[n];
    liveDocs = new Bits[n];
    docBases = new int[n];
    postings = new DocIdSetIterator[n];
    for (int s = 0; s < n; s++) {
      LuceneShim.Leaf leaf = leaves.get(s);
      termsEnums[s] = SHIM.termsEnum(leaf.reader(), PkContenders.ID_FIELD);
      liveDocs[s] = SHIM.liveDocs(leaf.reader());
      docBases[s] = leaf.docBase();
    }
  }

  @Override
  void resolve(BytesRef[] keys, int[] out) throws IOException {
    Arrays.fill(out, 0, keys.length, -1);
    for (int s = 0; s < termsEnums.length; s++) {
      TermsEnum termsEnum = termsEnums[s];
      if (termsEnum == null) {
        continue;
      }
      Bits live = liveDocs[s];
      for (int i = 0; i < keys.length; i++) {
        if (out[i] == -1 && seek(termsEnum, keys[i])) {
          DocIdSetIterator docs = SHIM.postings(termsEnum, postings[s]);
          postings[s] = docs;
          for (int doc = docs.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS;
              doc = docs.nextDoc()) {
            if (live == null || live.get(doc)) {
              out[i] = docBases[s] + doc;
              break;
            }
          }
        }
      }
    }
  }

  private boolean seek(TermsEnum termsEnum, BytesRef key) throws IOException {
    return ceil ? termsEnum.seekCeil(key) == TermsEnum.SeekStatus.FOUND : termsEnum.seekExact(key);
  }
}
