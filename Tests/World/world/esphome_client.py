"""Home Assistant's own ESPHome client (aioesphomeapi) driven against a proxy, one JSON line per
observation, so the Swift tests can hold rtstack's Bluetooth proxy to what the real client does.

    python -m world.esphome_client --port P [--key BASE64] [--expect-name N] [--advertisements N]

Prints {"device_info": {...}}, {"connections_free": [...]}, {"advertisements": [...]} and
{"done": true}; an error the client raises is printed as {"error": class, "message": text} and
the exit status is 1.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import sys

from aioesphomeapi import APIClient


def emit(**fields: object) -> None:
    print(json.dumps(fields), flush=True)


async def observed(body) -> int:
    """Runs `body()`; then {"done": true}, or its failure as an observation for the test:
    {"error": class, "message": text} and exit status 1."""
    try:
        await body()
        emit(done=True)
        return 0
    except Exception as error:  # every failure is an observation for the test
        emit(error=type(error).__name__, message=str(error))
        return 1


async def open_proxy(port: int, key: str | None, client_info: str) -> tuple[APIClient, int]:
    """A client logged in to the proxy on `port`, and the feature flags its device info gives."""
    client = APIClient('127.0.0.1', port, None, noise_psk=key, client_info=client_info)
    await asyncio.wait_for(client.connect(login=True), 15)
    info = await asyncio.wait_for(client.device_info(), 10)
    return client, info.bluetooth_proxy_feature_flags_compat(client.api_version)


class LinkStates:
    """The connection states the proxy reports for one address ([connected, mtu, error]), given
    to `bluetooth_device_connect` as its callback, and a wait for the next one wanted."""

    def __init__(self) -> None:
        self.states: list[list] = []
        self._changed = asyncio.Event()

    def __call__(self, connected: bool, mtu: int, error: int) -> None:
        self.states.append([connected, mtu, error])
        self._changed.set()

    async def becomes(self, connected: bool, timeout: float = 15) -> list:
        async def wait() -> list:
            while not (self.states and self.states[-1][0] == connected):
                self._changed.clear()
                await self._changed.wait()
            return self.states[-1]
        return await asyncio.wait_for(wait(), timeout)


async def connected_link(client: APIClient, flags: int, address: int) -> LinkStates:
    """A v3 connect without cache to the random `address`, its states once it is up."""
    states = LinkStates()
    await asyncio.wait_for(client.bluetooth_device_connect(address, states, timeout=20, feature_flags=flags,
                                                           has_cache=False, address_type=1), 25)
    await states.becomes(True)
    return states


async def run(args: argparse.Namespace) -> None:
    client = APIClient('127.0.0.1', args.port, None, noise_psk=args.key,
                       expected_name=args.expect_name, client_info='rtstack test')
    await asyncio.wait_for(client.connect(login=True), 10)
    info = await asyncio.wait_for(client.device_info(), 10)
    emit(device_info={
        'name': info.name, 'friendly_name': info.friendly_name, 'mac_address': info.mac_address,
        'bluetooth_mac_address': info.bluetooth_mac_address, 'model': info.model,
        'manufacturer': info.manufacturer, 'esphome_version': info.esphome_version,
        'feature_flags': info.bluetooth_proxy_feature_flags_compat(client.api_version),
        'api_version': [client.api_version.major, client.api_version.minor],
    })
    entities, services = await asyncio.wait_for(client.list_entities_services(), 10)
    emit(entities=len(entities), services=len(services))
    free: asyncio.Future = asyncio.get_running_loop().create_future()

    def on_free(free_slots: int, limit: int, allocated: list[int]) -> None:
        if not free.done():
            free.set_result([free_slots, limit, allocated])

    client.subscribe_bluetooth_connections_free(on_free)
    emit(connections_free=await asyncio.wait_for(free, 10))
    if args.advertisements:
        seen: list[dict] = []
        enough: asyncio.Future = asyncio.get_running_loop().create_future()

        def on_advertisements(batch) -> None:
            for adv in batch.advertisements:
                seen.append({'address': adv.address, 'rssi': adv.rssi,
                             'address_type': adv.address_type, 'data': adv.data.hex()})
            if len(seen) >= args.advertisements and not enough.done():
                enough.set_result(None)

        unsubscribe = client.subscribe_bluetooth_le_raw_advertisements(on_advertisements)
        await asyncio.wait_for(enough, 10)
        unsubscribe()
        emit(advertisements=seen)
    await asyncio.wait_for(client.disconnect(), 10)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument('--port', type=int, required=True)
    parser.add_argument('--key')
    parser.add_argument('--expect-name')
    parser.add_argument('--advertisements', type=int, default=0)
    args = parser.parse_args()
    return asyncio.run(observed(lambda: run(args)))


if __name__ == '__main__':
    sys.exit(main())
