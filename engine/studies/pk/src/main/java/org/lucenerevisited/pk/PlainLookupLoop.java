package org.lucenerevisited.pk;

import java.io.BufferedReader;
import java.io.Closeable;
import java.io.IOException;
import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.store.Directory;
import org.apache.lucene.util.Bits;
import org.apache.lucene.util.BytesRef;
import org.lucenerevisited.engine.harness.YoungGeneration;
import org.lucenerevisited.engine.shim.LuceneShim;

/**
 * An independent cross-check of {@link PkLookupBench}: a plain loop with its own key parsing,
 * batching, seekExact code and timing, sharing with the benchmark only the Lucene shim (API
 * differences) and the JVM's preparation ({@link YoungGeneration}). The pipeline runs it alone in
 * its own JVMs, one contender's index per JVM, in the same rounds as the benchmark's forks, and
 * compares the two ratios to the default.
 *
 * <p>Usage: {@code PlainLookupLoop <indexDir> <keys.tsv> <warmupSeconds> <seconds> [batchSize]};
 * prints one line {@code lookups=N hits=N seconds=S warmup_seconds=W jit_ms=J}. Warm-up runs whole
 * passes over the keys, untimed, for at least {@code warmupSeconds} and then on in half-second
 * steps until the JIT compilers were busy for at most 2% of one (at most 4 x
 * {@code warmupSeconds} in all): a loop timed while code is still being compiled is not yet at
 * its steady state. Then whole passes for {@code seconds}, timed as one; J is the JIT's time
 * during them.
 */
public final class PlainLookupLoop implements Closeable {

  private static final LuceneShim SHIM = LuceneShim.INSTANCE;
  private static final CompilationMXBean JIT = ManagementFactory.getCompilationMXBean();
  private static final double QUIET_STEP_SECONDS = 0.5;
  private static final double QUIET_JIT_SHARE = 0.02;

  private final List<BytesRef[]> batches;
  private final Directory dir;
  private final DirectoryReader reader;
  private final TermsEnum[] enums;
  private final Bits[] live;
  private final DocIdSetIterator[] postings;
  private final boolean[] found;

  private PlainLookupLoop(String indexDir, String keysTsv, int batchSize) throws IOException {
    List<BytesRef> all = new ArrayList<>();
    try (BufferedReader in = Files.newBufferedReader(Paths.get(keysTsv), StandardCharsets.UTF_8)) {
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        all.add(new BytesRef(line.substring(0, line.indexOf('\t'))));
      }
    }
    batches = new ArrayList<>();
    for (int from = 0; from < all.size(); from += batchSize) {
      BytesRef[] batch = all.subList(from, Math.min(all.size(), from + batchSize))
          .toArray(new BytesRef[0]);
      Arrays.sort(batch);
      batches.add(batch);
    }
    dir = SHIM.openMMapDirectory(Paths.get(indexDir));
    reader = DirectoryReader.open(dir);
    List<LuceneShim.Leaf> leaves = SHIM.leaves(reader);
    enums = new TermsEnum[leaves.size()];
    live = new Bits[leaves.size()];
    for (int s = 0; s < enums.length; s++) {
      enums[s] = SHIM.termsEnum(leaves.get(s).reader(), "id");
      live[s] = SHIM.liveDocs(leaves.get(s).reader());
    }
    postings = new DocIdSetIterator[enums.length];
    found = new boolean[batchSize];
  }

  /** Reads the keys (first column of {@code keysTsv}), sorts them per batch, opens the index. */
  public static PlainLookupLoop open(String indexDir, String keysTsv, int batchSize)
      throws IOException {
    return new PlainLookupLoop(indexDir, keysTsv, batchSize);
  }

  public static void main(String[] args) throws IOException {
    if (args.length < 4) {
      System.err.println(
          "usage: PlainLookupLoop <indexDir> <keys.tsv> <warmupSeconds> <seconds> [batchSize]");
      System.exit(2);
    }
    double warmup = Double.parseDouble(args[2]);
    double seconds = Double.parseDouble(args[3]);
    int batchSize = args.length > 4 ? Integer.parseInt(args[4]) : 4000;
    try (PlainLookupLoop loop = open(args[0], args[1], batchSize)) {
      YoungGeneration.touchOnce();
      double warmed = loop.warmUp(warmup);
      long jitBefore = JIT.getTotalCompilationTime();
      Result r = loop.runFor(seconds);
      System.out.printf(Locale.ROOT, "lookups=%d hits=%d seconds=%.6f warmup_seconds=%.3f jit_ms=%d%n",
          r.lookups, r.hits, r.seconds, warmed, JIT.getTotalCompilationTime() - jitBefore);
    }
  }

  /** Untimed passes until the JIT has settled (see the class doc); returns the seconds spent. */
  public double warmUp(double minSeconds) throws IOException {
    long start = System.nanoTime();
    runFor(minSeconds);
    while ((System.nanoTime() - start) / 1e9 < 4 * minSeconds) {
      long jitBefore = JIT.getTotalCompilationTime();
      Result step = runFor(QUIET_STEP_SECONDS);
      if (JIT.getTotalCompilationTime() - jitBefore <= QUIET_JIT_SHARE * step.seconds * 1000) {
        break;
      }
    }
    return (System.nanoTime() - start) / 1e9;
  }

  /** What one run did. */
  public record Result(long lookups, long hits, double seconds) {
    public double lookupsPerSecond() {
      return lookups / seconds;
    }
  }

  /** Every batch once, timed. */
  public Result pass() throws IOException {
    long hits = 0;
    long lookups = 0;
    long start = System.nanoTime();
    for (BytesRef[] batch : batches) {
      hits += lookupBatch(batch);
      lookups += batch.length;
    }
    return new Result(lookups, hits, (System.nanoTime() - start) / 1e9);
  }

  /** Whole passes over all batches for at least {@code seconds}, timed as one. */
  public Result runFor(double seconds) throws IOException {
    long lookups = 0;
    long hits = 0;
    long start = System.nanoTime();
    long end = start + (long) (seconds * 1e9);
    long now = start;
    while (now < end) {
      Result r = pass();
      lookups += r.lookups;
      hits += r.hits;
      now = System.nanoTime();
    }
    return new Result(lookups, hits, (now - start) / 1e9);
  }

  /**
   * One sorted batch, segment by segment; returns its hits. A method of its own so the JIT
   * compiles it as a whole method rather than only as an on-stack replacement of a timing loop.
   */
  private long lookupBatch(BytesRef[] batch) throws IOException {
    TermsEnum[] enums = this.enums;
    Bits[] live = this.live;
    DocIdSetIterator[] postings = this.postings;
    boolean[] found = this.found;
    long hits = 0;
    Arrays.fill(found, false);
    for (int s = 0; s < enums.length; s++) {
      TermsEnum terms = enums[s];
      if (terms == null) {
        continue;
      }
      Bits segmentLive = live[s];
      for (int i = 0; i < batch.length; i++) {
        if (!found[i] && terms.seekExact(batch[i])) {
          DocIdSetIterator docs = SHIM.postings(terms, postings[s]);
          postings[s] = docs;
          for (int d = docs.nextDoc(); d != DocIdSetIterator.NO_MORE_DOCS; d = docs.nextDoc()) {
            if (segmentLive == null || segmentLive.get(d)) {
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

  @Override
  public void close() throws IOException {
    reader.close();
    dir.close();
  }
}
