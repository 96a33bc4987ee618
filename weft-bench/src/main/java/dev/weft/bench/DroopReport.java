package dev.weft.bench;

import java.util.List;

/** The droop sweep's rows (Jolt's first, then Weft's, each bending model in stiffness order) and the matches. */
public record DroopReport(List<DroopRow> rows, List<DroopMatch> matches) {
}
