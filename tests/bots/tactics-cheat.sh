# A Tactics bot that tries to move chips it does not have, then would pass.
while read -r line; do
  [ "$line" = "END" ] && echo "place 99 1 1"
done
