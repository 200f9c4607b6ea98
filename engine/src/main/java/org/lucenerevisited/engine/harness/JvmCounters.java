package org.lucenerevisited.engine.harness;

import java.lang.management.CompilationMXBean;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * The JVM's cumulative JIT and GC times, in milliseconds. A timed window's share of either is the
 * difference of two readings over the window's wall time: the JIT's summed over its compiler
 * threads, so it can exceed the window (several compilers busy at once).
 */
public final class JvmCounters {

  private JvmCounters() {}

  /** Milliseconds the JIT compilers have worked; a JVM that cannot tell fails, not passes. */
  public static LongSupplier jitMillis() {
    CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
    if (jit == null || !jit.isCompilationTimeMonitoringSupported()) {
      throw new IllegalStateException("this JVM does not report JIT compilation time, which "
          + "warm-up needs to tell a steady state from code still being compiled");
    }
    return jit::getTotalCompilationTime;
  }

  /** Milliseconds of garbage collection, summed over the collectors that report it. */
  public static LongSupplier gcMillis() {
    List<GarbageCollectorMXBean> collectors = ManagementFactory.getGarbageCollectorMXBeans();
    return () -> {
      long total = 0;
      for (GarbageCollectorMXBean gc : collectors) {
        total += Math.max(0, gc.getCollectionTime()); // -1: this collector does not tell
      }
      return total;
    };
  }
}
