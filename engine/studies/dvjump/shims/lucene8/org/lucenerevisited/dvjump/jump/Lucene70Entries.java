package org.lucenerevisited.dvjump.jump;

import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import org.apache.lucene.codecs.CodecUtil;
import org.apache.lucene.index.CorruptIndexException;
import org.apache.lucene.index.FieldInfo;
import org.apache.lucene.index.FieldInfos;
import org.apache.lucene.store.ChecksumIndexInput;
import org.apache.lucene.util.packed.DirectMonotonicReader;

/**
 * Where each field's values lie in a Lucene 7.0 DocValues data file ({@code .dvd}), read from its
 * metadata file ({@code .dvm}): the format of LUCENE-7407, written by Lucene 7.x and readable in 8.x
 * through backward-codecs.
 *
 * <p>The metadata file is a codec header, then per field its number (an int; -1 ends the list), a
 * type byte and the type's entry, then a checksum footer. This reads NUMERIC and SORTED entries, the
 * only types the study's schema has; the terms dictionary of a sorted field is skipped, since ordinals
 * resolve to terms through Lucene's own reader, which needs no jump table.
 */
final class Lucene70Entries {

  static final String META_CODEC = "Lucene70DocValuesMetadata";
  static final String DATA_CODEC = "Lucene70DocValuesData";
  static final int VERSION = 0;
  private static final byte NUMERIC = 0;
  private static final byte SORTED = 2;

  /**
   * A numeric entry. {@code docsWithFieldOffset} is -2 when no document has a value, -1 when all do
   * (value index = docID), else the offset of an IndexedDISI in the data file. {@code blockShift} is
   * -1 for values packed at one bit width (or through {@code table}, at most 256 distinct values),
   * else log2 of the block size of values packed at a width per block (14: 16,384 values).
   */
  record Numeric(long docsWithFieldOffset, long docsWithFieldLength, long numValues, long[] table,
      int blockShift, int bitsPerValue, long minValue, long gcd, long valuesOffset, long valuesLength) {}

  /** A sorted entry: ordinals packed at one width ({@code bitsPerValue}), one per document with a value. */
  record Sorted(long docsWithFieldOffset, long docsWithFieldLength, int numDocsWithField, int bitsPerValue,
      long ordsOffset, long ordsLength) {}

  final Map<String, Numeric> numerics = new HashMap<>();
  final Map<String, Sorted> sorted = new HashMap<>();

  Lucene70Entries(ChecksumIndexInput meta, FieldInfos infos, byte[] segmentId, String suffix)
      throws IOException {
    Throwable failure = null;
    try {
      CodecUtil.checkIndexHeader(meta, META_CODEC, VERSION, VERSION, segmentId, suffix);
      for (int number = meta.readInt(); number != -1; number = meta.readInt()) {
        FieldInfo info = infos.fieldInfo(number);
        if (info == null) {
          throw new CorruptIndexException("no field numbered " + number, meta);
        }
        byte type = meta.readByte();
        if (type == NUMERIC) {
          numerics.put(info.name, numeric(meta));
        } else if (type == SORTED) {
          sorted.put(info.name, sorted(meta));
        } else {
          throw new UnsupportedOperationException(
              "field " + info.name + ": DocValues type " + type + " has no search-time jump tables here");
        }
      }
    } catch (Throwable t) {
      failure = t;
    } finally {
      CodecUtil.checkFooter(meta, failure);
    }
  }

  private static Numeric numeric(ChecksumIndexInput meta) throws IOException {
    long docsOffset = meta.readLong();
    long docsLength = meta.readLong();
    long numValues = meta.readLong();
    int tableSize = meta.readInt();
    long[] table = null;
    if (tableSize >= 0) {
      table = new long[tableSize];
      for (int i = 0; i < tableSize; i++) {
        table[i] = meta.readLong();
      }
    }
    // -1: one width (or a table); below -1: blocks of 2^(-2 - tableSize) values, a width each.
    int blockShift = tableSize < -1 ? -2 - tableSize : -1;
    int bitsPerValue = Byte.toUnsignedInt(meta.readByte());
    return new Numeric(docsOffset, docsLength, numValues, table, blockShift, bitsPerValue,
        meta.readLong(), meta.readLong(), meta.readLong(), meta.readLong());
  }

  private static Sorted sorted(ChecksumIndexInput meta) throws IOException {
    Sorted entry = new Sorted(meta.readLong(), meta.readLong(), meta.readInt(),
        Byte.toUnsignedInt(meta.readByte()), meta.readLong(), meta.readLong());
    skipTermsDictionary(meta);
    return entry;
  }

  /** The terms dictionary's metadata: two monotonic address tables, their offsets and lengths. */
  private static void skipTermsDictionary(ChecksumIndexInput meta) throws IOException {
    long terms = meta.readVLong();
    int termsBlockShift = meta.readInt();
    int monotonicShift = meta.readInt();
    DirectMonotonicReader.loadMeta(meta, blocks(terms, termsBlockShift), monotonicShift);
    meta.readInt(); // longest term
    for (int i = 0; i < 4; i++) {
      meta.readLong(); // terms data and addresses: offset, length each
    }
    int indexShift = meta.readInt();
    DirectMonotonicReader.loadMeta(meta, 1 + blocks(terms, indexShift), monotonicShift);
    for (int i = 0; i < 4; i++) {
      meta.readLong(); // terms index and its addresses: offset, length each
    }
  }

  private static long blocks(long count, int shift) {
    return (count + (1L << shift) - 1) >>> shift;
  }
}
