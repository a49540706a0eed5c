"""Records a capture of ATT over BR/EDR, Bumble on both sides.

    python -m world.record_att_bredr OUT.btsnoop [OUT.json]

Two dual-mode Bumble devices on one LocalLink make a BR/EDR (classic) ACL link; the
central's HCI traffic is written as btsnoop (datalink 1002). What happens, in order:

1. HCI_Connection_Complete (link type ACL), then the BR/EDR signaling channel (CID 0x0001):
   Information Requests, an L2CAP_CONNECTION_REQ to PSM 0x001F (ATT), its response with the
   dynamic CIDs, Configuration Requests and Responses (MTU option);
2. on that channel, basic mode: primary service, characteristic and descriptor discovery, a
   read of a value longer than one ACL fragment, a CCCD write, heart-rate notifications, a
   Write Request and a Write Command;
3. a second channel to a dynamic PSM (0x1001) in Enhanced Retransmission mode carrying a few
   SDUs (I-frames and S-frames with FCS), to check that such frames are named, not taken for
   B-frames;
4. both channels closed with L2CAP_DISCONNECTION_REQ, then the link.

The JSON sidecar lists, from the central's side, every ATT PDU sent and received on the
channel (by opcode), as a count independent of any decoder.
"""
from __future__ import annotations

import asyncio
import collections

from bumble import att, core, gatt, hci, l2cap, utils
from bumble.controller import Controller
from bumble.device import Device, DeviceConfiguration
from bumble.gatt_client import Client
from bumble.host import Host
from bumble.link import LocalLink
from bumble.snoop import BtSnooper
from bumble.transport.common import AsyncPipeSink

from .recording import run, write_result

CENTRAL = 'F0:00:00:00:00:11'
PERIPHERAL = 'F1:00:00:00:00:12'
ATT_SPEC = dict(psm=att.ATT_PSM, mtu=256)
ERTM_PSM = 0x1001
LONG_NAME = b'Dual-mode watch whose name is longer than one ACL fragment of the LocalLink controller'


class ClassicBearer(l2cap.LeCreditBasedChannel):
    """A BR/EDR channel dressed as the bearer Bumble's GATT client and server accept.

    Bumble 0.0.2xx runs ATT on the fixed LE channel or on credit-based channels only; both
    speak to a channel bearer through `write`, `sink`, `att_mtu`, `on_att_mtu_update`,
    `connection`, `source_cid` and its close event, and tell it apart from the fixed channel
    by its class — hence the subclass, which forwards those to the classic channel and
    inherits nothing else (its base __init__ is not run).
    """

    def __init__(self, channel: l2cap.ClassicChannel) -> None:  # pylint: disable=super-init-not-called
        utils.EventEmitter.__init__(self)
        self.channel = channel
        self.connection = channel.connection
        self.source_cid = channel.source_cid
        self.destination_cid = channel.destination_cid
        self.psm = att.ATT_PSM
        self.sink = None
        channel.sink = lambda sdu: self.sink(sdu) if self.sink else None

    @property
    def att_mtu(self) -> int:
        # On BR/EDR the ATT MTU is the L2CAP channel's (Core Vol 3, Part F, §3.2.8), known
        # once configuration is done: the smaller of the two ends' MTUs.
        return min(self.channel.mtu, self.channel.peer_mtu)

    @att_mtu.setter
    def att_mtu(self, _: int) -> None:
        pass   # no Exchange MTU on BR/EDR

    def write(self, data: bytes) -> None:
        self.channel.write(data)

    def on_att_mtu_update(self, mtu: int) -> None:
        pass

    async def disconnect(self) -> None:
        await self.channel.disconnect()


