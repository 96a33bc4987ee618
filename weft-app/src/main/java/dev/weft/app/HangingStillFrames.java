package dev.weft.app;

import dev.weft.core.collide.Collider;
import dev.weft.core.lab.ConvergenceExperiment;
import dev.weft.core.lab.LabSolver;
import dev.weft.core.metrics.ClothMetrics;
import dev.weft.core.model.Model;
import dev.weft.core.model.State;
import dev.weft.core.parallel.WorkerPool;
import dev.weft.core.solver.pd.PdSettings;
import dev.weft.render.Camera;
import dev.weft.render.CameraFraming;
import dev.weft.render.EglHeadlessContext;
import dev.weft.render.OffscreenTarget;
import dev.weft.render.PngFiles;
import dev.weft.render.RenderStyle;
import dev.weft.render.SceneBounds;
import dev.weft.render.SceneRenderer;
import java.awt.Color;
import java.awt.Font;
import java.awt.FontMetrics;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Seed 001 figure 6.8: still frames of the hanging cloth, one row per solver (top to bottom
 * Red-Black Gauss–Seidel, Gauss–Seidel, Jacobi), each step running the iterations that its time
 * budget (seed: 2 ms) fits, one column per moment of the drop. Simulates first (no OpenGL needed),
 * then renders every snapshot offscreen with one fixed camera and composes the grid with labels.
 */
final class HangingStillFrames {
    /** The figure's rows, top to bottom, as the seed orders them. */
    static final List<String> SOLVERS = List.of("rbgs", "gs", "jacobi");
    /** Row titles as the seed names the solvers. */
    private static final Map<String, String> TITLES = Map.of("rbgs", "Red-Black GS", "gs", "Gauss-Seidel",
            "jacobi", "Jacobi");
    /**
     * Default columns as fractions of the run: with the 120 frames of the hanging experiment,
     * t = 0.1, 0.25, 0.5, 1 and 2 s: the fall, the first swing, and the cloth coming to rest.
     */
    private static final double[] DEFAULT_COLUMNS = {0.05, 0.125, 0.25, 0.5, 1.0};
    /**
     * A cloth with a particle this far (m) from the origin has blown up: the 1 m cloth hangs from
     * y = 1 m, and even a badly under-solved, rubbery one (RBGS at 3 iterations per step stretches its
     * corner springs 13-fold) stays within a few metres, while Jacobi's unstable modes (README) reach
     * 10^15 m and then NaN. It is reported, not drawn.
     */
    static final float BLOWN_UP_DISTANCE = 1000f;

    /** Composite layout in pixels: row titles on the left, column times on top. */
    static final int LABEL_WIDTH = 150;
    static final int HEADER_HEIGHT = 28;
    static final int GAP = 4;

    /** Background of the composite and of cells that show no cloth. */
    private static final Color PAPER = Color.WHITE;

    /** One solver's row: its iterations per step and, per column, positions and strain. */
    static final class Row {
        final String solver;
        final int iterationsPerStep;
        /** Per column: positions (xyz), or null once the cloth has blown up. */
        final float[][] positions;
        final double[] maxStrain;
        final double[] residual;
        /** Time in s at which the cloth blew up, or NaN. */
        double blownUpAt = Double.NaN;

        Row(String solver, int iterationsPerStep, int columns) {
            this.solver = solver;
            this.iterationsPerStep = iterationsPerStep;
            this.positions = new float[columns][];
            this.maxStrain = new double[columns];
            this.residual = new double[columns];
            java.util.Arrays.fill(maxStrain, Double.NaN);
            java.util.Arrays.fill(residual, Double.NaN);
        }
    }

    /** The files one figure wrote. */
    record Written(Path composite, List<Path> frames, Path csv, int cellWidth, int cellHeight) {
    }

    private HangingStillFrames() {
    }

    /** Default columns for a run of {@code frames} frames: increasing, distinct, at least frame 1. */
    static int[] defaultColumns(int frames) {
        int[] c = new int[DEFAULT_COLUMNS.length];
        int n = 0;
        for (double f : DEFAULT_COLUMNS) {
            int frame = (int) Math.max(1, Math.round(f * frames));
            if (n == 0 || frame > c[n - 1]) {
                c[n++] = frame;
            }
        }
        return java.util.Arrays.copyOf(c, n);
    }

