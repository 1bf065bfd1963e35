# A Resource Rush bot that waits at every tick. Told another game's header, it reads on and
# answers nothing, or with an argument answers that game's each prompt (through `END`) with it.
read -r header
case "$header" in
ARENA*) while read -r line; do case "$line" in TICK*) echo WAIT ;; esac; done ;;
*) while read -r line; do [ "$line" = END ] && [ -n "$1" ] && echo "$1"; done ;;
esac