async def main(path: str, sidecar: str | None) -> None:
    link = LocalLink()
    # A BR/EDR link is made to the controller's public address.
    central_address = hci.Address(CENTRAL, hci.Address.PUBLIC_DEVICE_ADDRESS)
    peripheral_address = hci.Address(PERIPHERAL, hci.Address.PUBLIC_DEVICE_ADDRESS)
    central_controller = Controller('central', link=link, public_address=central_address)
    peripheral_controller = Controller('peripheral', link=link, public_address=peripheral_address)
    central = Device(config=DeviceConfiguration(name='phone', address=central_address, classic_enabled=True),
                     host=Host(central_controller, AsyncPipeSink(central_controller)))
    peripheral = Device(config=DeviceConfiguration(name='Dual-mode watch', address=peripheral_address,
                                                   classic_enabled=True),
                        host=Host(peripheral_controller, AsyncPipeSink(peripheral_controller)))
    heart = gatt.Characteristic('2A37', gatt.Characteristic.Properties.READ | gatt.Characteristic.Properties.NOTIFY,
                                gatt.Characteristic.READABLE, bytes([0x00, 60]))
    name = gatt.Characteristic('2A29', gatt.Characteristic.Properties.READ, gatt.Characteristic.READABLE, LONG_NAME)
    control = gatt.Characteristic('2A39', gatt.Characteristic.Properties.WRITE
                                  | gatt.Characteristic.Properties.WRITE_WITHOUT_RESPONSE,
                                  gatt.Characteristic.WRITEABLE, b'\x00')
    peripheral.add_services([gatt.Service('180D', [heart, control]), gatt.Service('180A', [name])])
    server = peripheral.gatt_server
    server_bearers: list[ClassicBearer] = []

    def on_att_channel(channel: l2cap.ClassicChannel) -> None:
        bearer = ClassicBearer(channel)
        bearer.sink = lambda pdu: server.on_gatt_pdu(bearer, att.ATT_PDU.from_bytes(pdu))
        server_bearers.append(bearer)

    peripheral.create_l2cap_server(l2cap.ClassicChannelSpec(**ATT_SPEC), handler=on_att_channel)
    ertm_received: list[bytes] = []
    peripheral.create_l2cap_server(
        l2cap.ClassicChannelSpec(psm=ERTM_PSM, mtu=200, mode=l2cap.TransmissionMode.ENHANCED_RETRANSMISSION,
                                 fcs_enabled=True),
        handler=lambda ch: setattr(ch, 'sink', ertm_received.append))

    out = open(path, 'wb')
    central.host.snooper = BtSnooper(out)
    counts: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
    await central.power_on()
    await peripheral.power_on()
    await peripheral.set_discoverable(True)
    await peripheral.set_connectable(True)
    connection = await central.connect(peripheral_address, transport=core.PhysicalTransport.BR_EDR)

    # 1–2. ATT on a PSM 0x001F channel.
    channel = await connection.create_l2cap_channel(l2cap.ClassicChannelSpec(**ATT_SPEC))
    bearer = ClassicBearer(channel)
    client = Client(bearer)
    original_write = bearer.write

    def write(pdu: bytes) -> None:
        counts['tx'][f'0x{pdu[0]:02x}'] += 1
        original_write(pdu)

    bearer.write = write

    def on_pdu(pdu: bytes) -> None:
        counts['rx'][f'0x{pdu[0]:02x}'] += 1
        client.on_gatt_pdu(att.ATT_PDU.from_bytes(pdu))

    bearer.sink = on_pdu
    services = await client.discover_services()
    characteristics = []
    for service in services:
        characteristics += await client.discover_characteristics([], service)
    hrm = next(c for c in characteristics if c.uuid == gatt.GATT_HEART_RATE_MEASUREMENT_CHARACTERISTIC)
    await client.discover_descriptors(hrm)
    long_value = await client.read_value(next(c for c in characteristics if c.uuid.to_hex_str() == '2A29'))
    assert bytes(long_value) == LONG_NAME, long_value
    notified = []
    await client.subscribe(hrm, notified.append)
    for bpm in range(61, 73):
        await server.notify_subscriber(server_bearers[0], heart, bytes([0x00, bpm]), force=True)
        await asyncio.sleep(0.01)
    writable = next(c for c in characteristics if c.uuid.to_hex_str() == '2A39')
    await client.write_value(writable, b'\x01', with_response=True)
    await client.write_value(writable, b'\x02', with_response=False)
    await asyncio.sleep(0.1)

    # 3. An Enhanced Retransmission mode channel with a few SDUs.
    ertm = await connection.create_l2cap_channel(
        l2cap.ClassicChannelSpec(psm=ERTM_PSM, mtu=200, mode=l2cap.TransmissionMode.ENHANCED_RETRANSMISSION,
                                 fcs_enabled=True))
    for size in (4, 40, 8):
        ertm.write(bytes(range(size)))
    await asyncio.sleep(0.3)

    # 4. Close the channels, then the link.
    await ertm.disconnect()
    await channel.disconnect()
    await asyncio.sleep(0.05)
    await connection.disconnect()
    await asyncio.sleep(0.1)
    out.close()
    result = {
        'notifications_received': len(notified),
        'ertm_sdus_received': [len(s) for s in ertm_received],
        'att_pdus': {k: dict(sorted(v.items())) for k, v in sorted(counts.items())},
    }
    write_result(result, sidecar)


if __name__ == '__main__':
    run(main, __doc__)
