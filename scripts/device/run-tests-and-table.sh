#!/bin/bash
# Device check for issue #16 on an NVIDIA GPU: weft-opencl's whole test suite against the CPU solvers
# (the kernels added since the H200 run included), then `weft bench --table gpu`, then the GLSL tests
# one class per JVM (NVIDIA's EGL reads zeros in a process's later contexts).
set -u
# Run from the repository root on the device machine (carry .devbundle), after scripts/device/make-bundle.sh
# here; .devbundle/gl holds glvnd's EGL/GL loader packages (apt-get download libegl1 libglvnd0 libopengl0
# libgl1 libglx0 libgles2), for the GLSL tests.
T0=$(date +%s)
B=/tmp/wb; mkdir -p $B; tar xJf .devbundle/bundle2.tar.xz -C $B || exit 3
{ nvidia-smi -L; nproc; free -g | head -2; } > $OUT/info.txt 2>&1
icd=$(find /usr/local/nvidia /usr/lib /usr/lib64 -name 'libnvidia-opencl.so.1' 2>/dev/null | head -1)
if [ -n "$icd" ]; then mkdir -p /etc/OpenCL/vendors; echo "$icd" > /etc/OpenCL/vendors/nvidia.icd; fi
export LD_LIBRARY_PATH=$(dirname "${icd:-/x}"):${LD_LIBRARY_PATH:-}:$B/ocl
export LD_PRELOAD=$B/jre/lib/libjsig.so
J="$B/jre/bin/java --sun-misc-unsafe-memory-access=allow --add-modules jdk.incubator.vector"
$J -jar $B/weft.jar devices >> $OUT/info.txt 2>&1
echo "setup $(( $(date +%s) - T0 )) s" >> $OUT/info.txt
CP=$B/ocl-tests:$B/weft.jar:$B/lib/weft-core-0.1.0-SNAPSHOT-tests.jar:$B/lib/assertj-core-3.26.3.jar:$B/lib/byte-buddy-1.14.18.jar
timeout ${TT:-230} $J -Xmx32g -jar $B/lib/junit-platform-console-standalone-1.11.4.jar execute -cp $CP --select-package dev.weft.opencl --details=flat --disable-banner --disable-ansi-colors > $OUT/ocl-tests.txt 2>&1
echo "ocl tests rc $? at $(( $(date +%s) - T0 )) s" >> $OUT/info.txt
timeout ${BT:-170} $J -Xmx64g -jar $B/weft.jar bench --table gpu --particles ${GP:-65536,262144,1048576} --threads 2,16 --samples 5 --quiet --out $OUT > $OUT/gpu-table.txt 2>&1
echo "bench rc $? at $(( $(date +%s) - T0 )) s" >> $OUT/info.txt
if [ -d /usr/local/nvidia ]; then for f in .devbundle/gl/*.deb; do dpkg -x $f /; done; ldconfig; fi
v=/usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json; if [ -f $v ]; then export __EGL_VENDOR_LIBRARY_FILENAMES=$v; fi
CPR=$B/render-tests:$B/weft.jar:$B/lib/weft-core-0.1.0-SNAPSHOT-tests.jar:$B/lib/assertj-core-3.26.3.jar:$B/lib/byte-buddy-1.14.18.jar
for c in GlslXpbdSolverTest GlslBendingTest GlslTetTest GlslMassSpringSolverTest; do
  timeout 40 $J -jar $B/lib/junit-platform-console-standalone-1.11.4.jar execute -cp $CPR --select-class dev.weft.render.compute.$c --details=flat --disable-banner --disable-ansi-colors >> $OUT/glsl-tests.txt 2>&1
  echo "$c rc $? at $(( $(date +%s) - T0 )) s" >> $OUT/info.txt
done
