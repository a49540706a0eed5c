"""Home Assistant's ESPHome client (aioesphomeapi) using `rtstack gateway --esphome` over two
adapters of the Bumble world (`--hosts 2`, the second weaker): one JSON line per fact, for the Swift
test to check.

    python -m world.esphome_proxy_adapters_scenario --port P --world-control C [--key BASE64]

Steps: connections free (both adapters' slots); raw advertisements for a while (both adapters
hear every device); Heart 1 connected (as many free: the louder first adapter), then Speed 1 (the
second has more free); the first adapter lost (`hci_drop`): Heart 1 reported disconnected with its
error and the slots recounted, Speed 1 untouched; the client connects Heart 1 again, as Home
Assistant's integrations do, and reads through the link now on the second adapter; {"done": true}.
A failure prints {"error": class, "message": text} and exits 1.
"""
from __future__ import annotations

import argparse
import asyncio
import sys

from aioesphomeapi import APIClient

from world.control_client import control_request
from world.esphome_client import emit, observed

HEART = 0xC10000000001
SPEED = 0xC20000000001
BODY_SENSOR_LOCATION = '00002a38-0000-1000-8000-00805f9b34fb'


class Link:
    """One device's connection states as the client sees them."""

    def __init__(self) -> None:
        self.states: list[list] = []
        self.changed = asyncio.Event()

    def __call__(self, connected: bool, mtu: int, error: int) -> None:
        self.states.append([connected, mtu, error])
        self.changed.set()

    async def becomes(self, connected: bool, timeout: float) -> list:
        async def wait() -> list:
            while not (self.states and self.states[-1][0] == connected):
                self.changed.clear()
                await self.changed.wait()
            return self.states[-1]
        return await asyncio.wait_for(wait(), timeout)


async def scenario(args: argparse.Namespace) -> None:
    client = APIClient('127.0.0.1', args.port, None, noise_psk=args.key, client_info='rtstack two-adapter scenario')
    await asyncio.wait_for(client.connect(login=True), 15)
    info = await asyncio.wait_for(client.device_info(), 10)
    flags = info.bluetooth_proxy_feature_flags_compat(client.api_version)

    free_updates: list[list] = []
    free_changed = asyncio.Event()

    def on_free(free: int, limit: int, allocated: list[int]) -> None:
        free_updates.append([free, limit, sorted(allocated)])
        free_changed.set()

    client.subscribe_bluetooth_connections_free(on_free)

    async def free_becomes(predicate, what: str) -> list:
        async def wait() -> list:
            while not (free_updates and predicate(free_updates[-1])):
                free_changed.clear()
                await free_changed.wait()
            return free_updates[-1]
        try:
            return await asyncio.wait_for(wait(), 15)
        except TimeoutError:
            raise TimeoutError(f'connections free never became {what}; updates: {free_updates}') from None

    emit(connections_free=await free_becomes(lambda u: u[1] >= 10, 'the slots of both adapters'))

    heard: set[int] = set()
    unsubscribe = client.subscribe_bluetooth_le_raw_advertisements(
        lambda batch: heard.update(adv.address for adv in batch.advertisements))
    await asyncio.sleep(args.listen)
    emit(heard=sorted(f'{a:012X}' for a in heard if a in (HEART, SPEED)))

    heart, speed = Link(), Link()
    for address, link, name in ((HEART, heart, 'heart'), (SPEED, speed, 'speed')):
        await asyncio.wait_for(client.bluetooth_device_connect(address, link, timeout=20, feature_flags=flags,
                                                               has_cache=False, address_type=1), 25)
        emit(connected={'device': name, 'state': await link.becomes(True, 5)})
    emit(connections_free_both=await free_becomes(lambda u: u[2] == [HEART, SPEED], 'allocated to both'))
    services = await asyncio.wait_for(client.bluetooth_gatt_get_services(HEART), 20)
    location = next(c for s in services.services for c in s.characteristics if c.uuid == BODY_SENSOR_LOCATION)

    # The first adapter lost for the rest of the run.
    control_request(args.world_control, {'cmd': 'hci_drop', 'host': 0, 'refuse_s': 120})
    emit(lost=await heart.becomes(False, 15))
    emit(connections_free_lost=await free_becomes(lambda u: u[1] < 10 and u[2] == [SPEED], 'one adapter less'))

    # Home Assistant's integrations connect again themselves (bleak-retry-connector).
    heart_again = Link()
    await asyncio.wait_for(client.bluetooth_device_connect(HEART, heart_again, timeout=20, feature_flags=flags,
                                                           has_cache=True, address_type=1), 25)
    emit(reconnected=await heart_again.becomes(True, 5))
    value = await asyncio.wait_for(client.bluetooth_gatt_read(HEART, location.handle), 10)
    emit(read_after=bytes(value).hex())
    emit(connections_free_again=await free_becomes(lambda u: u[2] == [HEART, SPEED], 'both allocated again'))
    emit(speed_states=speed.states)

    for address in (HEART, SPEED):
        await asyncio.wait_for(client.bluetooth_device_disconnect(address), 15)
    await asyncio.wait_for(client.disconnect(), 10)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument('--port', type=int, required=True)
    parser.add_argument('--world-control', type=int, required=True)
    parser.add_argument('--key')
    parser.add_argument('--listen', type=float, default=3.0, help='seconds of raw advertisements')
    args = parser.parse_args()
    return asyncio.run(observed(lambda: scenario(args)))


if __name__ == '__main__':
    sys.exit(main())
