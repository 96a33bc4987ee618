#!/bin/bash
# Sourced by the device scripts on the lent machine (repository root, .devbundle carried): unpacks the bundle
# into $B, registers NVIDIA's OpenCL ICD, preloads libjsig, unpacks glvnd's EGL/GL loaders from .devbundle/gl and
# names NVIDIA's EGL vendor file; sets T0, R (results, tarred into $OUT by the caller), J (java), L (the JUnit
# console launcher's arguments), LIB (the test class path after a module's test classes) and at (a timing line).
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
# g NAME CLASS|CLASS#METHOD...: weft-opencl test classes or methods in one JVM, capped at TT s, reports in $R/NAME
g() { n=$1; shift; a=""; for c in "$@"; do case $c in *#*) a="$a --select-method dev.weft.opencl.$c";; *) a="$a --select-class dev.weft.opencl.$c";; esac; done
  timeout ${TT:-170} $J -Xmx12g $L -cp $B/ocl-tests:$LIB $a --reports-dir $R/$n > $R/$n.txt 2>&1; at "$n rc $?"; }
