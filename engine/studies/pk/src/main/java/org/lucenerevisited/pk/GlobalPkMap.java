package org.lucenerevisited.pk;

import java.io.IOException;
import java.util.Arrays;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.util.Bits;
import org.apache.lucene.util.BytesRef;
import org.apache.lucene.util.RamUsageEstimator;
import org.lucenerevisited.engine.shim.LuceneShim;

/**
 * The seed's proposed primary-key structure: one map from id to global docID for the whole
 * index, built in heap when the reader opens by walking every segment's id terms (the postings
 * stay in whatever format the index used). When every id is a zero-padded decimal integer of one
 * width and the values fill a compact range, it is a direct int[] indexed by value - min (4
 * bytes per slot, no key bytes); otherwise an open-addressing hash table over the key bytes
 * (one byte[] slab + offsets + docIDs, linear probing, power-of-two capacity, load <= 0.5).
 * Only live docs are mapped.
 */
public final class GlobalPkMap {

  /** Widest padded id taken as a number: 18 digits always fit a long. */
  private static final int MAX_DIGITS = 18;

  private final int size;
  // Dense form: docs[value - min], -1 for absent; width is the padded length.
  private final int[] dense;
  private final long min;
  private final int width;
  // Hash form: key i is slab[offsets[i] .. offsets[i+1]), mapped to docs[i]; slots hold i+1.
  private final byte[] slab;
  private final int[] offsets;
  private final int[] docs;
  private final int[] slots;

  private GlobalPkMap(int size, int[] dense, long min, int width, byte[] slab, int[] offsets,
      int[] docs, int[] slots) {
    this.size = size;
    this.dense = dense;
    this.min = min;
    this.width = width;
    this.slab = slab;
    this.offsets = offsets;
    this.docs = docs;
    this.slots = slots;
  }

  /** Builds the map from every segment's terms of {@code field}. */
  public static GlobalPkMap build(IndexReader reader, String field) throws IOException {
    LuceneShim shim = LuceneShim.INSTANCE;
    Collector c = new Collector();
    for (LuceneShim.Leaf leaf : shim.leaves(reader)) {
      TermsEnum terms = shim.termsEnum(leaf.reader(), field);
      if (terms == null) {
        continue;
      }
      Bits live = shim.liveDocs(leaf.reader());
      DocIdSetIterator postings = null;
      for (BytesRef term = terms.next(); term != null; term = terms.next()) {
        postings = shim.postings(terms, postings);
        for (int doc = postings.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS;
            doc = postings.nextDoc()) {
          if (live == null || live.get(doc)) {
            c.add(term, leaf.docBase() + doc);
            break;
          }
        }
      }
    }
    return c.isDense() ? c.toDense() : c.toHash();
  }

  /** Global docID of the live doc with id {@code key}, or -1. */
  public int get(BytesRef key) {
    if (dense != null) {
      long v = paddedValue(key.bytes, key.offset, key.length);
      if (key.length != width || v < 0) {
        return -1;
      }
      long slot = v - min;
      return slot >= 0 && slot < dense.length ? dense[(int) slot] : -1;
    }
    int mask = slots.length - 1;
    for (int s = hash(key.bytes, key.offset, key.length) & mask; ; s = (s + 1) & mask) {
      int entry = slots[s] - 1;
      if (entry < 0) {
        return -1;
      }
      if (Arrays.equals(slab, offsets[entry], offsets[entry + 1],
          key.bytes, key.offset, key.offset + key.length)) {
        return docs[entry];
      }
    }
  }

  /** Number of ids mapped. */
  public int size() {
    return size;
  }

  /** "dense-array" or "hash". */
  public String kind() {
    return dense != null ? "dense-array" : "hash";
  }

  /** Heap bytes of the map's arrays. */
  public long ramBytesUsed() {
    if (dense != null) {
      return RamUsageEstimator.sizeOf(dense);
    }
    return RamUsageEstimator.sizeOf(slab) + RamUsageEstimator.sizeOf(offsets)
        + RamUsageEstimator.sizeOf(docs) + RamUsageEstimator.sizeOf(slots);
  }

