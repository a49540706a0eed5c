"""A minimal raw HCI host over H4/TCP, for the self-test: commands, events, ACL with L2CAP
reassembly and fragmentation, and a few ATT helpers.  Independent of Bumble on purpose: it
sees exactly the bytes a foreign host (rtstack) sees."""

from __future__ import annotations

import asyncio
import struct
from dataclasses import dataclass
from typing import Callable

from world.h4 import H4Parser


def opcode(ogf: int, ocf: int) -> int:
    return (ogf << 10) | ocf


RESET = opcode(0x03, 0x0003)
SET_EVENT_MASK = opcode(0x03, 0x0001)
READ_BD_ADDR = opcode(0x04, 0x0009)
READ_LOCAL_SUPPORTED_COMMANDS = opcode(0x04, 0x0002)
DISCONNECT = opcode(0x01, 0x0006)
READ_REMOTE_VERSION = opcode(0x01, 0x001D)
READ_CLOCK_OFFSET = opcode(0x01, 0x001F)
READ_RSSI = opcode(0x05, 0x0005)
LE_SET_EVENT_MASK = opcode(0x08, 0x0001)
LE_READ_BUFFER_SIZE = opcode(0x08, 0x0002)
LE_SET_RANDOM_ADDRESS = opcode(0x08, 0x0005)
LE_SET_SCAN_PARAMETERS = opcode(0x08, 0x000B)
LE_SET_SCAN_ENABLE = opcode(0x08, 0x000C)
LE_CREATE_CONNECTION = opcode(0x08, 0x000D)
LE_CREATE_CONNECTION_CANCEL = opcode(0x08, 0x000E)
LE_CLEAR_FILTER_ACCEPT_LIST = opcode(0x08, 0x0010)
LE_ADD_TO_FILTER_ACCEPT_LIST = opcode(0x08, 0x0011)
LE_SET_DATA_LENGTH = opcode(0x08, 0x0022)
LE_SET_EXTENDED_SCAN_PARAMETERS = opcode(0x08, 0x0041)
LE_SET_EXTENDED_SCAN_ENABLE = opcode(0x08, 0x0042)

ATT_CID = 0x0004


def address_bytes(text: str) -> bytes:
    return bytes.fromhex(text.replace(':', ''))[::-1]


def address_text(data: bytes) -> str:
    return ':'.join(f'{b:02X}' for b in data[::-1])


@dataclass
class Event:
    code: int
    params: bytes

    @property
    def subevent(self) -> int | None:
        return self.params[0] if self.code == 0x3E and self.params else None


@dataclass
class L2cap:
    handle: int
    cid: int
    payload: bytes


@dataclass
class AdvReport:
    extended: bool
    event_type: int
    address_type: int
    address: str
    data: bytes
    rssi: int


def parse_reports(event: Event) -> list[AdvReport]:
    """Legacy (0x02) and extended (0x0D) advertising reports."""
    p = event.params
    reports: list[AdvReport] = []
    if event.subevent == 0x02:
        offset = 2
        for _ in range(p[1]):
            event_type, address_type = p[offset], p[offset + 1]
            address = address_text(p[offset + 2 : offset + 8])
            length = p[offset + 8]
            data = p[offset + 9 : offset + 9 + length]
            rssi = struct.unpack_from('<b', p, offset + 9 + length)[0]
            reports.append(AdvReport(False, event_type, address_type, address, data, rssi))
            offset += 10 + length
    elif event.subevent == 0x0D:
        offset = 2
        for _ in range(p[1]):
            event_type = struct.unpack_from('<H', p, offset)[0]
            address_type = p[offset + 2]
            address = address_text(p[offset + 3 : offset + 9])
            rssi = struct.unpack_from('<b', p, offset + 13)[0]
            length = p[offset + 23]
            data = p[offset + 24 : offset + 24 + length]
            reports.append(AdvReport(True, event_type, address_type, address, data, rssi))
            offset += 24 + length
    return reports


