#!/usr/bin/env bash
# The A2A TCK's mandatory JSON-RPC tests against helpdesk, on the LLM emulator (README, "A2A").
# Not part of `pnpm test` or CI: the TCK is a checkout of its own (github.com/a2aproject/a2a-tck,
# branch 0.3.x) with its Python packages in a venv.
#
#   TCK_DIR=/path/to/a2a-tck apps/helpdesk/scripts/a2a-tck.sh
#
# Runs the command the TCK's run_tck.py builds for `--category mandatory --transports jsonrpc`,
# less the four tests that expect a finished task to take another message or a cancel (helpdesk
# completes each turn; the spec makes both an error). Needs built packages (pnpm build).
set -euo pipefail

app=$(cd "$(dirname "$0")/.." && pwd)
repo=$(cd "$app/../.." && pwd)
: "${TCK_DIR:?set TCK_DIR to a checkout of github.com/a2aproject/a2a-tck, branch 0.3.x}"
python=${TCK_PYTHON:-$TCK_DIR/.venv/bin/python}
emulator_port=${TCK_EMULATOR_PORT:-4610}
helpdesk_port=${TCK_HELPDESK_PORT:-3610}
logs=$(mktemp -d)
pids=()

stop() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  echo "service logs: $logs"
}
trap stop EXIT

node "$repo/packages/llm-emulator/dist/cli.js" --port "$emulator_port" --host 127.0.0.1 \
  >"$logs/emulator.log" 2>&1 &
pids+=($!)
# Memory sessions, no auth: whatever the caller's shell has set for a real deployment is left out.
env -u DATABASE_URL -u API_TOKEN -u API_TOKENS -u AUTH_JWKS_URL -u PUBLIC_URL \
  AGENT_LLM_API_KEY=tck AGENT_LLM_BASE_URL="http://127.0.0.1:$emulator_port" \
  HOST=127.0.0.1 PORT="$helpdesk_port" \
  node "$app/dist/server.js" >"$logs/helpdesk.log" 2>&1 &
pids+=($!)

for _ in $(seq 1 60); do
  curl -fsS "http://127.0.0.1:$helpdesk_port/readyz" >/dev/null 2>&1 && break
  sleep 0.5
done
curl -fsS "http://127.0.0.1:$helpdesk_port/readyz" >/dev/null

cd "$TCK_DIR"
"$python" -m pytest tests/mandatory/ \
  --sut-url="http://127.0.0.1:$helpdesk_port/a2a" --test-scope=all --tb=short \
  -m "mandatory_jsonrpc or mandatory_protocol" -q \
  --transport-strategy agent_preferred --transports jsonrpc --enable-equivalence-testing \
  --deselect tests/mandatory/protocol/test_message_send_method.py::test_message_send_continue_task \
  --deselect tests/mandatory/protocol/test_state_transitions.py::test_task_history_length \
  --deselect tests/mandatory/protocol/test_tasks_cancel_method.py::test_tasks_cancel_valid \
  --deselect "tests/mandatory/protocol/test_a2a_v030_new_methods.py::TestMethodMappingCompliance::test_core_method_mapping_compliance" \
  -rs
