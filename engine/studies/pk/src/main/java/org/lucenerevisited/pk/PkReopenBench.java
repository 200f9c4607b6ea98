package org.lucenerevisited.pk;

import java.io.IOException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.locks.LockSupport;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.Term;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.NRTCachingDirectory;
import org.apache.lucene.util.Bits;
import org.apache.lucene.util.BytesRef;
import org.lucenerevisited.engine.corpus.DocsTsv;
import org.lucenerevisited.engine.harness.Progress;
import org.lucenerevisited.engine.harness.Table;
import org.lucenerevisited.engine.shim.LuceneShim;

/**
 * NRT reopen latency under updates by id, the seed's second measurement. Each cycle replaces
 * {@code updatesPerReopen} docs by id (updateDocument: delete-by-term + add), paced evenly over
 * {@code reopenIntervalMs}, then times {@code openIfChanged} with deletes applied: that call
 * flushes the new docs and resolves every buffered delete term against each segment's id
 * postings, which is where the id field's format matters. Writers sit on NRTCachingDirectory
 * over MMapDirectory, as in the seed, so small flushed segments stay in RAM, and merge with the
 * version's defaults (ConcurrentMergeScheduler, as the seed's benchmark did). Every contender
 * replays the same id sequence. The pipeline passes one contender per JVM; several are
 * interleaved in a shuffled order per round.
 */
public final class PkReopenBench {

  private static final LuceneShim SHIM = LuceneShim.INSTANCE;
  /** Bodies of the first rows, reused as the new bodies so updated docs have realistic text. */
  private static final int BODY_POOL = 1000;

  private PkReopenBench() {}

  /** Columns: contender, phase, round, updates, reopen_nanos, segments (after the reopen). */
  public static Table run(PkReopenSpec spec, Progress progress) throws Exception {
    if (spec.contenders.length != spec.indexPaths.length) {
      throw new IllegalArgumentException("contenders and indexPaths differ in length");
    }
    for (String c : spec.contenders) {
      PkContenders.check(c);
      if (PkContenders.GLOBAL_MAP.equals(c)) {
        throw new IllegalArgumentException("contender 'GlobalPkMap' is not a postings format; "
            + "the reopen benchmark only takes index formats");
      }
    }
    int cycles = spec.warmupReopens + spec.rounds * spec.reopensPerRound;
    Workload work = Workload.draw(Paths.get(spec.docsTsv), cycles * spec.updatesPerReopen,
        spec.seed);

    List<Nrt> nrts = new ArrayList<>();
    Table.Builder table = Table.builder().stringColumn("contender").stringColumn("phase")
        .longColumn("round").longColumn("updates").longColumn("reopen_nanos")
        .longColumn("segments");
    try {
      for (int i = 0; i < spec.contenders.length; i++) {
        Path copy = Paths.get(spec.workDir, i + "-" + spec.contenders[i]);
        PkIndexes.copyIndex(Paths.get(spec.indexPaths[i]), copy);
        nrts.add(new Nrt(spec.contenders[i], copy));
      }
      Random order = new Random(spec.seed);
      long totalCycles = (long) cycles * nrts.size();
      long doneCycles = 0;
      for (int r = 0; r < spec.warmupReopens; r++) {
        for (Nrt nrt : shuffled(nrts, order)) {
          table.addRow(nrt.contender, "warmup", r, spec.updatesPerReopen,
              nrt.cycle(work, spec), SHIM.leaves(nrt.reader).size());
          progress.report("reopen warmup", ++doneCycles, totalCycles);
        }
      }
      for (int r = 0; r < spec.rounds; r++) {
        for (Nrt nrt : shuffled(nrts, order)) {
          for (int k = 0; k < spec.reopensPerRound; k++) {
            table.addRow(nrt.contender, "measure", r, spec.updatesPerReopen,
                nrt.cycle(work, spec), SHIM.leaves(nrt.reader).size());
            progress.report("reopen measure", ++doneCycles, totalCycles);
          }
        }
      }
      for (Nrt nrt : nrts) {
        nrt.verifyUpdatedIdsAreUnique(work);
      }
    } finally {
      for (Nrt nrt : nrts) {
        nrt.closeAndDelete();
      }
    }
    return table.build();
  }

  private static List<Nrt> shuffled(List<Nrt> nrts, Random random) {
    List<Nrt> copy = new ArrayList<>(nrts);
    Collections.shuffle(copy, random);
    return copy;
  }

