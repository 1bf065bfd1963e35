# An honest bot that thinks in threads and asks a child process: at its first tick it starts
# four threads and runs `sh -c 'exit 7'` (subprocess), then waits. Where either fails, it says
# why on stderr and exits (a crash).
import subprocess
import sys
import threading

results = []
threads = [threading.Thread(target=results.append, args=(k,)) for k in range(4)]
for t in threads:
    t.start()
for t in threads:
    t.join()
child = subprocess.run(["/bin/sh", "-c", "exit 7"]).returncode
print(f"threads: {sorted(results)}, a child: {child}", file=sys.stderr, flush=True)
if sorted(results) != [0, 1, 2, 3] or child != 7:
    sys.exit(1)
for line in sys.stdin:
    if line.startswith("TICK"):
        print("WAIT", flush=True)
