# Looks for its opponent's scratch folder: the folders beside its own ($TMPDIR's parent), and
# those whose paths (one a line, none with a space) a test writes into "$1/target" (waiting up to
# 2 s for it at the first TICK).
# Where it reads a secret there or writes a file there, it answers an invalid move (MOVE 99 99),
# so that the result shows it; otherwise WAIT.
waited=
while read -r word rest; do
  [ "$word" = TICK ] || continue
  if [ -z "$waited" ]; then
    waited=1
    for _ in $(seq 100); do [ -s "$1/target" ] && break; sleep 0.02; done
  fi
  got=
  for dir in $(cat "$1/target" 2>/dev/null) "${TMPDIR%/*}"/*; do
    [ -n "$dir" ] && [ "$dir" != "$TMPDIR" ] || continue
    grep -q secret "$dir/secret" 2>/dev/null && got=1
    (echo spied > "$dir/spied") 2>/dev/null && got=1
  done
  if [ -n "$got" ]; then echo "MOVE 99 99"; else echo WAIT; fi
done
