"""Run one slow step of the first install and say how it goes (standard library only).

``python3 tools/step.py "what it does" "about how long" -- COMMAND ...`` prints what the
step does and how long it usually takes, then every 15 seconds the time gone and the
latest line the command printed, and at the end how long it took. The command's whole
output is shown only if it fails. ``make`` calls it for the installs that would
otherwise leave the terminal silent for minutes.
"""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from collections import deque

BEAT = 15.0


def minutes(seconds: float) -> str:
    return f"{int(seconds // 60)}m{int(seconds % 60):02d}s"


def summary(line: str) -> str:
    """A line of the command's output as a progress note: a C compiler's command
    line shortened to the file it compiles."""
    words = line.split()
    if words and words[0].endswith(("gcc", "cc", "clang")) and "-c" in words:
        at = words.index("-c")
        if at + 1 < len(words):
            return f"compiling {words[at + 1].rsplit('/', 1)[-1]}"
    return " ".join(words)


def main(argv: list[str]) -> int:
    if len(argv) < 4 or argv[2] != "--":
        print(__doc__, file=sys.stderr)
        return 2
    what, usually, command = argv[0], argv[1], argv[3:]
    print(f"riichi: {what} ({usually})...", flush=True)
    start = time.monotonic()
    lines: deque[str] = deque(maxlen=400)
    latest = ["working"]  # the last line that says what is being done
    process = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, bufsize=1
    )

    def read() -> None:
        assert process.stdout is not None
        for line in process.stdout:
            if line.strip():
                lines.append(line.rstrip())
                if not line.lstrip().startswith(("WARNING", "Link ", "Skipping ")):
                    latest[0] = summary(line)

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    while reader.is_alive():  # until the command closes its output
        reader.join(BEAT)
        if reader.is_alive():
            gone = minutes(time.monotonic() - start)
            print(f"riichi:   {gone} so far: {latest[0][:90]}", flush=True)
    process.wait()
    took = minutes(time.monotonic() - start)
    if process.returncode:
        print("\n".join(lines), file=sys.stderr)
        print(f"riichi: {what} failed after {took}", file=sys.stderr)
        return process.returncode
    print(f"riichi: {what}: done in {took}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
