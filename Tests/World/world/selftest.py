"""Self-test: start a world as a subprocess and check it end to end with a raw HCI client.

Each controller fix of world/controller.py has a check here, as does each control command.
The last line printed is `N passed, N failed`; the exit status is non-zero on failure.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import struct
import sys
import time
import traceback
from typing import Any, Awaitable, Callable

from world import values
from world.controller import stamp_of
from world.peripherals import THINGY_CONFIGURATION_SERVICE, THINGY_TEMPERATURE, uuid128_bytes
from world.rawhci import (
    DISCONNECT, LE_ADD_TO_FILTER_ACCEPT_LIST, LE_CLEAR_FILTER_ACCEPT_LIST, LE_CREATE_CONNECTION,
    LE_CREATE_CONNECTION_CANCEL, LE_READ_BUFFER_SIZE, LE_SET_DATA_LENGTH, LE_SET_EVENT_MASK,
    LE_SET_EXTENDED_SCAN_ENABLE, LE_SET_EXTENDED_SCAN_PARAMETERS, LE_SET_RANDOM_ADDRESS,
    LE_SET_SCAN_ENABLE, LE_SET_SCAN_PARAMETERS, READ_CLOCK_OFFSET, READ_REMOTE_VERSION, READ_RSSI,
    RESET, Event, L2cap, RawHci, ad_structures, address_bytes, opcode, parse_reports,
)

RATE = 20.0
OWN_RANDOM = 'C0:FF:EE:00:00:01'
ABSENT = 'C9:99:99:99:99:99'


class Failure(AssertionError):
    pass


def check(condition: Any, message: str) -> None:
    if not condition:
        raise Failure(message)


# ---------------------------------------------------------------------------------------------
class WorldProcess:
    """A world started with `python -m world run`; its JSON lines are collected."""

    def __init__(self) -> None:
        self.process: asyncio.subprocess.Process | None = None
        self.lines: list[dict[str, Any]] = []
        self.ready: dict[str, Any] = {}
        self.startup_s = 0.0
        self.control_reader: asyncio.StreamReader | None = None
        self.control_writer: asyncio.StreamWriter | None = None
        self._reader: asyncio.Task | None = None

    async def start(self, *arguments: str, stdin_pipe: bool = True) -> dict[str, Any]:
        started = time.monotonic()
        here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        environment = dict(os.environ, PYTHONPATH=here)
        self.process = await asyncio.create_subprocess_exec(
            sys.executable, '-m', 'world', 'run', *arguments,
            stdin=asyncio.subprocess.PIPE if stdin_pipe else asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE, env=environment, limit=1 << 20)
        assert self.process.stdout is not None
        line = await asyncio.wait_for(self.process.stdout.readline(), 10)
        self.startup_s = time.monotonic() - started
        self.ready = json.loads(line)
        self.lines.append(self.ready)
        self._reader = asyncio.get_running_loop().create_task(self._read())
        return self.ready

    async def _read(self) -> None:
        assert self.process is not None and self.process.stdout is not None
        while True:
            line = await self.process.stdout.readline()
            if not line:
                return
            try:
                self.lines.append(json.loads(line))
            except ValueError:
                self.lines.append({'event': 'unparsable', 'line': line.decode(errors='replace')})

    def events(self, name: str, **where: Any) -> list[dict[str, Any]]:
        return [e for e in self.lines if e.get('event') == name and all(e.get(k) == v for k, v in where.items())]

    def device(self, name: str) -> dict[str, Any]:
        return next(d for d in self.ready['devices'] if d['name'] == name)

    async def control(self, request: dict[str, Any]) -> dict[str, Any]:
        if self.control_writer is None:
            self.control_reader, self.control_writer = await asyncio.open_connection(
                '127.0.0.1', self.ready['control_port'])
        assert self.control_reader is not None
        self.control_writer.write((json.dumps(request) + '\n').encode())
        await self.control_writer.drain()
        return json.loads(await asyncio.wait_for(self.control_reader.readline(), 5))

    async def wait_exit(self, timeout: float) -> int | None:
        assert self.process is not None
        try:
            return await asyncio.wait_for(self.process.wait(), timeout)
        except TimeoutError:
            return None

    async def kill(self) -> None:
        if self.process is not None and self.process.returncode is None:
            self.process.kill()
            await self.process.wait()


# ---------------------------------------------------------------------------------------------
class Context:
    def __init__(self, world: WorldProcess) -> None:
        self.world = world
        self.hci = RawHci()
        self.handles: dict[str, int] = {}
        self.characteristics: dict[str, dict[str, tuple[int, int, int]]] = {}

    def address(self, name: str) -> str:
        return self.world.device(name)['address']

    async def reconnect(self) -> None:
        await self.hci.close()
        self.hci = RawHci()
        await self.hci.connect(self.world.ready['hci_port'])

    async def ok(self, op: int, params: bytes = b'') -> bytes:
        kind, status, rest = await self.hci.command(op, params)
        check(status == 0, f'command 0x{op:04X} answered {kind} status 0x{status:02X}')
        return rest

    async def init(self) -> None:
        await self.ok(RESET)
        await self.ok(LE_SET_RANDOM_ADDRESS, address_bytes(OWN_RANDOM))

    def create_params(self, address: str, own_type: int = 1, filter_policy: int = 0, peer_type: int = 1) -> bytes:
        return (struct.pack('<HHBB', 0x0060, 0x0030, filter_policy, peer_type) + address_bytes(address)
                + struct.pack('<BHHHHHH', own_type, 0x0018, 0x0028, 0, 0x01F4, 0, 0))

    async def connect(self, name: str, own_type: int = 1) -> int:
        address = self.address(name)
        kind, status, _ = await self.hci.command(LE_CREATE_CONNECTION, self.create_params(address, own_type))
        check((kind, status) == ('status', 0), f'LE Create Connection to {name}: {kind} 0x{status:02X}')
        event = await self.hci.event(0x3E, timeout=3.0, where=lambda e: e.subevent in (0x01, 0x0A))
        status, handle = struct.unpack_from('<BH', event.params, 1)
        check(status == 0, f'connection to {name} completed with status 0x{status:02X}')
        peer = event.params[6:12]
        check(peer == address_bytes(address), f'connection complete names {peer.hex()} instead of {address}')
        self.handles[name] = handle
        return handle

    async def discover(self, name: str) -> dict[str, tuple[int, int, int]]:
        if name not in self.characteristics:
            self.characteristics[name] = await self.hci.discover_characteristics(self.handles[name])
        return self.characteristics[name]

    async def subscribe(self, name: str, uuid: str, value: int = 0x0001) -> int:
        handle = self.handles[name]
        value_handle = (await self.discover(name))[uuid][2]
        cccd = await self.hci.find_cccd(handle, value_handle)
        response = await self.hci.att(handle, struct.pack('<BHH', 0x12, cccd, value))
        check(response == b'\x13', f'CCCD write on {name} {uuid} answered {response.hex()}')
        return value_handle

    async def read(self, name: str, uuid: str, timeout: float = 2.0) -> bytes:
        value_handle = (await self.discover(name))[uuid][2]
        return await self.hci.att(self.handles[name], struct.pack('<BH', 0x0A, value_handle), timeout)

    async def scan(self, active: bool, duplicates_filtered: bool, seconds: float, extended: bool = False) -> list:
        if extended:
            await self.ok(LE_SET_EXTENDED_SCAN_PARAMETERS,
                          bytes([1, 0, 1, 1 if active else 0]) + struct.pack('<HH', 0x10, 0x10))
            await self.ok(LE_SET_EXTENDED_SCAN_ENABLE, struct.pack('<BBHH', 1, int(duplicates_filtered), 0, 0))
        else:
            await self.ok(LE_SET_SCAN_PARAMETERS, struct.pack('<BHHBB', int(active), 0x10, 0x10, 1, 0))
            await self.ok(LE_SET_SCAN_ENABLE, bytes([1, int(duplicates_filtered)]))
        self.hci.drain(lambda i: isinstance(i, Event) and i.subevent in (0x02, 0x0D))
        events = await self.hci.collect(lambda i: isinstance(i, Event) and i.subevent in (0x02, 0x0D), seconds)
        if extended:
            await self.ok(LE_SET_EXTENDED_SCAN_ENABLE, struct.pack('<BBHH', 0, 0, 0, 0))
        else:
            await self.ok(LE_SET_SCAN_ENABLE, bytes([0, 0]))
        return events


TESTS: list[tuple[str, Callable[[Context], Awaitable[None]]]] = []


def test(function: Callable[[Context], Awaitable[None]]) -> Callable[[Context], Awaitable[None]]:
    TESTS.append((function.__name__.removeprefix('test_'), function))
    return function


def heart_values_ok(payloads: list[bytes]) -> list[int]:
    """Check Heart Rate Measurements against the predicted sequence; return their seqs."""
    seqs = []
    for payload in payloads:
        flags = payload[0]
        energy_offset = 3 if flags & 0x01 else 2
        seq = struct.unpack_from('<H', payload, energy_offset)[0]  # energy expended == seq (no reset)
        check(payload == values.heart_rate_measurement(seq, seq),
              f'heart value {payload.hex()} is not the one predicted for seq {seq}')
        seqs.append(seq)
    return seqs


def consecutive(seqs: list[int]) -> bool:
    return all(b == a + 1 for a, b in zip(seqs, seqs[1:]))


def logged_values(world: WorldProcess, device: str, uuid: str) -> list[bytes]:
    return [bytes.fromhex(e['value']) for e in world.events('notify', device=device, uuid=uuid)]


async def log_caught_up(world: WorldProcess, device: str, uuid: str, last: bytes) -> None:
    """Wait (up to 1 s) until the world's log, read from its stdout pipe, shows value `last`."""
    for _ in range(20):
        if last in logged_values(world, device, uuid):
            return
        await asyncio.sleep(0.05)


