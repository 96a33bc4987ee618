#!/bin/bash
# Device check (issue #16), the second call of 2026-11-27 session g: what the first call's file limit lost or its
# crowding left unfinished. Results tarred into $OUT/r.tgz after each phase (a run cut off keeps the last tar).
#  A. at once: which relaxed option makes NVIDIA's compiler stall (contacts.cl, four option sets, 45 s each), and
#     weft-render's GLSL and renderer classes in one JVM with contexts in one share group (its exit status: 134 is
#     the libEGL_nvidia crash at exit);
#  B. OpenClInteractTest's projectile-with-contacts cases;
#  C. `weft bench --table seed004` (OpenCL and GLSL) and `--table seed000` (OpenCL column).
set -u
. scripts/device/env.sh
P=".devbundle/probe:$B/weft.jar"
pack() { tar czf $OUT/r.tgz -C $R . ; }
{ nvidia-smi -L; } > $R/info.txt 2>&1
i=0
for o in "" "-D WEFT_RELAXED" "-cl-mad-enable" "-D WEFT_RELAXED -cl-mad-enable"; do
  i=$((i+1)); ( timeout 45 $J -cp $P dev.weft.opencl.RelaxedBuildProbe solver contacts.cl $o > $R/probe-$i.txt 2>&1; echo "rc $?" >> $R/probe-$i.txt ) &
done
G=""; for c in render.compute.GlslXpbdSolverTest render.compute.GlslBendingTest render.compute.GlslTetTest render.compute.GlslMassSpringSolverTest render.compute.ComputeContextTest render.EglPlatformTest render.HeadlessRenderTest; do G="$G --select-class dev.weft.$c"; done
timeout 110 $J $L -cp $B/render-tests:$LIB $G --reports-dir $R/glsl > $R/glsl.txt 2>&1; at "glsl rc $?"
wait; at "phase A"; pack
TT=80 g interact "OpenClInteractTest#withParticleContactsACannonballThroughACurtainMovesAsOnTheCpu(java.lang.String,float)"
wait; at "phase B"; pack
timeout ${ST:-90} $J -Xmx32g -jar $B/weft.jar bench --table seed004 --particles 16384,65536,262144,1048576 --threads 2,16 --samples 5 --quiet --out $R > $R/seed004.txt 2>&1; at "seed004 rc $?"
pack
timeout ${S0:-60} $J -Xmx16g -jar $B/weft.jar bench --table seed000 --threads 2,16 --samples 5 --warmup 3 --quiet --out $R > $R/seed000.txt 2>&1; at "seed000 rc $?"
pack
