#!/usr/bin/env bash
# Smoke-test the built standalone app (dist/matchlens/, from packaging/build.sh) against the
# installed one (.venv): one line per check, non-zero exit on any failure. See smoke.py.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
export QT_QPA_PLATFORM="${QT_QPA_PLATFORM:-offscreen}"
exec "$root/.venv/bin/python" "$root/packaging/smoke.py" "$@"
