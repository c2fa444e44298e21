#!/usr/bin/env bash
# The installed package's layout, as symlinks into this checkout: setup.py installs engine/, opponents/
# and locales/ as tcgtui.engine and so on, which the static checkers (lint-imports, mypy) cannot map;
# run from the printed folder they see tcgtui as a wheel would install it.  Usage: package_view.sh [DIR]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
view="${1:-$(mktemp -d)}"
mkdir -p "$view/tcgtui"
for entry in "$root"/tcgtui/*; do
  ln -sfn "$entry" "$view/tcgtui/"
done
for sub in engine opponents locales; do       # setup.py's MAPPED
  ln -sfn "$root/$sub" "$view/tcgtui/$sub"
done
echo "$view"
