# Answers every TICK with a line that is not an action.
while read -r word rest; do
  [ "$word" = TICK ] && echo "GO NORTH PLEASE"
done
