package org.lucenerevisited.join;

import java.io.IOException;
import java.nio.file.Path;
import org.apache.lucene.store.Directory;
import org.lucenerevisited.engine.shim.LuceneShim;

/**
 * The two directory kinds the study compares: {@code mmap} (MMapDirectory, the seed's fix) and
 * {@code nio} (NIOFSDirectory, what 4.x {@code FSDirectory.open} picked off Linux, and on JDK 9+).
 * Both are constructed explicitly, never through {@code FSDirectory.open}, which chooses by platform.
 */
public final class IndexDirectories {

  public static final String MMAP = "mmap";
  public static final String NIO = "nio";

  private IndexDirectories() {}

  public static Directory open(Path path, String kind) throws IOException {
    return switch (kind) {
      case MMAP -> LuceneShim.INSTANCE.openMMapDirectory(path);
      case NIO -> NioDirectory.open(path);
      default -> throw new IllegalArgumentException("unknown directory kind '" + kind + "'; kinds: " + MMAP + ", " + NIO);
    };
  }
}
