"""How long a proxy holds each message it passes on, read from the kernel's syscall
tracepoints with `perf` (no change to the proxy, little overhead): from the read of a
client's request to the write of it upstream ("request held"), and from the read of the
upstream's answer to the write of it to the client ("answer held").

usage: python3 held.py PID PORT [SECONDS]   (root; `perf` installed)

PID is the proxy, PORT the port it listens on. Run a load beside it (one request at a
time on one session, e.g. `tools/call`); it records SECONDS (default 2) and prints the
median of each span and how many it saw. A message the proxy answers itself (a listing
from memory, a `ping`) shows as "answered itself": read to written, on the same socket.
BENCHMARKS.md §9 has what it showed.
"""

import os
import re
import statistics
import subprocess
import sys
import tempfile

EVENTS = ["syscalls:sys_exit_recvfrom", "syscalls:sys_enter_recvfrom", "syscalls:sys_enter_writev"]


def inbound_fds(pid, port):
    """The proxy's sockets accepted on PORT (its clients'), by file descriptor."""
    inodes = set()
    for line in open("/proc/net/tcp").read().splitlines()[1:]:
        fields = line.split()
        local_port = int(fields[1].split(":")[1], 16)
        if local_port == port and fields[3] == "01":  # established
            inodes.add(fields[9])
    fds = set()
    for fd in os.listdir(f"/proc/{pid}/fd"):
        target = os.readlink(f"/proc/{pid}/fd/{fd}")
        if target.startswith("socket:[") and target[8:-1] in inodes:
            fds.add(int(fd))
    return fds


def record(pid, seconds):
    """The proxy's reads and writes for SECONDS: (time s, event, fd or return value)."""
    with tempfile.TemporaryDirectory() as scratch:
        data = os.path.join(scratch, "perf.data")
        events = sum((["-e", e] for e in EVENTS), [])
        subprocess.run(
            ["perf", "record", "-q", *events, "-p", str(pid), "-o", data, "--", "sleep", str(seconds)],
            check=True,
            stderr=subprocess.DEVNULL,
        )
        script = subprocess.run(
            ["perf", "script", "-i", data, "-F", "time,event,trace"],
            check=True,
            capture_output=True,
            text=True,
        ).stdout
    pattern = re.compile(r"\s*([\d.]+):\s+syscalls:sys_(enter|exit)_(\w+): (\S+)(?: (0x[0-9a-f]+))?")
    seen = []
    for line in script.splitlines():
        match = pattern.match(line)
        if not match:
            continue
        time, side, call, first, fd = match.groups()
        value = int(fd, 16) if side == "enter" else int(first, 16)
        seen.append((float(time), f"{side}_{call}", value))
    return seen


def spans(seen, clients):
    """Each read that returned data, to the next write: (from a client?, to a client?, us)."""
    reading, found = None, []
    for i, (time, event, value) in enumerate(seen):
        if event == "enter_recvfrom":
            reading = value
        if event != "exit_recvfrom" or not 0 < value < 1 << 31:
            continue
        for later, next_event, fd in seen[i + 1 : i + 8]:
            if next_event == "exit_recvfrom":
                break
            if next_event == "enter_writev":
                found.append((reading in clients, fd in clients, (later - time) * 1e6))
                break
    return found


def main():
    pid, port = int(sys.argv[1]), int(sys.argv[2])
    seconds = float(sys.argv[3]) if len(sys.argv) > 3 else 2.0
    clients = inbound_fds(pid, port)
    found = spans(record(pid, seconds), clients)
    for name, want in [
        ("request held", (True, False)),
        ("answer held", (False, True)),
        ("answered itself", (True, True)),
    ]:
        held = [us for src, dst, us in found if (src, dst) == want]
        if held:
            print(f"{name}: median {statistics.median(held):.0f} us over {len(held)}")


if __name__ == "__main__":
    main()
