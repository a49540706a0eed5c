"""Simulated peripherals: each a Bumble Device on its own WorldController on the world's link.

Kinds: heart (Heart Rate 0x180D), speed (Running Speed and Cadence 0x1814), environment (Nordic
Thingy:52 weather service) and distractor (things a scanner must ignore).  Values come from
world/values.py; every notification sent is reported as a `notify` event.
"""

from __future__ import annotations

import asyncio
import struct
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable

from bumble import att, gatt, hci
from bumble.device import AdvertisingType, Device, DeviceConfiguration
from bumble.host import Host
from bumble.transport.common import AsyncPipeSink

from world import values
from world.controller import WorldController
from world.hostile import Hostility
from world.signing import SignedWrites

if TYPE_CHECKING:
    from world.runtime import World

THINGY = 'EF68{:04X}-9B35-4933-9B10-52FFA9740042'
THINGY_CONFIGURATION_SERVICE = THINGY.format(0x0100)
THINGY_DEVICE_NAME = THINGY.format(0x0101)
THINGY_WEATHER_SERVICE = THINGY.format(0x0200)
THINGY_TEMPERATURE = THINGY.format(0x0201)
THINGY_PRESSURE = THINGY.format(0x0202)
THINGY_HUMIDITY = THINGY.format(0x0203)

KIND_CODES = {'heart': 0xC1, 'speed': 0xC2, 'environment': 0xC3, 'distractor': 0xC4, 'secure': 0xC5}
KINDS = tuple(KIND_CODES)

READ = gatt.Characteristic.Properties.READ
WRITE = gatt.Characteristic.Properties.WRITE
NOTIFY = gatt.Characteristic.Properties.NOTIFY
READABLE = gatt.Characteristic.Permissions.READABLE
WRITEABLE = gatt.Characteristic.Permissions.WRITEABLE
NO_ACCESS = gatt.Characteristic.Permissions(0)

ATT_CID = 0x0004
HANDLE_VALUE_CONFIRMATION = 0x1E
# Write Request, Write Command, Prepare Write Request, Execute Write Request: logged as `att_write`.
WRITES = {0x12, 0x52, 0x16, 0x18}


# ---------------------------------------------------------------------------------------------
def ad(ad_type: int, payload: bytes) -> bytes:
    """One advertising-data structure: length, AD type, payload."""
    return bytes([len(payload) + 1, ad_type]) + payload


def uuid16_list(*uuids: int) -> bytes:
    return ad(0x03, b''.join(struct.pack('<H', u) for u in uuids))


def uuid128_bytes(uuid: str) -> bytes:
    return bytes.fromhex(uuid.replace('-', ''))[::-1]


FLAGS = ad(0x01, bytes([0x06]))
# Serial Number String (79 bytes) of a heart made hostile at start (`--hostile`): at ATT_MTU 23
# reading it takes a Read Request and three Read Blob Requests.
LONG_SERIAL = b'RTSTACK-HOSTILE-SERIAL-' + bytes(range(0x41, 0x41 + 26)) * 2 + b'-END'  # LE General Discoverable, BR/EDR not supported


def normalize_uuid(text: str) -> str:
    """'2a38', '0x2A38', '00002a38-0000-1000-8000-00805f9b34fb' -> '2A38'; 128-bit -> upper case."""
    text = text.strip().upper()
    if text.startswith('0X'):
        text = text[2:]
    if len(text) == 36 and text.endswith('-0000-1000-8000-00805F9B34FB') and text.startswith('0000'):
        return text[4:8]
    return text


def uuid_text(uuid: Any) -> str:
    return normalize_uuid(uuid.to_hex_str('-') if hasattr(uuid, 'to_hex_str') else str(uuid))


