# Answers every TICK with bytes that are not UTF-8.
while read -r word rest; do
  [ "$word" = TICK ] && printf '\377\376 MOVE\n'
done
