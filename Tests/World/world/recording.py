"""What the capture recorders (record_eatt, record_att_bredr) share: their command line
(OUT.btsnoop [OUT.json]) and the sidecar that lists what the Bumble side counted."""
from __future__ import annotations

import asyncio
import json
import sys
from typing import Awaitable, Callable


def write_result(result: dict, sidecar: str | None) -> None:
    """Prints `result` on stderr and, when asked, writes it as the JSON sidecar."""
    print(json.dumps(result), file=sys.stderr)
    if sidecar:
        with open(sidecar, 'w') as f:
            json.dump(result, f, indent=1, sort_keys=True)
            f.write('\n')


def run(main: Callable[[str, str | None], Awaitable[None]], usage: str | None) -> None:
    """Runs `main(capture, sidecar)` from the command line, or prints `usage` and exits 2."""
    if len(sys.argv) not in (2, 3):
        print(usage, file=sys.stderr)
        sys.exit(2)
    asyncio.run(main(sys.argv[1], sys.argv[2] if len(sys.argv) == 3 else None))
