package org.lucenerevisited.join;

import java.io.IOException;
import java.nio.file.Path;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.NIOFSDirectory;

/** NIOFSDirectory, constructed directly (Lucene 4 takes a File). */
final class NioDirectory {

  private NioDirectory() {}

  static Directory open(Path path) throws IOException {
    return new NIOFSDirectory(path.toFile());
  }
}
