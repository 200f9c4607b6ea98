package org.lucenerevisited.engine.harness;

/**
 * One request of an open-loop load: runs request number {@code i} of a stream (an index into the
 * stream's queries). Called concurrently by the load's workers.
 */
@FunctionalInterface
public interface Request {
  void run(int i) throws Exception;
}
