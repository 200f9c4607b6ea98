package org.lucenerevisited.dvjump;

import java.io.IOException;
import java.util.Arrays;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.PostingsEnum;
import org.apache.lucene.index.Terms;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.util.BytesRef;

/**
 * The documents a one-term query matches, in docID order, with the term's frequency in each: read
 * straight from the postings. The text field has no norms, so relevance is the frequency (BM25
 * ranks by it alone, on every version); ties go to the lower docID, as Lucene's collectors break them.
 */
public final class Matches {

  private final int[] docs;
  private final int[] freqs;

  private Matches(int[] docs, int[] freqs) {
    this.docs = docs;
    this.freqs = freqs;
  }

  public static Matches of(LeafReader leaf, String term) throws IOException {
    Terms terms = leaf.terms(DvjSchema.TEXT);
    TermsEnum te = terms == null ? null : terms.iterator();
    if (te == null || !te.seekExact(new BytesRef(term))) {
      return new Matches(new int[0], new int[0]);
    }
    int[] docs = new int[te.docFreq()];
    int[] freqs = new int[docs.length];
    PostingsEnum postings = te.postings(null, PostingsEnum.FREQS);
    int n = 0;
    for (int doc = postings.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = postings.nextDoc()) {
      docs[n] = doc;
      freqs[n++] = postings.freq();
    }
    return new Matches(Arrays.copyOf(docs, n), Arrays.copyOf(freqs, n));
  }

  public int size() {
    return docs.length;
  }

  public int doc(int i) {
    return docs[i];
  }

  public int freq(int i) {
    return freqs[i];
  }

  /**
   * The {@code k} best matches by relevance (frequency descending, then docID), best first, kept in a
   * bounded heap over the matches in docID order, as a top-k collector keeps them.
   */
  public int[] top(int k) {
    TopK top = new TopK(Math.min(k, docs.length));
    for (int i = 0; i < docs.length; i++) {
      top.offer(freqs[i], docs[i], docs[i]);
    }
    return top.payloadsBestFirst();
  }
}
