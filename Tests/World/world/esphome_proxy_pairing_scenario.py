"""Home Assistant's ESPHome client (aioesphomeapi) pairing through `rtstack gateway --esphome` with a
Bumble world device that requires encryption (`--secure just-works`): one JSON line per fact, for
the Swift test to check.

    python -m world.esphome_proxy_pairing_scenario --port P --state-dir DIR [--key BASE64]

Steps: device info (the pairing flag); connect v3 to Secure 1; pair (the gateway's bond files in
DIR after it); read the characteristic that needs an encrypted link; pair again (already
encrypted: answered at once); unpair (the bond files after it, and the link ended); pair with no
link; {"done": true}. A failure prints {"error": class, "message": text} and exits 1.
"""
from __future__ import annotations

import argparse
import asyncio
import os
import sys

from aioesphomeapi import APIClient

from world.esphome_client import emit, observed

SECURE = 0xC50000000001
HEART = 0xC10000000001
ENCRYPTED_CHARACTERISTIC = '5ec0a001-7273-7461-636b-000000000000'


def bond_files(directory: str) -> list[str]:
    return sorted(n for n in os.listdir(directory) if n.startswith('bond-'))


async def scenario(args: argparse.Namespace) -> None:
    client = APIClient('127.0.0.1', args.port, None, noise_psk=args.key, client_info='rtstack pairing scenario')
    await asyncio.wait_for(client.connect(login=True), 15)
    info = await asyncio.wait_for(client.device_info(), 10)
    flags = info.bluetooth_proxy_feature_flags_compat(client.api_version)
    emit(feature_flags=flags)

    states: list[list] = []
    changed = asyncio.Event()

    def on_state(connected: bool, mtu: int, error: int) -> None:
        states.append([connected, mtu, error])
        changed.set()

    async def state_becomes(connected: bool) -> list:
        async def wait() -> list:
            while not (states and states[-1][0] == connected):
                changed.clear()
                await changed.wait()
            return states[-1]
        return await asyncio.wait_for(wait(), 15)

    await asyncio.wait_for(client.bluetooth_device_connect(SECURE, on_state, timeout=20, feature_flags=flags,
                                                           has_cache=False, address_type=1), 25)
    emit(connected=await state_becomes(True))

    paired = await asyncio.wait_for(client.bluetooth_device_pair(SECURE), 35)
    emit(paired={'paired': paired.paired, 'error': paired.error}, bonds_after_pair=bond_files(args.state_dir))

    services = await asyncio.wait_for(client.bluetooth_gatt_get_services(SECURE), 20)
    encrypted = next(c for s in services.services for c in s.characteristics if c.uuid == ENCRYPTED_CHARACTERISTIC)
    value = await asyncio.wait_for(client.bluetooth_gatt_read(SECURE, encrypted.handle), 10)
    emit(read=bytes(value).decode('utf-8', 'replace'))

    again = await asyncio.wait_for(client.bluetooth_device_pair(SECURE), 10)
    emit(paired_again={'paired': again.paired, 'error': again.error})

    unpaired = await asyncio.wait_for(client.bluetooth_device_unpair(SECURE), 10)
    emit(unpaired={'success': unpaired.success, 'error': unpaired.error}, bonds_after_unpair=bond_files(args.state_dir))
    emit(dropped=await state_becomes(False))

    unconnected = await asyncio.wait_for(client.bluetooth_device_pair(HEART), 10)
    emit(pair_unconnected={'paired': unconnected.paired, 'error': unconnected.error})
    await asyncio.wait_for(client.disconnect(), 10)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument('--port', type=int, required=True)
    parser.add_argument('--state-dir', required=True)
    parser.add_argument('--key')
    args = parser.parse_args()
    return asyncio.run(observed(lambda: scenario(args)))


if __name__ == '__main__':
    sys.exit(main())
