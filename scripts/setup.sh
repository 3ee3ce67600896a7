#!/usr/bin/env bash
# Installs what cpconvert needs to build and test on Debian 12 (bookworm), as root.
# It only installs missing packages; it changes nothing else on the machine.
#   cmake, gcc, make          build
#   libclang-22-dev            the parser: libclang from LLVM 22, the newest Debian 12
#                              ships (bookworm-security); it parses CUDA 13's CCCL
#   check, pkg-config          unit-test framework
#   libmpfr-dev, libgmp-dev    high-precision reference in the runtime tests
#   python3                    golden-test and benchmark helpers
# The CUDA toolkit (nvcc) is expected on PATH already; without it the tool still
# builds and converts, and the nvcc compile checks are skipped.
set -euo pipefail

packages=(cmake gcc g++ make ninja-build pkg-config libclang-22-dev check libmpfr-dev libgmp-dev python3
          libopenmpi-dev openmpi-bin)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all packages present (${packages[*]})"
  exit 0
fi

echo "setup: installing missing Debian packages: ${missing[*]}"
sudo=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "setup: not root and no sudo; install as root: apt-get install ${missing[*]}" >&2; exit 1; }
  sudo=sudo
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -q
$sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
echo "setup: done"
