# Answers the first TICK with a 100 kB line: longer than the 4 KiB limit.
while read -r word rest; do
  if [ "$word" = TICK ]; then
    head -c 100000 /dev/zero | tr '\0' 'A'
    echo
  fi
done