def ad_structures(data: bytes) -> dict[int, list[bytes]]:
    out: dict[int, list[bytes]] = {}
    offset = 0
    while offset < len(data) and data[offset]:
        length = data[offset]
        out.setdefault(data[offset + 1], []).append(data[offset + 2 : offset + 1 + length])
        offset += 1 + length
    return out


class RawHci:
    def __init__(self) -> None:
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None
        self.inbox: list[Event | L2cap] = []
        self.arrived = asyncio.Event()
        self.parser = H4Parser()
        self.partial: dict[int, bytearray] = {}
        self.fragments: list[tuple[int, int, int]] = []  # (handle, pb, length) of every ACL packet
        self.task: asyncio.Task | None = None
        self.closed = False
        self.acl_size = 27

    async def connect(self, port: int) -> 'RawHci':
        self.reader, self.writer = await asyncio.open_connection('127.0.0.1', port)
        self.task = asyncio.get_running_loop().create_task(self._read())
        return self

    async def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
            try:
                await self.writer.wait_closed()
            except Exception:
                pass
        if self.task is not None:
            self.task.cancel()

    async def _read(self) -> None:
        assert self.reader is not None
        while True:
            data = await self.reader.read(65536)
            if not data:
                self.closed = True
                self.arrived.set()
                return
            for packet in self.parser.feed(data):
                self._on_packet(packet)
            self.arrived.set()

    def _on_packet(self, packet: bytes) -> None:
        if packet[0] == 0x04:
            self.inbox.append(Event(packet[1], packet[3:]))
        elif packet[0] == 0x02:
            header, length = struct.unpack_from('<HH', packet, 1)
            handle, pb = header & 0x0FFF, (header >> 12) & 0x3
            self.fragments.append((handle, pb, length))
            data = packet[5 : 5 + length]
            if pb in (0x00, 0x02):
                self.partial[handle] = bytearray(data)
            elif handle in self.partial:
                self.partial[handle] += data
            else:
                return
            buffer = self.partial[handle]
            if len(buffer) >= 4:
                l2cap_length, cid = struct.unpack_from('<HH', buffer, 0)
                if len(buffer) >= 4 + l2cap_length:
                    self.inbox.append(L2cap(handle, cid, bytes(buffer[4 : 4 + l2cap_length])))
                    del self.partial[handle]

    # -- waiting ------------------------------------------------------------------------------
    async def expect(self, predicate: Callable[[Event | L2cap], bool], timeout: float = 2.0) -> Event | L2cap:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            for index, item in enumerate(self.inbox):
                if predicate(item):
                    del self.inbox[index]
                    return item
            remaining = deadline - loop.time()
            if remaining <= 0 or self.closed:
                raise TimeoutError('expected packet did not arrive')
            self.arrived.clear()
            try:
                await asyncio.wait_for(self.arrived.wait(), remaining)
            except TimeoutError:
                pass

    async def collect(self, predicate: Callable[[Event | L2cap], bool], duration: float) -> list:
        """Everything matching `predicate` that arrives within `duration` seconds (consumed)."""
        await asyncio.sleep(duration)
        taken = [item for item in self.inbox if predicate(item)]
        self.inbox = [item for item in self.inbox if not predicate(item)]
        return taken

    def drain(self, predicate: Callable[[Event | L2cap], bool] = lambda _i: True) -> list:
        taken = [item for item in self.inbox if predicate(item)]
        self.inbox = [item for item in self.inbox if not predicate(item)]
        return taken

    async def event(self, code: int, subevent: int | None = None, timeout: float = 2.0,
                    where: Callable[[Event], bool] = lambda _e: True) -> Event:
        item = await self.expect(lambda i: isinstance(i, Event) and i.code == code
                                 and (subevent is None or i.subevent == subevent) and where(i), timeout)
        assert isinstance(item, Event)
        return item

    # -- commands -----------------------------------------------------------------------------
    def send_command(self, op: int, params: bytes = b'') -> None:
        assert self.writer is not None
        self.writer.write(bytes([0x01]) + struct.pack('<HB', op, len(params)) + params)

    async def command(self, op: int, params: bytes = b'', timeout: float = 2.0) -> tuple[str, int, bytes]:
        """Send a command; answer ('complete'|'status', status, return parameters after status)."""
        self.send_command(op, params)

        def matches(item) -> bool:
            if not isinstance(item, Event):
                return False
            if item.code == 0x0E:
                return struct.unpack_from('<H', item.params, 1)[0] == op
            if item.code == 0x0F:
                return struct.unpack_from('<H', item.params, 2)[0] == op
            return False

        event = await self.expect(matches, timeout)
        assert isinstance(event, Event)
        if event.code == 0x0E:
            return 'complete', event.params[3], event.params[4:]
        return 'status', event.params[0], b''

    # -- ACL / ATT ----------------------------------------------------------------------------
    def send_l2cap(self, handle: int, cid: int, payload: bytes) -> None:
        assert self.writer is not None
        pdu = struct.pack('<HH', len(payload), cid) + payload
        for offset in range(0, len(pdu), self.acl_size):
            chunk = pdu[offset : offset + self.acl_size]
            pb = 0x0 if offset == 0 else 0x1
            self.writer.write(bytes([0x02]) + struct.pack('<HH', handle | (pb << 12), len(chunk)) + chunk)

    async def att(self, handle: int, request: bytes, timeout: float = 2.0) -> bytes:
        """Send an ATT request and wait for its response (or Error Response)."""
        self.send_l2cap(handle, ATT_CID, request)
        expected = request[0] + 1

        def matches(item) -> bool:
            return (isinstance(item, L2cap) and item.handle == handle and item.cid == ATT_CID and item.payload
                    and (item.payload[0] == expected or (item.payload[0] == 0x01 and item.payload[1] == request[0])))

        item = await self.expect(matches, timeout)
        assert isinstance(item, L2cap)
        return item.payload

    def notifications(self, handle: int | None = None) -> list[L2cap]:
        return self.drain(lambda i: isinstance(i, L2cap) and i.cid == ATT_CID and i.payload[:1] == b'\x1b'
                          and (handle is None or i.handle == handle))

    async def discover_characteristics(self, handle: int) -> dict[str, tuple[int, int, int]]:
        """Read By Type 0x2803 over the whole range: uuid text -> (declaration, properties, value handle)."""
        found: dict[str, tuple[int, int, int]] = {}
        start = 1
        while start <= 0xFFFF:
            response = await self.att(handle, struct.pack('<BHHH', 0x08, start, 0xFFFF, 0x2803))
            if response[0] == 0x01:
                break
            length = response[1]
            last = start
            for offset in range(2, len(response), length):
                entry = response[offset : offset + length]
                declaration, properties, value_handle = struct.unpack_from('<HBH', entry, 0)
                uuid_bytes = entry[5:]
                uuid = (f'{struct.unpack("<H", uuid_bytes)[0]:04X}' if len(uuid_bytes) == 2
                        else uuid_bytes[::-1].hex().upper())
                if len(uuid) == 32:
                    uuid = f'{uuid[:8]}-{uuid[8:12]}-{uuid[12:16]}-{uuid[16:20]}-{uuid[20:]}'
                found[uuid] = (declaration, properties, value_handle)
                last = declaration
            start = last + 1
        return found

    async def find_cccd(self, handle: int, value_handle: int) -> int:
        response = await self.att(handle, struct.pack('<BHH', 0x04, value_handle + 1, min(value_handle + 4, 0xFFFF)))
        if response[0] == 0x05 and response[1] == 0x01:
            for offset in range(2, len(response), 4):
                attribute, uuid = struct.unpack_from('<HH', response, offset)
                if uuid == 0x2902:
                    return attribute
        raise LookupError(f'no CCCD after handle {value_handle}')
