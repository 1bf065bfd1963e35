# An honest bot that keeps scratch files as Python's `tempfile` makes them (in TMPDIR) and a note
# in its HOME: at start it writes and reads back a TemporaryFile, a TemporaryDirectory's file and
# ~/.notes, says where on stderr, then waits. Where any fails, it says why on stderr and exits
# (a crash).
import os
import sys
import tempfile

try:
    with tempfile.TemporaryFile() as f:
        f.write(b"scratch")
        f.seek(0)
        assert f.read() == b"scratch"
    with tempfile.TemporaryDirectory() as d:
        with open(os.path.join(d, "kept"), "w") as f:
            f.write("kept")
    notes = os.path.expanduser("~/.notes")
    with open(notes, "w") as f:
        f.write("home")
    print(f"scratch: {tempfile.gettempdir()} home: {os.path.dirname(notes)}", file=sys.stderr, flush=True)
except Exception as e:
    print(f"no scratch: {e!r}", file=sys.stderr, flush=True)
    sys.exit(1)
for line in sys.stdin:
    if line.startswith("TICK"):
        print("WAIT", flush=True)
