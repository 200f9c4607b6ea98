package org.lucenerevisited.engine;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;

/**
 * Resident bytes of this process's memory mappings of the files below one directory, from
 * {@code /proc/self/smaps}: the pages of an MMapDirectory's files that this JVM has touched and
 * that are mapped into it now. Heap measurements miss these: on Lucene 9+ terms indexes (and
 * FST50's whole FST) stay off-heap and are read through mmap, so the RAM a lookup needs is heap
 * plus these pages. The kernel maps a few pages around each fault, so this is an upper bound of
 * the pages actually read.
 */
public final class ResidentBytes {

  private static final Path SMAPS = Paths.get("/proc/self/smaps");

  private ResidentBytes() {}

  /** Sum of the Rss of every mapping of a file below {@code dir}; -1 where smaps is missing. */
  public static long ofFilesUnder(Path dir) throws IOException {
    if (!Files.isReadable(SMAPS)) {
      return -1;
    }
    String prefix = dir.toRealPath().toString() + "/";
    long total = 0;
    boolean inside = false;
    try (BufferedReader in = Files.newBufferedReader(SMAPS, StandardCharsets.UTF_8)) {
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        if (isMappingHeader(line)) {
          int slash = line.indexOf('/');
          inside = slash >= 0 && line.substring(slash).startsWith(prefix);
        } else if (inside && line.startsWith("Rss:")) {
          total += kilobytes(line) * 1024;
        }
      }
    }
    return total;
  }

  /** Header lines start with an address range such as {@code 7f12a000-7f12b000}. */
  private static boolean isMappingHeader(String line) {
    int dash = line.indexOf('-');
    int space = line.indexOf(' ');
    return dash > 0 && space > dash && Character.digit(line.charAt(0), 16) >= 0
        && !line.substring(0, dash).contains(":");
  }

  private static long kilobytes(String rssLine) {
    String[] parts = rssLine.trim().split("\\s+");
    return Long.parseLong(parts[1]);
  }
}
