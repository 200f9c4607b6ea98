package org.lucenerevisited.pk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lucenerevisited.engine.harness.Progress;
import org.lucenerevisited.engine.harness.Table;

class PkContendersTest {

  @TempDir
  Path tmp;

  @Test
  void availableListsFormatsPlusSpecialNames() {
    List<String> available = List.of(PkContenders.available());
    assertTrue(available.containsAll(List.of("default", "BloomFilter", "GlobalPkMap", "Direct")));
    assertTrue(available.contains(PkContenders.defaultPostingsFormat().getName()));
  }

  @Test
  void everyContenderResolvesPaddedIds() throws Exception {
    checkAllContenders(TestCorpus.padded(tmp.resolve("padded"), 2500));
  }

  @Test
  void everyContenderResolvesUuidIds() throws Exception {
    checkAllContenders(TestCorpus.uuids(tmp.resolve("uuid"), 2500));
  }

  private void checkAllContenders(TestCorpus corpus) throws Exception {
    String[] contenders = PkContenders.available();
    Table built = PkIndexer.build(corpus.docs.toString(), tmp.resolve("idx").toString(),
        contenders, 500, true, Progress.NONE);
    List<String> lines = Files.readAllLines(corpus.keys);
    // Each format again with seekCeil: the same answers, hits and misses, from the same index.
    List<String> lookups = new ArrayList<>(List.of(contenders));
    for (String contender : contenders) {
      if (!PkContenders.GLOBAL_MAP.equals(contender)) {
        lookups.add(contender + PkContenders.SEEK_CEIL);
      }
    }
    for (String contender : lookups) {
      for (String layout : List.of("multi", "merged")) {
        String path = tmp.resolve("idx").resolve(PkContenders.indexOf(contender))
            .resolve(layout).toString();
        int[] got = PkLookupBench.resolveAll(contender, path, corpus.keys.toString());
        for (int k = 0; k < lines.size(); k++) {
          String[] kv = lines.get(k).split("\t", -1);
          assertEquals(Integer.parseInt(kv[1]), got[k],
              contender + "/" + layout + " key '" + kv[0] + "'");
        }
      }
    }
    // The id field really uses the contender's format.
    for (int r = 0; r < built.rowCount(); r++) {
      String contender = built.strings("contender")[r];
      String expected = switch (contender) {
        case "default" -> PkContenders.defaultPostingsFormat().getName();
        case "baseline" -> "none";
        default -> contender;
      };
      assertEquals(expected, built.strings("postings_format")[r], contender);
    }
  }

  @Test
  void unknownContenderIsNamed() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> PkContenders.check("NoSuchFormat"));
    assertTrue(e.getMessage().contains("'NoSuchFormat'"), e.getMessage());
    assertTrue(e.getMessage().contains("GlobalPkMap"), e.getMessage());
    PkContenders.check("default" + PkContenders.SEEK_CEIL);
    assertThrows(IllegalArgumentException.class,
        () -> PkContenders.check("GlobalPkMap" + PkContenders.SEEK_CEIL));
    assertThrows(IllegalArgumentException.class,
        () -> PkContenders.check("NoSuchFormat" + PkContenders.SEEK_CEIL));
    IllegalArgumentException e2 = assertThrows(IllegalArgumentException.class,
        () -> PkIndexer.build("unused.tsv", tmp.toString(), new String[] {"Pulsing99"}, 100, true,
            Progress.NONE));
    assertTrue(e2.getMessage().contains("'Pulsing99'"), e2.getMessage());
  }
}
