# Answers $1 TICKs (WAIT), then at the next one ends as $2 says: a number is an exit status
# (`exit 139`), anything else a signal it kills itself with (`SEGV`: as a C bot's invalid
# memory access ends it).
n=0
while read -r word rest; do
  if [ "$word" = TICK ]; then
    n=$((n + 1))
    if [ "$n" -gt "$1" ]; then
      case "$2" in
        [0-9]*) exit "$2" ;;
        *) kill -"$2" $$ ;;
      esac
    fi
    echo WAIT
  fi
done
