"""Home Assistant's ESPHome client (aioesphomeapi) holding several links through `rtstack gateway
--esphome` at once, each notifying: one JSON line per fact, for the Swift test to check.

    python -m world.esphome_proxy_links --port P --notify E72412404954:2a37 --notify C402952CF1AF:2a6e \
        [--count 2] [--key BASE64] [--patience 4]

Per `--notify ADDRESS:UUID`: connect v3 without cache (all at once, as Home Assistant's devices
do), services, then the first characteristic of that UUID registered and its CCCD written by the
client; once each has sent `--count` values: {"links": {ADDRESS: {"mtu", "handle", "values"}}},
the disconnections, the slots free again, {"done": true}. A failure prints {"error": class,
"message": text} and exits 1.
"""
from __future__ import annotations

import argparse
import asyncio
import sys

from aioesphomeapi import APIClient

from world.esphome_client import emit, observed
from world.esphome_proxy_scenario import CCCD, uuid128


async def links(args: argparse.Namespace) -> None:
    def within(seconds: float) -> float:
        return seconds * args.patience

    client = APIClient('127.0.0.1', args.port, None, noise_psk=args.key, client_info='rtstack proxy links')
    await asyncio.wait_for(client.connect(login=True), 15)
    info = await asyncio.wait_for(client.device_info(), 10)
    flags = info.bluetooth_proxy_feature_flags_compat(client.api_version)
    free: list[list] = []
    client.subscribe_bluetooth_connections_free(lambda f, limit, allocated: free.append([f, limit, list(allocated)]))
    unsubscribe = client.subscribe_bluetooth_le_raw_advertisements(lambda batch: None)

    wanted = [(int(a, 16), uuid128(u)) for a, u in (n.split(':') for n in args.notify)]
    facts: dict[int, dict] = {a: {'values': []} for a, _ in wanted}
    enough = {a: asyncio.Event() for a, _ in wanted}

    async def follow(address: int, uuid: str) -> None:
        def on_state(connected: bool, mtu: int, error: int) -> None:
            facts[address].setdefault('states', []).append([connected, mtu, error])

        await asyncio.wait_for(client.bluetooth_device_connect(address, on_state, timeout=within(20), feature_flags=flags,
                                                               has_cache=False, address_type=1), within(25))
        facts[address]['mtu'] = facts[address]['states'][-1][1]
        services = await asyncio.wait_for(client.bluetooth_gatt_get_services(address), within(20))
        characteristic = next(c for s in services.services for c in s.characteristics if c.uuid == uuid)
        cccd = next(d.handle for d in characteristic.descriptors if d.uuid == CCCD)
        facts[address]['handle'] = characteristic.handle

        def on_notify(handle: int, data: bytearray) -> None:
            facts[address]['values'].append(bytes(data).hex())
            if len(facts[address]['values']) >= args.count:
                enough[address].set()

        await asyncio.wait_for(client.bluetooth_gatt_start_notify(address, characteristic.handle, on_notify), within(10))
        await asyncio.wait_for(client.bluetooth_gatt_write_descriptor(address, cccd, b'\x01\x00'), within(10))
        await asyncio.wait_for(enough[address].wait(), within(20))

    await asyncio.gather(*(follow(a, u) for a, u in wanted))
    emit(links={f'{a:012X}': {k: f[k] for k in ('mtu', 'handle')} | {'values': f['values'][:args.count]}
                for a, f in facts.items()},
         connections_free_held=free[-1])
    await asyncio.gather(*(asyncio.wait_for(client.bluetooth_device_disconnect(a), within(15)) for a, _ in wanted))
    emit(disconnected={f'{a:012X}': f['states'][-1] for a, f in facts.items()})
    for _ in range(int(within(50))):
        if free and not free[-1][2]:
            break
        await asyncio.sleep(0.1)
    emit(connections_free_end=free[-1])
    unsubscribe()
    await asyncio.wait_for(client.disconnect(), 10)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument('--port', type=int, required=True)
    parser.add_argument('--notify', action='append', required=True, help='ADDRESS:UUID (hex address, as the API numbers it)')
    parser.add_argument('--count', type=int, default=2, help='values to wait for on each link')
    parser.add_argument('--key')
    parser.add_argument('--patience', type=float, default=1.0, help='factor on every wait')
    args = parser.parse_args()
    return asyncio.run(observed(lambda: links(args)))


if __name__ == '__main__':
    sys.exit(main())