class QuietHost(Host):
    """Bumble Host without the per-packet debug strings (formatted even when not logged)."""

    def send_hci_packet(self, packet: hci.HCI_Packet) -> None:
        if self.hci_sink:
            self.hci_sink.on_packet(bytes(packet))

    def on_hci_packet(self, packet: hci.HCI_Packet) -> None:
        if isinstance(packet, hci.HCI_Event):
            self.on_hci_event_packet(packet)
        elif isinstance(packet, hci.HCI_AclDataPacket):
            self.on_hci_acl_data_packet(packet)
        else:
            super().on_hci_packet(packet)


# ---------------------------------------------------------------------------------------------
@dataclass
class Stream:
    """One notifying characteristic and its value sequence."""

    uuid: str
    encode: Callable[[int], bytes]
    characteristic: gatt.Characteristic = field(repr=False)
    seq: int = 0
    sent: int = 0


class Peripheral:
    kind = 'peripheral'
    rssi = -60

    def __init__(self, world: 'World', number: int) -> None:
        self.world = world
        self.number = number
        code = KIND_CODES[self.kind]
        self.address = f'{code:02X}:00:00:00:00:{number:02X}'
        self.public_address = f'00:00:{code:02X}:00:00:{number:02X}'
        self.name = self.world_name()
        self.streams: list[Stream] = []
        self.rate = world.default_rate
        self.stalled = False
        self.att_errors: dict[str, int] = {}
        self._error_handles: dict[int, int] = {}
        self.advertise_wanted = True
        self.advertising = False
        self.notifier: asyncio.Task | None = None
        self.extra_services = 0
        self.controller = WorldController(
            self.name, link=world.link, public_address=self.public_address, extended=False,
            le_acl_size=251, adv_rssi=self.rssi,
        )
        if getattr(world.options, 'adv_stamp', False):
            self.controller.adv_stamp_origin = world.started
        config = DeviceConfiguration(
            name=self.gap_name(),
            address=hci.Address(self.address),
            advertising_interval_min=world.adv_interval_ms,
            advertising_interval_max=world.adv_interval_ms,
            # Bumble then adds Server Supported Features (0x2B3A) with EATT Supported and an
            # EATT server; its GATT server answers Read Multiple Variable Length either way.
            eatt_enabled=bool(getattr(world.options, 'eatt', False)),
        )
        self.device = Device(config=config, host=QuietHost(self.controller, AsyncPipeSink(self.controller)))
        self.device.add_services(self.services())
        self._gate_att()
        self.hostile = Hostility(self)
        self.signing = SignedWrites(self)
        self.device.on('connection', self._on_connection)

    def hostile_at_start(self) -> bool:
        options = self.world.options
        return bool(getattr(options, 'hostile', '')) and getattr(options, 'hostile_device', None) == self.name

    # -- identity -----------------------------------------------------------------------------
    def world_name(self) -> str:
        return f'{self.kind.capitalize()} {self.number}'

    def gap_name(self) -> str:
        return self.name

    def local_name(self) -> str | None:
        return self.name

    def advertising_type(self) -> AdvertisingType:
        return AdvertisingType.UNDIRECTED_CONNECTABLE_SCANNABLE

    @property
    def connectable(self) -> bool:
        return self.advertising_type().is_connectable

    def advertising_data(self) -> bytes:
        raise NotImplementedError

    def scan_response_data(self) -> bytes:
        return ad(0x0A, bytes([0]))  # TX power level 0 dBm

    def services(self) -> list[gatt.Service]:
        return []

    def describe(self) -> dict[str, Any]:
        return {
            'name': self.name,
            'address': self.address,
            'address_type': 'random',
            'kind': self.kind,
            'local_name': self.local_name(),
            'connectable': self.connectable,
            'notify': [s.uuid for s in self.streams],
        }

    # -- life cycle ---------------------------------------------------------------------------
    async def start(self) -> None:
        await self.device.power_on()
        if self.advertise_wanted:
            await self._advertise(True)
        self.set_rate(self.rate)

    async def _advertise(self, on: bool) -> None:
        if on:
            await self.device.start_advertising(
                advertising_type=self.advertising_type(),
                advertising_data=self.hostile.advertising_data(self.advertising_data()),
                scan_response_data=self.scan_response_data(),
            )
        else:
            await self.device.stop_advertising()
        self.advertising = on

    async def set_advertising(self, on: bool) -> None:
        self.advertise_wanted = on
        if on and not self.device.connections:
            await self._advertise(True)
        elif not on:
            await self._advertise(False)

    def stop(self) -> None:
        if self.notifier is not None:
            self.notifier.cancel()
            self.notifier = None

    def _on_connection(self, connection) -> None:
        self.advertising = False
        self.hostile.connected()
        self.world.event('peripheral_connected', device=self.name, peer=str(connection.peer_address))

        def on_disconnection(reason: int) -> None:
            self.world.event('peripheral_disconnected', device=self.name, peer=str(connection.peer_address),
                             reason=reason)
            if self.advertise_wanted and not self.world.stopping:
                self.world.spawn(self._readvertise())

        connection.on('disconnection', on_disconnection)

        def on_parameters_update() -> None:
            # LE Connection Update Complete at the peer: what the central's update gave it.
            p = connection.parameters
            self.world.event('connection_parameters', device=self.name, peer=str(connection.peer_address),
                             interval_ms=p.connection_interval, latency=p.peripheral_latency,
                             supervision_timeout_ms=p.supervision_timeout)

        connection.on('connection_parameters_update', on_parameters_update)

    async def _readvertise(self) -> None:
        await asyncio.sleep(0)
        if self.advertise_wanted and not self.device.connections:
            await self._advertise(True)

    def connections(self) -> list[dict[str, Any]]:
        return [{'peer': str(c.peer_address), 'mtu': c.att_mtu} for c in self.device.connections.values()]

    async def drop(self, reason: int) -> int:
        connections = list(self.device.connections.values())
        for connection in connections:
            await connection.disconnect(reason)
        return len(connections)

    # -- notifications ------------------------------------------------------------------------
    def set_rate(self, hz: float) -> None:
        self.rate = hz
        self.stop()
        if hz > 0 and self.streams:
            self.notifier = asyncio.get_running_loop().create_task(self._notify_loop(hz))

    async def _notify_loop(self, hz: float) -> None:
        """Ticks at t0 + k/hz (absolute deadlines: no drift); late ticks are sent at once."""
        loop = asyncio.get_running_loop()
        period = 1.0 / hz
        deadline = loop.time() + period
        while True:
            delay = deadline - loop.time()
            await asyncio.sleep(delay if delay > 0 else 0)
            now = loop.time()
            behind = now - deadline
            if behind > max(1.0, 10 * period):
                self.world.event('fault', kind='notify_lag', device=self.name, behind_s=round(behind, 3))
                deadline = now
            self.tick()
            deadline += period

    def tick(self) -> None:
        subscribers = self.device.gatt_server.subscribers
        if not subscribers:
            return
        for stream in self.streams:
            handle = stream.characteristic.handle
            value = None
            for bearer, cccds in list(subscribers.items()):
                cccd = cccds.get(handle)
                if not cccd or not cccd[0] & 0x01 or bearer.handle not in self.device.connections:
                    continue
                if value is None:
                    value = self.encode(stream)
                pdu = bytes([0x1B]) + struct.pack('<H', handle) + value[: bearer.att_mtu - 3]
                self.device.send_l2cap_pdu(bearer.handle, ATT_CID, pdu)
                self.hostile.after_notification(bearer.handle, value)
                stream.sent += 1
                self.world.notify_event(self.name, stream.uuid, stream.seq, value, str(bearer.peer_address))
            if value is not None:
                stream.seq += 1

    def encode(self, stream: Stream) -> bytes:
        return stream.encode(stream.seq)

    # -- faults -------------------------------------------------------------------------------
    def _characteristics(self) -> list[gatt.Characteristic]:
        return [a for a in self.device.gatt_server.attributes if isinstance(a, gatt.Characteristic)]

    def set_att_error(self, uuid: str, error: int) -> int:
        """Make reads/writes of the characteristic (value and descriptors) answer `error`; 0 clears."""
        uuid = normalize_uuid(uuid)
        matches = [c for c in self._characteristics() if uuid_text(c.uuid) == uuid]
        if not matches:
            raise KeyError(f'{self.name} has no characteristic {uuid}')
        if error:
            self.att_errors[uuid] = error
        else:
            self.att_errors.pop(uuid, None)
        for characteristic in matches:
            for handle in range(characteristic.handle, characteristic.end_group_handle + 1):
                if error:
                    self._error_handles[handle] = error
                else:
                    self._error_handles.pop(handle, None)
        return len(matches)

    def _gate_att(self) -> None:
        """Wrap the GATT server's PDU entry point: stall, injected errors, permissions."""
        server = self.device.gatt_server
        original = server.on_gatt_pdu

        def error(bearer, request, handle: int, code: int) -> None:
            server.send_response(bearer, att.ATT_Error_Response(
                request_opcode_in_error=request.op_code, attribute_handle_in_error=handle, error_code=code))

        def gated(bearer, pdu) -> None:
            opcode = pdu.op_code
            if self.stalled and opcode != HANDLE_VALUE_CONFIRMATION:
                self.world.event('att_ignored', device=self.name, opcode=f'0x{opcode:02X}')
                return
            if self.hostile.on_request(bearer, pdu):
                return
            if opcode in WRITES:
                self._log_write(bearer, pdu)
            if opcode == att.Opcode.ATT_SIGNED_WRITE_COMMAND:
                self.signing.on_pdu(bearer, bytes(pdu))
                return
            handle = getattr(pdu, 'attribute_handle', None)
            if handle is not None:
                code = self._error_handles.get(handle)
                if code:
                    self.world.event('att_error_sent', device=self.name, opcode=f'0x{opcode:02X}', handle=handle,
                                     error=code)
                    if opcode != att.Opcode.ATT_WRITE_COMMAND:
                        error(bearer, pdu, handle, code)
                    return
                attribute = server.get_attribute(handle)
                if attribute is not None and opcode in (att.Opcode.ATT_READ_REQUEST, att.Opcode.ATT_READ_BLOB_REQUEST):
                    if not attribute.permissions & att.Attribute.READABLE:
                        error(bearer, pdu, handle, att.ATT_READ_NOT_PERMITTED_ERROR)
                        return
                if attribute is not None and opcode in (att.Opcode.ATT_WRITE_REQUEST, att.Opcode.ATT_PREPARE_WRITE_REQUEST,
                                                        att.Opcode.ATT_WRITE_COMMAND):
                    if not attribute.permissions & att.Attribute.WRITEABLE:
                        if opcode != att.Opcode.ATT_WRITE_COMMAND:
                            error(bearer, pdu, handle, att.ATT_WRITE_NOT_PERMITTED_ERROR)
                        return
            if opcode == att.Opcode.ATT_READ_BY_TYPE_REQUEST and self._error_handles:
                for h in range(pdu.starting_handle, pdu.ending_handle + 1):
                    attribute = server.get_attribute(h)
                    if attribute is None:
                        continue
                    if attribute.type == pdu.attribute_type:
                        code = self._error_handles.get(h)
                        if code:
                            error(bearer, pdu, h, code)
                            return
                        break
            if opcode == att.Opcode.ATT_READ_MULTIPLE_REQUEST:
                for h in pdu.set_of_handles:
                    if self._error_handles.get(h):
                        error(bearer, pdu, h, self._error_handles[h])
                        return
            original(bearer, pdu)

        server.on_gatt_pdu = gated

    def _log_write(self, bearer, pdu) -> None:
        """An `att_write` event per write that reaches the peripheral (Write Request, Write
        Command, Prepare Write Request, Execute Write Request), with the attribute's type."""
        fields: dict[str, Any] = {'device': self.name, 'peer': str(getattr(bearer, 'peer_address', '')),
                                  'opcode': f'0x{pdu.op_code:02X}'}
        handle = getattr(pdu, 'attribute_handle', None)
        if handle is not None:
            attribute = self.device.gatt_server.get_attribute(handle)
            fields['handle'] = handle
            if attribute is not None:
                fields['uuid'] = uuid_text(attribute.type)
        if hasattr(pdu, 'attribute_value'):
            fields['value'] = bytes(pdu.attribute_value).hex()
        if hasattr(pdu, 'part_attribute_value'):
            fields['value'] = bytes(pdu.part_attribute_value).hex()
            fields['offset'] = pdu.value_offset
        if hasattr(pdu, 'flags'):
            fields['flags'] = pdu.flags
        self.world.event('att_write', **fields)

    async def set_hostile(self, behaviours: list[str]) -> None:
        advertising_changed = ('bad_adv' in behaviours) != ('bad_adv' in self.hostile.behaviours)
        self.hostile.set(behaviours)
        if advertising_changed and self.advertising:
            await self._advertise(False)
            await self._advertise(True)

    def value_handle(self, uuid: str) -> int:
        uuid = normalize_uuid(uuid)
        for characteristic in self._characteristics():
            if uuid_text(characteristic.uuid) == uuid:
                return characteristic.handle
        raise KeyError(f'{self.name} has no characteristic {uuid}')

    # -- database change ----------------------------------------------------------------------
    async def change_db(self, force: bool) -> dict[str, Any]:
        """Add a service, then indicate Service Changed for its handle range."""
        self.extra_services += 1
        uuid = f'E0E0{self.extra_services:04X}-0000-4000-8000-00000000C0DE'
        service = gatt.Service(uuid, [gatt.Characteristic(
            'E0E1' + uuid[4:], READ, READABLE, f'added {self.extra_services}'.encode())])
        self.device.add_service(service)
        start, end = service.handle, service.end_group_handle
        value = struct.pack('<HH', start, end)
        characteristic = self.device.gatt_service.service_changed_characteristic if self.device.gatt_service else None
        targets = []
        if characteristic is not None:
            for connection in list(self.device.connections.values()):
                cccd = self.device.gatt_server.subscribers.get(connection, {}).get(characteristic.handle)
                if force or (cccd and cccd[0] & 0x02):
                    targets.append(connection)
        for connection in targets:
            self.world.spawn(self._indicate(connection, characteristic, value))
        self.world.event('db_changed', device=self.name, service=uuid, start=start, end=end,
                         indicated=len(targets))
        return {'service': uuid, 'start': start, 'end': end, 'indicated': len(targets)}

    async def _indicate(self, connection, characteristic, value: bytes) -> None:
        try:
            await self.device.indicate_subscriber(connection, characteristic, value, force=True)
            self.world.event('indication_confirmed', device=self.name, uuid='2A05', value=value.hex())
        except Exception as error:  # timeout or link gone
            self.world.event('fault', kind='indication_failed', device=self.name, error=repr(error))

    def status(self) -> dict[str, Any]:
        return {
            **self.describe(),
            'advertising': self.advertising,
            'connections': self.connections(),
            'rate': self.rate,
            'stalled': self.stalled,
            'att_errors': dict(self.att_errors),
            'notify_counts': {s.uuid: s.sent for s in self.streams},
            'seq': {s.uuid: s.seq for s in self.streams},
            'hostile': self.hostile.status(),
            'signed_writes_accepted': self.signing.accepted,
        }


