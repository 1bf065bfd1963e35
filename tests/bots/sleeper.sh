# Never answers: sleeps (in a child process) far past any time limit.
# The argument makes the sleep findable, so the test can check it was ended.
sleep "${1:-1000}"
