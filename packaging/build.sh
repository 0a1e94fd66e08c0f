#!/usr/bin/env bash
# Build the standalone one-folder app in dist/matchlens/, report its size, and pack the desktop
# tarball dist/matchlens-VERSION-linux-ARCH.tar.gz (the folder, the .desktop file, the icons and
# install-desktop.sh). Run from anywhere; test the result with packaging/smoke.sh.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
# MATCHLENS_BUILD_VENV: build with a venv that already holds the project and PyInstaller
# (nothing is installed into it); by default the project's .venv, installed into here.
venv="${MATCHLENS_BUILD_VENV:-.venv}"
if [ -z "${MATCHLENS_BUILD_VENV:-}" ]; then
  [ -x .venv/bin/python ] || python3 -m venv .venv
  .venv/bin/pip install -q -e . pyinstaller 2>&1 | grep -v "is ignored" || true
fi

start=$(date +%s)
# The kernels, compiled ahead of time for the spec (the frozen app carries no LLVM).
rm -rf build/aot && mkdir -p build
command -v cc >/dev/null 2>&1 || command -v gcc >/dev/null 2>&1 \
  || { echo "== no C compiler (cc/gcc): numba.pycc needs one to compile the kernels"; exit 1; }
"$venv/bin/python" packaging/frozen/aot_kernels.py build/aot > build/aot.log 2>&1 \
  || { tail -40 build/aot.log; echo "== compiling the kernels failed (build/aot.log)"; exit 1; }
grep "^== " build/aot.log || true
aot=$(( $(date +%s) - start ))
"$venv/bin/pyinstaller" --noconfirm --clean --log-level WARN --distpath dist --workpath build \
    packaging/matchlens.spec
cat > dist/matchlens/run-matchlens <<'LAUNCH'
#!/usr/bin/env bash
# Starts the app from this folder; the app finds its samples and icons in _internal/resources.
here="$(cd "$(dirname "$(readlink -f "$0")")" && pwd)"
exec "$here/matchlens" "$@"
LAUNCH
chmod +x dist/matchlens/run-matchlens

# Strip the symbol tables the wheels left in (libpython, pyarrow's Arrow libraries,
# cryptography…: ~50 MB). Not PyInstaller's strip=True: it also strips the libraries auditwheel
# vendored and patched (numpy.libs/…, their names carry a hash), which breaks them ("ELF load
# command address/offset not page-aligned"); those are left as they are.
if command -v strip >/dev/null 2>&1; then
  find dist/matchlens/_internal -type f \( -name '*.so' -o -name '*.so.*' \) ! -path '*.libs/*' \
      ! -regex '.*-[0-9a-f]\{8\}\.so.*' -print0 | xargs -0 -r strip --strip-unneeded
else
  echo "== strip not found (binutils): the libraries keep their symbol tables"
fi
built=$(( $(date +%s) - start ))

# The size report (MiB, as du counts them); packaging/smoke.sh and tests/test_packaging.py fail
# above the limit in packaging/SIZE_LIMIT_MIB (README: "Standalone app" says why it is not 350).
limit=$(cat packaging/SIZE_LIMIT_MIB)
total=$(du -sm dist/matchlens | cut -f1)
echo "== size of dist/matchlens: ${total} MiB unpacked (limit ${limit} MiB; built in ${built} s, ${aot} s of it compiling the kernels)"
du -sm dist/matchlens/_internal/* | sort -rn | sed -n "1,12p" | sed 's|dist/matchlens/_internal/|   |'
[ "$total" -le "$limit" ] || echo "== OVER THE LIMIT: ${total} MiB > ${limit} MiB"

# The desktop tarball.
version=$("$venv/bin/python" -c "import matchlens; print(matchlens.__version__)")
name="matchlens-${version}-linux-$(uname -m)"
stage="build/tarball/${name}"
rm -rf build/tarball && mkdir -p "${stage}/icons"
cp -a dist/matchlens "${stage}/matchlens"
cp resources/matchlens.desktop "${stage}/"
cp resources/icons/matchlens.svg resources/icons/matchlens-256.png "${stage}/icons/"
cp packaging/install-desktop.sh "${stage}/"
tar -C build/tarball -czf "dist/${name}.tar.gz" "${name}"
rm -rf build/tarball
echo "== dist/${name}.tar.gz: $(du -m "dist/${name}.tar.gz" | cut -f1) MiB;" \
     "unpack it and run ${name}/install-desktop.sh"
echo "Built dist/matchlens/ — start it with dist/matchlens/matchlens"