# ---------------------------------------------------------------------------------------------
def battery_service(read_level: Callable[[], int]) -> tuple[gatt.Service, gatt.Characteristic]:
    level = gatt.Characteristic('2A19', READ | NOTIFY, READABLE,
                                gatt.CharacteristicValue(read=lambda _c: bytes([read_level()])))
    return gatt.Service('180F', [level]), level


def device_information(model: str, long_serial: bool = False) -> gatt.Service:
    characteristics = [
        gatt.Characteristic('2A29', READ, READABLE, b'rtstack test world'),
        gatt.Characteristic('2A24', READ, READABLE, model.encode()),
        gatt.Characteristic('2A26', READ, READABLE, b'1.0'),
    ]
    if long_serial:
        characteristics.append(gatt.Characteristic('2A25', READ, READABLE, LONG_SERIAL))
    return gatt.Service('180A', characteristics)


class Heart(Peripheral):
    kind = 'heart'
    rssi = -45

    def __init__(self, world: 'World', number: int) -> None:
        self.energy_base = 0
        self.battery_level = 100 - (number - 1) % 50
        super().__init__(world, number)

    def advertising_data(self) -> bytes:
        return FLAGS + uuid16_list(0x180D) + ad(0x09, self.name.encode())

    def services(self) -> list[gatt.Service]:
        measurement = gatt.Characteristic('2A37', NOTIFY, NO_ACCESS, b'')
        location = gatt.Characteristic('2A38', READ, READABLE, bytes([1]))  # 1 = Chest
        control = gatt.Characteristic('2A39', WRITE, WRITEABLE,
                                      gatt.CharacteristicValue(write=self._on_control_point))
        battery, self.battery = battery_service(lambda: self.battery_level)
        self.streams = [Stream('2A37', self._measurement, measurement)]
        return [gatt.Service('180D', [measurement, location, control]), battery,
                device_information('HRM-W1', long_serial=self.hostile_at_start())]

    def _measurement(self, seq: int) -> bytes:
        return values.heart_rate_measurement(seq, seq - self.energy_base)

    def _on_control_point(self, _connection, value: bytes) -> None:
        if value != b'\x01':
            self.world.event('hr_control_point', device=self.name, value=value.hex(), accepted=False)
            raise att.ATT_Error(0x80)  # Control Point Not Supported
        self.energy_base = self.streams[0].seq
        self.world.event('hr_control_point', device=self.name, value=value.hex(), accepted=True,
                         energy_reset_at_seq=self.energy_base)

    async def set_battery(self, level: int) -> int:
        self.battery_level = level
        await self.device.notify_subscribers(self.battery, bytes([level]))
        return level


