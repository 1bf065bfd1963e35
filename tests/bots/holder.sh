# Starts a child that keeps stdout and stderr open and sleeps ($1 marks it), one more that
# leaves the process group with setsid ($1 + 1), then exits without answering: the bot
# exited (a crash) though its pipe is still open.
sleep "$1" &
setsid sleep "$(($1 + 1))" &
exit 0
