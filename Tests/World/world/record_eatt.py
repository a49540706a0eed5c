"""Records a capture of ATT over credit-based L2CAP channels, Bumble on both sides.

    python -m world.record_eatt OUT.btsnoop [OUT.json]

A Bumble central and a Bumble peripheral (heart-rate service, EATT enabled) on one LocalLink;
the central's HCI traffic is written as btsnoop (datalink 1002). What happens, in order:

1. connection, MTU exchange and service discovery on the fixed ATT channel (CID 0x0004);
2. two EATT bearers opened with one L2CAP_CREDIT_BASED_CONNECTION_REQ (SPSM 0x0027, MPS 23 so
   SDUs longer than 21 octets span several K-frames, few credits so credits are granted back
   with L2CAP_FLOW_CONTROL_CREDIT_IND); on them: characteristic discovery, a read of a long
   value, a CCCD write, notifications, writes;
3. an ATT bearer on an LE credit-based channel (L2CAP_LE_CREDIT_BASED_CONNECTION_REQ, SPSM
   0x0027): the kind of channel Debian's tshark 4.0 can follow (it knows no 0x17 request);
4. an LE credit-based channel to another SPSM (0x0080) carrying plain SDUs;
5. one EATT channel closed with L2CAP_DISCONNECTION_REQ, then the link.

The JSON sidecar lists, from Bumble's side, every ATT PDU sent or received on each kind of
bearer (by opcode), so a decoder can be checked on the enhanced channels, which tshark 4.0
cannot decode.
"""
from __future__ import annotations

import asyncio
import collections

from bumble import att, gatt, hci, l2cap
from bumble.controller import Controller
from bumble.device import Device, DeviceConfiguration, Peer
from bumble.gatt_client import Client
from bumble.host import Host
from bumble.link import LocalLink
from bumble.snoop import BtSnooper
from bumble.transport.common import AsyncPipeSink

from .recording import run, write_result

CENTRAL = 'F0:00:00:00:00:01'
PERIPHERAL = 'F1:00:00:00:00:02'
EATT_SPEC = dict(psm=att.EATT_PSM, mtu=100, mps=23, max_credits=4)
LONG_NAME = b'EATT heart-rate sensor with a name longer than one K-frame of 23 octets'


class Counter:
    """ATT PDUs per bearer kind ('fixed', 'enhanced', 'le') and direction, by opcode."""

    def __init__(self) -> None:
        self.counts: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
        self.kinds: dict[int, str] = {}   # id(bearer) -> kind

    def count(self, kind: str, direction: str, pdu: bytes) -> None:
        self.counts[f'{kind} {direction}'][f'0x{pdu[0]:02x}'] += 1


def count_channel(counter: Counter, kind: str, channel: l2cap.LeCreditBasedChannel) -> None:
    """Counts every SDU the central sends and receives on `channel` (ATT PDUs)."""
    original_write = channel.write

    def write(sdu: bytes) -> None:
        counter.count(kind, 'tx', sdu)
        original_write(sdu)

    channel.write = write
    sink = channel.sink

    def on_sdu(sdu: bytes) -> None:
        counter.count(kind, 'rx', sdu)
        if sink:
            sink(sdu)

    channel.sink = on_sdu


