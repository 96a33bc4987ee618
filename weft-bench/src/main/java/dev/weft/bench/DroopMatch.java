package dev.weft.bench;

import java.util.List;

/**
 * Which stiffness of one engine's sweep gives a droop measured on another: the sweep's (stiffness, drop)
 * points interpolated linearly in log stiffness against log drop between the two neighbours that bracket
 * the drop (a cantilever's drop goes as a power of its stiffness where it is small, so the log-log curve is
 * nearly straight there).
 *
 * @param question  what is matched, in words
 * @param drop      the drop to match, m
 * @param value     the matched setting: a stiffness or a compliance (1/stiffness), NaN where the drop lies outside
 *                  the sweep
 * @param unit      its unit
 */
public record DroopMatch(String question, double drop, double value, String unit) {

    /** The stiffness at which {@code sweep} (rows of one engine and bending, stiffness > 0) drops {@code drop}. */
    public static double stiffnessFor(List<DroopRow> sweep, double drop) {
        List<DroopRow> rows = sweep.stream().filter(r -> r.stiffness() > 0)
                .sorted(java.util.Comparator.comparingDouble(DroopRow::stiffness)).toList();
        for (int i = 0; i + 1 < rows.size(); i++) {
            double d0 = rows.get(i).result().tipDrop();
            double d1 = rows.get(i + 1).result().tipDrop();
            if (drop <= Math.max(d0, d1) && drop >= Math.min(d0, d1) && d0 > 0 && d1 > 0 && drop > 0) {
                double s0 = Math.log(rows.get(i).stiffness());
                double s1 = Math.log(rows.get(i + 1).stiffness());
                double l0 = Math.log(d0);
                double l1 = Math.log(d1);
                double t = l1 == l0 ? 0.5 : (Math.log(drop) - l0) / (l1 - l0);
                return Math.exp(s0 + t * (s1 - s0));
            }
        }
        return Double.NaN;
    }
}
