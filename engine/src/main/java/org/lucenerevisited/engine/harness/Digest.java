package org.lucenerevisited.engine.harness;

import org.apache.lucene.util.BytesRef;

/**
 * A 64-bit FNV-1a checksum of a sequence of values (labels, counts, values, docIDs, in order): equal
 * sequences give equal checksums, so answers compare across contenders and Lucene versions without
 * shipping them. A null byte sequence counts as a value of its own.
 */
public final class Digest {

  private long hash = 0xcbf29ce484222325L;

  public Digest add(long value) {
    for (int i = 0; i < 8; i++) {
      hash = (hash ^ ((value >>> (8 * i)) & 0xFF)) * 0x100000001b3L;
    }
    return this;
  }

  public Digest add(BytesRef bytes) {
    if (bytes == null) {
      return add(-1L);
    }
    for (int i = 0; i < bytes.length; i++) {
      hash = (hash ^ (bytes.bytes[bytes.offset + i] & 0xFF)) * 0x100000001b3L;
    }
    return add(bytes.length);
  }

  public long value() {
    return hash;
  }

  /** The checksum as 16 hex digits. */
  public String hex() {
    return String.format("%016x", hash);
  }
}
