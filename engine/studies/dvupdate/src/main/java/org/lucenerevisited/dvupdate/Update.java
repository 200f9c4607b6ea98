package org.lucenerevisited.dvupdate;

import java.io.IOException;

/** One way of changing a document: what the study compares. Called by several threads at once. */
interface Update {

  /** Applies update number {@code k} to the document of {@code row}. */
  void apply(long k, int row) throws IOException;
}
