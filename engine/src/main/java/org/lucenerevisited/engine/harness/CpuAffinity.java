package org.lucenerevisited.engine.harness;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.TreeSet;
import java.util.SortedSet;

/**
 * The CPUs a Linux thread may run on. The JDK has no affinity API, so the calling thread's Linux
 * id is read from {@code /proc/thread-self} and util-linux's {@code taskset} sets its mask. Linux
 * gives a new thread the mask of the thread that created it, so a thread pinned before it starts
 * others pins them too.
 */
public final class CpuAffinity {

  private static final Path THREAD_SELF = Path.of("/proc/thread-self");

  private CpuAffinity() {}

  /** The CPUs the calling thread may run on ({@code Cpus_allowed_list} of its status). */
  public static SortedSet<Integer> current() throws IOException {
    for (String line : Files.readAllLines(THREAD_SELF.resolve("status"))) {
      if (line.startsWith("Cpus_allowed_list:")) {
        return parse(line.substring(line.indexOf(':') + 1).trim());
      }
    }
    throw new IOException(THREAD_SELF.resolve("status") + " has no Cpus_allowed_list");
  }

  /**
   * Restricts the calling thread to {@code cpus} (a list as taskset reads it: "0", "1-3",
   * "0,2"); throws if taskset failed or the thread's mask is not exactly {@code cpus} after it.
   */
  public static void pin(String cpus) throws IOException, InterruptedException {
    SortedSet<Integer> wanted = parse(cpus);
    // "<pid>/task/<tid>": the link names the thread that reads it.
    String tid = Files.readSymbolicLink(THREAD_SELF).getFileName().toString();
    Process taskset = new ProcessBuilder("taskset", "-p", "-c", cpus, tid)
        .redirectErrorStream(true).start();
    String output = new String(taskset.getInputStream().readAllBytes()).trim();
    int status = taskset.waitFor();
    if (status != 0) {
      throw new IOException("taskset -p -c " + cpus + " " + tid + " exited with status " + status
          + ": " + output);
    }
    SortedSet<Integer> got = current();
    if (!got.equals(wanted)) {
      throw new IOException("thread " + tid + " runs on CPUs " + got + " after taskset, not "
          + wanted);
    }
  }

  /** The CPUs of a list such as "0-2,5". */
  public static SortedSet<Integer> parse(String list) {
    SortedSet<Integer> cpus = new TreeSet<>();
    for (String part : list.split(",")) {
      String[] range = part.trim().split("-");
      if (range.length < 1 || range.length > 2 || range[0].isEmpty()) {
        throw new IllegalArgumentException("not a CPU list: '" + list + "'");
      }
      int from = Integer.parseInt(range[0]);
      int to = range.length == 2 ? Integer.parseInt(range[1]) : from;
      if (from < 0 || to < from) {
        throw new IllegalArgumentException("not a CPU list: '" + list + "'");
      }
      for (int cpu = from; cpu <= to; cpu++) {
        cpus.add(cpu);
      }
    }
    return cpus;
  }

  /** {@code cpus} as a list taskset reads. */
  public static String format(SortedSet<Integer> cpus) {
    StringBuilder out = new StringBuilder();
    for (int cpu : cpus) {
      out.append(out.length() == 0 ? "" : ",").append(cpu);
    }
    return out.toString();
  }
}
