#!/usr/bin/env bash
# Build a standalone one-folder app in dist/matchlens/ (run from anywhere).
# The frozen app finds its samples through MATCHLENS_RESOURCES, set by the launcher below.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
[ -x .venv/bin/python ] || python3 -m venv .venv
.venv/bin/pip install -q -e . pyinstaller
.venv/bin/pyinstaller --noconfirm --clean --distpath dist --workpath build packaging/matchlens.spec
cat > dist/matchlens/run-matchlens <<'LAUNCH'
#!/usr/bin/env bash
here="$(cd "$(dirname "$0")" && pwd)"
export MATCHLENS_RESOURCES="${MATCHLENS_RESOURCES:-$here/_internal/resources}"
exec "$here/matchlens" "$@"
LAUNCH
chmod +x dist/matchlens/run-matchlens
echo "Built dist/matchlens/ — start it with dist/matchlens/run-matchlens"
