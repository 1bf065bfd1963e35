# Plays WAIT every tick, but writes 1 MB to stderr before each answer.
while read -r word rest; do
  if [ "$word" = TICK ]; then
    head -c 1000000 /dev/zero | tr '\0' 'e' >&2
    echo WAIT
  fi
done
