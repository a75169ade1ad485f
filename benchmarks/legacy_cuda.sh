#!/usr/bin/env bash
# Assemble CUDA 11.8's compiler (nvcc, cudafe++, cicc, ptxas, fatbinary, nvlink, cuobjdump) with
# its headers and libcudart into one folder, for sources CUDA 12 refuses (texture references:
# `texture<T, dim, mode>`, cudaBindTexture). Nothing is installed system-wide:
#   - Debian 12's non-free `nvidia-cuda-toolkit` and `libnvvm4` (11.8.89), fetched with
#     `apt-get download` through a private source list and unpacked with `dpkg -x`;
#   - PyPI's `nvidia-cuda-runtime-cu11` and `nvidia-cuda-nvcc-cu11` (headers, libcudart.so.11.0),
#     fetched with `pip download` and unzipped.
# About 175 MB. CUDA 11.8 wants gcc <= 11: with Debian 12's gcc 12 pass -allow-unsupported-compiler
# (device-only -cubin builds do not use the host compiler's code).
#
#   benchmarks/legacy_cuda.sh [DIR]      (default /tmp/cuda-11.8)
#   CASS_LEGACY_NVCC=DIR .venv/bin/pytest tests/lift/test_texture_refs.py
#   .venv/bin/python benchmarks/lift_rodinia.py --legacy-nvcc DIR ...
set -euo pipefail
DEST=${1:-/tmp/cuda-11.8}
PY=${PYTHON:-$(dirname "$0")/../.venv/bin/python}
VERSION=11.8.89
if [ -x "$DEST/bin/nvcc" ]; then
  echo "$DEST/bin/nvcc exists: remove $DEST to rebuild it" >&2
  exit 1
fi
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
mkdir -p "$WORK/lists/partial" "$WORK/cache/archives/partial" "$WORK/debs" "$WORK/root" "$WORK/wheels"
echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian bookworm non-free" \
  >"$WORK/sources.list"
APT=(-o "Dir::Etc::sourcelist=$WORK/sources.list" -o Dir::Etc::sourceparts=/nonexistent
  -o "Dir::State::Lists=$WORK/lists" -o "Dir::Cache=$WORK/cache")
apt-get "${APT[@]}" update >/dev/null
(cd "$WORK/debs" && apt-get "${APT[@]}" download nvidia-cuda-toolkit libnvvm4 >/dev/null)
for deb in "$WORK"/debs/*.deb; do dpkg -x "$deb" "$WORK/root"; done
"$PY" -m pip download --quiet --no-deps -d "$WORK/wheels" \
  "nvidia-cuda-nvcc-cu11==$VERSION" "nvidia-cuda-runtime-cu11==$VERSION"
for wheel in "$WORK"/wheels/*.whl; do "$PY" -m zipfile -e "$wheel" "$WORK/wheels/x"; done

R=$WORK/root
W=$WORK/wheels/x/nvidia
mkdir -p "$DEST/bin" "$DEST/nvvm/bin" "$DEST/nvvm/lib64" "$DEST/nvvm/libdevice" "$DEST/include" "$DEST/lib64"
cp "$R/usr/lib/nvidia-cuda-toolkit/bin/nvcc" "$DEST/bin/"
cp -r "$R/usr/lib/nvidia-cuda-toolkit/bin/crt" "$DEST/bin/"
cp "$R/usr/lib/nvidia-cuda-toolkit/bin/cicc" "$DEST/nvvm/bin/"
for tool in cudafe++ ptxas fatbinary nvlink cuobjdump nvdisasm bin2c nvprune cu++filt; do
  cp "$R/usr/bin/$tool" "$DEST/bin/"
done
cp "$R/usr/lib/x86_64-linux-gnu/libnvvm.so.4.0.0" "$DEST/nvvm/lib64/"
ln -s libnvvm.so.4.0.0 "$DEST/nvvm/lib64/libnvvm.so.4"
ln -s libnvvm.so.4 "$DEST/nvvm/lib64/libnvvm.so"
cp "$R/usr/lib/nvidia-cuda-toolkit/libdevice/libdevice.10.bc" "$DEST/nvvm/libdevice/"
cp -r "$W/cuda_runtime/include/." "$W/cuda_nvcc/include/." "$DEST/include/"
rm -f "$DEST/include/__init__.py"
cp "$W/cuda_runtime/lib/libcudart.so.11.0" "$DEST/lib64/"
ln -s libcudart.so.11.0 "$DEST/lib64/libcudart.so"
cat >"$DEST/bin/nvcc.profile" <<'EOF'
TOP              = $(_HERE_)/..
NVVMIR_LIBRARY_DIR = $(TOP)/nvvm/libdevice
LD_LIBRARY_PATH += $(TOP)/lib64:$(TOP)/nvvm/lib64:
PATH            += $(TOP)/nvvm/bin:$(_HERE_):
INCLUDES        +=  "-I$(TOP)/include" $(_SPACE_)
LIBRARIES        =+ $(_SPACE_) "-L$(TOP)/lib64"
CUDAFE_FLAGS    +=
PTXAS_FLAGS     +=
EOF
"$DEST/bin/nvcc" --version | tail -2
