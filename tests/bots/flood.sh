# Answers the first TICK with 100 MB and no newline, then waits to be ended.
while read -r word rest; do
  if [ "$word" = TICK ]; then
    head -c 100000000 /dev/zero | tr '\0' 'A'
    sleep 1000
  fi
done