async def main(path: str, sidecar: str | None) -> None:
    link = LocalLink()
    central_controller = Controller('central', link=link)
    peripheral_controller = Controller('peripheral', link=link)
    central = Device(config=DeviceConfiguration(name='central', address=hci.Address(CENTRAL)),
                     host=Host(central_controller, AsyncPipeSink(central_controller)))
    peripheral = Device(config=DeviceConfiguration(name='Heart EATT', address=hci.Address(PERIPHERAL)),
                        host=Host(peripheral_controller, AsyncPipeSink(peripheral_controller)))
    heart = gatt.Characteristic('2A37', gatt.Characteristic.Properties.READ | gatt.Characteristic.Properties.NOTIFY,
                                gatt.Characteristic.READABLE, bytes([0x00, 60]))
    name = gatt.Characteristic('2A29', gatt.Characteristic.Properties.READ, gatt.Characteristic.READABLE, LONG_NAME)
    control = gatt.Characteristic('2A39', gatt.Characteristic.Properties.WRITE, gatt.Characteristic.WRITEABLE, b'\x00')
    peripheral.add_services([gatt.Service('180D', [heart, control]), gatt.Service('180A', [name])])
    # EATT with the spec above; LE credit-based channels to 0x0080 just echo nothing.
    peripheral.gatt_server.register_eatt(l2cap.LeCreditBasedChannelSpec(**EATT_SPEC))
    received = []
    peripheral.create_l2cap_server(l2cap.LeCreditBasedChannelSpec(psm=0x0080, mtu=200, mps=40, max_credits=3),
                                   handler=lambda ch: setattr(ch, 'sink', received.append))

    out = open(path, 'wb')
    central.host.snooper = BtSnooper(out)
    counter = Counter()
    await central.power_on()
    await peripheral.power_on()
    await peripheral.start_advertising()
    connection = await central.connect(hci.Address(PERIPHERAL))

    # 1. The fixed channel.
    peer = Peer(connection)
    await peer.request_mtu(100)
    await peer.discover_services()

    # 2. Two EATT bearers with one enhanced request.
    spec = l2cap.LeCreditBasedChannelSpec(**EATT_SPEC)
    clients = await Client.connect_eatt(connection, spec, count=2)
    for client in clients:
        count_channel(counter, 'enhanced', client.bearer)
    first, second = clients
    services = await first.discover_services()
    characteristics = []
    for service in services:
        characteristics += await first.discover_characteristics([], service)
    hrm = next(c for c in characteristics if c.uuid == gatt.GATT_HEART_RATE_MEASUREMENT_CHARACTERISTIC)
    await first.discover_descriptors(hrm)
    long_value = await second.read_value(next(c for c in characteristics if c.uuid.to_hex_str() == '2A29'))
    assert bytes(long_value) == LONG_NAME, long_value
    notified = []
    await first.subscribe(hrm, notified.append)
    for bpm in range(61, 71):
        await peripheral.notify_subscribers(heart, bytes([0x00, bpm]))
        await asyncio.sleep(0.01)
    writable = next(c for c in characteristics if c.uuid.to_hex_str() == '2A39')
    for value in (b'\x01', b'\x02' * 30):
        await second.write_value(writable, value, with_response=True)
    await asyncio.sleep(0.1)

    # 3. ATT on an LE credit-based channel (0x14) to the EATT SPSM.
    le_channel = await connection.create_l2cap_channel(l2cap.LeCreditBasedChannelSpec(**EATT_SPEC))
    le_client = Client(le_channel)
    le_channel.sink = lambda pdu: le_client.on_gatt_pdu(att.ATT_PDU.from_bytes(pdu))
    le_channel.att_mtu = att.ATT_DEFAULT_MTU
    count_channel(counter, 'le', le_channel)
    await le_client.read_value(hrm.handle)
    await le_client.read_value(next(c for c in characteristics if c.uuid.to_hex_str() == '2A29').handle)
    await le_client.write_value(writable.handle, b'\x03', with_response=True)

    # 4. Plain SDUs on an LE credit-based channel to SPSM 0x0080.
    plain = await connection.create_l2cap_channel(
        l2cap.LeCreditBasedChannelSpec(psm=0x0080, mtu=200, mps=40, max_credits=3))
    for size in (10, 90, 150, 5, 5, 5):
        plain.write(bytes(range(size)))
    await plain.drain()
    await asyncio.sleep(0.2)

    # 5. Close one EATT channel, then the link.
    await second.bearer.disconnect()
    await asyncio.sleep(0.05)
    await connection.disconnect()
    await asyncio.sleep(0.1)
    out.close()
    result = {
        'notifications_received': len(notified),
        'plain_sdus_received': [len(s) for s in received],
        'att_pdus': {k: dict(sorted(v.items())) for k, v in sorted(counter.counts.items())},
    }
    write_result(result, sidecar)


if __name__ == '__main__':
    run(main, __doc__)
