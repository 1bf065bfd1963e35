# Tells stderr what it reads (the header's first line, then every TICK line) and answers WAIT.
read -r first
echo "header: $first" >&2
while read -r word rest; do
  if [ "$word" = TICK ]; then
    echo "got: $word $rest" >&2
    echo WAIT
  fi
done
