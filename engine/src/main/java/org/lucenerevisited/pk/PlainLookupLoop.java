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
 * differences only). Its single-thread lookups/s should agree with the pipeline within 15%. Run
 * it in the same JVM as the harness, alternating with it: on this kind of VM two JVM starts
 * measured the same loop up to 1.6x apart, which would swamp any comparison across processes.
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
    Result r = run(args[0], args[1], seconds, batchSize);
    System.out.printf("lookups/s: %.1f%n", r.lookupsPerSecond());
    System.out.printf("lookups: %d hits: %d seconds: %.3f%n", r.lookups, r.hits, r.seconds);
  }

  /** What one run did: every batch resolved whole passes at a time. */
  public record Result(long lookups, long hits, double seconds) {
    public double lookupsPerSecond() {
      return lookups / seconds;
    }
  }

  /** Loops over all batches, whole passes, for at least {@code seconds}. */
  public static Result run(String indexDir, String keysTsv, double seconds, int batchSize)
      throws IOException {
    List<BytesRef> all = new ArrayList<>();
    try (BufferedReader in = Files.newBufferedReader(Paths.get(keysTsv), StandardCharsets.UTF_8)) {
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
    try (Directory dir = shim.openMMapDirectory(Paths.get(indexDir));
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
          hits += lookupBatch(batch, enums, live, postings, found, shim);
          lookups += batch.length;
        }
        now = System.nanoTime();
      }
      return new Result(lookups, hits, (now - start) / 1e9);
    }
  }

  /**
   * One sorted batch, segment by segment; returns its hits. A method of its own so the JIT
   * compiles it as a whole method rather than only as an on-stack replacement of the timing loop.
   */
  private static long lookupBatch(BytesRef[] batch, TermsEnum[] enums, Bits[] live,
      DocIdSetIterator[] postings, boolean[] found, LuceneShim shim) throws IOException {
    long hits = 0;
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
    return hits;
  }
}
