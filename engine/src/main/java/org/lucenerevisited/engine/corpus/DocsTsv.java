package org.lucenerevisited.engine.corpus;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Streams {@code docs.tsv}: one document per line, {@code id<TAB>body}, UTF-8. The 0-based line
 * number is the row, which is also the document's position in indexing order. Never holds more
 * than one line, so corpora larger than the heap stream fine.
 */
public final class DocsTsv {

  /** Receives one document. */
  @FunctionalInterface
  public interface DocConsumer {
    void accept(long row, String id, String body) throws IOException;
  }

  private DocsTsv() {}

  /** Calls {@code consumer} for every line in file order. */
  public static void forEach(Path docsTsv, DocConsumer consumer) throws IOException {
    try (BufferedReader in = Files.newBufferedReader(docsTsv, StandardCharsets.UTF_8)) {
      long row = 0;
      String line;
      while ((line = in.readLine()) != null) {
        int tab = line.indexOf('\t');
        if (tab < 0) {
          throw new IOException(docsTsv + " line " + (row + 1) + ": no TAB between id and body");
        }
        consumer.accept(row++, line.substring(0, tab), line.substring(tab + 1));
      }
    }
  }

  /** Number of documents (lines), by a byte scan that decodes nothing. */
  public static long countRows(Path docsTsv) {
    try (InputStream in = Files.newInputStream(docsTsv)) {
      byte[] buf = new byte[1 << 16];
      long lines = 0;
      int n;
      int last = '\n';
      while ((n = in.read(buf)) > 0) {
        for (int i = 0; i < n; i++) {
          if (buf[i] == '\n') {
            lines++;
          }
        }
        last = buf[n - 1];
      }
      return last == '\n' ? lines : lines + 1;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
