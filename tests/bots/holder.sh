# Starts a child that keeps stdout and stderr open and sleeps ($1 marks it), one more that
# leaves the process group with setsid ($1 + 1), then exits without answering: the bot
# exited (a crash) though its pipe is still open. With `wait` ($2), it exits only once the
# second child is in a session of its own (it says so in a file) or failed to make one (where
# `setsid` is refused): a test that looks for it outliving the match, ending the bot's process
# group as soon as the bot exits, could otherwise end it while it was still in the group.
ready=
[ "$2" = wait ] && ready="${TMPDIR:-/tmp}/holder-ready-$$"
sleep "$1" &
setsid sh -c '[ -z "$0" ] || : > "$0"; exec sleep "$1"' "$ready" "$(($1 + 1))" &
child=$!
if [ -n "$ready" ]; then
  while [ ! -e "$ready" ] && kill -0 "$child" 2>/dev/null; do sleep 0.01; done
  rm -f "$ready"
fi
exit 0
