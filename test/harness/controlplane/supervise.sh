#!/usr/bin/env bash
# Runs "$@" and stops it when this script's stdin closes. The launcher holds the write end of that
# pipe, so the program stops when the launcher calls stop() and also when the launcher itself dies
# (even by SIGKILL): no control plane process outlives the run that started it.
exec 3<&0
"$@" </dev/null 3<&- &
child=$!
stop_child() {
  kill -TERM "$child" 2>/dev/null || return 0
  for _ in $(seq 1 30); do
    kill -0 "$child" 2>/dev/null || return 0
    sleep 0.1
  done
  kill -KILL "$child" 2>/dev/null || true
}
trap stop_child TERM INT
{ cat <&3 >/dev/null; stop_child; } &
watcher=$!
exec 3<&-
status=0
wait "$child" || status=$?
# A trapped signal interrupts wait; keep waiting until the child has really exited.
while kill -0 "$child" 2>/dev/null; do wait "$child" || status=$?; done
kill "$watcher" 2>/dev/null || true
exit "$status"
