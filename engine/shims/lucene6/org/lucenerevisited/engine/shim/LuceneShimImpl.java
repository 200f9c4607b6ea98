package org.lucenerevisited.engine.shim;

/**
 * Lucene 6.x. Everything the engine needs so far is the Lucene 5+ API of {@link LeafReaderShim};
 * this major's own API differences go here as overrides.
 */
public final class LuceneShimImpl extends LeafReaderShim {}
