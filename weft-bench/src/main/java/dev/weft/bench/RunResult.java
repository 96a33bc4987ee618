package dev.weft.bench;

/**
 * What one run of the scene gave.
 *
 * @param msPerFrame     the median frame time after the warm-up frames, ms
 * @param meanMsPerFrame the whole run's time over its frames (warm-up included), ms
 * @param finalStrain    the largest structural strain at the last frame
 * @param peakStrain     the largest structural strain over the last second's frames
 */
public record RunResult(double msPerFrame, double meanMsPerFrame, double finalStrain, double peakStrain) {
}
