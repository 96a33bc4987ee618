package dev.weft.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** A CSV file the commands write, read back for tests: a header and rows of cells ("quoted" cells may hold commas). */
final class CsvTable {
    final List<String> header;
    final List<List<String>> rows;

    private CsvTable(List<String> header, List<List<String>> rows) {
        this.header = header;
        this.rows = rows;
    }

    static CsvTable read(Path file) throws IOException {
        List<String> lines = Files.readAllLines(file);
        assertThat(lines).as(file.toString()).isNotEmpty();
        List<String> header = split(lines.get(0));
        List<List<String>> rows = new ArrayList<>();
        for (String line : lines.subList(1, lines.size())) {
            List<String> cells = split(line);
            assertThat(cells).as("%s: row '%s' has one cell per column", file, line).hasSameSizeAs(header);
            rows.add(cells);
        }
        return new CsvTable(header, rows);
    }

    /** The cell of {@code column} in {@code row}. */
    String cell(List<String> row, String column) {
        int c = header.indexOf(column);
        assertThat(c).as("column %s in %s", column, header).isNotNegative();
        return row.get(c);
    }

    /** The cell as a number. */
    double number(List<String> row, String column) {
        return Double.parseDouble(cell(row, column));
    }

    private static List<String> split(String line) {
        List<String> cells = new ArrayList<>();
        StringBuilder cell = new StringBuilder();
        boolean quoted = false;
        for (int i = 0; i < line.length(); i++) {
            char ch = line.charAt(i);
            if (ch == '"') {
                quoted = !quoted;
            } else if (ch == ',' && !quoted) {
                cells.add(cell.toString());
                cell.setLength(0);
            } else {
                cell.append(ch);
            }
        }
        cells.add(cell.toString());
        return cells;
    }
}
