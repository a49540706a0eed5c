"""Home Assistant's ESPHome client (aioesphomeapi) using `rtstack gateway --esphome` as a Bluetooth
proxy, the way Home Assistant's Bluetooth integration does: one JSON line per fact, for the Swift
test to check. It runs on both test worlds:

    python -m world.esphome_proxy_scenario --port P --world-control C [--key BASE64]
    python -m world.esphome_proxy_scenario --port P --device E72412404954 --named E72412404954,... \
        --write-cccd-of 2a19 --refused 2a39 --self-ending FE2978F22980 --patience 4   # Zephyr world

Steps: device info; connections free (every update); raw advertisements (kept on to the end, as
Home Assistant does) for `--listen` seconds, then until every `--named` address has been heard
with a name (per address: RSSI, address type, the names advertised); with `--switch-modes`, the
scanner passive then active again (reports and names in each); connect v3 without cache to
`--device` (the Bumble world's Heart 1 unless told); its services; a read of Body Sensor Location;
notifications of Heart Rate Measurement after the client writes the CCCD itself; who was heard
meanwhile; the writes (`--write`: 01 to a characteristic; `--write-cccd-of`: 0100 to its CCCD;
`--refused`: 01 to one that must answer with an ATT error); disconnect; a connect to an address
nobody has, given up after 3 s as the client does (it asks for the pending link's disconnection);
connect v3 with cache; then a peer lost: the Bumble world drops the device (`--world-control`),
or the client connects to `--self-ending`, a peer that ends the link itself (Zephyr's sc_only,
when the central does not pair); {"done": true}. A failure prints {"error": class, "message":
text} and exits 1. `--patience` multiplies every wait (the Zephyr world's link layer takes two
connection events per ATT request, and its seconds run slower on a busy machine).
"""
from __future__ import annotations

import argparse
import asyncio
import sys

from aioesphomeapi import APIClient
from aioesphomeapi.core import BluetoothGATTAPIError, TimeoutAPIError
from aioesphomeapi.model import BluetoothScannerMode

from world.control_client import control_request
from world.esphome_client import emit, observed

HEART_1 = 0xC10000000001
ABSENT = 0xFFEEDDCCBBAA
HEART_RATE_MEASUREMENT = '00002a37-0000-1000-8000-00805f9b34fb'
BODY_SENSOR_LOCATION = '00002a38-0000-1000-8000-00805f9b34fb'
CCCD = '00002902-0000-1000-8000-00805f9b34fb'