# ---------------------------------------------------------------------------------------------
@test
async def test_ready_line(ctx: Context) -> None:
    ready = ctx.world.ready
    check(ready['event'] == 'ready' and ready['hci_port'] > 0 and ready['control_port'] > 0, 'ready line ports')
    kinds = sorted(d['kind'] for d in ready['devices'])
    check(kinds == ['distractor', 'distractor', 'environment', 'heart', 'speed'], f'devices {kinds}')
    check(all(d['address_type'] == 'random' and int(d['address'][:2], 16) >= 0xC0 for d in ready['devices']),
          'every peripheral has a random static address')
    check(ctx.world.startup_s < 3.0, f'startup took {ctx.world.startup_s:.2f} s')


@test
async def test_reset_answers(ctx: Context) -> None:
    kind, status, _ = await ctx.hci.command(RESET)
    check((kind, status) == ('complete', 0), f'Reset answered {kind} 0x{status:02X}')
    rest = await ctx.ok(LE_READ_BUFFER_SIZE)
    check(struct.unpack('<HB', rest) == (27, 64), f'LE Read Buffer Size {rest.hex()}')


@test
async def test_unknown_and_vendor_commands(ctx: Context) -> None:
    answer = await ctx.hci.command(0xFC01, b'\x01\x02')
    check(answer[:2] == ('complete', 0x01), f'vendor 0xFC01 answered {answer}')
    answer = await ctx.hci.command(READ_CLOCK_OFFSET, struct.pack('<H', 1))
    check(answer[:2] == ('status', 0x01), f'unimplemented Read Clock Offset answered {answer}')
    answer = await ctx.hci.command(0x0C7E)
    check(answer[:2] == ('complete', 0x01), f'unassigned opcode 0x0C7E answered {answer}')
    answer = await ctx.hci.command(LE_SET_SCAN_ENABLE, b'\x01')
    check(answer[:2] == ('complete', 0x12), f'malformed LE Set Scan Enable answered {answer}')
    answer = await ctx.hci.command(READ_REMOTE_VERSION, struct.pack('<H', 0x0ABC))
    check(answer[:2] == ('status', 0x02), f'Read Remote Version of unknown handle answered {answer}')


