package org.lucenerevisited.engine;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/** The on-disk size of an index: every regular file directly in its directory (Lucene writes no subfolders). */
public final class IndexFiles {

  private IndexFiles() {}

  /** Sum of the sizes of the regular files in {@code dir}, the write lock included (it is empty). */
  public static long bytes(Path dir) {
    try (Stream<Path> files = Files.list(dir)) {
      long sum = 0;
      for (Path f : (Iterable<Path>) files::iterator) {
        if (Files.isRegularFile(f)) {
          sum += Files.size(f);
        }
      }
      return sum;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
