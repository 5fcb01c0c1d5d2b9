#!/usr/bin/env bash
# The stage times of `make test` (the Makefile's STAGE). Each stage's recipe ends by marking
# the time; a stage's time runs from the previous mark (or the start) to its own, so it
# includes the prerequisites that make built first for it (build: the wheel; test-wheels:
# the other wheels) and the stages add up to the total.
#
#   tools/stages.sh start FILE       empty FILE and note the start
#   tools/stages.sh mark FILE NAME   stage NAME has just ended
#   tools/stages.sh end FILE         the last stage has ended
#   tools/stages.sh print FILE       the stages' times and the total; before the last stage
#                                    has ended (a failed make test: .ci/run), also the time
#                                    since the last mark, as "unfinished"
set -euo pipefail
usage() { echo "usage: tools/stages.sh start|mark|end|print FILE [NAME]" >&2; exit 2; }
cmd=${1:-} file=${2:-}
[ -n "$file" ] || usage
case $cmd in
	start) mkdir -p "$(dirname "$file")"; echo "start $EPOCHREALTIME" > "$file" ;;
	mark) [ -f "$file" ] || { echo "stages.sh: no $file (tools/stages.sh start)" >&2; exit 1; }
	      echo "${3:?stage name} $EPOCHREALTIME" >> "$file" ;;
	end) echo "end $EPOCHREALTIME" >> "$file" ;;
	print)
		[ -f "$file" ] || { echo "stages.sh: no $file" >&2; exit 1; }
		echo "make test: stage times ($file)"
		awk -v now="$EPOCHREALTIME" '
			function row(name, s) { printf "  %-16s %6.0f s %6.1f min\n", name, s, s / 60 }
			$1 == "start" { t0 = prev = $2; next }
			$1 == "end" { ended = 1; next }
			{ row($1, $2 - prev); prev = $2 }
			END { if (t0 == "") exit 1
			      if (!ended) { row("unfinished", now - prev); prev = now }
			      row("total", prev - t0) }
		' "$file" ;;
	*) usage ;;
esac