@test
async def test_no_address_resolution(ctx: Context) -> None:
    features = await ctx.ok(opcode(0x08, 0x0003))
    check(not features[0] & 0x40, f'LE features {features.hex()} claim LL Privacy')
    commands = await ctx.ok(opcode(0x04, 0x0002))
    check(not commands[34] & (1 << 3 | 1 << 5) and not commands[35] & 0x02,
          'the supported commands list the resolving list')
    for op in (opcode(0x08, 0x0029), opcode(0x08, 0x002D)):
        answer = await ctx.hci.command(op, b'\x01' if op == opcode(0x08, 0x002D) else b'')
        check(answer[:2] == ('complete', 0x01), f'resolving-list command 0x{op:04X} answered {answer}')


@test
async def test_disconnect_unknown_handle(ctx: Context) -> None:
    answer = await ctx.hci.command(DISCONNECT, struct.pack('<HB', 0x0042, 0x13))
    check(answer[:2] == ('status', 0x02), f'Disconnect of unknown handle answered {answer}')


@test
async def test_legacy_active_scan(ctx: Context) -> None:
    await ctx.ok(LE_SET_RANDOM_ADDRESS, address_bytes(OWN_RANDOM))
    events = await ctx.scan(active=True, duplicates_filtered=True, seconds=0.6)
    check(events and all(e.subevent == 0x02 for e in events), 'legacy scan must give legacy reports only')
    reports = [r for e in events for r in parse_reports(e)]
    seen: dict[tuple[str, int], list] = {}
    for report in reports:
        seen.setdefault((report.address, report.event_type), []).append(report)
    check(all(len(v) == 1 for v in seen.values()), f'duplicates not filtered: {[(k, len(v)) for k, v in seen.items()]}')
    heart, speed, thingy = ctx.address('Heart 1'), ctx.address('Speed 1'), ctx.address('Thingy 1')
    beacon = ctx.address('Distractor 2')
    check((heart, 0) in seen and struct.pack('<H', 0x180D) in ad_structures(seen[heart, 0][0].data).get(3, []),
          'heart ADV_IND with complete 16-bit list 0x180D')
    check(ad_structures(seen[heart, 0][0].data).get(9) == [b'Heart 1'], 'heart name')
    check(ad_structures(seen[heart, 0][0].data).get(1) == [b'\x06'], 'heart flags 0x06')
    check((speed, 0) in seen and struct.pack('<H', 0x1814) in ad_structures(seen[speed, 0][0].data).get(3, []),
          'speed ADV_IND with 0x1814')
    check((thingy, 0) in seen and ad_structures(seen[thingy, 0][0].data).get(7)
          == [uuid128_bytes(THINGY_CONFIGURATION_SERVICE)], 'Thingy ADV_IND with its 128-bit service')
    check((thingy, 4) in seen and ad_structures(seen[thingy, 4][0].data).get(9) == [b'Thingy'],
          'Thingy scan response carries its scan-response data (name)')
    check((beacon, 3) in seen and (beacon, 4) not in seen, 'beacon: ADV_NONCONN_IND, no scan response')
    check(0x004C in [struct.unpack_from('<H', m)[0] for m in ad_structures(seen[beacon, 3][0].data).get(0xFF, [])],
          'beacon manufacturer data 0x004C')


@test
async def test_passive_scan_and_duplicates(ctx: Context) -> None:
    events = await ctx.scan(active=False, duplicates_filtered=False, seconds=0.5)
    reports = [r for e in events for r in parse_reports(e)]
    check(not [r for r in reports if r.event_type == 4], 'a passive scan got scan responses')
    heart = ctx.address('Heart 1')
    count = sum(1 for r in reports if r.address == heart)
    check(count >= 3, f'without duplicate filtering the heart should be reported repeatedly, got {count}')
    await asyncio.sleep(0.25)
    late = ctx.hci.drain(lambda i: isinstance(i, Event) and i.subevent in (0x02, 0x0D))
    check(not late, f'{len(late)} reports after scanning was disabled')


