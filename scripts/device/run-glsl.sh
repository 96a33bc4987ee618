#!/bin/bash
# Device check: weft-render's GLSL compute and renderer tests in one JVM on NVIDIA's EGL (contexts kept for
# reuse there), its exit watched for the driver's crash; with GRIP=1 OpenClGripTest beside it.
set -u
. scripts/device/env.sh
[ -n "${GRIP:-}" ] && timeout 100 $J -Xmx12g $L -cp $B/ocl-tests:$LIB --select-class dev.weft.opencl.OpenClGripTest --reports-dir $R/grip > $R/grip.txt 2>&1 &
G=""; for c in render.compute.GlslXpbdSolverTest render.compute.GlslBendingTest render.compute.GlslTetTest render.compute.GlslMassSpringSolverTest render.compute.GlslDragHandleTest render.compute.ComputeContextTest render.EglPlatformTest render.HeadlessRenderTest render.DeviceDrawTest; do G="$G --select-class dev.weft.$c"; done
(cd $R && timeout 150 $J -XX:ErrorFile=$R/hs_err_glsl.log $L -cp $B/render-tests:$LIB $G --reports-dir $R/glsl > $R/glsl.txt 2>&1; at "glsl rc $?")
wait; at "grip rc $?"
tar czf $OUT/r.tgz -C $R .
