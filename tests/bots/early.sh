# Prints a line before it has been sent any TICK, then answers every TICK with WAIT.
echo WAIT
while read -r word rest; do
  [ "$word" = TICK ] && echo WAIT
done