@test
async def test_extended_scan(ctx: Context) -> None:
    events = await ctx.scan(active=True, duplicates_filtered=True, seconds=0.5, extended=True)
    check(events and all(e.subevent == 0x0D for e in events), 'extended scan gives extended reports')
    reports = {(r.address, r.event_type): r for e in events for r in parse_reports(e)}
    check((ctx.address('Heart 1'), 0x13) in reports, 'heart as legacy ADV_IND (0x13)')
    response = reports.get((ctx.address('Thingy 1'), 0x1B))
    check(response is not None and ad_structures(response.data).get(9) == [b'Thingy'], 'Thingy SCAN_RSP (0x1B)')


@test
async def test_connect_heart_and_mtu(ctx: Context) -> None:
    handle = await ctx.connect('Heart 1')
    response = await ctx.hci.att(handle, struct.pack('<BH', 0x02, 247))
    check(response[0] == 0x03, f'Exchange MTU answered {response.hex()}')
    check(struct.unpack_from('<H', response, 1)[0] >= 23, 'server MTU')


@test
async def test_gatt_database(ctx: Context) -> None:
    characteristics = await ctx.discover('Heart 1')
    for uuid in ('2A37', '2A38', '2A39', '2A19', '2A29', '2A05', '2B2A', '2A00'):
        check(uuid in characteristics, f'heart has no characteristic {uuid}')
    check(await ctx.read('Heart 1', '2A38') == b'\x0b\x01', 'Body Sensor Location = 1 (Chest)')
    check((await ctx.read('Heart 1', '2A37'))[:1] == b'\x01', 'HRM is not readable (Read Not Permitted)')
    check((await ctx.read('Heart 1', '2A37'))[4:5] == b'\x02', 'HRM read error code 0x02')
    check(await ctx.read('Heart 1', '2A29') == b'\x0b' + b'rtstack test world', 'manufacturer name')
    hash_value = await ctx.read('Heart 1', '2B2A')
    check(hash_value[0] == 0x0B and len(hash_value) == 17, 'Database Hash readable (16 bytes)')
    fragments = [f for f in ctx.hci.fragments if f[0] == ctx.handles['Heart 1']]
    check(all(length <= 27 for _h, _pb, length in fragments), 'data to the host is fragmented to 27 bytes')
    check(any(pb == 0x1 for _h, pb, _l in fragments), 'long ATT responses arrive as continuation fragments')


@test
async def test_heart_notifications(ctx: Context) -> None:
    value_handle = await ctx.subscribe('Heart 1', '2A37')
    ctx.hci.notifications()
    await asyncio.sleep(1.0)
    received = [n.payload[3:] for n in ctx.hci.notifications(ctx.handles['Heart 1'])
                if struct.unpack_from('<H', n.payload, 1)[0] == value_handle]
    check(RATE * 0.7 <= len(received) <= RATE * 1.3, f'{len(received)} notifications in 1 s at {RATE} Hz')
    seqs = heart_values_ok(received)
    check(consecutive(seqs), f'sequence has gaps: {seqs}')
    await log_caught_up(ctx.world, 'Heart 1', '2A37', received[-1])
    logged = logged_values(ctx.world, 'Heart 1', '2A37')
    check(received[0] in logged, 'the world logged what it sent')
    start = logged.index(received[0])
    check(logged[start : start + len(received)] == received, 'received values == logged values')


