package org.lucenerevisited.dvupdate;

import java.io.IOException;
import java.util.Map;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.FilterDirectoryReader;
import org.apache.lucene.index.FilterLeafReader;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.NumericDocValues;

/**
 * A base NRT reader seen through the RAM buffer: each leaf's lastmod iterator returns the buffer's
 * value for a document that has one. Several wrappers share a base when a reopen found no new
 * segments, so each holds a reference of its own and gives it back on close ({@code close()} of a
 * shared base would do nothing after the first). Its leaves have no cache helpers: their values are
 * not the segment's.
 */
final class RamBufferReader extends FilterDirectoryReader {

  /** Wraps {@code base}, taking over the caller's reference to it; {@code updates} by base leaf. */
  RamBufferReader(DirectoryReader base, Map<LeafReader, LeafUpdates> updates) throws IOException {
    super(base, new SubReaderWrapper() {
      @Override
      public LeafReader wrap(LeafReader leaf) {
        return new BufferedLeaf(leaf, updates.get(leaf));
      }
    });
  }

  @Override
  protected DirectoryReader doWrapDirectoryReader(DirectoryReader in) {
    throw new UnsupportedOperationException("a RAM-buffer reader is reopened by RamBuffer.reopen");
  }

  @Override
  public CacheHelper getReaderCacheHelper() {
    return null;
  }

  @Override
  protected void doClose() throws IOException {
    in.decRef();
  }

  private static final class BufferedLeaf extends FilterLeafReader {
    /** Null when no pending update is in this leaf. */
    private final LeafUpdates updates;

    BufferedLeaf(LeafReader in, LeafUpdates updates) {
      super(in);
      this.updates = updates;
    }

    @Override
    public NumericDocValues getNumericDocValues(String field) throws IOException {
      NumericDocValues values = super.getNumericDocValues(field);
      return updates == null || values == null || !field.equals(DvuSchema.LASTMOD) ? values : updates.over(values);
    }

    @Override
    public CacheHelper getCoreCacheHelper() {
      return null;
    }

    @Override
    public CacheHelper getReaderCacheHelper() {
      return null;
    }
  }
}
