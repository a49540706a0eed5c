"""Home Assistant's ESPHome client (aioesphomeapi) using `rtstack gateway --esphome` as a Bluetooth
proxy against the Bumble world, the way Home Assistant's Bluetooth integration does: one JSON line
per fact, for the Swift test to check.

    python -m world.esphome_proxy_scenario --port P --world-control C [--key BASE64]

Steps: device info; connections free (every update); raw advertisements for a while (per address:
RSSI, address type, the names advertised); connect v3 without cache to Heart 1; its services; a read
of Body Sensor Location; notifications of Heart Rate Measurement after the client writes the CCCD
itself; a write of the Heart Rate Control Point; disconnect; connect v3 with cache; the world drops
the peripheral and the loss is reported; {"done": true}. A failure prints {"error": class,
"message": text} and exits 1.
"""
from __future__ import annotations

import argparse
import asyncio
import sys

from aioesphomeapi import APIClient

from world.control_client import control_request
from world.esphome_client import emit, observed

HEART = 0xC10000000001
HEART_RATE_MEASUREMENT = '00002a37-0000-1000-8000-00805f9b34fb'
BODY_SENSOR_LOCATION = '00002a38-0000-1000-8000-00805f9b34fb'
CONTROL_POINT = '00002a39-0000-1000-8000-00805f9b34fb'
CCCD = '00002902-0000-1000-8000-00805f9b34fb'


def names(data: bytes) -> list[str]:
    """The Shortened (0x08) and Complete (0x09) Local Names of one advertising payload."""
    out, i = [], 0
    while i < len(data):
        length = data[i]
        if length == 0 or i + 1 + length > len(data):
            break
        kind, value = data[i + 1], data[i + 2:i + 1 + length]
        if kind in (0x08, 0x09):
            out.append(value.decode('utf-8', 'replace'))
        i += 1 + length
    return out


async def scenario(args: argparse.Namespace) -> None:
    client = APIClient('127.0.0.1', args.port, None, noise_psk=args.key, client_info='rtstack proxy scenario')
    await asyncio.wait_for(client.connect(login=True), 15)
    info = await asyncio.wait_for(client.device_info(), 10)
    flags = info.bluetooth_proxy_feature_flags_compat(client.api_version)
    emit(device_info={'name': info.name, 'mac_address': info.mac_address,
                      'bluetooth_mac_address': info.bluetooth_mac_address, 'feature_flags': flags,
                      'api_version': [client.api_version.major, client.api_version.minor]})

    free_updates: list[list] = []
    free_changed = asyncio.Event()

    def on_free(free: int, limit: int, allocated: list[int]) -> None:
        free_updates.append([free, limit, list(allocated)])
        free_changed.set()

    client.subscribe_bluetooth_connections_free(on_free)

    async def free_becomes(predicate, what: str) -> list:
        async def wait() -> list:
            while True:
                if free_updates and predicate(free_updates[-1]):
                    return free_updates[-1]
                free_changed.clear()
                await free_changed.wait()
        try:
            return await asyncio.wait_for(wait(), 10)
        except TimeoutError:
            raise TimeoutError(f'connections free never became {what}; updates: {free_updates}') from None

    emit(connections_free=await free_becomes(lambda u: u[1] > 0, 'offered (the adapter up)'))

    heard: dict[int, dict] = {}
    scanner_states: list[list[int]] = []
    client.subscribe_bluetooth_scanner_state(
        lambda s: scanner_states.append([int(s.state), int(s.mode)]))

    def on_advertisements(batch) -> None:
        for adv in batch.advertisements:
            entry = heard.setdefault(adv.address, {'rssi': [], 'address_type': adv.address_type, 'names': []})
            entry['rssi'].append(adv.rssi)
            for n in names(bytes(adv.data)):
                if n not in entry['names']:
                    entry['names'].append(n)

    unsubscribe = client.subscribe_bluetooth_le_raw_advertisements(on_advertisements)
    await asyncio.sleep(args.listen)
    unsubscribe()
    emit(advertisements={f'{address:012X}': {'rssi': max(e['rssi']), 'address_type': e['address_type'],
                                             'names': e['names'], 'count': len(e['rssi'])}
                         for address, e in heard.items()},
         scanner_states=scanner_states)

    states: list[list] = []
    connected = asyncio.Event()
    lost = asyncio.Event()

    def on_state(is_connected: bool, mtu: int, error: int) -> None:
        states.append([is_connected, mtu, error])
        (connected if is_connected else lost).set()

    await asyncio.wait_for(client.bluetooth_device_connect(HEART, on_state, timeout=20, feature_flags=flags,
                                                           has_cache=False, address_type=1), 25)
    await asyncio.wait_for(connected.wait(), 5)
    emit(connected={'mtu': states[-1][1], 'with_cache': False})
    emit(connections_free_connected=await free_becomes(lambda u: HEART in u[2], 'allocated to Heart 1'))

    services = await asyncio.wait_for(client.bluetooth_gatt_get_services(HEART), 20)
    characteristics = {c.uuid: c for s in services.services for c in s.characteristics}
    emit(services=[s.uuid for s in services.services])
    measurement = characteristics[HEART_RATE_MEASUREMENT]
    location = characteristics[BODY_SENSOR_LOCATION]
    control_point = characteristics[CONTROL_POINT]
    cccd = next(d.handle for d in measurement.descriptors if d.uuid == CCCD)

    value = await asyncio.wait_for(client.bluetooth_gatt_read(HEART, location.handle), 10)
    emit(read={'handle': location.handle, 'value': bytes(value).hex()})

    notifications: list[str] = []
    enough = asyncio.Event()

    def on_notify(handle: int, data: bytearray) -> None:
        notifications.append(bytes(data).hex())
        if len(notifications) >= 3:
            enough.set()

    await asyncio.wait_for(client.bluetooth_gatt_start_notify(HEART, measurement.handle, on_notify), 10)
    # With remote caching the client writes the CCCD itself, as bleak-esphome does.
    await asyncio.wait_for(client.bluetooth_gatt_write_descriptor(HEART, cccd, b'\x01\x00'), 10)
    await asyncio.wait_for(enough.wait(), 15)
    emit(notifications={'handle': measurement.handle, 'cccd': cccd, 'values': notifications[:3]})

    await asyncio.wait_for(client.bluetooth_gatt_write(HEART, control_point.handle, b'\x01', True), 10)
    emit(wrote={'handle': control_point.handle})

    await asyncio.wait_for(client.bluetooth_device_disconnect(HEART), 15)
    emit(disconnected=states[-1])
    emit(connections_free_after=await free_becomes(lambda u: HEART not in u[2], 'free of Heart 1'))

    connected.clear()
    lost.clear()
    await asyncio.wait_for(client.bluetooth_device_connect(HEART, on_state, timeout=20, feature_flags=flags,
                                                           has_cache=True, address_type=1), 25)
    await asyncio.wait_for(connected.wait(), 5)
    emit(connected={'mtu': states[-1][1], 'with_cache': True})
    value = await asyncio.wait_for(client.bluetooth_gatt_read(HEART, location.handle), 10)
    emit(read_with_cache=bytes(value).hex())
    control_request(args.world_control, {'cmd': 'drop', 'device': 'Heart 1', 'reason': 0x13})
    await asyncio.wait_for(lost.wait(), 15)
    emit(lost=states[-1])
    emit(connections_free_end=await free_becomes(lambda u: HEART not in u[2], 'free of Heart 1 again'))

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
