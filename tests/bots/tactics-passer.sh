# A Tactics bot that passes at every turn (reads each prompt up to END).
while read -r line; do
  [ "$line" = "END" ] && echo pass
done
