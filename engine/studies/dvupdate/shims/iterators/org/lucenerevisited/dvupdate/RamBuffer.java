package org.lucenerevisited.dvupdate;

import java.io.IOException;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.PostingsEnum;
import org.apache.lucene.index.Terms;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.util.Bits;
import org.apache.lucene.util.BytesRef;
import org.lucenerevisited.engine.shim.LuceneShim;

/**
 * The seed's unbuilt "hybrid" proposal: numeric DocValues updates of lastmod stay in memory, like
 * buffered deletes, and searches see them through a reader wrapper; they go into Lucene
 * ({@code updateNumericDocValue}, written at that reopen) only when their estimated RAM exceeds the
 * budget. A reopen after a few updates then rewrites no DocValues; a flush, when it comes, carries
 * many updates at once.
 *
 * <p>A reopen within budget reopens the base reader (keeping the old one if nothing changed) and
 * wraps it with the pending values, each id resolved to its live document through the id field's
 * terms: that resolution, which grows with the pending updates, is the RAM buffer's reopen cost.
 * Searches see the updates resolved at the last reopen, as NRT searches see Lucene's.
 */
final class RamBuffer implements Update, Reopener {

  /**
   * Estimated heap of one pending id, on a 64-bit JVM with compressed oops: its ConcurrentHashMap
   * node (32 bytes) and table slot (8), the String (24) and its byte array's header (16), and the
   * boxed Long (16); plus one byte per character of the (Latin-1) id. Updating a pending id again
   * adds nothing.
   */
  static final long ENTRY_BYTES = 96;

  /** The updates not yet in Lucene, and their estimated heap. */
  private static final class Pending {
    final ConcurrentHashMap<String, Long> values = new ConcurrentHashMap<>();
    final AtomicLong bytes = new AtomicLong();
  }

  private final IndexWriter writer;
  private final DvuCorpus corpus;
  private final long budgetBytes;
  /** Updates share it; a flush takes it alone to swap the map, so no update lands in the one it flushes. */
  private final ReentrantReadWriteLock swap = new ReentrantReadWriteLock();
  private volatile Pending pending = new Pending();
  /** Updates applied so far, and as of the last reopen: equal means nothing new to show. */
  private final AtomicLong applied = new AtomicLong();
  private long shown;

  private RamBuffer(IndexWriter writer, DvuCorpus corpus, long budgetBytes) {
    this.writer = writer;
    this.corpus = corpus;
    this.budgetBytes = budgetBytes;
  }

  /** The RAM buffer's updates reach the writer as plain numeric DocValues updates: its config stays. */
  static IndexWriterConfig configure(IndexWriterConfig config) {
    return config;
  }

  static Methods.Method open(IndexWriter writer, DvuCorpus corpus, long budgetBytes) {
    RamBuffer buffer = new RamBuffer(writer, corpus, budgetBytes);
    return new Methods.Method(buffer, buffer);
  }

  @Override
  public void apply(long k, int row) {
    String id = corpus.id(row);
    swap.readLock().lock();
    try {
      Pending p = pending;
      if (p.values.put(id, DvuSchema.value(k)) == null) {
        p.bytes.addAndGet(ENTRY_BYTES + id.length());
      }
    } finally {
      swap.readLock().unlock();
    }
    applied.incrementAndGet();
  }

  @Override
  public IndexReader open() throws IOException {
    DirectoryReader base = LuceneShim.INSTANCE.openNrtReader(writer);
    return new RamBufferReader(base, resolve(base, pending.values));
  }

  /** {@code current} must be a reader this buffer returned. */
  @Override
  public Reopened reopen(IndexReader current) throws IOException {
    DirectoryReader base = ((RamBufferReader) current).getDelegate();
    Pending flushing = pending;
    long bytes = flushing.bytes.get();
    boolean flush = bytes > budgetBytes;
    if (flush) {
      swap.writeLock().lock();
      try {
        pending = new Pending();
      } finally {
        swap.writeLock().unlock();
      }
      for (Map.Entry<String, Long> e : flushing.values.entrySet()) {
        writer.updateNumericDocValue(DvuSchema.idTerm(e.getKey()), DvuSchema.LASTMOD, e.getValue());
      }
    }
    // Read before the map is: an update counted here is in the values resolved below.
    long seen = applied.get();
    DirectoryReader next = LuceneShim.INSTANCE.reopenNrtReader(base, writer);
    if (next == null) {
      if (seen == shown) {
        return new Reopened(null, bytes, false);
      }
      base.incRef();
      next = base;
    }
    shown = seen;
    return new Reopened(new RamBufferReader(next, resolve(next, pending.values)), bytes, flush);
  }

  /** Each pending id's live document, by leaf; an id with no live document is skipped. */
  private static Map<LeafReader, LeafUpdates> resolve(DirectoryReader reader, Map<String, Long> values)
      throws IOException {
    List<LeafReaderContext> leaves = reader.leaves();
    TermsEnum[] terms = new TermsEnum[leaves.size()];
    Bits[] live = new Bits[leaves.size()];
    PostingsEnum[] postings = new PostingsEnum[leaves.size()];
    LeafUpdates[] found = new LeafUpdates[leaves.size()];
    for (int i = 0; i < terms.length; i++) {
      LeafReader leaf = leaves.get(i).reader();
      Terms t = leaf.terms(DvuSchema.ID);
      terms[i] = t == null ? null : t.iterator();
      live[i] = leaf.getLiveDocs();
    }
    for (Map.Entry<String, Long> e : values.entrySet()) {
      BytesRef id = new BytesRef(e.getKey());
      resolving:
      for (int i = 0; i < terms.length; i++) {
        if (terms[i] == null || !terms[i].seekExact(id)) {
          continue;
        }
        postings[i] = terms[i].postings(postings[i], PostingsEnum.NONE);
        for (int doc = postings[i].nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = postings[i].nextDoc()) {
          if (live[i] == null || live[i].get(doc)) {
            if (found[i] == null) {
              found[i] = new LeafUpdates();
            }
            found[i].add(doc, e.getValue());
            break resolving;
          }
        }
      }
    }
    Map<LeafReader, LeafUpdates> byLeaf = new IdentityHashMap<>();
    for (int i = 0; i < found.length; i++) {
      if (found[i] != null) {
        byLeaf.put(leaves.get(i).reader(), found[i].sort());
      }
    }
    return byLeaf;
  }
}
