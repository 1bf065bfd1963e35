# Starts a process that forks without limit, then never answers (the bot itself forks no
# more: it becomes a sleep, so only the bomb meets the process cap).
bomb() { bomb & bomb & wait; }
bomb &
exec sleep 1000
