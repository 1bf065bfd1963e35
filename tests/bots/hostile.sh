# Answers the first TICK with text meant to fool whoever displays it ($1 picks which):
#   escapes  clear screen, set the terminal's title, red; then WAIT
#   pipes    `|` table separators and carriage returns inside the line
#   long     a 4096-byte line (just within the line limit, so it is kept and quoted)
#   utf8     bytes that are not UTF-8
#   html     markup and a script
while read -r word rest; do
  if [ "$word" = TICK ]; then
    case "$1" in
      escapes) printf '\033[2J\033]0;owned\007\033[31m WAIT\n' ;;
      pipes) printf '| a | b |\r| c |\rWAIT\n' ;;
      long) printf 'MOVE '; head -c 4091 /dev/zero | tr '\0' 'A'; printf '\n' ;;
      utf8) printf '\377\376 MOVE\n' ;;
      html) printf '<img src=x onerror="document.title=1"></script><b>bold</b> `tick` *x*\n' ;;
      *) echo WAIT ;;
    esac
  fi
done