class Speed(Peripheral):
    kind = 'speed'
    rssi = -55

    def advertising_data(self) -> bytes:
        return FLAGS + uuid16_list(0x1814) + ad(0x09, self.name.encode())

    def services(self) -> list[gatt.Service]:
        measurement = gatt.Characteristic('2A53', NOTIFY, NO_ACCESS, b'')
        feature = gatt.Characteristic('2A54', READ, READABLE, values.RSC_FEATURE)
        location = gatt.Characteristic('2A5D', READ, READABLE, bytes([1]))  # 1 = Top of shoe
        battery, self.battery = battery_service(lambda: 80)
        self.streams = [Stream('2A53', values.rsc_measurement, measurement)]
        return [gatt.Service('1814', [measurement, feature, location]), battery, device_information('RSC-W1')]


class Environment(Peripheral):
    kind = 'environment'
    rssi = -60

    def world_name(self) -> str:
        return f'Thingy {self.number}'

    def gap_name(self) -> str:
        return 'Thingy'

    def local_name(self) -> str | None:
        return 'Thingy'

    def advertising_data(self) -> bytes:
        return FLAGS + ad(0x07, uuid128_bytes(THINGY_CONFIGURATION_SERVICE))

    def scan_response_data(self) -> bytes:
        return ad(0x09, b'Thingy')

    def services(self) -> list[gatt.Service]:
        self.device_name = bytearray(b'Thingy')

        def write_name(_connection, value: bytes) -> None:
            if not 1 <= len(value) <= 10:
                raise att.ATT_Error(att.ATT_INVALID_ATTRIBUTE_LENGTH_ERROR)
            self.device_name[:] = value
            self.world.event('thingy_name', device=self.name, value=bytes(value).decode('utf-8', 'replace'))

        name = gatt.Characteristic(THINGY_DEVICE_NAME, READ | WRITE, READABLE | WRITEABLE,
                                   gatt.CharacteristicValue(read=lambda _c: bytes(self.device_name),
                                                            write=write_name))
        temperature = gatt.Characteristic(THINGY_TEMPERATURE, NOTIFY, NO_ACCESS, b'')
        pressure = gatt.Characteristic(THINGY_PRESSURE, NOTIFY, NO_ACCESS, b'')
        humidity = gatt.Characteristic(THINGY_HUMIDITY, NOTIFY, NO_ACCESS, b'')
        self.streams = [
            Stream(THINGY_TEMPERATURE, values.thingy_temperature, temperature),
            Stream(THINGY_PRESSURE, values.thingy_pressure, pressure),
            Stream(THINGY_HUMIDITY, values.thingy_humidity, humidity),
        ]
        return [gatt.Service(THINGY_CONFIGURATION_SERVICE, [name]),
                gatt.Service(THINGY_WEATHER_SERVICE, [temperature, pressure, humidity])]


