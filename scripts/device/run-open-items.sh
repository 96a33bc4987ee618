#!/bin/bash
# Device check (issue #16), one call: on a lent NVIDIA GPU run what no GPU has run yet and time what changed.
#  1. weft-opencl's test classes in six JVMs at once (JUnit XML per group; each group capped at TT s), the
#     relaxed vertex-triangle build alone with two thread dumps if it runs past 45 s (kernel or host?), and
#     weft-render's GLSL classes in one JVM on the EGL device platform (several contexts in one process);
#     if that fails its self-check, once more on the surfaceless platform with the display kept initialised;
#  2. quiet: the read-back A/B (.devbundle/ab: ReadBackAB, old weft-opencl jar first on the class path)
#     where present, then `weft bench --table seed004` with its GLSL column.
# Pack first: scripts/device/make-bundle.sh; .devbundle/gl holds glvnd's EGL/GL loader packages.
set -u
T0=$(date +%s); R=/tmp/r; B=/tmp/wb; mkdir -p $B $R
tar xJf .devbundle/bundle2.tar.xz -C $B || exit 3
at() { echo "$1 at $(( $(date +%s) - T0 )) s" >> $R/info.txt; }
{ nvidia-smi -L; nproc; } > $R/info.txt 2>&1
icd=$(find /usr/local/nvidia /usr/lib /usr/lib64 -name 'libnvidia-opencl.so.1' 2>/dev/null | head -1)
if [ -n "$icd" ]; then mkdir -p /etc/OpenCL/vendors; echo "$icd" > /etc/OpenCL/vendors/nvidia.icd; fi
export LD_LIBRARY_PATH=$(dirname "${icd:-/x}"):${LD_LIBRARY_PATH:-}:$B/ocl
export LD_PRELOAD=$B/jre/lib/libjsig.so
for f in .devbundle/gl/*.deb; do dpkg -x $f /; done; ldconfig
v=/usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json; [ -f $v ] && export __EGL_VENDOR_LIBRARY_FILENAMES=$v
J="$B/jre/bin/java --sun-misc-unsafe-memory-access=allow --add-modules jdk.incubator.vector"
$J -jar $B/weft.jar devices >> $R/info.txt 2>&1; at setup
L="-jar $B/lib/junit-platform-console-standalone-1.11.4.jar execute --details=flat --disable-banner --disable-ansi-colors"
LIB=$B/weft.jar:$B/lib/weft-core-0.1.0-SNAPSHOT-tests.jar:$B/lib/assertj-core-3.26.3.jar:$B/lib/byte-buddy-1.14.18.jar
g() { n=$1; shift; a=""; for c in "$@"; do case $c in *#*) a="$a --select-method dev.weft.opencl.$c";; *) a="$a --select-class dev.weft.opencl.$c";; esac; done
  timeout ${TT:-170} $J -Xmx12g $L -cp $B/ocl-tests:$LIB $a --reports-dir $R/$n > $R/$n.txt 2>&1; at "$n rc $?"; }
VT=OpenClVertexTriangleContactsTest
g g1 OpenClInteractTest OpenClPdTetTest OpenClImplicitContactsTest MirroredBufferTest &
g g2 OpenClContactsTest OpenClDragHandleTest "$VT#aFineClothDroppedOnACoarseOneAgreesWithTheCpuAndStaysAboveIt(java.lang.String)" "$VT#theDeviceHoldsTheCpusParticlesOffTheFacesAndWithoutThemTheClothFallsThrough" "$VT#aPebbleOnALargeTriangleGrowsTheGridAndAgreesWithTheCpu" "$VT#aStripFoldingOntoItselfWithFacesAgreesWithTheCpu" "$VT#aBlownUpTriangleEndsInTheDivergenceErrorNotInAnEndlessGridKernel" &
g g3 OpenClContactTimingTest OpenClEditTimingTest OpenClMeshTimingTest &
g g4 OpenClAirTest OpenClCollidersTest OpenClColliderKernelTest OpenClDevicesTest OpenClEditTest OpenClGripTest &
g g5 OpenClImplicitSolverTest OpenClMassSpringSolverTest OpenClPdIterationsTest OpenClPdSolverTest OpenClRelaxationSolverTest &
g g6 OpenClTetLandingVolumeTest OpenClXpbdDihedralTest OpenClXpbdIsometricTest OpenClXpbdJacobiTest OpenClXpbdSolverTest OpenClXpbdTetTest &
( $J $L -cp $B/ocl-tests:$LIB --select-method dev.weft.opencl.$VT#aRelaxedBuildStaysWithinTheTolerance > $R/relaxed.txt 2>&1 & p=$!
  for s in $(seq 45); do sleep 1; kill -0 $p 2>/dev/null || break; done
  if kill -0 $p 2>/dev/null; then nvidia-smi --query-gpu=utilization.gpu --format=csv >> $R/relaxed.txt; kill -QUIT $p; sleep 10; kill -QUIT $p; sleep 2; kill -9 $p; fi
  wait $p; at "relaxed rc $?" ) &
G="--select-class dev.weft.render.compute.GlslXpbdSolverTest --select-class dev.weft.render.compute.GlslBendingTest --select-class dev.weft.render.compute.GlslTetTest --select-class dev.weft.render.compute.GlslMassSpringSolverTest --select-class dev.weft.render.compute.ComputeContextTest --select-class dev.weft.render.EglPlatformTest"
timeout 150 $J $L -cp $B/render-tests:$LIB $G --reports-dir $R/glsl > $R/glsl.txt 2>&1; rc=$?; at "glsl rc $rc"
if grep -q "self-check failed" $R/glsl.txt; then
  timeout 90 $J -Dweft.egl.platform=surfaceless -Dweft.egl.keepDisplay=true $L -cp $B/render-tests:$LIB $G > $R/glsl-keep.txt 2>&1; at "glsl keep rc $?"
fi
wait
if [ -d .devbundle/ab ]; then for k in 1 2; do
  $J -cp .devbundle/ab:$B/weft.jar dev.weft.app.ReadBackAB new ${AB:-1024} 5 >> $R/ab.txt 2>&1
  $J -cp .devbundle/ab:.devbundle/ab/old-opencl.jar:$B/weft.jar dev.weft.app.ReadBackAB old ${AB:-1024} 5 >> $R/ab.txt 2>&1
done; at ab; fi
timeout ${ST:-100} $J -Xmx32g -jar $B/weft.jar bench --table seed004 --particles 16384,65536,262144,1048576 --threads 16 --samples 5 --quiet --out $R > $R/seed004.txt 2>&1; at "seed004 rc $?"
tar czf $OUT/r.tgz -C $R .
