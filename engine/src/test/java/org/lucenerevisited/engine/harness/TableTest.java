package org.lucenerevisited.engine.harness;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class TableTest {

  @Test
  void columnsKeepTheirTypesAndOrder() {
    Table t = Table.builder().stringColumn("name").longColumn("n").doubleColumn("x")
        .addRow("a", 1, 0.5).addRow("b", 2L, 3).build();
    assertArrayEquals(new String[] {"name", "n", "x"}, t.columnNames());
    assertEquals("string", t.columnType("name"));
    assertEquals("long", t.columnType("n"));
    assertEquals("double", t.columnType("x"));
    assertEquals(2, t.rowCount());
    assertArrayEquals(new String[] {"a", "b"}, t.strings("name"));
    assertArrayEquals(new long[] {1, 2}, t.longs("n"));
    assertArrayEquals(new double[] {0.5, 3.0}, t.doubles("x"));
  }

  @Test
  void wrongTypeOrNameOrArityIsRejected() {
    Table t = Table.builder().longColumn("n").addRow(1).build();
    assertThrows(IllegalArgumentException.class, () -> t.doubles("n"));
    assertThrows(IllegalArgumentException.class, () -> t.longs("missing"));
    assertThrows(IllegalArgumentException.class,
        () -> Table.builder().longColumn("n").addRow(1, 2));
    assertThrows(IllegalArgumentException.class,
        () -> Table.builder().longColumn("n").addRow(1.5));
  }
}
