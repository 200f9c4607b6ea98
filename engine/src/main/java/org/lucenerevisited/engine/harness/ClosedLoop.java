package org.lucenerevisited.engine.harness;

import java.util.function.LongSupplier;

/**
 * A stream of {@link Request}s run back to back by one thread, as a series of {@link InterleavedRunner}: its
 * iterations give the service time of a request with no queueing, and its warm-up brings the JIT to a steady
 * state before a load is offered. The stream position carries over from one iteration to the next, so every
 * request of the stream is run in turn.
 */
public final class ClosedLoop implements InterleavedRunner.Contender {

  private final String name;
  private final Request request;
  private final int streamSize;
  private long next;

  public ClosedLoop(String name, Request request, int streamSize) {
    if (streamSize < 1) {
      throw new IllegalArgumentException("streamSize must be >= 1, got " + streamSize);
    }
    this.name = name;
    this.request = request;
    this.streamSize = streamSize;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public long runUntil(long deadline, LongSupplier clock) throws Exception {
    long ops = 0;
    do {
      request.run((int) (next++ % streamSize));
      ops++;
    } while (clock.getAsLong() < deadline);
    return ops;
  }
}
