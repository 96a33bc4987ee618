#!/usr/bin/env bash
# Installs what the tests need (a JDK 17+, Maven, Mesa's headless OpenGL, PoCL's CPU OpenCL and Xvfb, from Debian's
# packages where missing) and runs every test of every module, the long physics checks tagged "slow" included
# (about 6 minutes of the run on 2 cores; WEFT_SLOW=0 leaves them out). Used by .ci/run and by hand.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
missing=()
command -v javac >/dev/null 2>&1 || missing+=(openjdk-17-jdk-headless)
command -v mvn >/dev/null 2>&1 || missing+=(maven)
# Headless OpenGL for weft-render's tests: EGL (glvnd) + Mesa's EGL and llvmpipe software rasteriser.
has_lib() {
    for f in /usr/lib/*/"$1" /usr/lib/"$1" /usr/lib64/"$1"; do [ -e "$f" ] && return 0; done
    return 1
}
has_lib libEGL.so.1 || missing+=(libegl1)
has_lib libEGL_mesa.so.0 || missing+=(libegl-mesa0)
has_lib dri/swrast_dri.so || missing+=(libgl1-mesa-dri)
# OpenCL on the CPU for weft-opencl's tests: the ICD loader and PoCL (registered in /etc/OpenCL/vendors).
has_lib libOpenCL.so.1 || missing+=(ocl-icd-libopencl1)
ls /etc/OpenCL/vendors/pocl*.icd >/dev/null 2>&1 || missing+=(pocl-opencl-icd)
# A display for weft view's window tests (ViewCommandTest): a virtual X server, drawn by Mesa's llvmpipe.
command -v Xvfb >/dev/null 2>&1 || missing+=(xvfb)
command -v xauth >/dev/null 2>&1 || missing+=(xauth)
if [ ${#missing[@]} -gt 0 ]; then
    echo "installing: ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -q
    apt-get install -y -q "${missing[@]}"
fi
# The Khronos glTF validator (npm gltf-validator) checks the .glb export (GltfExporterTest): installed into
# tools/gltf-validator when npm is here, and then required; without npm that test is skipped.
if [ ! -d tools/gltf-validator/node_modules/gltf-validator ] && command -v npm >/dev/null 2>&1; then
    (cd tools/gltf-validator && npm ci --no-audit --no-fund --loglevel=error) \
        || echo "warning: could not install the glTF validator; GltfExporterTest skips it"
fi
if [ -d tools/gltf-validator/node_modules/gltf-validator ]; then
    export WEFT_REQUIRE_GLTF_VALIDATOR=1
fi
# No display (a CI machine, a container): start a private Xvfb for the run, so the window tests run rather than skip.
if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ]; then
    display_number=99
    while [ -e "/tmp/.X${display_number}-lock" ] || [ -e "/tmp/.X11-unix/X${display_number}" ]; do
        display_number=$((display_number + 1))
    done
    Xvfb ":${display_number}" -screen 0 1280x1024x24 -nolisten tcp >/dev/null 2>&1 &
    xvfb_pid=$!
    trap 'kill "$xvfb_pid" 2>/dev/null || true' EXIT
    export DISPLAY=":${display_number}"
    for _ in $(seq 50); do
        [ -e "/tmp/.X11-unix/X${display_number}" ] && break
        sleep 0.1
    done
    [ -e "/tmp/.X11-unix/X${display_number}" ] || { echo "error: Xvfb did not start on $DISPLAY" >&2; exit 1; }
fi
if [ "${WEFT_SLOW:-1}" = 0 ]; then
    mvn -B -ntp verify "$@"
else
    mvn -B -ntp verify -Pslow "$@"
fi
