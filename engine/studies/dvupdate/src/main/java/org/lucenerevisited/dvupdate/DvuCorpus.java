package org.lucenerevisited.dvupdate;

import java.io.BufferedReader;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Arrays;

/**
 * The study's {@code docs.tsv}: a header {@code id<TAB>title<TAB>modified<TAB>body}, then one document
 * per line, UTF-8; a row is its 0-based line number after the header, {@code modified} an ISO-8601 UTC
 * instant. An instance scans the file once and keeps each line's byte offset, id, title and base
 * lastmod; a reindex then re-reads its whole row with one positional read, as the seed re-read each
 * document from its dataset: that read is part of the update's cost. Positional reads of a {@link
 * FileChannel} are thread-safe.
 */
final class DvuCorpus implements Closeable {

  static final String HEADER = "id\ttitle\tmodified\tbody";

  /** One document of the corpus. */
  record Row(int row, String id, String title, long lastmod, String body) {}

  /** Receives one document. */
  @FunctionalInterface
  interface RowConsumer {
    void accept(Row row) throws IOException;
  }

  private final Path path;
  private final FileChannel channel;
  /** Start of each row's line, and the end of the last one. */
  private final long[] offsets;
  private final String[] ids;
  private final String[] titles;
  private final long[] lastmods;

  DvuCorpus(Path docsTsv) throws IOException {
    path = docsTsv;
    long[] starts = new long[1024];
    String[] idsRead = new String[1024];
    String[] titlesRead = new String[1024];
    long[] lastmodsRead = new long[1024];
    int rows = 0;
    try (InputStream in = Files.newInputStream(docsTsv)) {
      byte[] buffer = new byte[1 << 16];
      byte[] line = new byte[256];
      long offset = 0;
      long start = 0;
      int length = 0;
      int tabs = 0;
      boolean header = true;
      for (int n = in.read(buffer); n > 0; n = in.read(buffer)) {
        for (int i = 0; i < n; i++, offset++) {
          byte b = buffer[i];
          if (b != '\n') {
            // Only a row's id, title and modified are kept: its body, most of its bytes, is skipped
            // (a reindex reads it again), which makes the scan several times faster.
            tabs += b == '\t' ? 1 : 0;
            if (tabs >= 3 && !header) {
              continue;
            }
            if (length == line.length) {
              line = Arrays.copyOf(line, 2 * length);
            }
            line[length++] = b;
            continue;
          }
          String text = new String(line, 0, length, StandardCharsets.UTF_8);
          if (header) {
            checkHeader(docsTsv, text);
            header = false;
          } else {
            if (rows == starts.length - 1) {
              starts = Arrays.copyOf(starts, 2 * starts.length);
              idsRead = Arrays.copyOf(idsRead, 2 * idsRead.length);
              titlesRead = Arrays.copyOf(titlesRead, 2 * titlesRead.length);
              lastmodsRead = Arrays.copyOf(lastmodsRead, 2 * lastmodsRead.length);
            }
            if (tabs != 3) {
              throw new IOException(docsTsv + ": row " + rows + " has " + (tabs + 1) + " fields, not 4");
            }
            Row row = parse(docsTsv, rows, text + "\t");
            starts[rows] = start;
            idsRead[rows] = row.id();
            titlesRead[rows] = row.title();
            lastmodsRead[rows] = row.lastmod();
            rows++;
          }
          start = offset + 1;
          length = 0;
          tabs = 0;
        }
      }
      if (length > 0 || header) {
        throw new IOException(docsTsv + (header ? ": no header line" : ": the last line has no newline"));
      }
      starts[rows] = start;
    }
    offsets = Arrays.copyOf(starts, rows + 1);
    ids = Arrays.copyOf(idsRead, rows);
    titles = Arrays.copyOf(titlesRead, rows);
    lastmods = Arrays.copyOf(lastmodsRead, rows);
    channel = FileChannel.open(docsTsv, StandardOpenOption.READ);
  }

  /** Streams every document in row order, holding one line at a time (the indexer's pass). */
  static void forEach(Path docsTsv, RowConsumer consumer) throws IOException {
    try (BufferedReader in = Files.newBufferedReader(docsTsv, StandardCharsets.UTF_8)) {
      String header = in.readLine();
      checkHeader(docsTsv, header);
      int row = 0;
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        consumer.accept(parse(docsTsv, row++, line));
      }
    }
  }

  private static void checkHeader(Path docsTsv, String header) throws IOException {
    if (!HEADER.equals(header)) {
      throw new IOException(docsTsv + ": header is " + header + ", expected " + HEADER.replace("\t", "<TAB>"));
    }
  }

  private static Row parse(Path docsTsv, int row, String line) throws IOException {
    String[] f = line.split("\t", -1);
    if (f.length != 4) {
      throw new IOException(docsTsv + ": row " + row + " has " + f.length + " fields, not 4");
    }
    if (row >= DvuSchema.ROWS_PER_SECOND) {
      throw new IOException(docsTsv + ": more than " + DvuSchema.ROWS_PER_SECOND + " rows; lastmod would tie");
    }
    try {
      return new Row(row, f[0], f[1], DvuSchema.lastmod(Instant.parse(f[2]).getEpochSecond(), row), f[3]);
    } catch (DateTimeParseException e) {
      throw new IOException(docsTsv + ": row " + row + ": modified is not ISO-8601: " + f[2], e);
    }
  }

  int rows() {
    return ids.length;
  }

  String id(int row) {
    return ids[row];
  }

  String title(int row) {
    return titles[row];
  }

  /** The row's lastmod as indexed. */
  long lastmod(int row) {
    return lastmods[row];
  }

  /** The whole row, read again from the file. */
  Row read(int row) throws IOException {
    ByteBuffer bytes = ByteBuffer.allocate(Math.toIntExact(offsets[row + 1] - offsets[row] - 1));
    for (long at = offsets[row]; bytes.hasRemaining(); ) {
      int n = channel.read(bytes, at);
      if (n < 0) {
        throw new IOException(path + " ended inside row " + row);
      }
      at += n;
    }
    return parse(path, row, new String(bytes.array(), StandardCharsets.UTF_8));
  }

  @Override
  public void close() throws IOException {
    channel.close();
  }
}
