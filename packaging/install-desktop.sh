#!/usr/bin/env bash
# Install the standalone MatchLens for this user, where freedesktop.org says:
#   the app folder     $XDG_DATA_HOME/matchlens/app/            (XDG_DATA_HOME: ~/.local/share)
#   the launcher       $XDG_DATA_HOME/applications/matchlens.desktop
#   the icon           $XDG_DATA_HOME/icons/hicolor/{scalable,256x256}/apps/matchlens.{svg,png}
#   the command        ~/.local/bin/matchlens (a link; XDG_BIN_HOME if set)
# Run it from the unpacked tarball (matchlens-VERSION-linux-ARCH/install-desktop.sh) or from a
# checkout after packaging/build.sh. `install-desktop.sh --uninstall` removes all of it again.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
data="${XDG_DATA_HOME:-$HOME/.local/share}"
bin="${XDG_BIN_HOME:-$HOME/.local/bin}"
dest="$data/matchlens/app"
launcher="$data/applications/matchlens.desktop"
svg="$data/icons/hicolor/scalable/apps/matchlens.svg"
png="$data/icons/hicolor/256x256/apps/matchlens.png"

refresh() {  # menus and icon caches pick the change up at once where these tools exist
  command -v update-desktop-database >/dev/null 2>&1 \
    && update-desktop-database -q "$data/applications" 2>/dev/null || true
  command -v gtk-update-icon-cache >/dev/null 2>&1 \
    && gtk-update-icon-cache -q -t "$data/icons/hicolor" 2>/dev/null || true
}

if [ "${1:-}" = "--uninstall" ]; then
  rm -rf "$dest"
  rmdir "$data/matchlens" 2>/dev/null || true
  rm -f "$launcher" "$svg" "$png"
  if [ -L "$bin/matchlens" ] && [ "$(readlink "$bin/matchlens")" = "$dest/matchlens" ]; then
    rm -f "$bin/matchlens"
  fi
  refresh
  echo "MatchLens removed (your settings and caches stay in ~/.config/matchlens, ~/.cache/matchlens)"
  exit 0
fi

# The built folder and the desktop files: beside this script (the tarball) or in the checkout.
if [ -x "$here/matchlens/matchlens" ]; then
  app="$here/matchlens" desktop="$here/matchlens.desktop" icons="$here/icons"
elif [ -x "$here/../dist/matchlens/matchlens" ]; then
  app="$here/../dist/matchlens" desktop="$here/../resources/matchlens.desktop"
  icons="$here/../resources/icons"
else
  echo "install-desktop.sh: no built app beside it (matchlens/matchlens) nor in ../dist/;" \
       "run packaging/build.sh first" >&2
  exit 1
fi

mkdir -p "$data/matchlens" "$data/applications" "$(dirname "$svg")" "$(dirname "$png")" "$bin"
# Copy beside the old one, then swap: a failed copy leaves the installed app as it was.
rm -rf "$dest.new"
cp -a "$app" "$dest.new"
rm -rf "$dest"
mv "$dest.new" "$dest"
install -m 644 "$icons/matchlens.svg" "$svg"
install -m 644 "$icons/matchlens-256.png" "$png"
# Exec and TryExec name the installed binary by its full path (quoted: the spec's rule for a
# path with spaces); the menu then works without ~/.local/bin on PATH.
exe="$dest/matchlens"
quoted="\"$(printf '%s' "$exe" | sed 's/[\\"`$]/\\&/g')\""
sed -e "s|^Exec=matchlens |Exec=${quoted//|/\\|} |" -e "s|^TryExec=.*|TryExec=${exe//|/\\|}|" \
    "$desktop" > "$launcher.new"
chmod 644 "$launcher.new"
mv "$launcher.new" "$launcher"
ln -sfn "$exe" "$bin/matchlens"
refresh
echo "MatchLens installed: $dest"
echo "  launcher $launcher"
echo "  icon     $svg"
echo "  command  $bin/matchlens"
