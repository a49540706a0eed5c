"""A Bumble central doing the run session's job, as the yardstick of `scripts/bench-session`.

It scans for one sensor of each kind by the service it advertises (heart rate 0x180D, running
speed and cadence 0x1814, Thingy:52 EF680100-…), connects to each as soon as it is seen (one
LE Create Connection at a time: Bumble and the controller allow no more), and on each link,
while the next connection is being made, exchanges the MTU, discovers the GATT database and
subscribes to the measurement (0x2A37, 0x2A53, EF680201-…). It prints JSON Lines, flushed per
line, among them one `measurement` line per sensor for its first notification, then
disconnects every link and closes the transport.

    python -m world.bench_central --transport tcp-client:127.0.0.1:PORT [--discovery full|targeted]
                                  [--duration S]

`--discovery full` (default) discovers what rtstack discovers on a cold start — every
service, every characteristic, every descriptor (Bumble's `Peer.discover_all`) — so that the
database could be cached. `--discovery targeted` is the least a Bumble application needs
without a cache: the one service by UUID, its characteristics, then the descriptors of the
measurement (done by `subscribe`). Set `BUMBLE_SNOOPER=btsnoop:file:F` to record the HCI
traffic; the transport is closed on exit so the file is complete.

The own address is random static (as rtstack's), generated per run.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time

START = time.monotonic()

from bumble import hci  # noqa: E402  (imported after START so that START includes less)
from bumble.core import UUID, AdvertisingData  # noqa: E402
from bumble.device import Advertisement, Device, Peer  # noqa: E402
from bumble.transport import open_transport  # noqa: E402

# role -> (advertised service, service holding the measurement, measurement characteristic)
ROLES: dict[str, tuple[UUID, UUID, UUID]] = {
    'heart': (UUID.from_16_bits(0x180D), UUID.from_16_bits(0x180D), UUID.from_16_bits(0x2A37)),
    'speed': (UUID.from_16_bits(0x1814), UUID.from_16_bits(0x1814), UUID.from_16_bits(0x2A53)),
    'environment': (UUID('EF680100-9B35-4933-9B10-52FFA9740042'),
                    UUID('EF680200-9B35-4933-9B10-52FFA9740042'),
                    UUID('EF680201-9B35-4933-9B10-52FFA9740042')),
}

UUID_LIST_TYPES = (
    AdvertisingData.COMPLETE_LIST_OF_16_BIT_SERVICE_CLASS_UUIDS,
    AdvertisingData.INCOMPLETE_LIST_OF_16_BIT_SERVICE_CLASS_UUIDS,
    AdvertisingData.COMPLETE_LIST_OF_128_BIT_SERVICE_CLASS_UUIDS,
    AdvertisingData.INCOMPLETE_LIST_OF_128_BIT_SERVICE_CLASS_UUIDS,
)


def emit(event: str, **fields: object) -> None:
    print(json.dumps({'event': event, 'time': round(time.monotonic() - START, 4), **fields}), flush=True)


def advertised_services(advertisement: Advertisement) -> list[UUID]:
    uuids: list[UUID] = []
    for kind in UUID_LIST_TYPES:
        for value in advertisement.data.get_all(kind):
            uuids.extend(value if isinstance(value, list) else [value])
    return uuids


class BenchCentral:
    def __init__(self, device: Device, discovery: str) -> None:
        self.device = device
        self.discovery = discovery
        self.found: dict[str, hci.Address] = {}
        self.to_connect: asyncio.Queue[tuple[str, hci.Address]] = asyncio.Queue()
        self.streaming: set[str] = set()
        self.all_streaming = asyncio.Event()
        self.connections: list = []
        self.tasks: list[asyncio.Task] = []

    def on_advertisement(self, advertisement: Advertisement) -> None:
        if not advertisement.is_connectable:
            return
        services = advertised_services(advertisement)
        for role, (advertised, _, _) in ROLES.items():
            if role not in self.found and advertised in services:
                self.found[role] = advertisement.address
                emit('found', sensor=role, address=str(advertisement.address))
                self.to_connect.put_nowait((role, advertisement.address))

    async def connect_all(self) -> None:
        """Connects one sensor at a time, in the order they were seen; the GATT work of a link
        runs in its own task while the next connection is being made."""
        for _ in ROLES:
            role, address = await self.to_connect.get()
            if len(self.found) == len(ROLES) and self.device.is_scanning:
                await self.device.stop_scanning()
            emit('state', sensor=role, state='connecting')
            connection = await self.device.connect(address, own_address_type=hci.OwnAddressType.RANDOM)
            self.connections.append(connection)
            emit('state', sensor=role, state='connected', handle=connection.handle)
            self.tasks.append(asyncio.create_task(self.start_streaming(role, connection)))

    async def start_streaming(self, role: str, connection) -> None:
        _, service_uuid, measurement_uuid = ROLES[role]
        peer = Peer(connection)
        await peer.request_mtu(247)
        if self.discovery == 'full':
            await peer.discover_all()
            characteristics = peer.get_characteristics_by_uuid(measurement_uuid)
        else:
            services = await peer.discover_service(service_uuid)
            characteristics = await peer.discover_characteristics(uuids=[measurement_uuid], service=services[0])
        if not characteristics:
            emit('notice', message=f'{role}: no characteristic {measurement_uuid}')
            return
        first = asyncio.get_running_loop().create_future()

        def on_value(value: bytes) -> None:
            if not first.done():
                first.set_result(bytes(value))

        await peer.subscribe(characteristics[0], on_value)
        emit('state', sensor=role, state='ready')
        value = await first
        emit('measurement', sensor=role, handle=connection.handle, value=value.hex())
        self.streaming.add(role)
        if len(self.streaming) == len(ROLES):
            self.all_streaming.set()


async def run(options: argparse.Namespace) -> int:
    async with await open_transport(options.transport) as (source, sink):
        device = Device.with_hci('bench-central', hci.Address.generate_static_address(), source, sink)
        await device.power_on()
        central = BenchCentral(device, options.discovery)
        device.on('advertisement', central.on_advertisement)
        await device.start_scanning(active=True)
        emit('state', state='scanning', address=str(device.random_address))
        connecting = asyncio.create_task(central.connect_all())
        status = 0
        try:
            await asyncio.wait_for(central.all_streaming.wait(), options.timeout)
        except TimeoutError:
            emit('notice', message=f'not all sensors streaming after {options.timeout} s: {sorted(central.streaming)}')
            status = 1
        remaining = options.duration - (time.monotonic() - START)
        if remaining > 0:
            await asyncio.sleep(remaining)
        connecting.cancel()
        for task in central.tasks:
            task.cancel()
        if device.is_scanning:
            await device.stop_scanning()
        for connection in list(central.connections):
            try:
                await connection.disconnect()
            except Exception as error:  # a link the peer dropped already
                emit('notice', message=f'disconnect: {error!r}')
        emit('summary', streaming=sorted(central.streaming))
    return status


def main(argv: list[str] | None = None) -> int:
    emit('imported')  # Python and Bumble are loaded: the rest is the job itself
    top = argparse.ArgumentParser(prog='bench_central', description=__doc__.split('\n\n')[0])
    top.add_argument('--transport', required=True, help='Bumble transport, e.g. tcp-client:127.0.0.1:PORT')
    top.add_argument('--discovery', choices=('full', 'targeted'), default='full')
    top.add_argument('--duration', type=float, default=0.0,
                     help='stay connected until this many seconds after process start (default: leave at once)')
    top.add_argument('--timeout', type=float, default=20.0, help='give up when not all are streaming by then')
    return asyncio.run(run(top.parse_args(argv)))


if __name__ == '__main__':
    sys.exit(main())
