package org.lucenerevisited.dvupdate;

import java.io.IOException;
import org.apache.lucene.index.IndexReader;

/** How a method's searchers get to see its updates: the NRT reopen, timed by the benchmark. */
interface Reopener {

  /**
   * What a reopen did: the new reader (null if nothing changed); for the RAM buffer, its pending
   * updates' estimated RAM when the reopen started, which decides a flush, and whether it flushed.
   */
  record Reopened(IndexReader reader, long ramBufferBytes, boolean flushed) {}

  /** The first reader; the caller owns one reference. */
  IndexReader open() throws IOException;

  /**
   * A reader with every update applied before the call; the caller owns one reference to it, and
   * still owns {@code current}, which this call neither closes nor needs afterwards.
   */
  Reopened reopen(IndexReader current) throws IOException;
}
