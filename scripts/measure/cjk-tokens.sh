#!/usr/bin/env bash
# How close Memo's token estimate comes to a real tokenizer's count for Chinese text, beside
# English text in the same run: a Chinese SOUL.md and AGENTS.md (and an English SOUL.md as the
# baseline) go into a throwaway Memo home and folder, `memo-cli prompt --json` reports each
# layer's estimate, and llama.cpp's /tokenize counts the same layer text with Qwen2.5's
# tokenizer. Prints a table; the target is within 15 %. Rows: the English baseline, the two
# Chinese files the estimate's rate was fitted on, and the Chinese user guide, held out.
#
#   LLM_URL=http://127.0.0.1:8093 scripts/measure/cjk-tokens.sh
#
# Needs a llama-server on LLM_URL (../shared/recipes/local-llm.sh builds one) and memo-cli in
# target/debug (cargo build -p memo-cli).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
url=${LLM_URL:-http://127.0.0.1:8093}
cli=${MEMO_CLI:-$root/target/debug/memo-cli}
curl -sf "$url/health" >/dev/null || { echo "no llama-server at $url (LLM_URL)" >&2; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

measure() { # name soul agents
  local name=$1 soul=$2 agents=$3 home="$work/$1-home" folder="$work/$1-folder"
  mkdir -p "$home" "$folder"
  printf 'current_provider = "local"\n[[providers.local]]\nname = "local"\nmodel = "qwen"\nbase_url = "%s/v1"\n' "$url" > "$home/config.toml"
  cp "$soul" "$home/SOUL.md"
  [ -n "$agents" ] && cp "$agents" "$folder/AGENTS.md"
  MEMO_HOME="$home" RUST_LOG=off "$cli" prompt --json --cwd "$folder" > "$work/$name.json"
  python3 - "$work/$name.json" "$url" "$name" <<'PY'
import json, sys, urllib.request
report, url, name = json.load(open(sys.argv[1])), sys.argv[2], sys.argv[3]
for layer in report["layers"]:
    if layer["kind"] not in ("soul", "project_context") or not layer["content"]:
        continue
    body = json.dumps({"content": layer["content"], "add_special": False}).encode()
    req = urllib.request.Request(url + "/tokenize", body, {"Content-Type": "application/json"})
    real = len(json.load(urllib.request.urlopen(req))["tokens"])
    est = layer["tokens"]
    print(f"| {name:<8} | {layer['kind']:<15} | {layer['chars']:>6} | {est:>8} | {real:>6} | {100 * (est - real) / real:>+6.1f} % |")
PY
}

echo "| text     | layer           |  chars | estimate |   Qwen |  error   |"
echo "| -------- | --------------- | ------ | -------- | ------ | -------- |"
measure english "$here/cjk/SOUL.en.md" ""
measure chinese "$here/cjk/SOUL.zh.md" "$here/cjk/AGENTS.zh.md"
# Held out (the estimate's rate was fitted on the two files above): the Chinese user guide,
# prose with code spans, as a project's AGENTS.md.
measure guide "$here/cjk/SOUL.en.md" "$root/docs/zh-CN/user-guide.md"
