# Answers every TICK with `PLAYER <t> WAIT`, its words separated by $1 (printf's escapes, such
# as '\v' or '\302\240' for a no-break space).
while read -r word tick rest; do
  [ "$word" = TICK ] && printf "PLAYER${1}%s${1}WAIT\n" "$tick"
done
