# Reads its whole input first (as `./bot < file` allows), then answers each TICK it read with the
# next of the moves given as arguments (`X,Y`), then WAIT: a bot for `arena test --piped`, which
# never answers while its input stays open.
input=$(cat)
ticks=$(printf '%s\n' "$input" | grep -c '^TICK')
i=0
while [ "$i" -lt "$ticks" ]; do
  i=$((i + 1))
  if [ $# -gt 0 ]; then
    echo "MOVE $(echo "$1" | tr ',' ' ')"
    shift
  else
    echo WAIT
  fi
done
