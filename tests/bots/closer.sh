# Closes its stdout, then keeps running ($1 marks the sleep).
exec 1>&-
sleep "$1"
