package org.lucenerevisited.dvjump.jump;

import java.io.IOException;
import java.util.Arrays;
import org.apache.lucene.store.IndexInput;
import org.apache.lucene.store.RandomAccessInput;

/**
 * Which documents have a value, and the index of each among them, in one jump: a search-time jump
 * table over a Lucene 7.0 IndexedDISI.
 *
 * <p>IndexedDISI splits the docID space into blocks of 65,536 and writes only the blocks that hold
 * a document, in order, each as a header (the block number and the count minus one, two shorts) and
 * a body: the low 16 bits of each docID as shorts (SPARSE, at most 4,095 documents), a 65,536-bit
 * set (DENSE), or nothing (ALL, 65,536 documents). The last block is a marker for NO_MORE_DOCS. Lucene
 * 7 reaches a block by reading every header before it, so the cost of one lookup grows with the
 * docID. Built once by reading the headers, this table holds, per block number, where its body
 * starts, how many documents it has and the index of its first document; for each DENSE block it
 * also holds the rank (set bits before) of every 512-bit chunk, so that a DENSE lookup counts bits
 * in at most 8 words instead of up to 1,024.
 */
final class DocJumpTable {

  private static final int SPARSE_MAX = (1 << 12) - 1;
  private static final int BLOCK_DOCS = 1 << 16;
  private static final int RANK_BITS = 512;
  private static final int RANKS_PER_BLOCK = BLOCK_DOCS / RANK_BITS;

  private final RandomAccessInput data;
  /** Per block number: index of its first document, or -1 when no document of the block has a value. */
  private final int[] firstIndex;
  private final long[] bodyOffset;
  private final int[] count;
  /** Per block number, for DENSE blocks only: set bits before each 512-bit chunk of the block. */
  private final char[][] ranks;

  private int index = -1;

  DocJumpTable(IndexInput dvd, long offset, long length, int maxDoc) throws IOException {
    IndexInput in = dvd.slice("IndexedDISI", offset, length);
    this.data = dvd.randomAccessSlice(offset, length);
    int blocks = (maxDoc + BLOCK_DOCS - 1) / BLOCK_DOCS;
    firstIndex = new int[blocks];
    Arrays.fill(firstIndex, -1);
    bodyOffset = new long[blocks];
    count = new int[blocks];
    ranks = new char[blocks][];
    int seen = 0;
    while (true) {
      int block = Short.toUnsignedInt(in.readShort());
      int docs = 1 + Short.toUnsignedInt(in.readShort());
      if (block >= blocks) {
        break; // the NO_MORE_DOCS marker
      }
      firstIndex[block] = seen;
      bodyOffset[block] = in.getFilePointer();
      count[block] = docs;
      seen += docs;
      if (docs <= SPARSE_MAX) {
        in.seek(in.getFilePointer() + 2L * docs);
      } else if (docs < BLOCK_DOCS) {
        ranks[block] = denseRanks(in);
      }
    }
  }

  /** Reads a DENSE body (1,024 longs), leaving {@code in} after it; returns its chunk ranks. */
  private static char[] denseRanks(IndexInput in) throws IOException {
    char[] rank = new char[RANKS_PER_BLOCK];
    int ones = 0;
    for (int word = 0; word < BLOCK_DOCS / 64; word++) {
      if (word % (RANK_BITS / 64) == 0) {
        rank[word / (RANK_BITS / 64)] = (char) ones;
      }
      ones += Long.bitCount(in.readLong());
    }
    return rank;
  }

  /** Whether {@code doc} has a value; if so, {@link #index()} is its index among those that do. */
  boolean advanceExact(int doc) throws IOException {
    int block = doc >>> 16;
    int first = firstIndex[block];
    if (first < 0) {
      return false;
    }
    int low = doc & 0xFFFF;
    int docs = count[block];
    long body = bodyOffset[block];
    if (docs == BLOCK_DOCS) {
      index = first + low;
      return true;
    }
    if (docs <= SPARSE_MAX) {
      int lo = 0;
      int hi = docs - 1;
      while (lo <= hi) {
        int mid = (lo + hi) >>> 1;
        int value = Short.toUnsignedInt(data.readShort(body + 2L * mid));
        if (value < low) {
          lo = mid + 1;
        } else if (value > low) {
          hi = mid - 1;
        } else {
          index = first + mid;
          return true;
        }
      }
      return false;
    }
    int word = low >>> 6;
    long bits = data.readLong(body + 8L * word);
    if ((bits & (1L << (low & 63))) == 0) {
      return false;
    }
    int chunkStart = word - word % (RANK_BITS / 64);
    int ones = ranks[block][word / (RANK_BITS / 64)];
    for (int w = chunkStart; w < word; w++) {
      ones += Long.bitCount(data.readLong(body + 8L * w));
    }
    index = first + ones + Long.bitCount(bits & ((1L << (low & 63)) - 1));
    return true;
  }

  int index() {
    return index;
  }

  /** Each block's encoding, in block order: SPARSE, DENSE, ALL, or "-" where no document has a value. */
  String kinds() {
    StringBuilder out = new StringBuilder();
    for (int block = 0; block < count.length; block++) {
      int docs = count[block];
      out.append(block == 0 ? "" : ",")
          .append(firstIndex[block] < 0 ? "-" : docs <= SPARSE_MAX ? "SPARSE" : docs == BLOCK_DOCS ? "ALL" : "DENSE");
    }
    return out.toString();
  }

  long ramBytesUsed() {
    long bytes = 4L * firstIndex.length + 8L * bodyOffset.length + 4L * count.length + 16L * ranks.length;
    for (char[] rank : ranks) {
      bytes += rank == null ? 0 : 16 + 2L * rank.length;
    }
    return bytes;
  }
}
