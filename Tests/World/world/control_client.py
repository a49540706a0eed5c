"""One request on the world's control port (Tests/World/README.md, "Control port"): a JSON line
out, its one JSON reply line back."""
from __future__ import annotations

import json
import socket


def control_request(port: int, command: dict, timeout: float = 10) -> dict:
    with socket.create_connection(('127.0.0.1', port), timeout=timeout) as s:
        s.sendall((json.dumps(command) + '\n').encode())
        data = b''
        while not data.endswith(b'\n'):
            chunk = s.recv(65536)
            if not chunk:
                break
            data += chunk
    return json.loads(data)
