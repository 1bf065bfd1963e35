# On maps/fire.txt: steps east from its start to column 1, then straight into the fire
# at (1, 1) (from row 0) or (3, 1) (from row 4).
read -r _arena
read -r x y
n=0
while read -r word rest; do
  [ "$word" = TICK ] || continue
  n=$((n + 1))
  if [ "$n" -eq 1 ]; then
    echo "MOVE $x $((y + 1))"
  elif [ "$x" -eq 0 ]; then
    echo "MOVE 1 1"
  else
    echo "MOVE 3 1"
  fi
done
