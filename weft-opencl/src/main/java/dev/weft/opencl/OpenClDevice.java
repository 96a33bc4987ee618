package dev.weft.opencl;

import java.util.Locale;

/**
 * One OpenCL device as {@link OpenClDevices} found it: where it is (platform and device, and its index
 * in the list, which {@code opencl:N} names), what it is, and the handles a context is made from.
 *
 * @param index          position in {@link OpenClDevices#list()}, over all platforms
 * @param platformName   the platform (driver) it belongs to, e.g. "Portable Computing Language"
 * @param deviceName     e.g. "pthread-haswell-AMD EPYC", "NVIDIA H100 80GB HBM3"
 * @param type           CPU, GPU, ACCELERATOR or DEFAULT
 * @param version        the device's OpenCL version string
 * @param globalMemory   global memory in bytes
 * @param computeUnits   compute units (cores on a CPU, multiprocessors on a GPU)
 * @param fp64           whether it has double precision (cl_khr_fp64): the force gather then sums in
 *                       double, as the CPU solver does
 * @param platformId     the cl_platform_id
 * @param deviceId       the cl_device_id
 */
public record OpenClDevice(int index, String platformName, String deviceName, String type, String version,
                           long globalMemory, int computeUnits, boolean fp64, long platformId, long deviceId) {

    /** One line: index, name, platform, type, memory and compute units. */
    public String describe() {
        return String.format(Locale.ROOT, "%d: %s [%s, %s] %s, %.1f GiB, %d compute units%s", index, deviceName,
                type, platformName, version, globalMemory / (1024.0 * 1024 * 1024), computeUnits,
                fp64 ? ", fp64" : "");
    }
}
