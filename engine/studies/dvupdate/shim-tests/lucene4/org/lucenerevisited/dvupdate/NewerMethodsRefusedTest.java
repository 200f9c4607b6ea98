package org.lucenerevisited.dvupdate;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Lucene 4 refuses soft and ram-buffer, naming the method and the version. */
class NewerMethodsRefusedTest {

  @TempDir Path dir;

  @Test
  void softAndRamBufferAreRefusedByName() throws Exception {
    TestIndex test = TestIndex.build(dir, 20, 100);
    for (String method : new String[] {"soft", "ram-buffer"}) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new DvuBench(test.spec(method)));
      assertTrue(e.getMessage().contains("'" + method + "'") && e.getMessage().contains("4.10.4"), e.getMessage());
    }
  }
}
