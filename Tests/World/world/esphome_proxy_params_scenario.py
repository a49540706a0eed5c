"""Home Assistant's ESPHome client (aioesphomeapi) setting connection parameters through
`rtstack gateway --esphome` on the Bumble world: one JSON line per fact, for the Swift test.

    python -m world.esphome_proxy_params_scenario --port P [--key BASE64]

Steps: device info (the connection parameters flag); connect v3 to Heart 1; set its connection
parameters (interval 12–16 × 1.25 ms, latency 2, supervision timeout 300 × 10 ms); set them for a
device with no link (the proxy's error code); disconnect; {"done": true}. A failure prints
{"error": class, "message": text} and exits 1.
"""
from __future__ import annotations

import argparse
import asyncio
import sys

from aioesphomeapi.core import BluetoothConnectionParamsAPIError

from world.esphome_client import connected_link, emit, observed, open_proxy

HEART = 0xC10000000001
ABSENT = 0xC90000000009
PARAMETERS = {'min_interval': 12, 'max_interval': 16, 'latency': 2, 'timeout': 300}


async def scenario(args: argparse.Namespace) -> None:
    client, flags = await open_proxy(args.port, args.key, 'rtstack params scenario')
    emit(feature_flags=flags)

    states = await connected_link(client, flags, HEART)
    emit(connected=states.states[-1])

    await asyncio.wait_for(client.bluetooth_device_set_connection_params(HEART, **PARAMETERS), 10)
    emit(parameters_set=PARAMETERS)
    # The peer's LE Connection Update Complete comes after the answer: time for it.
    await asyncio.sleep(1.0)

    try:
        await asyncio.wait_for(client.bluetooth_device_set_connection_params(ABSENT, **PARAMETERS), 10)
        emit(absent={'error': None})
    except BluetoothConnectionParamsAPIError as error:
        emit(absent={'error': error.error_code})

    await asyncio.wait_for(client.bluetooth_device_disconnect(HEART), 20)
    emit(disconnected=await states.becomes(False))
    await asyncio.wait_for(client.disconnect(), 10)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument('--port', type=int, required=True)
    parser.add_argument('--key')
    args = parser.parse_args()
    return asyncio.run(observed(lambda: scenario(args)))


if __name__ == '__main__':
    sys.exit(main())