class Distractor(Peripheral):
    """Four variants, by number: 1 connectable with a 128-bit UUID and no name; 2 an iBeacon-like
    non-connectable advertiser (manufacturer data, company 0x004C); 3 a scannable, non-connectable
    tag (name only in its scan response); 4 a connectable bike sensor (0x1816) named "Bike 4";
    then again from 1."""

    kind = 'distractor'
    VARIANTS = ('uuid128', 'beacon', 'tag', 'bike')

    @property
    def variant(self) -> str:
        return self.VARIANTS[(self.number - 1) % len(self.VARIANTS)]

    @property
    def rssi(self) -> int:  # type: ignore[override]
        return -70 - self.number % 20

    @property
    def uuid(self) -> str:
        return f'5EC7{self.number:04X}-0D1D-4A5B-9C3E-8F2A6B1C0D9E'

    def local_name(self) -> str | None:
        return {'tag': f'Tag {self.number}', 'bike': f'Bike {self.number}'}.get(self.variant)

    def advertising_type(self) -> AdvertisingType:
        return {
            'beacon': AdvertisingType.UNDIRECTED,
            'tag': AdvertisingType.UNDIRECTED_SCANNABLE,
        }.get(self.variant, AdvertisingType.UNDIRECTED_CONNECTABLE_SCANNABLE)

    def advertising_data(self) -> bytes:
        if self.variant == 'uuid128':
            return FLAGS + ad(0x07, uuid128_bytes(self.uuid))
        if self.variant == 'beacon':
            beacon = bytes([0x02, 0x15]) + uuid128_bytes(self.uuid)[::-1] + struct.pack('>HHb', 1, self.number, -59)
            return ad(0x01, bytes([0x04])) + ad(0xFF, struct.pack('<H', 0x004C) + beacon)
        if self.variant == 'tag':
            return FLAGS + ad(0xFF, struct.pack('<H', 0x0059) + bytes([self.number]))
        return FLAGS + uuid16_list(0x1816) + ad(0x09, f'Bike {self.number}'.encode())

    def scan_response_data(self) -> bytes:
        if self.variant == 'tag':
            return ad(0x09, f'Tag {self.number}'.encode())
        return b''

    def services(self) -> list[gatt.Service]:
        if self.variant == 'uuid128':
            return [gatt.Service(self.uuid, [gatt.Characteristic(
                '5EC8' + self.uuid[4:], READ, READABLE, b'distractor')])]
        if self.variant == 'bike':
            return [gatt.Service('1816', [gatt.Characteristic('2A5C', READ, READABLE, b'\x00\x00')])]
        return []

    def describe(self) -> dict[str, Any]:
        return {**super().describe(), 'variant': self.variant}


CLASSES: dict[str, type[Peripheral]] = {'heart': Heart, 'speed': Speed, 'environment': Environment,
                                        'distractor': Distractor}
