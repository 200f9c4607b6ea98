package org.lucenerevisited.engine.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class YoungGenerationTest {

  @Test
  void touchAllocatesUntilTheCollectorHasRun() {
    long before = YoungGeneration.collections();
    long bytes = YoungGeneration.touch();
    assertTrue(YoungGeneration.collections() > before, "no collection ran");
    assertTrue(bytes > 0 && bytes < 2 * Runtime.getRuntime().maxMemory(), "allocated " + bytes);
  }

  @Test
  void touchOnceTouchesOncePerJvm() {
    YoungGeneration.touchOnce();
    assertEquals(0, YoungGeneration.touchOnce());
  }
}
