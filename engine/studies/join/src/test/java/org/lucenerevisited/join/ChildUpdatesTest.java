package org.lucenerevisited.join;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.store.Directory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lucenerevisited.engine.harness.Table;
import org.lucenerevisited.engine.shim.LuceneShim;

/** Both update designs leave an index that answers as the updated corpus does; block join's stays in blocks. */
class ChildUpdatesTest {

  private static final int ACL_DOMAIN = 50;
  private static final int UPDATES = 150;

  @TempDir Path dir;

  @Test
  void bothDesignsAnswerAsTheUpdatedCorpus() throws Exception {
    TestCorpus corpus = TestCorpus.build(dir, 1);
    for (String design : new String[] {ChildUpdates.BLOCK, ChildUpdates.CHILD}) {
      Path copy = copy(corpus.index, dir.resolve(design));
      try (ChildUpdates updates = new ChildUpdates(copy.toString(), dir.toString(), design,
          corpus.blocks.size(), ACL_DOMAIN, 7)) {
        for (int i = 0; i < UPDATES; i++) {
          updates.request().run(i);
        }
        Table checked = updates.verify();
        assertEquals(corpus.blocks.size(), checked.rowCount(), design);
        for (int r = 0; r < checked.rowCount(); r++) {
          long children = (long) checked.get("children", r);
          assertEquals(children + 1, checked.get("found", r), design + " row " + r);
          assertEquals(children, checked.get("acl_ok", r), design + " row " + r);
          assertEquals(1L, checked.get("adjacent", r), design + " row " + r);
        }
      }
    }
    // The same updates on the expected answers' blocks: update i moves child i % n of block i % 60 one acl on.
    for (int i = 0; i < UPDATES; i++) {
      int[] acls = corpus.blocks.get(i % corpus.blocks.size()).acls();
      acls[i % acls.length] = (acls[i % acls.length] + 1) % ACL_DOMAIN;
    }
    assertAnswers(corpus, "block", dir.resolve(ChildUpdates.BLOCK), false);
    assertAnswers(corpus, "scan", dir.resolve(ChildUpdates.CHILD), true);
  }

  @Test
  void anUnknownDesignOrTooManyBlocksIsRefused() throws Exception {
    TestCorpus corpus = TestCorpus.build(dir, 1);
    IllegalArgumentException design = assertThrows(IllegalArgumentException.class,
        () -> new ChildUpdates(corpus.index.toString(), dir.toString(), "parent", 10, ACL_DOMAIN, 1));
    assertTrue(design.getMessage().contains("'parent'"), design.getMessage());
    IllegalArgumentException many = assertThrows(IllegalArgumentException.class,
        () -> new ChildUpdates(corpus.index.toString(), dir.toString(), ChildUpdates.CHILD, 61, ACL_DOMAIN, 1));
    assertTrue(many.getMessage().contains("60 blocks"), many.getMessage());
  }

  private static void assertAnswers(TestCorpus corpus, String contender, Path index, boolean byKey)
      throws IOException {
    try (Directory d = LuceneShim.INSTANCE.openMMapDirectory(index);
        DirectoryReader reader = DirectoryReader.open(d);
        JoinContender join = Contenders.open(contender, reader)) {
      for (JoinQuery q : TestCorpus.QUERIES) {
        assertArrayEquals(corpus.expected(q, byKey), join.answer(q, 5).parents(), contender + " " + q);
      }
    }
  }

  private static Path copy(Path from, Path to) throws IOException {
    Files.createDirectories(to);
    try (Stream<Path> files = Files.list(from)) {
      for (Path f : (Iterable<Path>) files::iterator) {
        Files.copy(f, to.resolve(f.getFileName()));
      }
    }
    return to;
  }
}
