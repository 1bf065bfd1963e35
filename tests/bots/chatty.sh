# Answers each TICK with two lines: the second is output no TICK asked for.
while read -r word rest; do
  if [ "$word" = TICK ]; then
    printf 'WAIT\nWAIT\n'
  fi
done
