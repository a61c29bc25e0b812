#!/usr/bin/env bash
# The pre-commit demo: a scratch git repository that uses skillc's .pre-commit-hooks.yaml through
# the pre-commit framework (pre-commit clones this repository at the given commit, installs it
# with npm, and runs `skillc lint` on the staged skill files). A bad skill is committed and the
# hook fails with file:line:col; the skill is fixed and the commit passes.
#
#   bash bench/precommit-demo.sh [skillc repo (default: this one)] [rev (default: HEAD)]
# Needs: git, pre-commit (>= 3.0; Debian: apt install pre-commit), node and npm (registry access
# for the hook's own install, done once and cached in ~/.cache/pre-commit).
set -uo pipefail
repo="$(cd "${1:-$(dirname "$0")/..}" && pwd)"
rev="${2:-$(git -C "$repo" rev-parse HEAD)}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$work"
git init -q -b main . && git config user.email demo@example.com && git config user.name demo
cat > .pre-commit-config.yaml <<YAML
repos:
  - repo: $repo
    rev: $rev
    hooks:
      - id: skillc-lint
YAML
git add .pre-commit-config.yaml && git commit -qm "pre-commit config" --no-verify
pre-commit install >/dev/null

mkdir -p skills/pdf-tools
cat > skills/pdf-tools/SKILL.md <<'MD'
---
name: PDF Tools
description: Fill and merge PDF forms. Use when a task gives PDF forms to fill or merge.
---
# PDF tools

See [the form guide](references/forms.md).

```bash
qpdf --empty --pages a.pdf b.pdf -- merged.pdf
MD
git add skills
echo "== commit with a bad skill staged"
git commit -m "add pdf-tools" 2>&1
bad=$?
echo "== exit: $bad (expected 1)"

cat > skills/pdf-tools/SKILL.md <<'MD'
---
name: pdf-tools
description: Fill and merge PDF forms. Use when a task gives PDF forms to fill or merge.
---
# PDF tools

See [the form guide](references/forms.md).

```bash
qpdf --empty --pages a.pdf b.pdf -- merged.pdf
```
MD
mkdir -p skills/pdf-tools/references && printf '# Forms\n' > skills/pdf-tools/references/forms.md
git add skills
echo "== commit with the skill fixed"
git commit -m "add pdf-tools" 2>&1
good=$?
echo "== exit: $good (expected 0)"
git log --oneline | cat
[ "$bad" -ne 0 ] && [ "$good" -eq 0 ]
