package org.lucenerevisited.dvupdate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.NumericDocValues;
import org.apache.lucene.search.DocIdSetIterator;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lucenerevisited.engine.harness.Table;

/** Soft updates and the RAM buffer (Lucene 7+): answers, final values, flushes, and a timed run. */
class NewerMethodsTest {

  @TempDir static Path dir;
  static TestIndex test;

  @BeforeAll
  static void build() throws Exception {
    test = TestIndex.build(dir, 3_000, 150);
  }

  private DvuSpec ramBuffer(long budgetBytes) {
    DvuSpec spec = test.spec("ram-buffer");
    spec.ramBufferBudgetBytes = budgetBytes;
    return spec;
  }

  @Test
  void softAndRamBufferAnswerAsBruteForceAndLeaveTheValuesOfTheOthers() throws Exception {
    Table reindex = Checks.verify(test.spec("reindex"));
    Table soft = Checks.verify(test.spec("soft"));
    Table neverFlushed = Checks.verify(ramBuffer(Long.MAX_VALUE));
    // About 40 pending ids: some reopens flush, and later batches shadow the flushed values.
    Table flushed = Checks.verify(ramBuffer(40 * (RamBuffer.ENTRY_BYTES + 8)));
    Table everyReopen = Checks.verify(ramBuffer(0));
    for (Table t : new Table[] {soft, neverFlushed, flushed, everyReopen}) {
      assertEquals(Checks.finalActual(reindex, "lastmod"), Checks.finalActual(t, "lastmod"));
    }
    assertEquals(Checks.finalActual(reindex, "title_dv"), Checks.finalActual(soft, "title_dv"));
    Checks.assertIndexAsCommitted(test);
  }

  @Test
  void theRamBufferFlushesOnlyOverBudgetAndShowsPendingValues() throws Exception {
    DvuSpec spec = ramBuffer(3 * (RamBuffer.ENTRY_BYTES + 8));
    try (DvuCorpus corpus = new DvuCorpus(test.docsTsv);
        UpdateSession session = new UpdateSession(spec, corpus)) {
      Reopener reopener = session.method.reopener();
      IndexReader reader = session.open();
      session.method.update().apply(1, 5);
      session.method.update().apply(2, 6);
      session.method.update().apply(3, 5);
      Reopener.Reopened within = reopener.reopen(reader);
      assertFalse(within.flushed());
      assertEquals(2 * (RamBuffer.ENTRY_BYTES + 8), within.ramBufferBytes());
      assertEquals(DvuSchema.value(3), lastmod(within.reader(), 5));
      assertEquals(DvuSchema.value(2), lastmod(within.reader(), 6));
      assertEquals(test.docs.get(7).lastmod(7), lastmod(within.reader(), 7));
      assertNull(reopener.reopen(within.reader()).reader(), "nothing new to show");

      session.method.update().apply(4, 7);
      session.method.update().apply(5, 8);
      Reopener.Reopened over = reopener.reopen(within.reader());
      assertTrue(over.flushed());
      assertEquals(4 * (RamBuffer.ENTRY_BYTES + 8), over.ramBufferBytes());
      assertEquals(DvuSchema.value(3), lastmod(over.reader(), 5));
      assertEquals(DvuSchema.value(5), lastmod(over.reader(), 8));
      Reopener.Reopened after = reopener.reopen(over.reader());
      assertNull(after.reader());
      assertEquals(0, after.ramBufferBytes());
      // The replaced readers stay usable until released: wrappers share the base by reference.
      assertEquals(DvuSchema.value(3), lastmod(within.reader(), 5));
      reader.decRef();
      within.reader().decRef();
      assertEquals(DvuSchema.value(5), lastmod(over.reader(), 8));
      over.reader().decRef();
      assertEquals(0, over.reader().getRefCount());
    }
    Checks.assertIndexAsCommitted(test);
  }

  /** The lastmod of {@code row} (its docID: the row was not reindexed), by a forward iteration. */
  private static long lastmod(IndexReader reader, int row) throws Exception {
    for (LeafReaderContext ctx : reader.leaves()) {
      LeafReader leaf = ctx.reader();
      if (row < ctx.docBase + leaf.maxDoc()) {
        NumericDocValues values = leaf.getNumericDocValues(DvuSchema.LASTMOD);
        for (int doc = values.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = values.nextDoc()) {
          if (doc == row - ctx.docBase) {
            return values.longValue();
          }
        }
      }
    }
    throw new AssertionError("no row " + row);
  }

  @Test
  void timedRunsOfSoftAndRamBufferCountTheirUpdatesAndRollBack() throws Exception {
    Checks.run(test, test.spec("soft"));
    Table rows = Checks.run(test, ramBuffer(20 * (RamBuffer.ENTRY_BYTES + 8)));
    long flushes = 0;
    for (long f : rows.longs("flushed")) {
      flushes += f;
    }
    assertTrue(flushes > 0, "the RAM buffer never flushed");
  }
}
