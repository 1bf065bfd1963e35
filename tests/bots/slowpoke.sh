# Answers WAIT to every TICK after sleeping the given number of seconds ($1).
while read -r word rest; do
  if [ "$word" = TICK ]; then
    sleep "$1"
    echo WAIT
  fi
done
