# Ignores SIGTERM (its children too) and end of input: plays WAIT, then runs on after the
# game until it is killed. $1 marks its sleeps.
trap '' TERM
while read -r word rest; do
  [ "$word" = TICK ] && echo WAIT
done
while :; do sleep "$1"; done
