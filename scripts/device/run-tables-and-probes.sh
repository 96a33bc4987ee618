#!/bin/bash
# Device check (issue #16), one call (2026-11-27, session g): on a lent NVIDIA GPU
#  1. at once: the weft-opencl classes the contacts-kernel change touches and those no GPU finished (JUnit XML per
#     group, each capped at TT s); the relaxed-build probe (RelaxedBuildProbe: which of the relaxed options makes
#     NVIDIA's compiler stall, each build in its own JVM under a 40 s timeout); the EGL contexts probe
#     (EglContextsProbe: which way of making a second context works, and which ending exits cleanly);
#  2. quiet, one after another: `weft bench --table gpu`, `--table seed004` (OpenCL and GLSL columns) and
#     `--table seed000` (its OpenCL column): every table on one card in one run.
# Pack first: scripts/device/make-bundle.sh, and the probes: javac -d .devbundle/probe -cp weft-app/target/weft.jar
# scripts/device/RelaxedBuildProbe.java scripts/device/EglContextsProbe.java
set -u
. scripts/device/env.sh
{ nvidia-smi -L; nproc; } > $R/info.txt 2>&1
$J -jar $B/weft.jar devices >> $R/info.txt 2>&1; at setup
P=".devbundle/probe:$B/weft.jar"
VT=OpenClVertexTriangleContactsTest
TT=${TT:-140}
# gr NAME JVM-PROPERTY CLASS|CLASS#METHOD...: env.sh's g with one JVM property (its value may hold spaces)
gr() { n=$1; prop=$2; shift 2; a=""; for c in "$@"; do case $c in *#*) a="$a --select-method dev.weft.opencl.$c";; *) a="$a --select-class dev.weft.opencl.$c";; esac; done
  timeout ${TT:-150} $J "$prop" -Xmx12g $L -cp $B/ocl-tests:$LIB $a --reports-dir $R/$n > $R/$n.txt 2>&1; at "$n rc $?"; }
IC=OpenClImplicitContactsTest; AT=OpenClAirTest
g g1 OpenClInteractTest &
g g2 OpenClContactsTest OpenClGripTest &
g g3 OpenClEditTest OpenClDragHandleTest $IC#aClothDroppedOnAClothOnTheFloorHasTheCpusBitsAndStaysAbove $IC#aClothDroppedOnAPinnedClothHasTheCpusBitsAndStaysAbove $IC#frictionlessAndVertexTriangleContactsAgreeToo $IC#asManyParticlesAreHeldThroughTheFilterAsOnTheCpu $IC#contactSettingsChangedAndContactsOffAndOnKeepTheCpusBits &
g g4 "$VT#aFineClothDroppedOnACoarseOneAgreesWithTheCpuAndStaysAboveIt(java.lang.String)" $VT#theDeviceHoldsTheCpusParticlesOffTheFacesAndWithoutThemTheClothFallsThrough $VT#aPebbleOnALargeTriangleGrowsTheGridAndAgreesWithTheCpu $VT#aStripFoldingOntoItselfWithFacesAgreesWithTheCpu $VT#aBlownUpTriangleEndsInTheDivergenceErrorNotInAnEndlessGridKernel $AT#xpbdColoredJacobiAndPbdInWindAndStillAirHaveTheCpusBits $AT#pdInWindAndStillAirHasTheCpusBits $AT#relaxationInWindAndStillAirHasTheCpusBits $AT#massSpringWithAndWithoutTethersInWindAndStillAirHasTheCpusBits $AT#implicitInWindAndStillAirHasTheCpusBits $AT#aWindThatChangesEveryStepIsFollowedStepByStep $AT#onTheDeviceTheFlagBlowsDownwindAndStillAirOnlySlowsIt &
# relaxed builds: solver sources (after the shared ones) and the air alone, option by option
probe() { k=$1; shift; ( timeout 40 $J -cp $P dev.weft.opencl.RelaxedBuildProbe "$@" > $R/probe-$k.txt 2>&1; echo "rc $?" >> $R/probe-$k.txt ) & }
i=0
for src in contacts.cl vertex_triangle.cl "implicit.cl+implicit_linear.cl"; do
  for o in "-cl-fp32-correctly-rounded-divide-sqrt" "" "-D WEFT_RELAXED" "-cl-mad-enable" "-D WEFT_RELAXED -cl-mad-enable"; do
    i=$((i+1)); probe $i solver "$src" $o
  done
done
for o in "-cl-single-precision-constant -D AIR_FLOAT_FORCES" "-D WEFT_RELAXED -cl-single-precision-constant -D AIR_FLOAT_FORCES" "-cl-mad-enable -cl-single-precision-constant -D AIR_FLOAT_FORCES"; do
  i=$((i+1)); probe $i plain "cpu_rounding.cl+air.cl" $o
done
for v in "weft x none" "egl seq none" "egl seq clean" "libopengl seq none" "egl both none" "egl share clean" "egl thread clean" "egl pbuffer none"; do
  echo "== $v" >> $R/egl.txt; timeout 30 $J -Dweft.egl.reuse=false -cp $P dev.weft.probe.EglContextsProbe $v >> $R/egl.txt 2>&1; echo "rc $?" >> $R/egl.txt
done; at egl
wait; at "phase 1"; tar czf $OUT/r.tgz -C $R .   # one file: the device tool returns only a few files from $OUT
# 2: the tables, quiet
timeout ${GT:-200} $J -Xmx32g -jar $B/weft.jar bench --table gpu --particles 65536,262144,1048576 --threads 2,16 --samples 5 --quiet --out $R > $R/gpu.txt 2>&1; at "gpu rc $?"
timeout ${ST:-110} $J -Xmx32g -jar $B/weft.jar bench --table seed004 --particles 16384,65536,262144,1048576 --threads 2,16 --samples 5 --quiet --out $R > $R/seed004.txt 2>&1; at "seed004 rc $?"
timeout ${S0:-100} $J -Xmx16g -jar $B/weft.jar bench --table seed000 --threads 2,16 --samples 5 --warmup 3 --quiet --out $R > $R/seed000.txt 2>&1; at "seed000 rc $?"
tar czf $OUT/r.tgz -C $R .
