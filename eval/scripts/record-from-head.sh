#!/usr/bin/env bash
# Records a cassette from a clean checkout of HEAD and copies it into this work tree's eval/cassettes/.
# CI replays the cassettes against the commit, so a recording made in a work tree with uncommitted changes
# (yours or anyone's) would hold requests the commit never sends. Takes what `pnpm eval` takes (EVAL_CASSETTE,
# EVAL_OPENAI_API_KEY, …); without a key it records the emulator's cassette, llm-emulator.
set -euo pipefail
root=$(git rev-parse --show-toplevel)
cassette=${EVAL_CASSETTE:-llm-emulator}
tree=$(mktemp -d)/tree
git -C "$root" worktree add --detach "$tree" HEAD >/dev/null
trap 'git -C "$root" worktree remove --force "$tree"' EXIT
cd "$tree"
npx -y pnpm@10.34.8 install --frozen-lockfile --prefer-offline >/dev/null
EVAL_RECORD=1 npx -y pnpm@10.34.8 eval
# The replay must reproduce the recording before it is kept.
EVAL_REPLAY=1 npx -y pnpm@10.34.8 eval
rm -rf "$root/eval/cassettes/$cassette"
cp -r "eval/cassettes/$cassette" "$root/eval/cassettes/$cassette"
echo "recorded eval/cassettes/$cassette from $(git rev-parse --short HEAD)"
