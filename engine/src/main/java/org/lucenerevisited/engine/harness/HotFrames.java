package org.lucenerevisited.engine.harness;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordingFile;

/**
 * Where this JVM's CPU went while some work ran: a Flight Recorder recording of {@code
 * jdk.ExecutionSample} events only (JFR samples the stack of every thread running Java code once per
 * period; a thread blocked or parked yields no sample), summarised as the hottest frames.
 *
 * <p>A frame is {@code class.method}. Its <em>self</em> count is the samples it was on top of the stack;
 * its <em>inclusive</em> count the samples it was anywhere in it (once per sample, however deep the
 * recursion). A <em>mark</em> is a substring of frame names: its count is the samples with at least one
 * matching frame, which is how a share of CPU "under the terms dictionary" is read off without summing
 * overlapping inclusive counts. JFR keeps at most 64 frames per stack, from the top: marks match frames
 * near the work, not the request's entry point.
 */
public final class HotFrames implements AutoCloseable {

  private final Recording recording = new Recording();

  /** Starts sampling every {@code periodMillis} ms per running thread. */
  public HotFrames(long periodMillis) {
    if (periodMillis <= 0) {
      throw new IllegalArgumentException("periodMillis must be > 0, got " + periodMillis);
    }
    recording.enable("jdk.ExecutionSample").withPeriod(Duration.ofMillis(periodMillis));
    recording.start();
  }

  /**
   * Stops the recording, writes it to {@code file} (readable by {@code jfr print} and JDK Mission
   * Control) and summarises it. Rows: {@code kind} ({@code self}, {@code inclusive}: the {@code top}
   * hottest frames of each; {@code mark}: one row per mark), {@code name}, {@code samples}, {@code
   * total} (execution samples in the recording).
   */
  public Table stop(Path file, int top, List<String> marks) throws IOException {
    recording.stop();
    recording.dump(file);
    Map<String, long[]> counts = new HashMap<>(); // frame -> {self, inclusive}
    long[] marked = new long[marks.size()];
    long total = 0;
    for (RecordedEvent event : RecordingFile.readAllEvents(file)) {
      RecordedStackTrace stack = event.getStackTrace();
      if (!event.getEventType().getName().equals("jdk.ExecutionSample") || stack == null) {
        continue;
      }
      total++;
      Set<String> seen = new HashSet<>();
      boolean[] hit = new boolean[marks.size()];
      List<RecordedFrame> frames = stack.getFrames();
      for (int i = 0; i < frames.size(); i++) {
        RecordedFrame frame = frames.get(i);
        String name = frame.getMethod().getType().getName() + "." + frame.getMethod().getName();
        long[] c = counts.computeIfAbsent(name, k -> new long[2]);
        if (i == 0) {
          c[0]++;
        }
        if (seen.add(name)) {
          c[1]++;
          for (int m = 0; m < hit.length; m++) {
            hit[m] |= name.contains(marks.get(m));
          }
        }
      }
      for (int m = 0; m < hit.length; m++) {
        marked[m] += hit[m] ? 1 : 0;
      }
    }
    Table.Builder table = Table.builder().stringColumn("kind").stringColumn("name")
        .longColumn("samples").longColumn("total");
    for (int kind = 0; kind < 2; kind++) {
      final int k = kind;
      List<Map.Entry<String, long[]>> ranked = new ArrayList<>(counts.entrySet());
      ranked.removeIf(e -> e.getValue()[k] == 0);
      ranked.sort((a, b) -> a.getValue()[k] != b.getValue()[k]
          ? Long.compare(b.getValue()[k], a.getValue()[k]) : a.getKey().compareTo(b.getKey()));
      for (Map.Entry<String, long[]> e : ranked.subList(0, Math.min(top, ranked.size()))) {
        table.addRow(k == 0 ? "self" : "inclusive", e.getKey(), e.getValue()[k], total);
      }
    }
    for (int m = 0; m < marked.length; m++) {
      table.addRow("mark", marks.get(m), marked[m], total);
    }
    return table.build();
  }

  @Override
  public void close() {
    recording.close();
  }
}
