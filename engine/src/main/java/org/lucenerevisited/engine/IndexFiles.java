package org.lucenerevisited.engine;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.store.Directory;
import org.lucenerevisited.engine.shim.LuceneShim;

/** An index as it lies on disk: its files directly in its directory (Lucene writes no subfolders). */
public final class IndexFiles {

  /** What a build left: documents (maxDoc, deletions included), segments, and bytes on disk. */
  public record Built(long docs, long segments, long bytes) {}

  private IndexFiles() {}

  /** The committed index in {@code dir}, opened once through MMapDirectory to count its documents and segments. */
  public static Built built(Path dir) throws IOException {
    try (Directory d = LuceneShim.INSTANCE.openMMapDirectory(dir);
        DirectoryReader reader = DirectoryReader.open(d)) {
      return new Built(reader.maxDoc(), reader.leaves().size(), bytes(dir));
    }
  }

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