  /** Counts live docs with id {@code id}. Package-private for tests. */
  static int liveDocsWithId(DirectoryReader reader, String id) throws IOException {
    BytesRef key = new BytesRef(id);
    int count = 0;
    for (LuceneShim.Leaf leaf : SHIM.leaves(reader)) {
      TermsEnum terms = SHIM.termsEnum(leaf.reader(), PkContenders.ID_FIELD);
      if (terms == null || !terms.seekExact(key)) {
        continue;
      }
      Bits live = SHIM.liveDocs(leaf.reader());
      DocIdSetIterator docs = SHIM.postings(terms, null);
      for (int d = docs.nextDoc(); d != DocIdSetIterator.NO_MORE_DOCS; d = docs.nextDoc()) {
        if (live == null || live.get(d)) {
          count++;
        }
      }
    }
    return count;
  }

  /** The ids to update, in order, drawn once with a seeded Random and shared by contenders. */
  private record Workload(String[] ids, String[] bodies) {

    static Workload draw(Path docsTsv, int updates, long seed) throws IOException {
      long rows = DocsTsv.countRows(docsTsv);
      if (rows == 0) {
        throw new IllegalArgumentException(docsTsv + " is empty");
      }
      Random random = new Random(seed);
      long[] picks = new long[updates];
      Map<Long, String> idOfRow = new HashMap<>();
      for (int i = 0; i < updates; i++) {
        picks[i] = (long) (random.nextDouble() * rows);
        idOfRow.put(picks[i], null);
      }
      List<String> bodies = new ArrayList<>();
      DocsTsv.forEach(docsTsv, (row, id, body) -> {
        if (idOfRow.containsKey(row)) {
          idOfRow.put(row, id);
        }
        if (bodies.size() < BODY_POOL) {
          bodies.add(body);
        }
      });
      String[] ids = new String[updates];
      for (int i = 0; i < updates; i++) {
        ids[i] = idOfRow.get(picks[i]);
      }
      return new Workload(ids, bodies.toArray(new String[0]));
    }
  }

  /** One contender's writer and NRT reader over a private copy of its index. */
  private static final class Nrt {
    final String contender;
    final Path path;
    final Directory dir;
    final IndexWriter writer;
    final PkIndexes.PkDocument doc = new PkIndexes.PkDocument(true);
    DirectoryReader reader;
    int next;

    Nrt(String contender, Path path) throws IOException {
      this.contender = contender;
      this.path = path;
      this.dir = new NRTCachingDirectory(SHIM.openMMapDirectory(path), 5.0, 60.0);
      // The version's default merge policy and ConcurrentMergeScheduler, as in the seed: merges
      // run on their own threads, so a timed reopen includes none, only their CPU contention.
      // Flushes happen only at reopen.
      IndexWriterConfig iwc = SHIM.newIndexWriterConfig();
      iwc.setCodec(PkContenders.codec(contender));
      iwc.setMaxBufferedDocs(IndexWriterConfig.DISABLE_AUTO_FLUSH);
      iwc.setRAMBufferSizeMB(256);
      iwc.setOpenMode(IndexWriterConfig.OpenMode.APPEND);
      this.writer = new IndexWriter(dir, iwc);
      this.reader = SHIM.openNrtReader(writer);
    }

    /** Paced updates, then the timed reopen; returns its nanoseconds. */
    long cycle(Workload work, PkReopenSpec spec) throws IOException {
      long interval = spec.reopenIntervalMs * 1_000_000L;
      long start = System.nanoTime();
      for (int u = 0; u < spec.updatesPerReopen; u++) {
        sleepUntil(start + interval * u / spec.updatesPerReopen);
        String id = work.ids[next];
        String body = work.bodies[next % work.bodies.length];
        next++;
        writer.updateDocument(new Term(PkContenders.ID_FIELD, id), doc.set(id, body));
      }
      sleepUntil(start + interval);
      long t0 = System.nanoTime();
      DirectoryReader newer = SHIM.reopenNrtReader(reader, writer);
      long nanos = System.nanoTime() - t0;
      if (newer != null) {
        reader.close();
        reader = newer;
      }
      return nanos;
    }

    void verifyUpdatedIdsAreUnique(Workload work) throws IOException {
      Set<String> updated = new LinkedHashSet<>();
      for (int i = 0; i < next; i++) {
        updated.add(work.ids[i]);
      }
      for (String id : updated) {
        int live = liveDocsWithId(reader, id);
        if (live != 1) {
          throw new IllegalStateException("contender " + contender + ": updated id '" + id
              + "' has " + live + " live docs, expected exactly 1");
        }
      }
    }

    void closeAndDelete() throws IOException {
      reader.close();
      writer.rollback();
      dir.close();
      PkIndexes.deleteRecursively(path);
    }

    private static void sleepUntil(long deadline) {
      for (long left = deadline - System.nanoTime(); left > 0;
          left = deadline - System.nanoTime()) {
        LockSupport.parkNanos(left);
      }
    }
  }
}
