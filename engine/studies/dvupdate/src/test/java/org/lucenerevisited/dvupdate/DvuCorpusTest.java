package org.lucenerevisited.dvupdate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The scan keeps each row's id, title and lastmod without its body; a reindex reads the row back whole. */
class DvuCorpusTest {

  @TempDir Path dir;

  private Path write(String rows) throws IOException {
    Path tsv = dir.resolve("docs.tsv");
    Files.writeString(tsv, DvuCorpus.HEADER + "\n" + rows, StandardCharsets.UTF_8);
    return tsv;
  }

  @Test
  void rowsComeBackWholeAfterAScanThatSkipsBodies() throws IOException {
    String body = "ünïcode body\u00a0with words ".repeat(50);
    try (DvuCorpus corpus = new DvuCorpus(write("a\tFirst\t2014-10-26T04:50:23Z\t" + body + "\n"
        + "b\tSecond title\t2015-01-01T00:00:00Z\tshort\n"))) {
      assertEquals(2, corpus.rows());
      assertEquals("b", corpus.id(1));
      assertEquals("Second title", corpus.title(1));
      long seconds = Instant.parse("2015-01-01T00:00:00Z").getEpochSecond();
      assertEquals(DvuSchema.lastmod(seconds, 1), corpus.lastmod(1));
      DvuCorpus.Row first = corpus.read(0);
      assertEquals("First", first.title());
      assertEquals(body, first.body());
      assertEquals("short", corpus.read(1).body());
    }
  }

  @Test
  void aRowWithoutItsFourFieldsIsRefusedNamingTheFileAndRow() throws IOException {
    Path tsv = write("a\tFirst\t2014-10-26T04:50:23Z\tbody\nb\tno date or body\n");
    IOException e = assertThrows(IOException.class, () -> new DvuCorpus(tsv));
    assertTrue(e.getMessage().contains(tsv.toString()) && e.getMessage().contains("row 1"), e.getMessage());
  }
}
