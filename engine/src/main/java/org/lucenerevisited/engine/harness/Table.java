package org.lucenerevisited.engine.harness;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * An immutable columnar result. Each column is one primitive or String array, so Python copies a
 * whole column across the JVM boundary with a single call instead of one call per cell.
 */
public final class Table {

  private final String[] names;
  private final Map<String, Object> columns;
  private final int rows;

  private Table(String[] names, Map<String, Object> columns, int rows) {
    this.names = names;
    this.columns = columns;
    this.rows = rows;
  }

  public static Builder builder() {
    return new Builder();
  }

  public String[] columnNames() {
    return names.clone();
  }

  /** "long", "double" or "string". */
  public String columnType(String name) {
    Object col = column(name);
    if (col instanceof long[]) {
      return "long";
    }
    return col instanceof double[] ? "double" : "string";
  }

  public long[] longs(String name) {
    return (long[]) typed(name, "long");
  }

  public double[] doubles(String name) {
    return (double[]) typed(name, "double");
  }

  public String[] strings(String name) {
    return (String[]) typed(name, "string");
  }

  public int rowCount() {
    return rows;
  }

  /** The cell at {@code row} of column {@code name}, boxed; for tests and debugging. */
  public Object get(String name, int row) {
    Object col = column(name);
    if (col instanceof long[] l) {
      return l[row];
    }
    if (col instanceof double[] d) {
      return d[row];
    }
    return ((String[]) col)[row];
  }

  private Object typed(String name, String type) {
    if (!columnType(name).equals(type)) {
      throw new IllegalArgumentException(
          "column '" + name + "' is " + columnType(name) + ", not " + type);
    }
    Object col = column(name);
    if (col instanceof long[] l) {
      return l.clone();
    }
    if (col instanceof double[] d) {
      return d.clone();
    }
    return ((String[]) col).clone();
  }

  private Object column(String name) {
    Object col = columns.get(name);
    if (col == null) {
      throw new IllegalArgumentException(
          "no column '" + name + "'; columns: " + Arrays.toString(names));
    }
    return col;
  }

  /** Declare columns, then append rows with values in declaration order. */
  public static final class Builder {
    private final List<String> names = new ArrayList<>();
    private final List<String> types = new ArrayList<>();
    private final List<Object[]> rows = new ArrayList<>();

    public Builder longColumn(String name) {
      return declare(name, "long");
    }

    public Builder doubleColumn(String name) {
      return declare(name, "double");
    }

    public Builder stringColumn(String name) {
      return declare(name, "string");
    }

    private Builder declare(String name, String type) {
      if (names.contains(name)) {
        throw new IllegalArgumentException("duplicate column '" + name + "'");
      }
      if (!rows.isEmpty()) {
        throw new IllegalStateException("declare all columns before adding rows");
      }
      names.add(name);
      types.add(type);
      return this;
    }

    /** Appends one row; ints are accepted for long columns and any Number for double ones. */
    public Builder addRow(Object... values) {
      if (values.length != names.size()) {
        throw new IllegalArgumentException(
            "row has " + values.length + " values, table has " + names.size() + " columns");
      }
      Object[] row = new Object[values.length];
      for (int i = 0; i < values.length; i++) {
        Object v = values[i];
        row[i] = switch (types.get(i)) {
          case "long" -> {
            if (!(v instanceof Long || v instanceof Integer)) {
              throw new IllegalArgumentException("column '" + names.get(i) + "' needs an integer, got " + v);
            }
            yield ((Number) v).longValue();
          }
          case "double" -> ((Number) v).doubleValue();
          default -> String.valueOf(v);
        };
      }
      rows.add(row);
      return this;
    }

    public Table build() {
      int n = rows.size();
      Map<String, Object> cols = new LinkedHashMap<>();
      for (int c = 0; c < names.size(); c++) {
        Object col = switch (types.get(c)) {
          case "long" -> new long[n];
          case "double" -> new double[n];
          default -> new String[n];
        };
        for (int r = 0; r < n; r++) {
          Object v = rows.get(r)[c];
          if (col instanceof long[] l) {
            l[r] = (Long) v;
          } else if (col instanceof double[] d) {
            d[r] = (Double) v;
          } else {
            ((String[]) col)[r] = (String) v;
          }
        }
        cols.put(names.get(c), col);
      }
      return new Table(names.toArray(new String[0]), cols, n);
    }
  }
}
