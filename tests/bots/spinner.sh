# Burns CPU without ever answering.
while :; do :; done
