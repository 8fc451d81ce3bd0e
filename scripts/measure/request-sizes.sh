#!/usr/bin/env bash
# How big is the first model request of other coding agents for the same small task,
# next to Memo's (standard and compact profile)? Each agent runs in a tiny Cargo project
# against a fake model server on loopback (logging_llm.py beside this script) that
# records every request and answers with one final text, so each agent ends after one
# model call. The agents come from npm into $OUT/npm; each runs with its own throwaway
# HOME, nothing touches the real one. Prints a Markdown table (also in $OUT/report.md).
#
#   scripts/measure/request-sizes.sh                      # every agent, two runs each
#   AGENTS="memo memo-compact" scripts/measure/request-sizes.sh
#
# Environment (defaults in brackets):
#   OUT           work folder: npm packages, homes, logs, report [/tmp/reqsize]
#   AGENTS        claude codex gemini gemini-yolo opencode pi memo memo-compact
#   RUNS          sessions per agent; run 2 reuses run 1's home and shows what changes
#                 between sessions [2]
#   PORT          the fake model server's port [8790]
#   TOK_PORT      the tokenizer server's port [8766]
#   LLAMA_SERVER, TOKENIZER_MODEL
#                 llama.cpp server and a Qwen2.5 GGUF whose tokenizer counts the tokens
#   MEMO_CLI      [target/debug/memo-cli of this repository]
#   NPM_PACKAGES  what to install (pin versions with @x.y.z)
#   NPM_UPDATE=1  reinstall the npm packages even when present
#   RUN_TIMEOUT   seconds one agent run may take [180]
#
# Needs: node/npm (npm registry reachable on first run), python3, curl, git.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
OUT=${OUT:-/tmp/reqsize}
AGENTS=${AGENTS:-"claude codex gemini gemini-yolo opencode pi memo memo-compact"}
RUNS=${RUNS:-2}
PORT=${PORT:-8790}
TOK_PORT=${TOK_PORT:-8766}
LLAMA_SERVER=${LLAMA_SERVER:-/tmp/llm/recipe/work/build/bin/llama-server}
TOKENIZER_MODEL=${TOKENIZER_MODEL:-/tmp/llm/recipe/work/qwen2.5-coder-1.5b-instruct-q4_k_m.gguf}
MEMO_CLI=${MEMO_CLI:-$REPO/target/debug/memo-cli}
NPM_PACKAGES=${NPM_PACKAGES:-"@anthropic-ai/claude-code @openai/codex @google/gemini-cli opencode-ai @mariozechner/pi-coding-agent"}
RUN_TIMEOUT=${RUN_TIMEOUT:-180}
TASK='Read src/main.rs and tell me exactly what string the program prints.'
BASE="http://127.0.0.1:$PORT"
SERVER_PY="$HERE/logging_llm.py"
BIN="$OUT/npm/node_modules/.bin"

mkdir -p "$OUT"
SERVER_PID=""
TOK_PID=""
cleanup() {
  [ -n "$SERVER_PID" ] && kill "$SERVER_PID" 2>/dev/null && wait "$SERVER_PID" 2>/dev/null
  [ -n "$TOK_PID" ] && kill "$TOK_PID" 2>/dev/null && wait "$TOK_PID" 2>/dev/null
  return 0
}
trap cleanup EXIT
trap 'exit 130' INT TERM

say() { echo "== $*" >&2; }

