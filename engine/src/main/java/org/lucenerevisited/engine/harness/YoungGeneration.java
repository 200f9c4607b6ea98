package org.lucenerevisited.engine.harness;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;

/**
 * Makes the young generation's pages resident before anything is timed. The first write to a page
 * of the heap is a page fault for the kernel to serve, so until allocation has cycled through the
 * young generation once, a workload that allocates pays for faults that a steady state never sees:
 * FST50 on 9.12.3, which allocates about 4 GB/s while it looks keys up, ran at a third of its later
 * speed for its first second, and the default format, which allocates little, ran 15% slower until
 * the first collection, several seconds in. Allocating until the collector has run once writes to
 * every page of eden, in about 0.15 s for 400 MB here. It lasts only while the young generation
 * keeps its size, which is why the measurement JVMs fix it ({@code -Xmn},
 * {@code -XX:-UseAdaptiveSizePolicy}).
 */
public final class YoungGeneration {

  private static final int CHUNK = 1 << 20;
  /** Keeps the chunks reachable from outside the loop: escape analysis cannot remove them. */
  private static volatile byte[] sink;
  private static boolean touched;

  private YoungGeneration() {}

  /** {@link #touch()}, once per JVM: later calls return 0. */
  public static synchronized long touchOnce() {
    if (touched) {
      return 0;
    }
    touched = true;
    return touch();
  }

  /** Allocates until a collection has run (at most twice the maximum heap); returns the bytes. */
  static long touch() {
    long limit = 2 * Runtime.getRuntime().maxMemory();
    long before = collections();
    long bytes = 0;
    while (collections() == before && bytes < limit) {
      sink = new byte[CHUNK];
      bytes += CHUNK;
    }
    sink = null;
    return bytes;
  }

  static long collections() {
    long n = 0;
    for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
      n += Math.max(0, gc.getCollectionCount());
    }
    return n;
  }
}
