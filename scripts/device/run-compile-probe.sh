#!/bin/bash
# Device check (issue #16), 2026-11-27 session h, first call:
#  A. what NVIDIA's compiler spends minutes on in contacts.cl: each variant of ContactsBuildProbe in its own JVM with
#     the driver's compute cache off (CUDA_CACHE_DISABLE=1), at once, each under a timeout: the shared sources alone,
#     XPBD's program (a control), contacts.cl and vertex_triangle.cl whole, contacts.cl's heavier kernels one by one,
#     and contacts.cl with the colliders' large functions kept out of line (noinline);
#  B. `weft bench --table seed004` with the EGL shutdown on the main thread (its exit status: 139/134 is the
#     libEGL_nvidia crash) and the CSV written row by row.
# Results tarred into $OUT/r.tgz after each phase. Pack first: scripts/device/make-bundle.sh and
# javac -d .devbundle/probe -cp weft-app/target/weft.jar scripts/device/ContactsBuildProbe.java
set -u
. scripts/device/env.sh
P=".devbundle/probe:$B/weft.jar"
pack() { tar czf $OUT/r.tgz -C $R . ; }
{ nvidia-smi -L; nproc; } > $R/info.txt 2>&1
i=0
cb() { i=$((i+1)); ( s=$(date +%s); CUDA_CACHE_DISABLE=1 timeout ${CT:-200} $J -cp $P dev.weft.opencl.ContactsBuildProbe "$@" > $R/cb-$i.txt 2>&1; echo "rc $? variant $* wall $(( $(date +%s) - s )) s" >> $R/cb-$i.txt ) & }
cb program none
cb program tethers.cl+xpbd.cl
cb program contacts.cl
cb program vertex_triangle.cl
for k in contact_cells contact_sort_buckets contact_search contact_hold contact_levels contact_gather contact_settle contact_finish; do cb kernel $k; done
cb noinline
cb noinline-kernel contact_hold
wait; at "phase A"; pack
timeout ${ST:-170} $J -Xmx32g -jar $B/weft.jar bench --table seed004 --particles 16384,65536,262144,1048576 --threads 2,16 --samples 5 --quiet --out $R > $R/seed004.txt 2>&1; at "seed004 rc $?"
pack
