#!/usr/bin/env bash
# Runs OpenAI's Codex CLI (a client no one here wrote) against loopwire-server, over WebSocket mode and
# over HTTP+SSE, on the issue's `echo hi` turn (docs/protocol.md §5.5). Not part of CI: Codex is
# ~400 MB. Install it once with:
#   npm install --prefix ~/.cache/codex @openai/codex@0.169.0
# Then, from the repository root after `npm run build`: test/conformance/codexCli.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
codex=${CODEX_BIN:-$HOME/.cache/codex/node_modules/.bin/codex}
export CODEX_HOME=${CODEX_HOME:-$HOME/.cache/codex-home}
mkdir -p "$CODEX_HOME"
work=$(mktemp -d "$HOME/.cache/loopwire-codex.XXXXXX")
trap 'kill "$server" 2>/dev/null || true; rm -rf "$work"' EXIT

for websockets in true false; do
  node "$root/dist/cli/loopwire-server.js" --scenario "$root/test/fixtures/server/echo.json" --log "$work/wire.jsonl" \
    >"$work/url" 2>"$work/server.log" &
  server=$!
  for _ in $(seq 50); do [ -s "$work/url" ] && break; sleep 0.1; done
  url=$(head -1 "$work/url")
  cat >"$CODEX_HOME/config.toml" <<TOML
model = "gpt-5.5"
model_provider = "local"
check_for_update_on_startup = false
web_search = "disabled"
[analytics]
enabled = false
[features]
plugins = false
remote_plugin = false
apps = false
[model_providers.local]
name = "Local Responses server"
base_url = "$url"
env_key = "CONFORMANCE_API_KEY"
wire_api = "responses"
supports_websockets = $websockets
request_max_retries = 0
stream_max_retries = 0
stream_idle_timeout_ms = 20000
websocket_connect_timeout_ms = 5000
TOML
  (cd "$work" && CONFORMANCE_API_KEY=sk-local "$codex" exec --json --ephemeral --skip-git-repo-check \
    --dangerously-bypass-approvals-and-sandbox -C "$work" \
    'Run the shell command `echo hi` and tell me what it printed.' </dev/null >"$work/codex.jsonl")
  kill "$server"; wait "$server" 2>/dev/null || true
  transport=$([ "$websockets" = true ] && echo ws || echo http)
  grep -q '"aggregated_output":"hi\\n"' "$work/codex.jsonl" || { echo "codex ($transport): the command did not run"; exit 1; }
  grep -q '"text":"It printed: hi"' "$work/codex.jsonl" || { echo "codex ($transport): no final message"; exit 1; }
  grep -q "\"transport\":\"$transport\"" "$work/wire.jsonl" || { echo "codex: expected $transport traffic"; exit 1; }
  echo "codex over $transport: ran echo hi, answered 'It printed: hi'"
  rm -f "$work/wire.jsonl" "$work/url"
done
