# Runs the bot `$2 ...` and pads every number of its answers with $1 zeros (`MOVE 0003 4` is
# a move to 3 4, `place 01 2 3` places one chip): legal answers, near 4 KiB each.
pad=$(printf "%${1}s" '' | tr ' ' 0)
shift
set -f
"$@" | while IFS= read -r line; do
  out=
  for w in $line; do
    case $w in
      '' | *[!0-9]*) ;;
      *) w=$pad$w ;;
    esac
    out="$out${out:+ }$w"
  done
  printf '%s\n' "$out"
done
