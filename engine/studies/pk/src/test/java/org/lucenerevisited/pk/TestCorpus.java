package org.lucenerevisited.pk;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.UUID;

/** Tiny generated corpora: docs.tsv plus keys.tsv with hits and misses. */
final class TestCorpus {

  final Path docs;
  final Path keys;
  final List<String> ids;

  private TestCorpus(Path docs, Path keys, List<String> ids) {
    this.docs = docs;
    this.keys = keys;
    this.ids = ids;
  }

  /** Zero-padded sequential ids 00000000, 00000001, ... */
  static TestCorpus padded(Path dir, int n) throws IOException {
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      ids.add(String.format("%08d", i));
    }
    List<String> misses = List.of(String.format("%08d", n), String.format("%08d", n + 500),
        "1", "0000000x", String.format("%09d", 3));
    return write(dir, ids, misses);
  }

  /** Random UUID-like ids. */
  static TestCorpus uuids(Path dir, int n) throws IOException {
    Random random = new Random(1);
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      ids.add(new UUID(random.nextLong(), random.nextLong()).toString());
    }
    List<String> misses = List.of(new UUID(3, 4).toString(), "", "zzzz", "00000000");
    return write(dir, ids, misses);
  }

  private static TestCorpus write(Path dir, List<String> ids, List<String> misses)
      throws IOException {
    Files.createDirectories(dir);
    Random random = new Random(2);
    String[] words = {"lucene", "codec", "memory", "fst", "postings", "segment", "term", "id"};
    StringBuilder docs = new StringBuilder();
    for (String id : ids) {
      docs.append(id).append('\t');
      for (int w = 0; w < 5 + random.nextInt(10); w++) {
        docs.append(words[random.nextInt(words.length)]).append(' ');
      }
      docs.append('\n');
    }
    StringBuilder keys = new StringBuilder();
    for (int i = 0; i < ids.size(); i += 3) {
      keys.append(ids.get(i)).append('\t').append(i).append('\n');
      if (i % 30 == 0) {
        keys.append(misses.get((i / 30) % misses.size())).append("\t-1\n");
      }
    }
    Path docsFile = dir.resolve("docs.tsv");
    Path keysFile = dir.resolve("keys.tsv");
    Files.writeString(docsFile, docs, StandardCharsets.UTF_8);
    Files.writeString(keysFile, keys, StandardCharsets.UTF_8);
    return new TestCorpus(docsFile, keysFile, ids);
  }
}