  /** The value of an all-digit key, or -1 if it has a non-digit or is too long. */
  private static long paddedValue(byte[] b, int off, int len) {
    if (len == 0 || len > MAX_DIGITS) {
      return -1;
    }
    long v = 0;
    for (int i = off; i < off + len; i++) {
      int d = b[i] - '0';
      if (d < 0 || d > 9) {
        return -1;
      }
      v = v * 10 + d;
    }
    return v;
  }

  /** FNV-1a with a murmur3 finaliser, so sequential-looking keys still spread over slots. */
  private static int hash(byte[] b, int off, int len) {
    int h = 0x811c9dc5;
    for (int i = off; i < off + len; i++) {
      h = (h ^ (b[i] & 0xff)) * 0x01000193;
    }
    h ^= h >>> 16;
    h *= 0x85ebca6b;
    h ^= h >>> 13;
    h *= 0xc2b2ae35;
    return h ^ (h >>> 16);
  }

  /** Gathers (key, doc) pairs in one pass and tracks whether the dense form applies. */
  private static final class Collector {
    private byte[] slab = new byte[1024];
    private int slabUsed;
    private int[] offsets = new int[65];
    private int[] docs = new int[64];
    private int n;
    private boolean allPadded = true;
    private int width = -1;
    private long min = Long.MAX_VALUE;
    private long max = Long.MIN_VALUE;

    void add(BytesRef key, int doc) {
      if (slabUsed + (long) key.length > Integer.MAX_VALUE - 16) {
        throw new IllegalStateException("GlobalPkMap: id bytes exceed 2 GB");
      }
      if (slabUsed + key.length > slab.length) {
        slab = Arrays.copyOf(slab, Math.max(slab.length * 2, slabUsed + key.length));
      }
      if (n + 1 >= docs.length) {
        docs = Arrays.copyOf(docs, docs.length * 2);
        offsets = Arrays.copyOf(offsets, docs.length + 1);
      }
      System.arraycopy(key.bytes, key.offset, slab, slabUsed, key.length);
      offsets[n] = slabUsed;
      slabUsed += key.length;
      offsets[n + 1] = slabUsed;
      docs[n++] = doc;
      if (allPadded) {
        long v = paddedValue(key.bytes, key.offset, key.length);
        allPadded = v >= 0 && (width == -1 || width == key.length);
        width = key.length;
        min = Math.min(min, v);
        max = Math.max(max, v);
      }
    }

    /** Dense when ids are padded integers of one width and fill at least ~half their range. */
    boolean isDense() {
      if (!allPadded || n == 0) {
        return false;
      }
      long range = max - min + 1;
      return range <= 2L * n + 1024 && range <= Integer.MAX_VALUE - 16;
    }

    GlobalPkMap toDense() {
      int[] dense = new int[(int) (max - min + 1)];
      Arrays.fill(dense, -1);
      for (int i = 0; i < n; i++) {
        int slot = (int) (paddedValue(slab, offsets[i], offsets[i + 1] - offsets[i]) - min);
        if (dense[slot] == -1) {
          dense[slot] = docs[i];
        }
      }
      return new GlobalPkMap(n, dense, min, width, null, null, null, null);
    }

    GlobalPkMap toHash() {
      // Smallest power of two >= 2n keeps the load factor <= 0.5.
      int capacity = Integer.highestOneBit(Math.max(1, 2 * n - 1)) << 1;
      int[] slots = new int[capacity];
      int mask = capacity - 1;
      int[] keptOffsets = Arrays.copyOf(offsets, n + 1);
      byte[] keptSlab = Arrays.copyOf(slab, slabUsed);
      for (int i = 0; i < n; i++) {
        int start = keptOffsets[i];
        int end = keptOffsets[i + 1];
        int s = hash(keptSlab, start, end - start) & mask;
        boolean duplicate = false;
        for (; slots[s] != 0; s = (s + 1) & mask) {
          int e = slots[s] - 1;
          if (Arrays.equals(keptSlab, keptOffsets[e], keptOffsets[e + 1], keptSlab, start, end)) {
            duplicate = true;
            break;
          }
        }
        if (!duplicate) {
          slots[s] = i + 1;
        }
      }
      return new GlobalPkMap(n, null, 0, 0, keptSlab, keptOffsets, Arrays.copyOf(docs, n), slots);
    }
  }
}
