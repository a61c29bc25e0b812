#!/usr/bin/env bash
# Draft markdown release notes from commits between two git refs.
# Usage: release_notes.sh FROM TO
set -euo pipefail

if [[ $# -ne 2 ]]; then
  echo "usage: $0 FROM TO" >&2
  exit 2
fi

from="$1"
to="$2"

for ref in "$from" "$to"; do
  if ! git rev-parse --verify --quiet "$ref^{commit}" >/dev/null; then
    echo "error: unknown ref '$ref'" >&2
    exit 1
  fi
done

range="$from..$to"
count=$(git rev-list --count --no-merges "$range")

section() {
  local title="$1" pattern="$2" invert="${3:-}"
  local lines
  if [[ -n "$invert" ]]; then
    lines=$(git log --no-merges --format='%s (%an, %h)' "$range" | grep -Ev "$pattern" || true)
  else
    lines=$(git log --no-merges --format='%s (%an, %h)' "$range" | grep -E "$pattern" || true)
  fi
  if [[ -n "$lines" ]]; then
    printf '\n## %s\n\n' "$title"
    printf '%s\n' "$lines" | sed 's/^/- /'
  fi
}

printf '# Release %s\n\n' "$to"
printf '%s commits since %s.\n' "$count" "$from"
section "Features" '^feat(\(.*\))?!?:'
section "Fixes" '^fix(\(.*\))?!?:'
section "Other changes" '^(feat|fix)(\(.*\))?!?:' invert
