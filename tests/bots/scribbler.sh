# Tries to write a file into the folder given as $1 (the arena's output), then plays WAIT.
echo "bot was here" > "$1/scribbled.txt" 2>/dev/null
while read -r word rest; do
  [ "$word" = TICK ] && echo WAIT
done
