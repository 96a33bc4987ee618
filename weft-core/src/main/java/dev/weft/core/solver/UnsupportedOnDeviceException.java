package dev.weft.core.solver;

import dev.weft.core.InvalidInputException;

/**
 * A model, environment or setting a device solver (OpenCL, GLSL compute) refuses because it does not
 * run it yet (rather than run it wrongly). The message names the feature and what to do; {@link
 * #feature()} says which one it is.
 */
public final class UnsupportedOnDeviceException extends InvalidInputException {
    private static final long serialVersionUID = 1L;

    private final transient DeviceFeature feature;

    /** {@code source}: what is refused as a person names it (the feature, or a collider's name). */
    public UnsupportedOnDeviceException(DeviceFeature feature, String source, String problem) {
        super(source, problem);
        this.feature = feature;
    }

    public UnsupportedOnDeviceException(DeviceFeature feature, String problem) {
        this(feature, feature.label(), problem);
    }

    public DeviceFeature feature() {
        return feature;
    }
}
