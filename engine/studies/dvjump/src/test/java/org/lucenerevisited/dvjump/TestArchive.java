package org.lucenerevisited.dvjump;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * A small corpus in the shape of the study's (docs.tsv with the same fields), for tests: "common" in
 * every 7th record with frequencies 1-4, "rare" in every 1,750th, a language only in records after
 * 40,000 (absent, then sparse), an extension missing in a fifth of records, heavy-tailed lengths.
 */
public final class TestArchive {

  public static final List<String> FIELDS = List.of("id", "source_file_s", "url_norm", "host", "domain",
      "public_suffix", "crawl_year", "crawl_date", "content_type_norm", "content_type_served", "content_type_ext",
      "status_code", "content_length", "content_language", "text");

  private TestArchive() {}

  /** Writes {@code docs} records to {@code docsTsv}; returns them, values in FIELDS order. */
  public static List<String[]> write(Path docsTsv, int docs, long seed) throws IOException {
    Random random = new Random(seed);
    List<String[]> rows = new ArrayList<>();
    StringBuilder tsv = new StringBuilder(String.join("\t", FIELDS)).append('\n');
    for (int doc = 0; doc < docs; doc++) {
      String host = "h" + random.nextInt(300) + ".dk";
      StringBuilder text = new StringBuilder("w" + random.nextInt(50));
      if (doc % 7 == 0) {
        text.append(" common".repeat(1 + random.nextInt(4)));
      }
      if (doc % 1750 == 3) {
        text.append(" rare".repeat(1 + random.nextInt(3)));
      }
      String[] row = {String.format("%08x", random.nextInt()), "f" + doc,
          "http://" + host + "/" + random.nextInt(docs), host, "d" + random.nextInt(50) + ".dk",
          random.nextBoolean() ? "dk" : "com", Integer.toString(2005 + doc * 14 / docs),
          Long.toString(1_100_000_000L + doc * 3L), random.nextBoolean() ? "html" : "image", "text/html",
          random.nextInt(5) == 0 ? "" : "html", random.nextInt(10) == 0 ? "404" : "200",
          Long.toString((long) Math.exp(5 + random.nextGaussian() * 3)),
          doc > 40_000 && random.nextInt(3) == 0 ? "da" : "", text.toString()};
      rows.add(row);
      tsv.append(String.join("\t", row)).append('\n');
    }
    Files.writeString(docsTsv, tsv, StandardCharsets.UTF_8);
    return rows;
  }
}
