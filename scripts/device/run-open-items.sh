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
. scripts/device/env.sh
{ nvidia-smi -L; nproc; } > $R/info.txt 2>&1
$J -jar $B/weft.jar devices >> $R/info.txt 2>&1; at setup
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
