#!/bin/bash
# Second device call: the weft-opencl test classes the first call's 230 s did not reach, in four JVMs at
# once (JUnit XML reports give each test's time), and single GLSL test methods, one JVM each.
set -u
# Run from the repository root on the device machine (carry .devbundle), after scripts/device/make-bundle.sh
# here; .devbundle/gl holds glvnd's EGL/GL loader packages (apt-get download libegl1 libglvnd0 libopengl0
# libgl1 libglx0 libgles2), for the GLSL tests.
T0=$(date +%s)
B=/tmp/wb; mkdir -p $B /tmp/r; tar xJf .devbundle/bundle2.tar.xz -C $B || exit 3
icd=$(find /usr/local/nvidia /usr/lib /usr/lib64 -name 'libnvidia-opencl.so.1' 2>/dev/null | head -1)
if [ -n "$icd" ]; then mkdir -p /etc/OpenCL/vendors; echo "$icd" > /etc/OpenCL/vendors/nvidia.icd; fi
export LD_LIBRARY_PATH=$(dirname "${icd:-/x}"):${LD_LIBRARY_PATH:-}:$B/ocl
export LD_PRELOAD=$B/jre/lib/libjsig.so
J="$B/jre/bin/java --sun-misc-unsafe-memory-access=allow --add-modules jdk.incubator.vector"
L="$J -Xmx16g -jar $B/lib/junit-platform-console-standalone-1.11.4.jar execute --details=flat --disable-banner --disable-ansi-colors"
CP=$B/ocl-tests:$B/weft.jar:$B/lib/weft-core-0.1.0-SNAPSHOT-tests.jar:$B/lib/assertj-core-3.26.3.jar:$B/lib/byte-buddy-1.14.18.jar
g() { n=$1; shift; a=""; for c in "$@"; do a="$a --select-class dev.weft.opencl.$c"; done
  timeout ${TT:-250} $L -cp $CP $a --reports-dir /tmp/r/$n > /tmp/r/$n.txt 2>&1; echo "$n rc $? at $(( $(date +%s) - T0 )) s" >> /tmp/r/info.txt; }
g g1 OpenClXpbdJacobiTest OpenClXpbdSolverTest OpenClDevicesTest MirroredBufferTest &
g g2 OpenClXpbdDihedralTest OpenClXpbdIsometricTest OpenClAirTest OpenClGripTest &
g g3 OpenClImplicitSolverTest OpenClPdSolverTest OpenClPdIterationsTest OpenClColliderKernelTest &
g g4 OpenClRelaxationSolverTest OpenClMassSpringSolverTest OpenClVertexTriangleContactsTest OpenClContactsTest OpenClDragHandleTest &
for f in .devbundle/gl/*.deb; do dpkg -x $f /; done; ldconfig
v=/usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json; if [ -f $v ]; then export __EGL_VENDOR_LIBRARY_FILENAMES=$v; fi
CPR=$B/render-tests:$B/weft.jar:$B/lib/weft-core-0.1.0-SNAPSHOT-tests.jar:$B/lib/assertj-core-3.26.3.jar:$B/lib/byte-buddy-1.14.18.jar
for m in GlslBendingTest#aHangingClothWithDihedralBendingIsTheCpusBits GlslBendingTest#aHangingIsometricClothIsTheCpusBits GlslBendingTest#theHangingScenesModelWithTethersIsTheCpusBits GlslBendingTest#clothsFoldingOverASphereStayOutsideItAndAreTheCpusBits GlslTetTest#aSoftBlockLandingBesideAHangingClothKeepsTheCpusBits GlslTetTest#aBarFlyingApartTearsAsOnTheCpuAndKeepsItsBits GlslTetTest#volumeOnlyAndShapeOnlyTetrahedraKeepTheCpusBitsToo GlslXpbdSolverTest#aHangingClothAgreesWithTheCpuAfterOneAndAfterAHundredSteps GlslXpbdSolverTest#aClothDroppedOnASphereStaysOutsideItAndAgreesWithTheCpu GlslXpbdSolverTest#tethersHoldTheClothAsOnTheCpu GlslMassSpringSolverTest#aHangingClothAgreesWithTheCpuAfterOneAndAfterAHundredSteps GlslMassSpringSolverTest#aClothDroppedOnTheFloorStaysAboveItAndAgreesWithTheCpu; do
  timeout 40 $L -cp $CPR --select-method dev.weft.render.compute.$m >> /tmp/r/glsl.txt 2>&1; echo "$m rc $? at $(( $(date +%s) - T0 )) s" >> /tmp/r/info.txt
done
wait
tar czf $OUT/r.tgz -C /tmp/r .
