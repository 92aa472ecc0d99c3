"""When each part of an HTTP MCP server's answer arrives, read with a raw socket.

usage: python3 reads.py PORT HEADER   (HEADER 1: send `MCP-Protocol-Version: 2025-11-25`
after `initialize`, as the specification asks; 0: do not)

Opens a session at http://127.0.0.1:PORT/mcp, calls server-everything's `echo` 300 times
and prints, for the last 250, how many reads each answer took and the median time after
the request at which each read returned, with its size (BENCHMARKS.md §9).
"""

import json
import socket
import statistics
import sys
import time


def exchange(sock, body, session=None, header=False):
    """Posts `body`; the whole response and (ms after sending, bytes) of each read."""
    data = json.dumps(body).encode()
    head = (
        "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        "Accept: application/json, text/event-stream\r\n"
        f"Content-Length: {len(data)}\r\n"
    )
    if session:
        head += f"Mcp-Session-Id: {session}\r\n"
    if header:
        head += "MCP-Protocol-Version: 2025-11-25\r\n"
    sock.sendall(head.encode() + b"\r\n" + data)
    start, received, reads = time.perf_counter(), b"", []
    while not complete(received):
        chunk = sock.recv(65536)
        if not chunk:
            raise ConnectionError("the server closed the connection")
        reads.append(((time.perf_counter() - start) * 1000, len(chunk)))
        received += chunk
    return received, reads


def complete(received):
    """Whether `received` holds a whole response: `Content-Length` bytes or the last chunk."""
    head, blank, body = received.partition(b"\r\n\r\n")
    if not blank:
        return False
    for line in head.lower().split(b"\r\n"):
        if line.startswith(b"content-length:"):
            return len(body) >= int(line.split(b":", 1)[1])
    return body.endswith(b"0\r\n\r\n")


def main():
    port, header = int(sys.argv[1]), sys.argv[2] == "1"
    sock = socket.create_connection(("127.0.0.1", port))
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    hello = {
        "protocolVersion": "2025-11-25",
        "capabilities": {},
        "clientInfo": {"name": "reads", "version": "1"},
    }
    response, _ = exchange(sock, {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": hello})
    session = next(
        line.split(b":", 1)[1].strip().decode()
        for line in response.split(b"\r\n")
        if line.lower().startswith(b"mcp-session-id")
    )
    exchange(sock, {"jsonrpc": "2.0", "method": "notifications/initialized"}, session, header)
    answers = []
    for n in range(300):
        call = {"name": "echo", "arguments": {"message": "hi"}}
        body = {"jsonrpc": "2.0", "id": n + 2, "method": "tools/call", "params": call}
        _, reads = exchange(sock, body, session, header)
        if n >= 50:
            answers.append(reads)
    print("reads per answer, median:", statistics.median(len(a) for a in answers))
    for k in range(max(len(a) for a in answers)):
        nth = [a[k] for a in answers if len(a) > k]
        ms = statistics.median(t for t, _ in nth)
        size = statistics.median(b for _, b in nth)
        print(f"read {k + 1}: {ms:.2f} ms, {size:.0f} bytes (in {len(nth)} answers)")


if __name__ == "__main__":
    main()