@test
async def test_three_links_at_once(ctx: Context) -> None:
    # The pending create is to an absent address, so it is still pending when the second
    # arrives however slowly this machine runs (a create to a present peer may complete first).
    kind, status, _ = await ctx.hci.command(LE_CREATE_CONNECTION, ctx.create_params(ABSENT))
    check(status == 0, 'create to an absent address')
    kind, status, _ = await ctx.hci.command(LE_CREATE_CONNECTION, ctx.create_params(ctx.address('Speed 1')))
    check((kind, status) == ('status', 0x0C), f'a second pending create must get 0x0C, got {kind} 0x{status:02X}')
    ctx.hci.send_command(LE_CREATE_CONNECTION_CANCEL)
    cancelled = await ctx.hci.event(0x3E, 0x01, timeout=3)
    check(cancelled.params[1] == 0x02, f'cancelled create completes with 0x{cancelled.params[1]:02X}, expected 0x02')
    ctx.hci.drain()
    await ctx.connect('Speed 1')
    await ctx.connect('Thingy 1')
    check(len(set(ctx.handles.values())) == 3, f'three links {ctx.handles}')
    rsc_handle = await ctx.subscribe('Speed 1', '2A53')
    temperature_handle = await ctx.subscribe('Thingy 1', THINGY_TEMPERATURE)
    ctx.hci.notifications()
    await asyncio.sleep(1.0)
    notes = ctx.hci.notifications()
    heart = [n for n in notes if n.handle == ctx.handles['Heart 1']]
    rsc = [n.payload[3:] for n in notes if n.handle == ctx.handles['Speed 1']
           and struct.unpack_from('<H', n.payload, 1)[0] == rsc_handle]
    temperature = [n.payload[3:] for n in notes if n.handle == ctx.handles['Thingy 1']
                   and struct.unpack_from('<H', n.payload, 1)[0] == temperature_handle]
    for label, items in (('heart', heart), ('rsc', rsc), ('temperature', temperature)):
        check(RATE * 0.6 <= len(items) <= RATE * 1.4, f'{len(items)} {label} notifications in 1 s')
    rsc_seqs = [struct.unpack_from('<I', v, 6)[0] // 10 for v in rsc]
    check(all(v == values.rsc_measurement(s) for v, s in zip(rsc, rsc_seqs)), 'RSC values as predicted')
    check(consecutive(rsc_seqs), f'RSC total distance is monotonic without gaps: {rsc_seqs}')
    if temperature:
        await log_caught_up(ctx.world, 'Thingy 1', THINGY_TEMPERATURE, temperature[-1])
    logged = [e for e in ctx.world.events('notify', device='Thingy 1', uuid=THINGY_TEMPERATURE)]
    by_value = [bytes.fromhex(e['value']) for e in logged]
    start = by_value.index(temperature[0]) if temperature and temperature[0] in by_value else -1
    check(start >= 0 and by_value[start : start + len(temperature)] == temperature, 'temperatures == logged')
    seqs = [e['seq'] for e in logged[start : start + len(temperature)]]
    check(all(values.thingy_temperature(s) == v for s, v in zip(seqs, temperature)), 'temperature values')


@test
async def test_att_error_injection(ctx: Context) -> None:
    reply = await ctx.world.control({'cmd': 'att_error', 'device': 'Heart 1', 'uuid': '2A38', 'error': 0x0E})
    check(reply.get('ok'), f'att_error reply {reply}')
    response = await ctx.read('Heart 1', '2A38')
    check(response[0] == 0x01 and response[4] == 0x0E, f'read with injected error answered {response.hex()}')
    await ctx.world.control({'cmd': 'att_error', 'device': 'Heart 1', 'uuid': '0x2a38', 'error': 0})
    check(await ctx.read('Heart 1', '2A38') == b'\x0b\x01', 'error cleared')


@test
async def test_stall(ctx: Context) -> None:
    await ctx.world.control({'cmd': 'stall', 'device': 'Heart 1', 'on': True})
    try:
        await ctx.read('Heart 1', '2A38', timeout=0.5)
        raise Failure('a stalled peripheral answered')
    except TimeoutError:
        pass
    await ctx.world.control({'cmd': 'stall', 'device': 'Heart 1', 'on': False})
    check(await ctx.read('Heart 1', '2A38') == b'\x0b\x01', 'answers again after stall off')


@test
async def test_hostile_mode(ctx: Context) -> None:
    if 'Heart 1' not in ctx.handles:  # run alone (-k)
        await ctx.init()
        await ctx.connect('Heart 1')
    handle = ctx.handles['Heart 1']
    reply = await ctx.world.control({'cmd': 'hostile', 'device': 'Heart 1', 'behaviours': 'nope'})
    check(not reply.get('ok'), f'an unknown behaviour was accepted: {reply}')
    reply = await ctx.world.control({'cmd': 'hostile', 'device': 'Heart 1', 'behaviours': ['handle_zero', 'att_trailing']})
    check(reply.get('behaviours') == ['att_trailing', 'handle_zero'], f'hostile reply {reply}')
    response = await ctx.hci.att(handle, struct.pack('<BHH', 0x04, 0x0001, 0xFFFF))
    check(response == bytes.fromhex('050100000229'), f'handle_zero: Find Information answered {response.hex()}')
    response = await ctx.hci.att(handle, struct.pack('<BHHH', 0x10, 0x0001, 0xFFFF, 0x2800))
    check(response[0] == 0x11 and response.endswith(b'\xde\xad\xbe') and (len(response) - 5) % response[1] == 0,
          f'att_trailing: Read By Group Type answered {response.hex()}')
    status = await ctx.world.control({'cmd': 'status'})
    counts = next(d for d in status['devices'] if d['name'] == 'Heart 1')['hostile']['counts']
    check(counts == {'handle_zero': 1, 'att_trailing': 1}, f'hostile counts {counts}')
    await ctx.world.control({'cmd': 'hostile', 'device': 'Heart 1', 'behaviours': ['silent']})
    try:
        await ctx.read('Heart 1', '2A38', timeout=0.5)
        raise Failure('a silent peripheral answered')
    except TimeoutError:
        pass
    await ctx.world.control({'cmd': 'hostile', 'device': 'Heart 1', 'behaviours': []})
    response = await ctx.hci.att(handle, struct.pack('<BHH', 0x04, 0x0001, 0xFFFF))
    check(response[0] == 0x05 and response[2:4] != b'\x00\x00', f'behaviours cleared: {response.hex()}')


@test
async def test_rate_command(ctx: Context) -> None:
    reply = await ctx.world.control({'cmd': 'rate', 'device': 'Heart 1', 'hz': 50})
    check(reply.get('ok'), f'rate reply {reply}')
    ctx.hci.notifications()
    await asyncio.sleep(1.0)
    count = len(ctx.hci.notifications(ctx.handles['Heart 1']))
    await ctx.world.control({'cmd': 'rate', 'device': 'Heart 1', 'hz': RATE})
    check(40 <= count <= 60, f'{count} notifications in 1 s at 50 Hz')


@test
async def test_change_db(ctx: Context) -> None:
    hash_before = await ctx.read('Heart 1', '2B2A')
    service_changed = await ctx.subscribe('Heart 1', '2A05', 0x0002)
    reply = await ctx.world.control({'cmd': 'change_db', 'device': 'Heart 1'})
    check(reply.get('ok') and reply.get('indicated') == 1, f'change_db reply {reply}')
    handle = ctx.handles['Heart 1']
    item = await ctx.hci.expect(lambda i: isinstance(i, L2cap) and i.handle == handle and i.payload[:1] == b'\x1d')
    assert isinstance(item, L2cap)
    check(struct.unpack_from('<HHH', item.payload, 1) == (service_changed, reply['start'], reply['end']),
          f'Service Changed indication {item.payload.hex()} vs {reply}')
    ctx.hci.send_l2cap(handle, 0x0004, b'\x1e')
    check(await ctx.read('Heart 1', '2B2A') != hash_before, 'Database Hash changed')


@test
async def test_public_own_address(ctx: Context) -> None:
    handle = await ctx.connect('Distractor 1', own_type=0)
    response = await ctx.hci.att(handle, struct.pack('<BH', 0x02, 100))
    check(response[0] == 0x03, 'ATT over a link made with the PUBLIC own address')
    kind, status, _ = await ctx.hci.command(READ_RSSI, struct.pack('<H', handle))
    check((kind, status) == ('complete', 0), 'Read RSSI implemented')
    kind, status, _ = await ctx.hci.command(LE_SET_DATA_LENGTH, struct.pack('<HHH', handle, 251, 2120))
    check((kind, status) == ('complete', 0), 'LE Set Data Length implemented')
    kind, status, _ = await ctx.hci.command(READ_REMOTE_VERSION, struct.pack('<H', handle))
    check((kind, status) == ('status', 0), 'Read Remote Version Information accepted')
    await ctx.hci.event(0x0C)
    kind, status, _ = await ctx.hci.command(DISCONNECT, struct.pack('<HB', handle, 0x01))
    check((kind, status) == ('status', 0x12), f'Disconnect with reason 0x01 answered 0x{status:02X}')
    await ctx.ok(DISCONNECT, struct.pack('<HB', handle, 0x13))
    event = await ctx.hci.event(0x05)
    check(struct.unpack('<BHB', event.params) == (0, handle, 0x16), f'local Disconnection Complete {event.params.hex()}')


@test
async def test_drop(ctx: Context) -> None:
    reply = await ctx.world.control({'cmd': 'drop', 'device': 'Heart 1'})
    check(reply.get('dropped') == 1, f'drop reply {reply}')
    event = await ctx.hci.event(0x05)
    check(struct.unpack('<BHB', event.params) == (0, ctx.handles['Heart 1'], 0x13),
          f'Disconnection Complete {event.params.hex()}')
    del ctx.handles['Heart 1']
    ctx.characteristics.pop('Heart 1', None)


@test
async def test_cancel_connect(ctx: Context) -> None:
    kind, status, _ = await ctx.hci.command(LE_CREATE_CONNECTION, ctx.create_params(ABSENT))
    check(status == 0, 'create to an absent address is pending')
    await asyncio.sleep(0.2)
    ctx.hci.drain()
    ctx.hci.send_command(LE_CREATE_CONNECTION_CANCEL)
    first = await ctx.hci.event(0x0E)
    check(first.params[3] == 0, 'cancel: Command Complete success')
    second = await ctx.hci.event(0x3E, 0x01)
    check(second.params[1] == 0x02, f'LE Connection Complete status 0x{second.params[1]:02X}, expected 0x02')
    answer = await ctx.hci.command(LE_CREATE_CONNECTION_CANCEL)
    check(answer[:2] == ('complete', 0x0C), f'cancel with nothing pending answered {answer}')


@test
async def test_reset_drops_links_and_pending(ctx: Context) -> None:
    check('Speed 1' in ctx.handles and 'Thingy 1' in ctx.handles, 'links from earlier tests')
    await ctx.ok(LE_SET_SCAN_ENABLE, b'\x01\x00')
    kind, status, _ = await ctx.hci.command(LE_CREATE_CONNECTION, ctx.create_params(ABSENT))
    check(status == 0, 'pending create')
    await ctx.ok(RESET)
    ctx.hci.drain()
    await asyncio.sleep(0.2)
    check(not ctx.hci.drain(lambda i: isinstance(i, Event) and i.subevent == 0x02), 'scanning stopped by Reset')
    status_reply = await ctx.world.control({'cmd': 'status'})
    host = status_reply['host']
    check(host['connections'] == [] and host['pending_connect'] is None and not host['scanning'],
          f'host state after Reset {host}')
    devices = {d['name']: d for d in status_reply['devices']}
    check(devices['Speed 1']['connections'] == [] and devices['Thingy 1']['connections'] == [],
          'peripherals saw their links drop')
    ctx.handles.clear()
    ctx.characteristics.clear()
    await ctx.ok(LE_SET_RANDOM_ADDRESS, address_bytes(OWN_RANDOM))
    await ctx.connect('Speed 1')


@test
async def test_client_disconnect_resets(ctx: Context) -> None:
    kind, status, _ = await ctx.hci.command(LE_CREATE_CONNECTION, ctx.create_params(ABSENT))
    check(status == 0, 'pending create before the client goes away')
    extra = RawHci()
    await extra.connect(ctx.world.ready['hci_port'])
    await asyncio.sleep(0.1)
    check(extra.closed, 'a second client is refused while one is connected')
    await extra.close()
    await ctx.hci.close()
    await asyncio.sleep(0.2)
    host = (await ctx.world.control({'cmd': 'status'}))['host']
    check(not host['client_connected'] and host['connections'] == [] and host['pending_connect'] is None,
          f'host controller state after the client left {host}')
    await ctx.reconnect()
    ctx.handles.clear()
    ctx.characteristics.clear()
    await ctx.init()
    await ctx.connect('Heart 1')


@test
async def test_add_device_and_advertise_off(ctx: Context) -> None:
    reply = await ctx.world.control({'cmd': 'add', 'kind': 'heart'})
    check(reply.get('ok') and reply['device']['name'] == 'Heart 2', f'add reply {reply}')
    address = reply['device']['address']
    ctx.world.ready['devices'].append(reply['device'])
    events = await ctx.scan(active=False, duplicates_filtered=True, seconds=0.3)
    check(any(r.address == address for e in events for r in parse_reports(e)), 'the added heart advertises')
    await ctx.world.control({'cmd': 'advertise', 'device': 'Heart 2', 'on': False})
    events = await ctx.scan(active=False, duplicates_filtered=False, seconds=0.3)
    check(not any(r.address == address for e in events for r in parse_reports(e)), 'advertising off')
    await ctx.world.control({'cmd': 'advertise', 'device': 'Heart 2', 'on': True})


@test
async def test_filter_accept_list_and_enhanced_complete(ctx: Context) -> None:
    await ctx.ok(LE_SET_EVENT_MASK, struct.pack('<Q', 0x1F | (1 << 9)))
    await ctx.ok(LE_CLEAR_FILTER_ACCEPT_LIST)
    await ctx.ok(LE_ADD_TO_FILTER_ACCEPT_LIST, b'\x01' + address_bytes(ctx.address('Heart 2')))
    kind, status, _ = await ctx.hci.command(LE_CREATE_CONNECTION, ctx.create_params(ABSENT, filter_policy=1))
    check(status == 0, 'create with the filter accept list')
    event = await ctx.hci.event(0x3E, timeout=3, where=lambda e: e.subevent in (0x01, 0x0A))
    check(event.subevent == 0x0A, 'LE Enhanced Connection Complete when unmasked')
    check(event.params[1] == 0 and event.params[6:12] == address_bytes(ctx.address('Heart 2')),
          'connected to the listed device')
    ctx.handles['Heart 2'] = struct.unpack_from('<H', event.params, 2)[0]


@test
async def test_heart_rate_control_point(ctx: Context) -> None:
    name = 'Heart 2'
    control = (await ctx.discover(name))['2A39'][2]
    handle = ctx.handles[name]
    response = await ctx.hci.att(handle, struct.pack('<BHB', 0x12, control, 0x02))
    check(response[:1] == b'\x01' and response[4] == 0x80, f'unsupported op code answered {response.hex()}')
    value_handle = await ctx.subscribe(name, '2A37')
    await asyncio.sleep(0.3)
    response = await ctx.hci.att(handle, struct.pack('<BHB', 0x12, control, 0x01))
    check(response == b'\x13', f'Reset Energy Expended answered {response.hex()}')
    base = ctx.world.events('hr_control_point', device=name, accepted=True)
    check(base, 'control point write logged')
    ctx.hci.notifications()
    await asyncio.sleep(0.3)
    notes = [n.payload[3:] for n in ctx.hci.notifications(handle) if struct.unpack_from('<H', n.payload, 1)[0] == value_handle]
    check(notes, 'notifications after the reset')
    await log_caught_up(ctx.world, name, '2A37', notes[-1])
    logged = {bytes.fromhex(e['value']): e['seq'] for e in ctx.world.events('notify', device=name, uuid='2A37')}
    seq = logged[notes[-1]]
    check(notes[-1] == values.heart_rate_measurement(seq, seq - base[-1]['energy_reset_at_seq']),
          'energy expended restarts from 0 at the reset')


async def lifecycle_checks(results: list[tuple[str, str | None]]) -> None:
    """Exit paths of fresh worlds: stdin EOF and SIGTERM."""
    for name, how in (('exit_on_stdin_eof', 'eof'), ('exit_on_sigterm', 'term')):
        world = WorldProcess()
        try:
            await world.start('--heart', '1', '--speed', '0', '--environment', '0', '--distractors', '0',
                              '--exit-on-stdin-eof')
            client = await RawHci().connect(world.ready['hci_port'])
            assert world.process is not None
            if how == 'eof':
                assert world.process.stdin is not None
                world.process.stdin.close()
            else:
                world.process.send_signal(signal.SIGTERM)
            code = await world.wait_exit(3.0)
            await client.close()
            check(code == 0, f'exit status {code}')
            await asyncio.sleep(0.05)
            check(world.events('exit'), 'exit event logged')
            results.append((name, None))
        except Exception as error:
            results.append((name, f'{type(error).__name__}: {error}'))
        finally:
            await world.kill()


async def hosts_checks(results: list[tuple[str, str | None]]) -> None:
    """Two host-side controllers on one link (`--hosts 2`): each its own H4 port, the first
    with one connection slot (0x09 for a second create), the second 20 dB weaker; then the
    first is lost (`hci_drop`) and back."""
    world = WorldProcess()
    first, second = RawHci(), RawHci()
    try:
        await world.start('--hosts', '2', '--slot-limit', '1,0', '--host-rssi-offset', '0,-20', '--heart', '2',
                          '--speed', '0', '--environment', '0', '--distractors', '0', '--exit-on-stdin-eof')
        ports = world.ready.get('hci_ports', [])
        check(len(ports) == 2 and ports[0] == world.ready['hci_port'] and ports[0] != ports[1], f'two ports {ports}')
        check(len(world.ready.get('host_addresses', [])) == 2, f'two host addresses {world.ready.get("host_addresses")}')
        ctx, other = Context(world), Context(world)
        ctx.hci, other.hci = first, second
        await first.connect(ports[0])
        await second.connect(ports[1])
        await ctx.init()
        await other.ok(RESET)
        await other.ok(LE_SET_RANDOM_ADDRESS, address_bytes('C0:FF:EE:00:00:02'))
        strong = [r for e in await ctx.scan(True, True, 0.4) for r in parse_reports(e)]
        weak = [r for e in await other.scan(True, True, 0.4) for r in parse_reports(e)]
        heart = ctx.address('Heart 1')
        a = [r.rssi for r in strong if r.address == heart]
        b = [r.rssi for r in weak if r.address == heart]
        check(a and b and a[0] - b[0] == 20, f'RSSI offset: {a} against {b}')
        await ctx.connect('Heart 1')
        kind, status, _ = await first.command(LE_CREATE_CONNECTION, ctx.create_params(ctx.address('Heart 2')))
        check((kind, status) == ('status', 0x09), f'a second link on a one-slot host: {kind} 0x{status:02X}')
        check(world.events('slot_refused'), 'slot_refused logged')
        await other.connect('Heart 2')
        reply = await world.control({'cmd': 'slot_limit', 'host': 1, 'limit': 1, 'status': 7, 'at': 'complete'})
        check(reply.get('ok'), f'slot_limit: {reply}')
        reply = await world.control({'cmd': 'hci_drop', 'host': 0, 'refuse_s': 1.0})
        check(reply.get('ok') and reply.get('dropped'), f'hci_drop: {reply}')
        await asyncio.sleep(0.2)
        check(world.events('reset', why='client_disconnected'), 'the dropped host reset')
        again = await RawHci().connect(ports[0])
        await asyncio.sleep(0.3)
        check(world.events('hci_client_refused'), 'a client during refuse_s is turned away')
        await again.close()
        await asyncio.sleep(1.0)
        first = await RawHci().connect(ports[0])
        ctx.hci = first
        await ctx.ok(RESET)
        results.append(('hosts_slots_and_drop', None))
    except Exception as error:
        results.append(('hosts_slots_and_drop', f'{type(error).__name__}: {error}'))
    finally:
        await first.close()
        await second.close()
        await world.kill()


async def stamp_checks(results: list[tuple[str, str | None]]) -> None:
    """`--adv-stamp`: each advertising event carries its send time (company 0xFFFF), appended
    to data that is otherwise unchanged; the stamps advance with the advertising interval."""
    world = WorldProcess()
    ctx = Context(world)
    try:
        await world.start('--adv-stamp', '--heart', '1', '--speed', '0', '--environment', '0', '--distractors', '0',
                          '--exit-on-stdin-eof')
        await ctx.hci.connect(world.ready['hci_port'])
        await ctx.init()
        before = time.monotonic() - world.ready['monotonic_start']
        events = await ctx.scan(active=False, duplicates_filtered=False, seconds=0.6)
        after = time.monotonic() - world.ready['monotonic_start']
        heart = ctx.address('Heart 1')
        data = [r.data for e in events for r in parse_reports(e) if r.address == heart]
        stamps = [stamp_of(d) for d in data]
        check(len(stamps) >= 4 and None not in stamps, f'every report stamped: {[d.hex() for d in data]}')
        seconds = [s / 1e6 for s in stamps]
        check(all(before - 0.2 <= s <= after for s in seconds), f'stamps {seconds} outside the scan {before:.3f}–{after:.3f}')
        gaps = [b - a for a, b in zip(seconds, seconds[1:])]
        check(all(0.05 <= g <= 0.3 for g in gaps), f'stamps 100 ms apart: gaps {gaps}')
        check(ad_structures(data[0]).get(9) == [b'Heart 1'] and len(data[0]) <= 31, 'the name kept, 31 bytes at most')
        results.append(('adv_stamp', None))
    except Exception as error:
        results.append(('adv_stamp', f'{type(error).__name__}: {error}'))
    finally:
        await ctx.hci.close()
        await world.kill()


async def run(options: Any) -> int:
    results: list[tuple[str, str | None]] = []
    world = WorldProcess()
    started = time.monotonic()
    await world.start('--rate', str(RATE), '--exit-on-stdin-eof')
    ctx = Context(world)
    try:
        await ctx.hci.connect(world.ready['hci_port'])
        for name, function in TESTS:
            if options.only and options.only not in name:
                continue
            try:
                await asyncio.wait_for(function(ctx), 10)
                results.append((name, None))
            except Exception as error:
                detail = f'{type(error).__name__}: {error}'
                if not isinstance(error, Failure):
                    detail += '\n' + traceback.format_exc(limit=4)
                results.append((name, detail))
        if not options.only or 'quit' in options.only:
            try:
                reply = await world.control({'cmd': 'quit'})
                code = await world.wait_exit(3.0)
                check(reply.get('ok') and code == 0, f'quit: reply {reply}, exit status {code}')
                results.append(('quit', None))
            except Exception as error:
                results.append(('quit', f'{type(error).__name__}: {error}'))
    finally:
        await ctx.hci.close()
        await world.kill()
    if not options.only or 'exit' in options.only:
        await lifecycle_checks(results)
    if not options.only or 'hosts' in options.only:
        await hosts_checks(results)
    if not options.only or 'stamp' in options.only:
        await stamp_checks(results)

    failed = 0
    for name, error in results:
        print(f'{"ok  " if error is None else "FAIL"} {name}' + ('' if error is None else f': {error}'))
        failed += error is not None
    if failed and options.verbose:
        for line in world.lines[-60:]:
            print('  world:', json.dumps(line))
    print(f'startup {world.startup_s * 1000:.0f} ms to the ready line; selftest {time.monotonic() - started:.1f} s')
    print(f'{len(results) - failed} passed, {failed} failed')
    return 1 if failed else 0


def main(options: Any) -> int:
    return asyncio.run(run(options))
