#!/usr/bin/env bash
# Prepare the llama.cpp server the real-server tests play against (tests/realserver/).
#
# Builds llama-cpp-python once from PyPI source into a wheel cache and installs it, with its
# server extra and the gguf package (the tests write their tiny model with it), into a venv of its
# own, apart from the project's.  Both live under ${XDG_CACHE_HOME:-$HOME/.cache}/tcgtui-ci and are
# reused when present: on a cached machine this is a no-op of about a second; on a fresh one the
# build takes about 5 minutes on 2 cores.
#
# Prints the venv's python as its last line of stdout (.ci/run exports it as TCGTUI_LLAMA_PYTHON).
set -euo pipefail

LLAMA_CPP_PYTHON_VERSION=0.3.36
# The server extra and the model writer, pinned so a cached venv and a fresh one are the same.
PINS=(
  "gguf==0.19.0"
  "numpy==2.4.6"
  "uvicorn==0.54.0"
  "fastapi==0.165.0"
  "sse-starlette==3.7.0"
  "starlette-context==0.5.1"
  "pydantic-settings==2.16.3"
)

cache="${XDG_CACHE_HOME:-$HOME/.cache}/tcgtui-ci"
wheels="$cache/wheels"
venv="$cache/llama-venv"
py="$venv/bin/python"
stamp="$venv/.tcgtui-pins"
want="llama-cpp-python==$LLAMA_CPP_PYTHON_VERSION ${PINS[*]}"
base_python="${PYTHON:-python3}"

log() { echo "llama_server_env: $*" >&2; }

if [[ -x "$py" && -f "$stamp" && "$(cat "$stamp")" == "$want" ]] \
   && "$py" -c "import llama_cpp, llama_cpp.server, gguf" 2>/dev/null; then
  log "cached: $venv"
  echo "$py"
  exit 0
fi

mkdir -p "$wheels"
shopt -s nullglob
built=("$wheels"/llama_cpp_python-"$LLAMA_CPP_PYTHON_VERSION"-*.whl)
shopt -u nullglob
if (( ${#built[@]} == 0 )); then
  log "building llama-cpp-python $LLAMA_CPP_PYTHON_VERSION from source (minutes)"
  start=$SECONDS
  # Portable build (no -march=native: the cache may move between machines), no libcurl.
  CMAKE_ARGS="-DGGML_NATIVE=OFF -DLLAMA_CURL=OFF -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF" \
  CMAKE_BUILD_PARALLEL_LEVEL="$(nproc)" \
    nice "$base_python" -m pip wheel --no-deps --no-binary llama-cpp-python \
      "llama-cpp-python==$LLAMA_CPP_PYTHON_VERSION" -w "$wheels.tmp.$$" >&2
  mv "$wheels.tmp.$$"/llama_cpp_python-*.whl "$wheels"/
  rm -rf "$wheels.tmp.$$"
  built=("$wheels"/llama_cpp_python-"$LLAMA_CPP_PYTHON_VERSION"-*.whl)
  log "built in $((SECONDS - start)) s: ${built[0]}"
fi

log "installing into $venv"
rm -rf "$venv"
"$base_python" -m venv "$venv"
"$py" -m pip install --quiet --disable-pip-version-check "${built[0]}[server]" "${PINS[@]}" >&2
"$py" -c "import llama_cpp, llama_cpp.server, gguf"
echo "$want" > "$stamp"
log "ready: $venv"
echo "$py"
