package dev.weft.opencl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.weft.core.InvalidInputException;
import java.util.List;
import org.junit.jupiter.api.Test;

class OpenClDevicesTest {
    @Test
    void listsTheDevicesWithTheirMemoryAndComputeUnits() {
        OpenClAvailable.firstDevice();
        List<OpenClDevice> devices = OpenClDevices.list();
        assertThat(devices).isNotEmpty();
        for (int i = 0; i < devices.size(); i++) {
            OpenClDevice d = devices.get(i);
            assertThat(d.index()).isEqualTo(i);
            assertThat(d.deviceName()).isNotBlank();
            assertThat(d.platformName()).isNotBlank();
            assertThat(d.globalMemory()).isPositive();
            assertThat(d.computeUnits()).isPositive();
            assertThat(d.describe()).startsWith(i + ": " + d.deviceName()).contains("compute units");
        }
        assertThat(OpenClDevices.pick(0)).isEqualTo(devices.get(0));
    }

    @Test
    void openclWithoutANumberMeansTheFirstGpuElseTheFirstDevice() {
        OpenClAvailable.firstDevice();
        List<OpenClDevice> devices = OpenClDevices.list();
        OpenClDevice expected = devices.get(0);
        for (OpenClDevice d : devices) {
            if (d.type().equals("GPU") || d.type().equals("ACCELERATOR")) {
                expected = d;
                break;
            }
        }
        assertThat(OpenClDevices.pick(OpenClDevices.PREFERRED)).isEqualTo(expected);
    }

    @Test
    void aDeviceIndexBeyondTheListIsAnErrorNamingWhatThereIs() {
        OpenClDevice first = OpenClAvailable.firstDevice();
        int beyond = OpenClDevices.list().size();
        assertThatThrownBy(() -> OpenClDevices.pick(beyond))
                .isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("no device " + beyond)
                .hasMessageContaining(first.deviceName());
    }

    @Test
    void theMissingRuntimeMessageSaysWhatToInstall() {
        assertThat(new OpenClUnavailableException("no OpenCL platform").getMessage())
                .contains("pocl-opencl-icd ocl-icd-libopencl1");
    }
}
