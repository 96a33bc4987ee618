#!/bin/bash
# Device check (issue #16), second call after run-open-items.sh: GLSL with kept contexts (EglHeadlessContext's
# reuse, NVIDIA's default), seed 004's table with its GLSL column, and the weft-opencl tests the first call's
# groups did not reach (relaxed builds left out: NVIDIA's compiler spends minutes on some of them).
set -u
T0=$(date +%s); R=/tmp/r; B=/tmp/wb; mkdir -p $B $R
tar xJf .devbundle/bundle2.tar.xz -C $B || exit 3
at() { echo "$1 at $(( $(date +%s) - T0 )) s" >> $R/info.txt; }
icd=$(find /usr/local/nvidia /usr/lib /usr/lib64 -name 'libnvidia-opencl.so.1' 2>/dev/null | head -1)
if [ -n "$icd" ]; then mkdir -p /etc/OpenCL/vendors; echo "$icd" > /etc/OpenCL/vendors/nvidia.icd; fi
export LD_LIBRARY_PATH=$(dirname "${icd:-/x}"):${LD_LIBRARY_PATH:-}:$B/ocl
export LD_PRELOAD=$B/jre/lib/libjsig.so
for f in .devbundle/gl/*.deb; do dpkg -x $f /; done; ldconfig
v=/usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json; [ -f $v ] && export __EGL_VENDOR_LIBRARY_FILENAMES=$v
J="$B/jre/bin/java --sun-misc-unsafe-memory-access=allow --add-modules jdk.incubator.vector"
L="-jar $B/lib/junit-platform-console-standalone-1.11.4.jar execute --details=flat --disable-banner --disable-ansi-colors"
LIB=$B/weft.jar:$B/lib/weft-core-0.1.0-SNAPSHOT-tests.jar:$B/lib/assertj-core-3.26.3.jar:$B/lib/byte-buddy-1.14.18.jar
at setup
G="--select-class dev.weft.render.compute.GlslXpbdSolverTest --select-class dev.weft.render.compute.GlslBendingTest --select-class dev.weft.render.compute.GlslTetTest --select-class dev.weft.render.compute.GlslMassSpringSolverTest --select-class dev.weft.render.compute.GlslDragHandleTest --select-class dev.weft.render.compute.ComputeContextTest --select-class dev.weft.render.EglPlatformTest --select-class dev.weft.render.HeadlessRenderTest"
(cd $R && timeout 150 $J -XX:ErrorFile=$R/hs_err_glsl.log $L -cp $B/render-tests:$LIB $G --reports-dir $R/glsl > $R/glsl.txt 2>&1; at "glsl rc $?") &
g() { n=$1; shift; a=""; for c in "$@"; do case $c in *#*) a="$a --select-method dev.weft.opencl.$c";; *) a="$a --select-class dev.weft.opencl.$c";; esac; done
  timeout ${TT:-170} $J -Xmx12g $L -cp $B/ocl-tests:$LIB $a --reports-dir $R/$n > $R/$n.txt 2>&1; at "$n rc $?"; }
VT=OpenClVertexTriangleContactsTest; A=OpenClAirTest
g a1 MirroredBufferTest OpenClDevicesTest OpenClImplicitContactsTest &
g a2 "$VT#aFineClothDroppedOnACoarseOneAgreesWithTheCpuAndStaysAboveIt(java.lang.String)" "$VT#theDeviceHoldsTheCpusParticlesOffTheFacesAndWithoutThemTheClothFallsThrough" "$VT#aPebbleOnALargeTriangleGrowsTheGridAndAgreesWithTheCpu" "$VT#aStripFoldingOntoItselfWithFacesAgreesWithTheCpu" "$VT#aBlownUpTriangleEndsInTheDivergenceErrorNotInAnEndlessGridKernel" &
g a3 "$A#xpbdColoredJacobiAndPbdInWindAndStillAirHaveTheCpusBits" "$A#pdInWindAndStillAirHasTheCpusBits" "$A#relaxationInWindAndStillAirHasTheCpusBits" "$A#massSpringWithAndWithoutTethersInWindAndStillAirHasTheCpusBits" "$A#implicitInWindAndStillAirHasTheCpusBits" "$A#aWindThatChangesEveryStepIsFollowedStepByStep" "$A#onTheDeviceTheFlagBlowsDownwindAndStillAirOnlySlowsIt" &
g a4 OpenClCollidersTest OpenClColliderKernelTest OpenClEditTest OpenClGripTest &
g a5 OpenClMassSpringSolverTest OpenClRelaxationSolverTest &
g a6 OpenClPdIterationsTest OpenClPdSolverTest &
wait
(cd $R && timeout ${ST:-90} $J -XX:ErrorFile=$R/hs_err_seed004.log -Xmx32g -jar $B/weft.jar bench --table seed004 --particles 16384,65536,262144,1048576 --threads 16 --samples 5 --quiet --out $R > $R/seed004.txt 2>&1; at "seed004 rc $?")
tar czf $OUT/r.tgz -C $R .