    /**
     * Runs the hanging experiment for each solver with its iterations per step and keeps the
     * positions at the end of each frame in {@code columns} (sorted, ≥ 1).
     */
    static List<Row> simulate(Model model, int[] columns, Map<String, Integer> iterations, PdSettings base,
                              WorkerPool pool) {
        ConvergenceExperiment exp = ConvergenceExperiment.HANGING;
        List<Row> rows = new ArrayList<>();
        int lastFrame = columns[columns.length - 1];
        for (String name : SOLVERS) {
            Row row = new Row(name, iterations.get(name), columns.length);
            LabSolver lab = LabSolver.create(name, exp, base, pool);
            State s = exp.initialState(model);
            int col = 0;
            for (int frame = 1; frame <= lastFrame && col < columns.length; frame++) {
                for (int st = 0; st < ConvergenceExperiment.STEPS_PER_FRAME; st++) {
                    lab.step(model, s, row.iterationsPerStep);
                }
                float[] x = s.positions();
                if (blownUp(x)) {
                    row.blownUpAt = frame / 60.0;
                    break;
                }
                if (frame == columns[col]) {
                    row.positions[col] = x.clone();
                    row.maxStrain[col] = ClothMetrics.maxStrain(model, x);
                    row.residual[col] = ClothMetrics.residual(model, x);
                    col++;
                }
            }
            rows.add(row);
        }
        return rows;
    }

    private static boolean blownUp(float[] x) {
        for (float v : x) {
            if (!(Math.abs(v) <= BLOWN_UP_DISTANCE)) { // also true for NaN
                return true;
            }
        }
        return false;
    }

    /**
     * Renders every snapshot at {@code cellWidth × cellHeight} into {@code dir/fig6_8_frames/}, the grid
     * into {@code dir/fig6_8_still_frames.png} and the strains into {@code dir/fig6_8_still_frames.csv}.
     * Throws {@link dev.weft.render.RenderUnavailableException} when OpenGL cannot start.
     */
    static Written write(Path dir, Model model, List<Row> rows, int[] columns, int cellWidth, int cellHeight)
            throws IOException {
        System.setProperty("java.awt.headless", "true");
        Path frameDir = dir.resolve("fig6_8_frames");
        Files.createDirectories(frameDir);
        Path csv = writeCsv(dir.resolve("fig6_8_still_frames.csv"), rows, columns);
        Camera camera = CameraFraming.automatic(bounds(model, rows), (float) cellWidth / cellHeight,
                CameraFraming.DEFAULT_FOV_DEGREES);
        BufferedImage[][] cells = new BufferedImage[rows.size()][columns.length];
        List<Path> frames = new ArrayList<>();
        try (EglHeadlessContext gl = EglHeadlessContext.create();
             OffscreenTarget target = new OffscreenTarget(cellWidth, cellHeight, 4);
             SceneRenderer renderer = new SceneRenderer(model, new Collider[0], RenderStyle.defaults())) {
            for (int r = 0; r < rows.size(); r++) {
                Row row = rows.get(r);
                for (int c = 0; c < columns.length; c++) {
                    if (row.positions[c] == null) {
                        continue;
                    }
                    renderer.draw(target, row.positions[c], camera);
                    BufferedImage img = copy(target.readImage());
                    recolor(img, r);
                    cells[r][c] = img;
                    Path file = frameDir.resolve(String.format(Locale.ROOT, "%s_frame%04d.png", row.solver,
                            columns[c]));
                    PngFiles.write(img, file);
                    frames.add(file);
                }
            }
        }
        Path composite = dir.resolve("fig6_8_still_frames.png");
        PngFiles.write(compose(rows, columns, cells, cellWidth, cellHeight), composite);
        return new Written(composite, frames, csv, cellWidth, cellHeight);
    }

    /** What the camera must hold: the cloth at rest and every snapshot that did not blow up. */
    private static SceneBounds bounds(Model model, List<Row> rows) {
        float[] x = model.restPositions();
        SceneBounds b = SceneBounds.ofBox(x[0], x[1], x[2], x[0], x[1], x[2]).union(x);
        for (Row row : rows) {
            for (float[] p : row.positions) {
                if (p != null) {
                    b = b.union(p);
                }
            }
        }
        return b;
    }

    private static BufferedImage copy(BufferedImage src) {
        BufferedImage dst = new BufferedImage(src.getWidth(), src.getHeight(), BufferedImage.TYPE_INT_RGB);
        Graphics2D g = dst.createGraphics();
        g.drawImage(src, 0, 0, null);
        g.dispose();
        return dst;
    }

