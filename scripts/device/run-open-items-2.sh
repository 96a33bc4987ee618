#!/bin/bash
# Device check (issue #16), second call after run-open-items.sh: GLSL with kept contexts (EglHeadlessContext's
# reuse, NVIDIA's default), seed 004's table with its GLSL column, and the weft-opencl tests the first call's
# groups did not reach (relaxed builds left out: NVIDIA's compiler spends minutes on some of them).
set -u
. scripts/device/env.sh
at setup
G="--select-class dev.weft.render.compute.GlslXpbdSolverTest --select-class dev.weft.render.compute.GlslBendingTest --select-class dev.weft.render.compute.GlslTetTest --select-class dev.weft.render.compute.GlslMassSpringSolverTest --select-class dev.weft.render.compute.GlslDragHandleTest --select-class dev.weft.render.compute.ComputeContextTest --select-class dev.weft.render.EglPlatformTest --select-class dev.weft.render.HeadlessRenderTest"
(cd $R && timeout 150 $J -XX:ErrorFile=$R/hs_err_glsl.log $L -cp $B/render-tests:$LIB $G --reports-dir $R/glsl > $R/glsl.txt 2>&1; at "glsl rc $?") &
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
