package dev.weft.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.weft.core.model.Model;
import dev.weft.core.parallel.WorkerPool;
import dev.weft.core.solver.pd.InnerSolver;
import dev.weft.core.solver.pd.PdSolver;
import dev.weft.opencl.OpenClDevice;
import dev.weft.opencl.OpenClDevices;
import dev.weft.opencl.OpenClPdSolver;
import org.junit.jupiter.api.Test;

/** The PD bench row's pieces: its settings say what they are, and both solvers time on its cloth. */
class PdDeviceRowTest {
    @Test
    void rbgsTenIterationsIsTenAlternationsOfOneRedBlackSweep() {
        assertThat(PdDeviceRow.RBGS_10.inner()).isEqualTo(InnerSolver.RED_BLACK_GAUSS_SEIDEL);
        assertThat(PdDeviceRow.RBGS_10.outerIterations()).isEqualTo(10);
        assertThat(PdDeviceRow.RBGS_10.innerIterations()).isEqualTo(1);
        assertThat(PdDeviceRow.RBGS_10.omega()).isEqualTo(1f);
        assertThat(PdDeviceRow.RBGS_10.tethers()).isFalse();
        Model cloth = PdDeviceRow.cloth(16);
        assertThat(cloth.particleCount()).isEqualTo(256);
        assertThat(cloth.distances().count()).as("4-neighbour springs").isEqualTo(2 * 16 * 15);
    }

    @Test
    void theCpuAndTheDeviceSolverBothTimeOnItsCloth() {
        Model cloth = PdDeviceRow.cloth(16);
        try (WorkerPool pool = new WorkerPool(1)) {
            double cpu = PdDeviceRow.stepsPerSecond(new PdSolver(PdDeviceRow.RBGS_10, pool), cloth, 1, 3);
            assertThat(cpu).isPositive().isFinite();
        }
        String missing = OpenClDevices.unavailableReason();
        assumeTrue(missing == null, () -> "no OpenCL here: " + missing);
        OpenClDevice device = OpenClDevices.list().get(0);
        try (OpenClPdSolver solver = new OpenClPdSolver(PdDeviceRow.RBGS_10, device)) {
            assertThat(PdDeviceRow.stepsPerSecond(solver, cloth, 1, 3)).isPositive().isFinite();
        }
    }
}
