# An honest bot that keeps an opening book in SQLite (which locks the database file to read or
# write it): it writes one in its temporary folder and reads it back before answering, then
# waits. Where SQLite cannot lock, it says why on stderr and answers a move off the map.
import os
import sqlite3
import sys

try:
    db = sqlite3.connect(os.path.join(os.environ.get("TMPDIR", "/tmp"), "book.db"), timeout=0.1)
    db.execute("CREATE TABLE IF NOT EXISTS book (tick INTEGER, move TEXT)")
    db.execute("INSERT INTO book VALUES (1, 'WAIT')")
    db.commit()
    answer = db.execute("SELECT move FROM book WHERE tick = 1").fetchone()[0]
except sqlite3.Error as e:
    print(f"sqlite: {e}", file=sys.stderr)
    answer = "MOVE 99 99"
for line in sys.stdin:
    if line.startswith("TICK"):
        print(answer, flush=True)
