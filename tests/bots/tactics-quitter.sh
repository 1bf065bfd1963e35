# A Tactics bot that passes at its first turn and exits at its second (a crash).
n=0
while read -r line; do
  if [ "$line" = "END" ]; then
    n=$((n + 1))
    [ "$n" -gt 1 ] && exit 1
    echo pass
  fi
done
