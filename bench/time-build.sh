#!/usr/bin/env bash
# Times `skillc build` on a library: N runs, median wall-clock seconds and median peak RSS.
#   bash bench/time-build.sh <library> [runs=3] [jobs=2]
set -euo pipefail
lib=${1:?usage: bench/time-build.sh <library> [runs] [jobs]}
runs=${2:-3}
jobs=${3:-2}
here="$(cd "$(dirname "$0")/.." && pwd)"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
secs=(); rss=()
for i in $(seq "$runs"); do
  /usr/bin/time -f '%e %M' -o "$out/t" node "$here/bin/skillc.js" build "$lib" -o "$out/dist" -j "$jobs" -q >/dev/null
  read -r s m < "$out/t"; secs+=("$s"); rss+=("$m")
done
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }
units=$(node -e 'const r=require(process.argv[1]);console.log(r.parse.units, r.library.parsed)' "$out/dist/report.json")
echo "library=$lib runs=$runs jobs=$jobs median_s=$(median "${secs[@]}") median_peak_rss_mb=$(( $(median "${rss[@]}" | cut -d. -f1) / 1024 )) all_s=${secs[*]} units,parents=$units"
