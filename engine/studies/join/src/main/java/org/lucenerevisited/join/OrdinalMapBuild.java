package org.lucenerevisited.join;

/** A contender that builds an OrdinalMap when it opens (once per reader), and how long that took. */
public interface OrdinalMapBuild {
  long ordinalMapMillis();
}