port_free() {
  ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

# --- agents from npm ------------------------------------------------------------------

install_agents() {
  local missing=0 pkg
  for pkg in $NPM_PACKAGES; do
    [ -f "$OUT/npm/node_modules/${pkg%@[0-9]*}/package.json" ] || missing=1
  done
  if [ "$missing" = 1 ] || [ "${NPM_UPDATE:-0}" = 1 ]; then
    say "npm install $NPM_PACKAGES"
    mkdir -p "$OUT/npm"
    # Install scripts stay off (npm's default here): every package's binary comes as an
    # optional platform dependency and runs without them.
    # shellcheck disable=SC2086
    npm install --prefix "$OUT/npm" --no-audit --no-fund $NPM_PACKAGES >"$OUT/npm-install.log" 2>&1 \
      || { cat "$OUT/npm-install.log" >&2; exit 1; }
  fi
}

npm_version() {
  node -p "require('$OUT/npm/node_modules/$1/package.json').version" 2>/dev/null || echo "?"
}

# --- the project every agent opens ----------------------------------------------------

make_project() {
  rm -rf "$OUT/project"
  mkdir -p "$OUT/project/src"
  printf 'fn main() { println!("hello from memo"); }\n' >"$OUT/project/src/main.rs"
  printf '[package]\nname = "hello"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\n' \
    >"$OUT/project/Cargo.toml"
  git -C "$OUT/project" init -q
}

# --- one agent's configuration in its home --------------------------------------------

prepare_home() { # agent home
  local agent=$1 home=$2
  mkdir -p "$home"
  case $agent in
    codex)
      mkdir -p "$home/.codex"
      cat >"$home/.codex/config.toml" <<EOF
model_provider = "logger"

[model_providers.logger]
name = "logger"
base_url = "$BASE/v1"
env_key = "LOGGER_API_KEY"
wire_api = "responses"
EOF
      ;;
    gemini | gemini-yolo)
      mkdir -p "$home/.gemini"
      echo '{"security":{"auth":{"selectedType":"gemini-api-key"}},"privacy":{"usageStatisticsEnabled":false}}' \
        >"$home/.gemini/settings.json"
      ;;
    opencode)
      mkdir -p "$home/.config/opencode"
      cat >"$home/.config/opencode/opencode.json" <<EOF
{
  "\$schema": "https://opencode.ai/config.json",
  "model": "logger/fake-model",
  "provider": {
    "logger": {
      "npm": "@ai-sdk/openai-compatible",
      "name": "logger",
      "options": { "baseURL": "$BASE/v1", "apiKey": "dummy" },
      "models": { "fake-model": { "name": "fake-model" } }
    }
  }
}
EOF
      ;;
    pi)
      mkdir -p "$home/.pi/agent"
      cat >"$home/.pi/agent/models.json" <<EOF
{
  "providers": {
    "logger": {
      "baseUrl": "$BASE/v1",
      "api": "openai-completions",
      "apiKey": "dummy",
      "models": [ { "id": "fake-model" } ]
    }
  }
}
EOF
      ;;
    memo | memo-compact)
      # MEMO_HOME is $home/memo-home; the compact profile is chosen by a context
      # window of at most 16384 tokens.
      mkdir -p "$home/memo-home"
      cat >"$home/memo-home/config.toml" <<EOF
current_provider = "logger"

[[providers.logger]]
name = "logger"
model = "fake-model"
base_url = "$BASE/v1"

[[providers.logger-compact]]
name = "logger-compact"
model = "fake-model"
base_url = "$BASE/v1"

[model_profiles."logger-compact:fake-model"]
context_window = 16384
EOF
      ;;
  esac
}

agent_version() {
  case $1 in
    claude) npm_version @anthropic-ai/claude-code ;;
    codex) npm_version @openai/codex ;;
    gemini | gemini-yolo) npm_version @google/gemini-cli ;;
    opencode) npm_version opencode-ai ;;
    pi) npm_version @mariozechner/pi-coding-agent ;;
    memo | memo-compact) "$MEMO_CLI" --version 2>/dev/null | awk '{print $2}' ;;
  esac
}

