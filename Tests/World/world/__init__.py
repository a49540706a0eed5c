"""rtstack's BLE test world: Bumble virtual controllers and simulated sensors on one link."""

import time as _time

STARTED = _time.monotonic()  # process start, near enough: before Bumble is imported
