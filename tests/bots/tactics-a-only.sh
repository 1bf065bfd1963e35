# A Tactics bot that plays the program given as its arguments as player A, and exits (a crash)
# at its first turn as player B.
if [ "$ARENA_PLAYER" = 2 ]; then
  while read -r line; do
    [ "$line" = "END" ] && exit 1
  done
fi
exec "$@"
