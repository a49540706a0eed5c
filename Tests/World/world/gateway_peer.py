"""The gateway a user would otherwise write, as the yardstick of `scripts/bench-gateway`: Bumble's
host for Bluetooth and paho-mqtt for the broker, in Python.

It scans for heart-rate (0x180D), running speed and cadence (0x1814) and Thingy:52
(EF680100-…) sensors, connects to every one it hears (one LE Create Connection at a time, as
Bumble and the controller allow), discovers the measurement, subscribes, decodes each
notification and publishes its quantities as rtstack's gateway does — one JSON message per
quantity on `rtstack/<id>/<device>/<quantity>`, QoS 1, `{"value":…,"unit":…,"time":…}` — with
the device's link state (`…/state`, retained). paho runs its own network thread
(`loop_start`), as its documentation shows.

    python -m world.gateway_peer --transport tcp-client:127.0.0.1:PORT --mqtt 127.0.0.1:PORT
                                 [--id peer] [--max N] [--duration S]
"""

from __future__ import annotations

import argparse
import asyncio
import datetime
import json
import struct
import sys

from bumble import hci
from bumble.core import UUID, AdvertisingData
from bumble.device import Advertisement, Device, Peer
from bumble.transport import open_transport
import paho.mqtt.client as mqtt

THINGY_SERVICE = UUID('EF680100-9B35-4933-9B10-52FFA9740042')
# advertised service -> (service holding the measurement, measurement characteristic, kind)
KINDS = {
    UUID.from_16_bits(0x180D): (UUID.from_16_bits(0x180D), UUID.from_16_bits(0x2A37), 'heart'),
    UUID.from_16_bits(0x1814): (UUID.from_16_bits(0x1814), UUID.from_16_bits(0x2A53), 'speed'),
    THINGY_SERVICE: (UUID('EF680200-9B35-4933-9B10-52FFA9740042'), UUID('EF680201-9B35-4933-9B10-52FFA9740042'), 'thingy'),
}
LISTS = (AdvertisingData.COMPLETE_LIST_OF_16_BIT_SERVICE_CLASS_UUIDS, AdvertisingData.INCOMPLETE_LIST_OF_16_BIT_SERVICE_CLASS_UUIDS,
         AdvertisingData.COMPLETE_LIST_OF_128_BIT_SERVICE_CLASS_UUIDS, AdvertisingData.INCOMPLETE_LIST_OF_128_BIT_SERVICE_CLASS_UUIDS)


def now_iso() -> str:
    return datetime.datetime.now(datetime.timezone.utc).isoformat(timespec='milliseconds').replace('+00:00', 'Z')


def decode(kind: str, value: bytes) -> list[tuple[str, object, str | None]]:
    """(key, value, unit) per quantity, as rtstack names them."""
    if kind == 'heart':
        flags = value[0]
        offset = 1
        if flags & 0x01:
            bpm = struct.unpack_from('<H', value, offset)[0]
            offset += 2
        else:
            bpm = value[offset]
            offset += 1
        out: list[tuple[str, object, str | None]] = [('heart_rate', bpm, 'bpm')]
        if flags & 0x08:
            out.append(('energy_expended', struct.unpack_from('<H', value, offset)[0], 'kJ'))
            offset += 2
        if flags & 0x10 and len(value) >= offset + 2:
            out.append(('rr_interval', round(struct.unpack_from('<H', value, offset)[0] * 1000 / 1024, 1), 'ms'))
        return out
    if kind == 'speed':
        flags, speed, cadence = struct.unpack_from('<BHB', value, 0)
        out = [('speed', round(speed / 256, 3), 'm/s'), ('cadence', cadence, 'steps/min')]
        offset = 4
        if flags & 0x01:
            out.append(('stride_length', struct.unpack_from('<H', value, offset)[0] / 100, 'm'))
            offset += 2
        if flags & 0x02:
            out.append(('total_distance', struct.unpack_from('<I', value, offset)[0] / 10, 'm'))
        out.append(('running', bool(flags & 0x04), None))
        return out
    degrees, hundredths = struct.unpack_from('<bB', value, 0)
    return [('temperature', round(degrees + hundredths / 100, 2), '°C')]


