#!/bin/bash
# Device check (issue #16), 2026-11-27 session h, second call: the colliders' large functions out of line
# (colliders.cl's COLLIDER_OUT_OF_LINE) after the first call (run-compile-probe.sh) found NVIDIA's compiler spending
# 30-40 s on each kernel that inlined them.
#  A. every solver program built with the driver's cache off (CUDA_CACHE_DISABLE=1), each in its own JVM, timed, and
#     contacts.cl's relaxed build;
#  B. the weft-opencl classes that run the colliders and particle contacts on the card (JUnit XML per group): the
#     pd, relaxation and mass-spring projectiles with contacts among them, and the relaxed contacts test;
#  C. `weft bench --table gpu` at 256² and 1024² (steps/s against the last run's, the same kind of card).
# Results tarred into $OUT/r.tgz after each phase.
set -u
. scripts/device/env.sh
P=".devbundle/probe:$B/weft.jar"
pack() { tar czf $OUT/r.tgz -C $R . ; }
{ nvidia-smi -L; nproc; } > $R/info.txt 2>&1
i=0
cb() { i=$((i+1)); ( s=$(date +%s); CUDA_CACHE_DISABLE=1 timeout ${CT:-90} $J -cp $P dev.weft.opencl.ContactsBuildProbe "$@" > $R/cb-$i.txt 2>&1; echo "rc $? variant $* wall $(( $(date +%s) - s )) s" >> $R/cb-$i.txt ) & sleep 0.3; }
for p in tethers.cl+xpbd.cl contacts.cl tethers.cl+mass_spring.cl tethers.cl+pd.cl tethers.cl+relaxation.cl implicit.cl+implicit_linear.cl pd_tets.cl vertex_triangle.cl; do cb program $p; done
( CUDA_CACHE_DISABLE=1 timeout 90 $J -cp $P dev.weft.opencl.RelaxedBuildProbe solver contacts.cl -D WEFT_RELAXED -cl-mad-enable > $R/relaxed.txt 2>&1; echo "rc $?" >> $R/relaxed.txt ) &
wait; at "phase A"; pack
TT=${TT:-220}
g g1 OpenClInteractTest & sleep 0.5
g g2 OpenClContactsTest OpenClGripTest OpenClImplicitContactsTest & sleep 0.5
g g3 OpenClCollidersTest OpenClColliderKernelTest OpenClDragHandleTest & sleep 0.5
g g4 OpenClEditTest OpenClVertexTriangleContactsTest & sleep 0.5
g g5 OpenClXpbdSolverTest OpenClMassSpringSolverTest OpenClRelaxationSolverTest OpenClPdSolverTest & sleep 0.5
g g6 OpenClImplicitSolverTest OpenClAirTest &
wait; at "phase B"; pack
timeout ${GT:-150} $J -Xmx32g -jar $B/weft.jar bench --table gpu --particles 65536,1048576 --threads 16 --samples 3 --quiet --out $R > $R/gpu.txt 2>&1; at "gpu rc $?"
pack