run_agent() { # agent home
  local agent=$1 home=$2
  local -a envs=(PATH="$(dirname "$(command -v node)"):/usr/local/bin:/usr/bin:/bin"
    HOME="$home" TERM=dumb LANG=C.UTF-8 TZ="${TZ:-UTC}")
  local -a cmd
  case $agent in
    claude)
      envs+=(ANTHROPIC_BASE_URL="$BASE" ANTHROPIC_API_KEY=dummy)
      cmd=("$BIN/claude" -p "$TASK") ;;
    codex)
      envs+=(CODEX_HOME="$home/.codex" LOGGER_API_KEY=dummy)
      cmd=("$BIN/codex" exec "$TASK") ;;
    gemini)
      envs+=(GEMINI_API_KEY=dummy GOOGLE_GEMINI_BASE_URL="$BASE" GEMINI_CLI_TRUST_WORKSPACE=true)
      cmd=("$BIN/gemini" -p "$TASK") ;;
    gemini-yolo)
      envs+=(GEMINI_API_KEY=dummy GOOGLE_GEMINI_BASE_URL="$BASE" GEMINI_CLI_TRUST_WORKSPACE=true)
      cmd=("$BIN/gemini" --approval-mode yolo -p "$TASK") ;;
    opencode)
      cmd=("$BIN/opencode" run "$TASK") ;;
    pi)
      cmd=("$BIN/pi" --provider logger --model fake-model -p "$TASK") ;;
    memo)
      envs+=(MEMO_HOME="$home/memo-home")
      cmd=("$MEMO_CLI" exec "$TASK" --yes) ;;
    memo-compact)
      envs+=(MEMO_HOME="$home/memo-home")
      cmd=("$MEMO_CLI" exec --provider logger-compact "$TASK" --yes) ;;
    *) echo "unknown agent: $agent" >&2; return 2 ;;
  esac
  # timeout runs the agent in its own process group and signals all of it.
  (cd "$OUT/project" && env -i "${envs[@]}" timeout -k 10 "$RUN_TIMEOUT" "${cmd[@]}" </dev/null)
}

start_server() { # log-dir
  local log=$1
  port_free "$PORT" || { echo "port $PORT is in use" >&2; exit 1; }
  mkdir -p "$log"
  python3 "$SERVER_PY" serve --port "$PORT" --log-dir "$log" >"$log.server.log" 2>&1 &
  SERVER_PID=$!
  for _ in $(seq 50); do
    grep -q listening "$log.server.log" 2>/dev/null && return 0
    sleep 0.1
  done
  echo "the logging server did not start: $log.server.log" >&2
  exit 1
}

stop_server() {
  kill "$SERVER_PID" 2>/dev/null || true
  wait "$SERVER_PID" 2>/dev/null || true
  SERVER_PID=""
}

# --- main -----------------------------------------------------------------------------

case " $AGENTS " in
  *" memo"*) [ -x "$MEMO_CLI" ] || { echo "no memo-cli at $MEMO_CLI (cargo build -p memo-cli)" >&2; exit 1; } ;;
esac
install_agents

SPECS=()
for agent in $AGENTS; do
  home="$OUT/home-$agent"
  rm -rf "$home" "$OUT/logs/$agent"
  prepare_home "$agent" "$home"
  version=$(agent_version "$agent")
  for run in $(seq "$RUNS"); do
    make_project
    log="$OUT/logs/$agent/run$run"
    start_server "$log"
    say "$agent $version, run $run"
    status=0
    run_agent "$agent" "$home" >"$log.out" 2>&1 || status=$?
    stop_server
    [ "$status" = 0 ] || say "$agent exited with $status (see $log.out)"
  done
  SPECS+=("$agent=$OUT/logs/$agent,$version")
done

say "counting tokens"
port_free "$TOK_PORT" || { echo "port $TOK_PORT is in use" >&2; exit 1; }
"$LLAMA_SERVER" -m "$TOKENIZER_MODEL" --host 127.0.0.1 --port "$TOK_PORT" -c 4096 -t 1 \
  >"$OUT/tokenizer.log" 2>&1 &
TOK_PID=$!
for _ in $(seq 120); do
  curl -sf "http://127.0.0.1:$TOK_PORT/health" >/dev/null 2>&1 && break
  kill -0 "$TOK_PID" 2>/dev/null || { cat "$OUT/tokenizer.log" >&2; exit 1; }
  sleep 0.5
done
python3 "$SERVER_PY" report --tokenizer "http://127.0.0.1:$TOK_PORT" --dump "$OUT/parts" \
  "${SPECS[@]}" | tee "$OUT/report.md"
