#!/usr/bin/env bash
# Dump one PostgreSQL database to <out>/<db>-<UTC timestamp>.sql.gz and delete
# dumps of the same database older than --keep-days (default 7).
#
# Usage: backup.sh --db NAME --out DIR [--keep-days N]
set -euo pipefail

db=""
out=""
keep_days=7

while [ $# -gt 0 ]; do
  case "$1" in
    --db) db="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    --keep-days) keep_days="$2"; shift 2 ;;
    *) echo "unknown argument: $1" >&2; exit 2 ;;
  esac
done

if [ -z "$db" ] || [ -z "$out" ]; then
  echo "usage: backup.sh --db NAME --out DIR [--keep-days N]" >&2
  exit 2
fi

mkdir -p "$out"
stamp="$(date -u +%Y%m%dT%H%M%SZ)"
target="$out/$db-$stamp.sql.gz"
partial="$target.partial"

pg_dump --no-owner --no-privileges "$db" | gzip -9 > "$partial"
mv "$partial" "$target"
echo "wrote $target"

find "$out" -maxdepth 1 -name "$db-*.sql.gz" -mtime +"$keep_days" -print -delete
