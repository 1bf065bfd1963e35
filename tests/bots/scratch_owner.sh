# Keeps a secret in its scratch folder ($TMPDIR) at start, then plays WAIT, a little slowly (so
# that the game lasts while its opponent looks for it: tests/zoo.rs).
echo "the owner's secret" > "$TMPDIR/secret"
while read -r word rest; do
  [ "$word" = TICK ] && sleep 0.05 && echo WAIT
done
