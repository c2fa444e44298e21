#!/usr/bin/env bash
# Prepare the llama.cpp server the real-server tests play against (tests/realserver/).
#
# Builds llama-cpp-python once from PyPI source into a wheel cache and installs it, with its
# server extra and the gguf package (the tests write their tiny model with it), into a venv of its
# own, apart from the project's.  Both live under ${XDG_CACHE_HOME:-$HOME/.cache}/tcgtui-ci and are
# reused when present: on a cached machine this is a no-op (0.3 s); on a fresh one the build took
# 8 minutes on 2 shared, busy cores (480 s build, 13 s install) and should take about 5 on 2 idle ones.
# Needs python3 (3.11+) with venv, a C/C++ compiler, and PyPI (cmake and ninja come from it if absent).
#
# Prints the venv's python as its last line of stdout (.ci/run exports it as TCGTUI_LLAMA_PYTHON).
set -euo pipefail

LLAMA_CPP_PYTHON_VERSION=0.3.36
# Everything the server extra and the model writer (gguf) pull in, pinned (pip freeze of a working
# venv), so a cached venv and a fresh one are the same.
PINS=(
  "annotated-doc==0.0.7"
  "annotated-types==0.8.0"
  "anyio==4.16.0"
  "certifi==2026.10.18"
  "charset-normalizer==3.5.2"
  "click==8.5.1"
  "diskcache==5.6.3"
  "fastapi==0.165.0"
  "gguf==0.19.0"
  "h11==0.16.0"
  "idna==3.20"
  "Jinja2==3.1.6"
  "MarkupSafe==3.0.4"
  "numpy==2.4.6"
  "opentelemetry-api==1.45.2"
  "pydantic==2.14.3"
  "pydantic-settings==2.16.3"
  "pydantic_core==2.50.4"
  "python-dotenv==1.2.4"
  "PyYAML==6.0.3"
  "requests==2.34.2"
  "sse-starlette==3.7.0"
  "starlette==1.10.0"
  "starlette-context==0.3.6"
  "tqdm==4.70.1"
  "typing-inspection==0.4.5"
  "typing_extensions==4.16.0"
  "urllib3==2.8.0"
  "uvicorn==0.54.0"
)

# Portable build (no -march=native: the cache may move between machines), no libcurl, no multimodal
# library (llava/mtmd: loaded only for image chat handlers), no tests, examples or tools.
export CMAKE_ARGS="-DGGML_NATIVE=OFF -DLLAMA_CURL=OFF -DLLAVA_BUILD=OFF -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF -DLLAMA_BUILD_TOOLS=OFF"
# The wheel cache is keyed by version and build flags: changing either builds again.
build_key="$LLAMA_CPP_PYTHON_VERSION-$(printf '%s' "$CMAKE_ARGS" | sha256sum | cut -c1-10)"

cache="${XDG_CACHE_HOME:-$HOME/.cache}/tcgtui-ci"
wheels="$cache/wheels/$build_key"
venv="$cache/llama-venv"
py="$venv/bin/python"
stamp="$venv/.tcgtui-pins"
want="llama-cpp-python==$build_key ${PINS[*]}"
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
  # nice: on a shared machine the build yields to others; alone on a CI machine it costs nothing.
  CMAKE_BUILD_PARALLEL_LEVEL="$(nproc)" nice "$base_python" -m pip wheel --no-deps \
    --no-binary llama-cpp-python "llama-cpp-python==$LLAMA_CPP_PYTHON_VERSION" -w "$wheels.tmp.$$" >&2
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
