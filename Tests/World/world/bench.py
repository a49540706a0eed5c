"""Notification throughput: three links (heart, speed, Thingy temperature) subscribed, the world
asked for `rate` Hz per sensor, notifications counted at the raw HCI client for 3 s."""

from __future__ import annotations

import asyncio
import time
from typing import Any

from world.peripherals import THINGY_TEMPERATURE
from world.selftest import Context, WorldProcess


async def measure(rate: float, log_notifications: bool) -> None:
    world = WorldProcess()
    extra = [] if log_notifications else ['--no-notify-log']
    await world.start('--rate', str(rate), '--distractors', '0', '--exit-on-stdin-eof', *extra)
    ctx = Context(world)
    try:
        await ctx.hci.connect(world.ready['hci_port'])
        await ctx.init()
        for name in ('Heart 1', 'Speed 1', 'Thingy 1'):
            await ctx.connect(name)
        await ctx.subscribe('Heart 1', '2A37')
        await ctx.subscribe('Speed 1', '2A53')
        await ctx.subscribe('Thingy 1', THINGY_TEMPERATURE)
        await asyncio.sleep(0.5)
        ctx.hci.notifications()
        started = time.monotonic()
        await asyncio.sleep(3.0)
        notes = ctx.hci.notifications()
        elapsed = time.monotonic() - started
        per_link: dict[int, int] = {}
        for note in notes:
            per_link[note.handle] = per_link.get(note.handle, 0) + 1
        print(f'asked {rate:6.0f}/s per sensor, log {"on " if log_notifications else "off"}: '
              f'{len(notes) / elapsed:6.0f}/s total, per link {[round(v / elapsed) for v in per_link.values()]}, '
              f'lag faults {len(world.events("fault", kind="notify_lag"))}', flush=True)
        await world.control({'cmd': 'quit'})
        await world.wait_exit(3)
    finally:
        await ctx.hci.close()
        await world.kill()


async def run(options: Any) -> int:
    for rate in options.rates:
        for log_notifications in (True, False):
            await measure(rate, log_notifications)
    return 0


def main(options: Any) -> int:
    return asyncio.run(run(options))
