# Answers every TICK, but $1 seconds late.
while read -r word rest; do
  if [ "$word" = TICK ]; then
    sleep "$1"
    echo WAIT
  fi
done
