package io.tasklane.cli.internal;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A table for people: a header row in capitals, then the rows, columns left-aligned and padded to
 * their widest cell, two spaces apart; a cell's line breaks become spaces and a cell longer than
 * {@link #MAX_CELL} characters is cut with an ellipsis. Not thread-safe; one per printed table.
 */
public final class Table {
  /** Longest cell printed whole. */
  static final int MAX_CELL = 80;

  private final String[] header;
  private final List<String[]> rows = new ArrayList<>();

  public Table(String... header) {
    this.header = header;
  }

  /** Adds a row of as many cells as the header has columns (null cells print as "-"). */
  public Table row(Object... cells) {
    if (cells.length != header.length) {
      throw new IllegalArgumentException(
          "a row of " + cells.length + " cells for " + header.length + " columns");
    }
    rows.add(Arrays.stream(cells).map(Table::cell).toArray(String[]::new));
    return this;
  }

  /** True when no row was added. */
  public boolean isEmpty() {
    return rows.isEmpty();
  }

  /** Prints the header and the rows. */
  public void print(PrintWriter out) {
    int[] width = new int[header.length];
    for (int i = 0; i < header.length; i++) {
      width[i] = header[i].length();
      for (String[] r : rows) {
        width[i] = Math.max(width[i], r[i].length());
      }
    }
    line(out, header, width);
    for (String[] r : rows) {
      line(out, r, width);
    }
    out.flush();
  }

  private static void line(PrintWriter out, String[] cells, int[] width) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < cells.length; i++) {
      b.append(cells[i]);
      if (i < cells.length - 1) {
        b.append(" ".repeat(width[i] - cells[i].length() + 2));
      }
    }
    out.println(b.toString().stripTrailing());
  }

  private static String cell(Object value) {
    if (value == null) {
      return "-";
    }
    String s = value.toString().replace('\n', ' ').replace('\r', ' ').replace('\t', ' ');
    if (s.isEmpty()) {
      return "-";
    }
    return s.length() > MAX_CELL ? s.substring(0, MAX_CELL - 1) + "…" : s;
  }
}