    /**
     * Gives row {@code r} the colour of its curve in the seed's plots (RBGS red, GS green, Jacobi blue):
     * the renderer draws the one body red, so wherever red dominates (the cloth; the sky behind it is
     * blue-grey and nothing else is in the picture) the channels are permuted, which keeps the shading.
     */
    static void recolor(BufferedImage img, int r) {
        if (r % 3 == 0) {
            return;
        }
        for (int y = 0; y < img.getHeight(); y++) {
            for (int x = 0; x < img.getWidth(); x++) {
                int rgb = img.getRGB(x, y);
                int red = (rgb >> 16) & 0xff;
                int green = (rgb >> 8) & 0xff;
                int blue = rgb & 0xff;
                if (red > green && red > blue) {
                    int swapped = r % 3 == 1 ? (green << 16) | (red << 8) | blue : (blue << 16) | (green << 8) | red;
                    img.setRGB(x, y, swapped);
                }
            }
        }
    }

    /** Which of red, green, blue (0, 1, 2) row {@code r}'s cloth is drawn in. */
    static int clothChannel(int r) {
        return r % 3;
    }

    private static BufferedImage compose(List<Row> rows, int[] columns, BufferedImage[][] cells, int cw, int ch) {
        int width = LABEL_WIDTH + columns.length * (cw + GAP);
        int height = HEADER_HEIGHT + rows.size() * (ch + GAP);
        BufferedImage out = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = out.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
        g.setColor(PAPER);
        g.fillRect(0, 0, width, height);
        g.setColor(Color.BLACK);
        // small cells get a smaller font so that a cell's caption stays inside it
        Font font = new Font(Font.SANS_SERIF, Font.PLAIN, Math.max(7, Math.min(13, cw / 16)));
        Font bold = font.deriveFont(Font.BOLD);
        g.setFont(bold);
        FontMetrics fm = g.getFontMetrics();
        for (int c = 0; c < columns.length; c++) {
            String t = String.format(Locale.ROOT, "t = %.2f s", columns[c] / 60.0);
            int x0 = LABEL_WIDTH + c * (cw + GAP);
            g.drawString(t, x0 + (cw - fm.stringWidth(t)) / 2, HEADER_HEIGHT - 9);
        }
        for (int r = 0; r < rows.size(); r++) {
            Row row = rows.get(r);
            int y0 = HEADER_HEIGHT + r * (ch + GAP);
            g.setColor(Color.BLACK);
            g.setFont(bold);
            g.drawString(TITLES.getOrDefault(row.solver, row.solver), 8, y0 + ch / 2 - 8);
            g.setFont(font);
            g.drawString(row.iterationsPerStep + " iterations/step", 8, y0 + ch / 2 + 10);
            for (int c = 0; c < columns.length; c++) {
                int x0 = LABEL_WIDTH + c * (cw + GAP);
                if (cells[r][c] != null) {
                    g.drawImage(cells[r][c], x0, y0, null);
                    String s = String.format(Locale.ROOT, "max strain %.1f %%", 100 * row.maxStrain[c]);
                    g.setColor(Color.BLACK);
                    g.drawString(s, x0 + 6, y0 + ch - 6);
                } else {
                    g.setColor(new Color(0xdddddd));
                    g.fillRect(x0, y0, cw, ch);
                    g.setColor(Color.BLACK);
                    String s = Double.isNaN(row.blownUpAt) ? "not simulated"
                            : String.format(Locale.ROOT, "blew up at t = %.2f s", row.blownUpAt);
                    g.drawString(s, x0 + (cw - g.getFontMetrics().stringWidth(s)) / 2, y0 + ch / 2);
                }
            }
        }
        g.dispose();
        return out;
    }

    private static Path writeCsv(Path file, List<Row> rows, int[] columns) throws IOException {
        try (AtomicTextFile f = new AtomicTextFile(file)) {
            f.line("solver,iterations_per_step,frame,time_s,max_strain,residual_m2,blown_up_at_s");
            for (Row row : rows) {
                for (int c = 0; c < columns.length; c++) {
                    f.line(String.format(Locale.ROOT, "%s,%d,%d,%.4f,%s,%s,%s", row.solver, row.iterationsPerStep,
                            columns[c], columns[c] / 60.0, number(row.maxStrain[c]), number(row.residual[c]),
                            Double.isNaN(row.blownUpAt) ? "" : String.format(Locale.ROOT, "%.4f", row.blownUpAt)));
                }
            }
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
        return file;
    }

    private static String number(double v) {
        return Double.isNaN(v) ? "" : String.format(Locale.ROOT, "%.6e", v);
    }
}
