# Fills its scratch folder ($HOME) past a plain bot's cap (tmp_mb, 64 MiB, and one file per
# 4 KiB of it: 16,384), each file under the 64 MiB one may hold, then plays WAIT (tests/zoo.rs).
# `files`: 6 files of 16 MiB (96 MiB). `deleted`: 2 files of 16 MiB, and 4 more it holds open
# once deleted, which no folder shows. `many`: 17,000 empty files. Says in its stderr what it did.
case "$1" in
  files)
    for i in 1 2 3 4 5 6; do head -c 16777216 /dev/zero > "$HOME/fill$i"; done ;;
  deleted)
    for i in 1 2; do head -c 16777216 /dev/zero > "$HOME/fill$i"; done
    exec 3> "$HOME/gone3" 4> "$HOME/gone4" 5> "$HOME/gone5" 6> "$HOME/gone6"
    rm -f "$HOME"/gone*
    for fd in 3 4 5 6; do eval "head -c 16777216 /dev/zero >&$fd"; done ;;
  many)
    i=0
    while [ $i -lt 17000 ]; do : > "$HOME/e$i"; i=$((i+1)); done ;;
esac
echo "filled ($1): $(du -sk "$HOME" | cut -f1) KiB in its folder" >&2
while read -r word rest; do
  [ "$word" = TICK ] && echo WAIT
done
