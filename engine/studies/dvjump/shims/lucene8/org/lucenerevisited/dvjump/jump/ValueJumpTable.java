package org.lucenerevisited.dvjump.jump;

import java.io.IOException;
import org.apache.lucene.store.IndexInput;
import org.apache.lucene.store.RandomAccessInput;
import org.apache.lucene.util.LongValues;
import org.apache.lucene.util.packed.DirectReader;

/**
 * The value at an index of a Lucene 7.0 NUMERIC entry, in one jump.
 *
 * <p>Values are packed by DirectReader at one width for the whole field ({@code bitsPerValue}, then
 * each value is {@code gcd * packed + minValue}, or {@code table[packed]} for at most 256 distinct
 * values), or, when that saves a tenth of the space, in blocks of 16,384 values with a width of their
 * own: each block is a byte (its width), a long (its minimum), and for a width above zero an int (the
 * length of the packed values) and the packed values. Block offsets are not stored, so Lucene 7
 * reaches block b by reading the headers of every block before it. Built once by reading those
 * headers, this table holds each block's width, minimum and offset.
 */
final class ValueJumpTable {

  private final RandomAccessInput slice;
  private final long gcd;
  private final long minValue;
  private final long[] table;
  private final int blockShift;
  private final int blockMask;
  /** Single width: all values. Blocks: per block, its width, minimum and packed values' offset. */
  private final LongValues single;
  private final byte[] blockBits;
  private final long[] blockMin;
  private final long[] blockOffset;

  private int cachedBlock = -1;
  private LongValues cachedValues;

  ValueJumpTable(IndexInput dvd, Lucene70Entries.Numeric entry) throws IOException {
    this.slice = dvd.randomAccessSlice(entry.valuesOffset(), entry.valuesLength());
    this.gcd = entry.gcd();
    this.minValue = entry.minValue();
    this.table = entry.table();
    this.blockShift = entry.blockShift();
    if (blockShift < 0) {
      single = entry.bitsPerValue() == 0 ? LongValues.ZEROES : DirectReader.getInstance(slice, entry.bitsPerValue());
      blockBits = null;
      blockMin = null;
      blockOffset = null;
      blockMask = 0;
      return;
    }
    single = null;
    blockMask = (1 << blockShift) - 1;
    int blocks = (int) ((entry.numValues() + blockMask) >>> blockShift);
    blockBits = new byte[blocks];
    blockMin = new long[blocks];
    blockOffset = new long[blocks];
    long at = 0;
    for (int b = 0; b < blocks; b++) {
      blockBits[b] = slice.readByte(at);
      blockMin[b] = slice.readLong(at + 1);
      at += 1 + Long.BYTES;
      blockOffset[b] = blockBits[b] == 0 ? at : at + Integer.BYTES;
      if (blockBits[b] != 0) {
        at += Integer.BYTES + slice.readInt(at);
      }
    }
  }

  long get(long index) {
    if (blockShift < 0) {
      long packed = single.get(index);
      return table != null ? table[(int) packed] : gcd * packed + minValue;
    }
    int block = (int) (index >>> blockShift);
    if (block != cachedBlock) {
      cachedBlock = block;
      cachedValues = blockBits[block] == 0
          ? LongValues.ZEROES
          : DirectReader.getInstance(slice, Byte.toUnsignedInt(blockBits[block]), blockOffset[block]);
    }
    return gcd * cachedValues.get(index & blockMask) + blockMin[block];
  }

  /** Each block's bit width, in block order, or "single" for values packed at one width. */
  String widths() {
    StringBuilder out = new StringBuilder();
    for (int b = 0; blockBits != null && b < blockBits.length; b++) {
      out.append(b == 0 ? "" : ",").append(Byte.toUnsignedInt(blockBits[b]));
    }
    return blockBits == null ? "single" : out.toString();
  }

  long ramBytesUsed() {
    return blockBits == null ? 0 : blockBits.length + 16L * blockBits.length;
  }
}
