# Answers every TICK with an empty line.
while read -r word rest; do
  [ "$word" = TICK ] && echo
done
