package org.lucenerevisited.pk;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.store.Directory;
import org.apache.lucene.util.Bits;
import org.apache.lucene.util.BytesRef;
import org.lucenerevisited.engine.shim.LuceneShim;

/**
 * An independent cross-check of {@link PkLookupBench}: a plain loop with its own key parsing,
 * batching and seekExact code, sharing nothing with the benchmark but the Lucene shim (API
 * differences only). Its single-thread lookups/s should agree with the pipeline within 15%.
 *
 * <p>Usage: {@code PlainLookupLoop <indexDir> <keys.tsv> <seconds> [batchSize]}
 */
public final class PlainLookupLoop {

  private PlainLookupLoop() {}

  public static void main(String[] args) throws IOException {
    if (args.length < 3) {
      System.err.println("usage: PlainLookupLoop <indexDir> <keys.tsv> <seconds> [batchSize]");
      System.exit(2);
    }
    double seconds = Double.parseDouble(args[2]);
    int batchSize = args.length > 3 ? Integer.parseInt(args[3]) : 4000;

    List<BytesRef> all = new ArrayList<>();
    try (BufferedReader in = Files.newBufferedReader(Paths.get(args[1]), StandardCharsets.UTF_8)) {
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        all.add(new BytesRef(line.substring(0, line.indexOf('\t'))));
      }
    }
    List<BytesRef[]> batches = new ArrayList<>();
    for (int from = 0; from < all.size(); from += batchSize) {
      BytesRef[] batch = all.subList(from, Math.min(all.size(), from + batchSize))
          .toArray(new BytesRef[0]);
      Arrays.sort(batch);
      batches.add(batch);
    }

    LuceneShim shim = LuceneShim.INSTANCE;
    try (Directory dir = shim.openMMapDirectory(Paths.get(args[0]));
        DirectoryReader reader = DirectoryReader.open(dir)) {
      List<LuceneShim.Leaf> leaves = shim.leaves(reader);
      TermsEnum[] enums = new TermsEnum[leaves.size()];
      Bits[] live = new Bits[leaves.size()];
      for (int s = 0; s < enums.length; s++) {
        enums[s] = shim.termsEnum(leaves.get(s).reader(), "id");
        live[s] = shim.liveDocs(leaves.get(s).reader());
      }
      DocIdSetIterator[] postings = new DocIdSetIterator[enums.length];
      boolean[] found = new boolean[batchSize];

      long lookups = 0;
      long hits = 0;
      long start = System.nanoTime();
      long end = start + (long) (seconds * 1e9);
      long now = start;
      while (now < end) {
        for (BytesRef[] batch : batches) {
          Arrays.fill(found, false);
          for (int s = 0; s < enums.length; s++) {
            if (enums[s] == null) {
              continue;
            }
            for (int i = 0; i < batch.length; i++) {
              if (!found[i] && enums[s].seekExact(batch[i])) {
                postings[s] = shim.postings(enums[s], postings[s]);
                for (int d = postings[s].nextDoc(); d != DocIdSetIterator.NO_MORE_DOCS;
                    d = postings[s].nextDoc()) {
                  if (live[s] == null || live[s].get(d)) {
                    found[i] = true;
                    hits++;
                    break;
                  }
                }
              }
            }
          }
          lookups += batch.length;
        }
        now = System.nanoTime();
      }
      double elapsed = (now - start) / 1e9;
      System.out.printf("lookups/s: %.1f%n", lookups / elapsed);
      System.out.printf("lookups: %d hits: %d seconds: %.3f segments: %d%n",
          lookups, hits, elapsed, enums.length);
    }
  }
}