class PeerGateway:
    def __init__(self, device: Device, client: mqtt.Client, gateway_id: str, most: int) -> None:
        self.device = device
        self.client = client
        self.id = gateway_id
        self.most = most
        self.seen: set[str] = set()
        self.queue: asyncio.Queue[tuple[Advertisement, tuple]] = asyncio.Queue()
        self.ready = 0

    def publish(self, device: str, key: str, payload: dict, retain: bool = False) -> None:
        self.client.publish(f'rtstack/{self.id}/{device}/{key}', json.dumps(payload, separators=(',', ':')), qos=1, retain=retain)

    def on_advertisement(self, advertisement: Advertisement) -> None:
        address = str(advertisement.address)
        if not advertisement.is_connectable or address in self.seen or len(self.seen) >= self.most:
            return
        for kind in LISTS:
            for value in advertisement.data.get_all(kind):
                for uuid in value if isinstance(value, list) else [value]:
                    if uuid in KINDS:
                        self.seen.add(address)
                        self.queue.put_nowait((advertisement, KINDS[uuid]))
                        return

    async def connect_all(self) -> None:
        while True:
            advertisement, (service, characteristic, kind) = await self.queue.get()
            name = address_id(advertisement.address)
            try:
                connection = await self.device.connect(advertisement.address, own_address_type=hci.OwnAddressType.RANDOM)
            except Exception as error:  # noqa: BLE001 - a user's gateway logs and goes on
                print(json.dumps({'event': 'notice', 'message': f'{name}: {error!r}'}), flush=True)
                self.seen.discard(str(advertisement.address))
                continue
            asyncio.create_task(self.stream(connection, name, service, characteristic, kind))

    async def stream(self, connection, name: str, service: UUID, characteristic: UUID, kind: str) -> None:
        peer = Peer(connection)
        await peer.request_mtu(247)
        services = await peer.discover_service(service)
        found = await peer.discover_characteristics(uuids=[characteristic], service=services[0])

        def on_value(value: bytes) -> None:
            stamp = now_iso()
            for key, v, unit in decode(kind, bytes(value)):
                payload: dict = {'value': v}
                if unit:
                    payload['unit'] = unit
                payload['time'] = stamp
                self.publish(name, key, payload)

        await peer.subscribe(found[0], on_value)
        self.ready += 1
        self.publish(name, 'state', {'state': 'ready', 'address': str(connection.peer_address), 'time': now_iso()}, retain=True)
        print(json.dumps({'event': 'ready', 'device': name, 'ready': self.ready}), flush=True)


def address_id(address: hci.Address) -> str:
    return str(address).split('/')[0].replace(':', '').lower()


async def run(options: argparse.Namespace) -> int:
    host, port = options.mqtt.rsplit(':', 1)
    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=f'peer-{options.id}')
    client.max_queued_messages_set(10000)
    client.will_set(f'rtstack/{options.id}/status', 'offline', qos=1, retain=True)
    client.connect(host, int(port), keepalive=30)
    client.loop_start()
    client.publish(f'rtstack/{options.id}/status', 'online', qos=1, retain=True)
    async with await open_transport(options.transport) as (source, sink):
        device = Device.with_hci('gateway-peer', hci.Address.generate_static_address(), source, sink)
        await device.power_on()
        gateway = PeerGateway(device, client, options.id, options.max)
        device.on('advertisement', gateway.on_advertisement)
        await device.start_scanning(active=True)
        connecting = asyncio.create_task(gateway.connect_all())
        try:
            await asyncio.sleep(options.duration if options.duration > 0 else 1e9)
        except asyncio.CancelledError:
            pass
        connecting.cancel()
    client.publish(f'rtstack/{options.id}/status', 'offline', qos=1, retain=True)
    client.loop_stop()
    client.disconnect()
    return 0


def main(argv: list[str] | None = None) -> int:
    top = argparse.ArgumentParser(prog='gateway_peer', description=__doc__.split('\n\n')[0])
    top.add_argument('--transport', required=True, help='Bumble transport, e.g. tcp-client:127.0.0.1:PORT')
    top.add_argument('--mqtt', required=True, help='broker HOST:PORT')
    top.add_argument('--id', default='peer', help='the gateway id (topic level)')
    top.add_argument('--max', type=int, default=1000, help='connect at most this many sensors')
    top.add_argument('--duration', type=float, default=0.0, help='seconds to run (default: until killed)')
    try:
        return asyncio.run(run(top.parse_args(argv)))
    except KeyboardInterrupt:
        return 0


if __name__ == '__main__':
    sys.exit(main())
