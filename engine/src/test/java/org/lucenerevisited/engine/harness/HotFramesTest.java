package org.lucenerevisited.engine.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HotFramesTest {

  static volatile long sink;

  /** Spins on the CPU for {@code millis}: the one hot method of the test. */
  static void spinInMarkedMethod(long millis) {
    long end = System.nanoTime() + millis * 1_000_000L;
    long x = 1;
    while (System.nanoTime() < end) {
      for (int i = 0; i < 1000; i++) {
        x = x * 6364136223846793005L + 1442695040888963407L;
      }
    }
    sink = x;
  }

  @Test
  void theSpinningMethodIsTheHottestFrameAndItsMarkCountsItsSamples(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("hot.jfr");
    Table table;
    try (HotFrames frames = new HotFrames(10)) {
      spinInMarkedMethod(700);
      table = frames.stop(file, 5, List.of("spinInMarkedMethod", "no.such.Frame"));
    }
    assertTrue(Files.size(file) > 0);
    String[] kind = table.strings("kind");
    String[] name = table.strings("name");
    long[] samples = table.longs("samples");
    long total = table.longs("total")[0];
    assertTrue(total >= 10, "too few samples: " + total);
    int firstSelf = List.of(kind).indexOf("self");
    assertEquals(HotFramesTest.class.getName() + ".spinInMarkedMethod", name[firstSelf]);
    int mark = List.of(name).indexOf("spinInMarkedMethod");
    assertEquals("mark", kind[mark]);
    assertTrue(samples[mark] >= total / 2, samples[mark] + " of " + total);
    assertEquals(0, samples[List.of(name).indexOf("no.such.Frame")]);
  }

  @Test
  void aPeriodBelowOneMillisecondIsRejected() {
    assertThrows(IllegalArgumentException.class, () -> new HotFrames(0));
  }
}
