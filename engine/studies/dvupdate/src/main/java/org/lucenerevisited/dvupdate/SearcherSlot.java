package org.lucenerevisited.dvupdate;

import java.io.Closeable;
import java.io.IOException;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.search.IndexSearcher;
import org.lucenerevisited.engine.shim.LuceneShim;

/**
 * The reader the search threads use, swapped by the reopen thread: a search holds a reference for
 * its duration ({@code tryIncRef} fails only on a reader the swap just released, and the search
 * then takes the new one), so a replaced reader closes when its last search ends.
 */
final class SearcherSlot implements Closeable {

  /** A reader and its searcher. */
  record Current(IndexReader reader, IndexSearcher searcher) {}

  private volatile Current current;

  /** Takes over the caller's reference to {@code reader}. */
  SearcherSlot(IndexReader reader) {
    current = new Current(reader, LuceneShim.INSTANCE.newSearcher(reader));
  }

  Current acquire() {
    while (true) {
      Current c = current;
      if (c.reader().tryIncRef()) {
        return c;
      }
    }
  }

  void release(Current c) throws IOException {
    c.reader().decRef();
  }

  /** The current reader, for the one thread that swaps it. */
  IndexReader reader() {
    return current.reader();
  }

  /** Installs {@code next}, taking over the caller's reference, and releases the slot's old one. */
  void swap(IndexReader next) throws IOException {
    Current old = current;
    current = new Current(next, LuceneShim.INSTANCE.newSearcher(next));
    old.reader().decRef();
  }

  @Override
  public void close() throws IOException {
    current.reader().decRef();
  }
}
