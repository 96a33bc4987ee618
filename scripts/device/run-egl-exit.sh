#!/bin/bash
# Device check (issue #16), 2026-11-27 session h, third call: weft-render's GLSL and renderer classes in one JUnit JVM
# with EglShutdownListener (EGL ended on the tests' thread when the launcher's session closes), for its exit status:
# 134/139 was the SIGSEGV in libEGL_nvidia.so at exit in every earlier NVIDIA run, 0 is a clean end.
set -u
. scripts/device/env.sh
pack() { tar czf $OUT/r.tgz -C $R . ; }
{ nvidia-smi -L; } > $R/info.txt 2>&1
G=""; for c in render.compute.GlslXpbdSolverTest render.compute.GlslBendingTest render.compute.GlslTetTest render.compute.GlslMassSpringSolverTest render.compute.ComputeContextTest render.EglPlatformTest render.HeadlessRenderTest; do G="$G --select-class dev.weft.$c"; done
timeout ${GT:-150} $J $L -cp $B/render-tests:$LIB $G --reports-dir $R/glsl > $R/glsl.txt 2>&1; at "glsl rc $?"
pack
