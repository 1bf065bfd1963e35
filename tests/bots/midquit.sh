# Plays three ticks (WAIT), then exits in the middle of the game.
n=0
while read -r word rest; do
  if [ "$word" = TICK ]; then
    n=$((n + 1))
    [ "$n" -gt 3 ] && exit 0
    echo WAIT
  fi
done
