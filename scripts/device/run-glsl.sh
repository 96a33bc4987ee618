#!/bin/bash
# Device check: weft-render's GLSL compute and renderer tests in one JVM on NVIDIA's EGL (contexts kept for
# reuse there), its exit watched for the driver's crash; with GRIP=1 OpenClGripTest beside it.
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
[ -n "${GRIP:-}" ] && timeout 100 $J -Xmx12g $L -cp $B/ocl-tests:$LIB --select-class dev.weft.opencl.OpenClGripTest --reports-dir $R/grip > $R/grip.txt 2>&1 &
G=""; for c in render.compute.GlslXpbdSolverTest render.compute.GlslBendingTest render.compute.GlslTetTest render.compute.GlslMassSpringSolverTest render.compute.GlslDragHandleTest render.compute.ComputeContextTest render.EglPlatformTest render.HeadlessRenderTest render.DeviceDrawTest; do G="$G --select-class dev.weft.$c"; done
(cd $R && timeout 150 $J -XX:ErrorFile=$R/hs_err_glsl.log $L -cp $B/render-tests:$LIB $G --reports-dir $R/glsl > $R/glsl.txt 2>&1; at "glsl rc $?")
wait; at "grip rc $?"
tar czf $OUT/r.tgz -C $R .
