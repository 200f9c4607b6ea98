package org.lucenerevisited.join;

/**
 * What the correctness gate compares: every parent the query matched ({@code parents}, ids sorted, so
 * that contenders on different indexes compare) and the ids of the {@code top} hits by score, best first
 * (ties by index order; compared only between contenders on the same index).
 */
public record Answer(String[] parents, String[] top) {}