def uuid128(short: str) -> str:
    """A 16-bit UUID ("2a19") as the client names it."""
    return f'0000{short.lower()}-0000-1000-8000-00805f9b34fb' if len(short) == 4 else short.lower()


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
    def within(seconds: float) -> float:
        return seconds * args.patience

    device = args.device
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
            return await asyncio.wait_for(wait(), within(10))
        except TimeoutError:
            raise TimeoutError(f'connections free never became {what}; updates: {free_updates}') from None

    emit(connections_free=await free_becomes(lambda u: u[1] > 0, 'offered (the adapter up)'))

    heard: dict[int, dict] = {}
    scanner_states: list[list[int]] = []
    client.subscribe_bluetooth_scanner_state(
        lambda s: scanner_states.append([int(s.state), int(s.mode)]))
    all_named = asyncio.Event()
    reports = [0, 0]  # advertising reports, and those with a name

    def on_advertisements(batch) -> None:
        for adv in batch.advertisements:
            entry = heard.setdefault(adv.address, {'rssi': [], 'address_type': adv.address_type, 'names': []})
            entry['rssi'].append(adv.rssi)
            reports[0] += 1
            reports[1] += bool(names(bytes(adv.data)))
            for n in names(bytes(adv.data)):
                if n not in entry['names']:
                    entry['names'].append(n)
        if all(heard.get(a, {}).get('names') for a in args.named):
            all_named.set()

    # Home Assistant keeps taking advertisements while it holds links: so does the scenario.
    unsubscribe = client.subscribe_bluetooth_le_raw_advertisements(on_advertisements)
    await asyncio.sleep(args.listen)
    try:
        await asyncio.wait_for(all_named.wait(), within(15))
    except TimeoutError:
        pass  # what was heard is the fact; the test names who is missing
    emit(advertisements={f'{address:012X}': {'rssi': max(e['rssi']), 'rssi_min': min(e['rssi']),
                                             'address_type': e['address_type'], 'names': e['names'],
                                             'count': len(e['rssi'])}
                         for address, e in heard.items()},
         scanner_states=scanner_states)

    if args.switch_modes:
        # Passive, then active again, as Home Assistant's scanner settings switch it: per mode the
        # reports and how many carried a name, counted for `--switch-modes` seconds once settled.
        # Settled: the proxy has reported the new mode (it does on the request), then half a
        # second more times the patience for the controller to restart its scan with it and
        # for the reports already on their way: on a loaded machine the simulated world still
        # delivered scan responses a second after a switch to passive.
        modes = {}
        for mode in (BluetoothScannerMode.PASSIVE, BluetoothScannerMode.ACTIVE):
            client.bluetooth_scanner_set_mode(mode)
            deadline = asyncio.get_running_loop().time() + within(10)
            while not (scanner_states and scanner_states[-1][1] == int(mode)):
                if asyncio.get_running_loop().time() > deadline:
                    break  # the test names the states it got
                await asyncio.sleep(0.05)
            await asyncio.sleep(within(0.5))
            reports[:] = [0, 0]
            await asyncio.sleep(args.switch_modes)
            modes[mode.name.lower()] = {'reports': reports[0], 'named': reports[1]}
        emit(modes=modes, scanner_states_after_modes=scanner_states)

    states: list[list] = []
    connected = asyncio.Event()
    lost = asyncio.Event()

    def on_state(is_connected: bool, mtu: int, error: int) -> None:
        states.append([is_connected, mtu, error])
        (connected if is_connected else lost).set()

    async def connect(address: int, has_cache: bool) -> None:
        connected.clear()
        lost.clear()
        await asyncio.wait_for(client.bluetooth_device_connect(address, on_state, timeout=within(20), feature_flags=flags,
                                                               has_cache=has_cache, address_type=1), within(25))

    await connect(device, False)
    await asyncio.wait_for(connected.wait(), 5)
    counts = {a: len(e['rssi']) for a, e in heard.items()}
    emit(connected={'mtu': states[-1][1], 'with_cache': False})
    emit(connections_free_connected=await free_becomes(lambda u: device in u[2], 'allocated to the device'))

    services = await asyncio.wait_for(client.bluetooth_gatt_get_services(device), within(20))
    characteristics = {c.uuid: c for s in services.services for c in s.characteristics}
    emit(services=[s.uuid for s in services.services])
    measurement = characteristics[HEART_RATE_MEASUREMENT]
    location = characteristics[BODY_SENSOR_LOCATION]
    cccd = next(d.handle for d in measurement.descriptors if d.uuid == CCCD)

    value = await asyncio.wait_for(client.bluetooth_gatt_read(device, location.handle), within(10))
    emit(read={'handle': location.handle, 'value': bytes(value).hex()})

    notifications: list[str] = []
    enough = asyncio.Event()

    def on_notify(handle: int, data: bytearray) -> None:
        notifications.append(bytes(data).hex())
        if len(notifications) >= 3:
            enough.set()

    await asyncio.wait_for(client.bluetooth_gatt_start_notify(device, measurement.handle, on_notify), within(10))
    # With remote caching the client writes the CCCD itself, as bleak-esphome does.
    await asyncio.wait_for(client.bluetooth_gatt_write_descriptor(device, cccd, b'\x01\x00'), within(10))
    await asyncio.wait_for(enough.wait(), within(15))
    emit(notifications={'handle': measurement.handle, 'cccd': cccd, 'values': notifications[:3]})
    # Scanning went on beside the link (Zephyr's controller refuses scan commands while it initiates).
    emit(heard_while_connected={f'{a:012X}': len(e['rssi']) - counts.get(a, 0) for a, e in heard.items()
                                if len(e['rssi']) > counts.get(a, 0)})

    if args.write:
        handle = characteristics[uuid128(args.write)].handle
        await asyncio.wait_for(client.bluetooth_gatt_write(device, handle, b'\x01', True), within(10))
        emit(wrote={'handle': handle})
    if args.write_cccd_of:
        handle = next(d.handle for d in characteristics[uuid128(args.write_cccd_of)].descriptors if d.uuid == CCCD)
        await asyncio.wait_for(client.bluetooth_gatt_write_descriptor(device, handle, b'\x01\x00'), within(10))
        emit(wrote={'handle': handle, 'cccd_of': args.write_cccd_of})
    if args.refused:
        handle = characteristics[uuid128(args.refused)].handle
        try:
            await asyncio.wait_for(client.bluetooth_gatt_write(device, handle, b'\x01', True), within(10))
            emit(refused={'handle': handle, 'error': None})
        except BluetoothGATTAPIError as error:
            emit(refused={'handle': handle, 'error': error.error.error})

    await asyncio.wait_for(client.bluetooth_device_disconnect(device), within(15))
    emit(disconnected=states[-1])
    emit(connections_free_after=await free_becomes(lambda u: device not in u[2], 'free of the device'))

    # Home Assistant gives up on a device nobody has: its client asks for the disconnection of the
    # pending link, and the proxy must answer it and free the initiator for the next connection.
    gave_up = {}
    try:
        await client.bluetooth_device_connect(ABSENT, lambda *state: None, timeout=3, disconnect_timeout=within(5),
                                              feature_flags=flags, has_cache=True, address_type=1)
    except TimeoutAPIError as error:
        gave_up = {'error': type(error).__name__, 'disconnect_timed_out': 'disconnect timed out: True' in str(error)}
    emit(gave_up=gave_up)
    emit(connections_free_gave_up=await free_becomes(lambda u: ABSENT not in u[2], 'free of the absent device'))

    await connect(device, True)
    await asyncio.wait_for(connected.wait(), 5)
    emit(connected={'mtu': states[-1][1], 'with_cache': True})
    value = await asyncio.wait_for(client.bluetooth_gatt_read(device, location.handle), within(10))
    emit(read_with_cache=bytes(value).hex())

    if args.world_control is not None:
        control_request(args.world_control, {'cmd': 'drop', 'device': 'Heart 1', 'reason': 0x13})
        await asyncio.wait_for(lost.wait(), within(15))
        emit(lost=states[-1])
        emit(connections_free_end=await free_becomes(lambda u: device not in u[2], 'free of the device again'))
    else:
        await asyncio.wait_for(client.bluetooth_device_disconnect(device), within(15))
        peer, first = args.self_ending, len(states)
        await connect(peer, True)
        await asyncio.wait_for(lost.wait(), within(15))
        emit(lost=states[-1], lost_states=states[first:])
        emit(connections_free_end=await free_becomes(lambda u: device not in u[2] and peer not in u[2],
                                                     'free of both devices'))

    unsubscribe()
    await asyncio.wait_for(client.disconnect(), 10)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument('--port', type=int, required=True)
    lose = parser.add_mutually_exclusive_group(required=True)
    lose.add_argument('--world-control', type=int, help="the Bumble world's control port: it drops Heart 1")
    lose.add_argument('--self-ending', type=lambda s: int(s, 16), help='a peer that ends the link itself (hex address)')
    parser.add_argument('--key')
    parser.add_argument('--device', type=lambda s: int(s, 16), default=HEART_1, help='the heart-rate sensor (hex address)')
    parser.add_argument('--named', type=lambda s: [int(a, 16) for a in s.split(',')], default=[],
                        help='keep listening until these (hex, comma-separated) were heard with a name')
    parser.add_argument('--write', help='a characteristic (UUID) that takes a write of 01')
    parser.add_argument('--write-cccd-of', help="a characteristic (UUID) whose CCCD takes 0100")
    parser.add_argument('--refused', help='a characteristic (UUID) that answers a write of 01 with an ATT error')
    parser.add_argument('--switch-modes', type=float, help='switch the scanner to passive and back, listening this many seconds in each')
    parser.add_argument('--listen', type=float, default=3.0, help='seconds of raw advertisements')
    parser.add_argument('--patience', type=float, default=1.0, help='factor on every wait')
    args = parser.parse_args()
    return asyncio.run(observed(lambda: scenario(args)))


if __name__ == '__main__':
    sys.exit(main())
