package org.lucenerevisited.dvjump;

import org.apache.lucene.util.BytesRef;

/**
 * A 64-bit FNV-1a checksum of what a request answered (labels, counts, values, docIDs, in answer
 * order): two contenders whose answers are identical give the same checksum, so answers can be
 * compared across Lucene versions without shipping them.
 */
final class Digest {

  private long hash = 0xcbf29ce484222325L;

  Digest add(long value) {
    for (int i = 0; i < 8; i++) {
      hash = (hash ^ ((value >>> (8 * i)) & 0xFF)) * 0x100000001b3L;
    }
    return this;
  }

  Digest add(BytesRef bytes) {
    for (int i = 0; i < bytes.length; i++) {
      hash = (hash ^ (bytes.bytes[bytes.offset + i] & 0xFF)) * 0x100000001b3L;
    }
    return add(bytes.length);
  }

  long value() {
    return hash;
  }
}
