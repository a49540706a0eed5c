"""bleak through bleak-esphome and habluetooth (Home Assistant's Bluetooth stack) against a proxy,
without BlueZ: habluetooth's manager with no local adapter, the proxy's scanner registered the
way bleak-esphome's APIConnectionManager registers it (that class always dials port 6053), then a
BleakClient connect, read and start_notify. One JSON line per observation.

    python -m world.bleak_client --port P --address AA:BB:CC:DD:EE:FF --read UUID --notify UUID [--key BASE64]

Prints {"manager": "set up"}, {"scanner": name}, {"seen": address}, {"connected": true},
{"read": hex}, {"notified": hex}, {"disconnected": true} and {"done": true}; an exception is
printed as {"error": class, "message": text, "where": "file:line"} and the exit status is 1.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import sys
import traceback

import habluetooth
from aioesphomeapi import APIClient
from bleak_esphome import connect_scanner
from habluetooth import BluetoothManager, HaBleakClientWrapper


def emit(**fields: object) -> None:
    print(json.dumps(fields), flush=True)


class Manager(BluetoothManager):
    """Home Assistant's manager keeps what scanners discover; here a future per address."""

    def __init__(self) -> None:
        super().__init__()
        self.waiting: dict[str, asyncio.Future] = {}

    def _discover_service_info(self, service_info) -> None:
        future = self.waiting.get(service_info.address.upper())
        if future is not None and not future.done():
            future.set_result(service_info)


async def run(args: argparse.Namespace) -> int:
    try:
        manager = Manager()
        habluetooth.set_manager(manager)
        await manager.async_setup()
        emit(manager='set up')
        cli = APIClient('127.0.0.1', args.port, None, noise_psk=args.key, client_info='rtstack bleak test')
        await asyncio.wait_for(cli.connect(login=True), 10)
        info = await asyncio.wait_for(cli.device_info(), 10)
        seen = manager.waiting[args.address.upper()] = asyncio.get_running_loop().create_future()
        data = connect_scanner(cli, info, True)
        data.scanner.async_setup()
        manager.async_register_scanner(data.scanner)
        emit(scanner=data.scanner.name)
        await asyncio.wait_for(seen, 10)
        emit(seen=args.address.upper())
        client = HaBleakClientWrapper(args.address, timeout=10)
        await asyncio.wait_for(client.connect(), 20)
        emit(connected=client.is_connected)
        value = await asyncio.wait_for(client.read_gatt_char(args.read), 10)
        emit(read=bytes(value).hex())
        notified: asyncio.Future = asyncio.get_running_loop().create_future()

        def on_notify(_characteristic, payload: bytearray) -> None:
            if not notified.done():
                notified.set_result(bytes(payload))

        await asyncio.wait_for(client.start_notify(args.notify, on_notify), 10)
        emit(notified=(await asyncio.wait_for(notified, 10)).hex())
        await asyncio.wait_for(client.disconnect(), 10)
        emit(disconnected=True)
        await asyncio.wait_for(cli.disconnect(), 10)
        emit(done=True)
        return 0
    except Exception as error:  # every failure is an observation for the test
        frame = traceback.extract_tb(error.__traceback__)[-1] if error.__traceback__ else None
        emit(error=type(error).__name__, message=str(error),
             where=f'{frame.filename}:{frame.lineno}' if frame else '')
        return 1


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument('--port', type=int, required=True)
    parser.add_argument('--address', required=True)
    parser.add_argument('--read', required=True)
    parser.add_argument('--notify', required=True)
    parser.add_argument('--key')
    return asyncio.run(run(parser.parse_args()))


if __name__ == '__main__':
    sys.exit(main())
