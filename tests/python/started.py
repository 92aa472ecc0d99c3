"""A process that serves at a loopback port it bound itself (told port 0) and says where
on stderr, as `mcp-tailor proxy` and the demo do: the test reads the address from that
line, never from a port picked, let go and handed over (another process may take it in
between). The rest of stderr is drained, so that the process never blocks on a full pipe.
"""

from __future__ import annotations

import subprocess
import threading


def started(command: list[str], opening: str, env: dict | None = None) -> tuple[subprocess.Popen, str]:
    """Starts `command`; once a line of its stderr holds `opening` followed by a URL, the
    process and that URL. Raises if the process ends first."""
    process = subprocess.Popen(command, stderr=subprocess.PIPE, text=True, env=env)
    said = []
    for line in process.stderr:
        said.append(line)
        if opening in line:
            url = line.split(opening, 1)[1].strip()
            threading.Thread(target=process.stderr.read, daemon=True).start()
            return process, url
    process.wait(timeout=10)
    raise RuntimeError(f"{command[0]} ended before it listened:\n{''.join(said)}")
