#!/bin/bash
# Packs what a lent GPU machine (no JDK, no Maven, no network) needs to run Weft's device checks into
# .devbundle/bundle2.tar.xz (git-ignored; carry `.devbundle` in the device call): a jlinked Temurin 25 runtime,
# the shaded weft.jar, weft-opencl's and weft-render's test classes, the JUnit console launcher and the test
# jars, and an OpenCL ICD loader. Run after `mvn -B -o -q install -DskipTests`. Then, on the device machine:
# `bash scripts/device/run-tests-and-table.sh` (docs/opencl.md, "On a real GPU again").
set -eu
cd "$(dirname "$0")/../.."
J25=${J25:-/usr/lib/jvm/temurin-25-jdk-amd64}
B=$(mktemp -d)
"$J25/bin/jlink" --add-modules java.base,java.logging,java.management,jdk.unsupported,jdk.incubator.vector,java.desktop,java.xml,jdk.zipfs \
  --strip-debug --no-header-files --no-man-pages --output "$B/jre" 2>/dev/null
mkdir -p "$B/lib" "$B/ocl" "$B/ocl-tests" "$B/render-tests"
m2=~/.m2/repository
cp "$m2"/org/junit/platform/junit-platform-console-standalone/1.11.4/junit-platform-console-standalone-1.11.4.jar \
   "$m2"/org/assertj/assertj-core/3.26.3/assertj-core-3.26.3.jar "$m2"/net/bytebuddy/byte-buddy/1.14.18/byte-buddy-1.14.18.jar \
   weft-core/target/weft-core-0.1.0-SNAPSHOT-tests.jar "$B/lib/"
cp "$(ldconfig -p | awk '/libOpenCL.so.1 /{print $NF; exit}')" "$B/ocl/libOpenCL.so.1"
cp weft-app/target/weft.jar "$B/"
cp -r weft-opencl/target/test-classes/. "$B/ocl-tests/"
cp -r weft-render/target/test-classes/. "$B/render-tests/"
mkdir -p .devbundle
(cd "$B" && tar cf - jre lib ocl ocl-tests render-tests weft.jar) | xz -T2 -6 > .devbundle/bundle2.tar.xz
rm -rf "$B"
ls -la .devbundle/bundle2.tar.xz
