package org.lucenerevisited.pk;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.ref.Reference;
import java.nio.file.Paths;
import org.apache.lucene.util.Accountable;
import org.lucenerevisited.engine.IndexFiles;
import org.lucenerevisited.engine.ResidentBytes;
import org.lucenerevisited.engine.harness.Table;
import org.lucenerevisited.engine.shim.LuceneShim;

/**
 * Disk and RAM cost of each contender's index, measured with the reader open and the id field
 * warmed by one pass over the keys (GlobalPkMap: with its map built):
 * <ul>
 *   <li>heap_bytes: live heap after a full GC, minus the same before opening;
 *   <li>mapped_bytes: resident pages of the index's memory-mapped files in this JVM
 *       ({@link ResidentBytes}), which is where Lucene 9+ keeps terms indexes and FST50's FST;
 *   <li>accounted_bytes: what Lucene itself reports (segment readers' ramBytesUsed, plus the
 *       map), or -1 where readers do not implement Accountable (Lucene 9+).
 * </ul>
 */
public final class PkFootprint {

  private static final int MAX_GC_PASSES = 20;
  private static final long GC_SETTLED_BYTES = 256 * 1024;

  private PkFootprint() {}

  /** Columns: contender, path, disk_bytes, heap_bytes, mapped_bytes, accounted_bytes. */
  public static Table measure(String[] contenders, String[] indexPaths, String keysTsv)
      throws IOException {
    if (contenders.length != indexPaths.length) {
      throw new IllegalArgumentException("contenders and indexPaths differ in length");
    }
    PkBatches batches = PkBatches.load(Paths.get(keysTsv), 4000);
    int[] scratch = new int[4000];
    Table.Builder table = Table.builder().stringColumn("contender").stringColumn("path")
        .longColumn("disk_bytes").longColumn("heap_bytes").longColumn("mapped_bytes")
        .longColumn("accounted_bytes");
    for (int i = 0; i < contenders.length; i++) {
      String contender = contenders[i];
      if (!PkContenders.BASELINE.equals(contender)) {
        PkContenders.check(contender);
      }
      long before = usedHeapAfterGc();
      try (PkLookupBench.OpenIndex index =
          PkLookupBench.OpenIndex.open(contender, contender, Paths.get(indexPaths[i]))) {
        PkResolver resolver = index.newResolver();
        resolver.resolveAll(batches, scratch);
        long heap = usedHeapAfterGc() - before;
        long mapped = ResidentBytes.ofFilesUnder(Paths.get(indexPaths[i]));
        table.addRow(contender, indexPaths[i], IndexFiles.bytes(Paths.get(indexPaths[i])),
            heap, mapped, accountedBytes(index));
        Reference.reachabilityFence(resolver);
      }
    }
    return table.build();
  }

  private static long accountedBytes(PkLookupBench.OpenIndex index) {
    long sum = 0;
    for (LuceneShim.Leaf leaf : LuceneShim.INSTANCE.leaves(index.reader)) {
      if (!(leaf.reader() instanceof Accountable a)) {
        return -1;
      }
      sum += a.ramBytesUsed();
    }
    return index.map == null ? sum : sum + index.map.ramBytesUsed();
  }

  /**
   * Collects until two successive readings of live heap differ by less than 256 KB. A reading is what
   * the heap pools held when the collection ended ({@code getCollectionUsage}), not their current use:
   * that also counts eden's allocation buffers handed out since, whole, and once read a baseline's
   * 55 KB as 2.6 MB.
   */
  private static long usedHeapAfterGc() {
    long previous = Long.MAX_VALUE;
    for (int pass = 0; pass < MAX_GC_PASSES; pass++) {
      System.gc();
      long used = liveHeapAfterLastGc();
      if (Math.abs(previous - used) < GC_SETTLED_BYTES) {
        return used;
      }
      previous = used;
    }
    return previous;
  }

  private static long liveHeapAfterLastGc() {
    long sum = 0;
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      if (pool.getType() == MemoryType.HEAP && pool.getCollectionUsage() != null) {
        sum += pool.getCollectionUsage().getUsed();
      }
    }
    return sum;
  }
}
