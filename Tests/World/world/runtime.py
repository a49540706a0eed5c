"""The world: one link, the host-side controller behind an H4 TCP server, the peripherals, the
control port, and the JSON-lines event log."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import signal
import sys
import threading
import time
from typing import Any, BinaryIO, Callable

from world.controller import WorldController, WorldLink
from world.hci_server import H4Server
from world.hostile import parse_behaviours
from world.peripherals import CLASSES, KINDS, Heart, Peripheral, normalize_uuid
from world.secure import Secure

CLASSES['secure'] = Secure

HOST_PUBLIC_ADDRESS = '00:00:A0:00:00:01'


def host_public_address(index: int) -> str:
    """The public address of host-side controller `index` (0 is HOST_PUBLIC_ADDRESS)."""
    return f'00:00:A0:00:00:{index + 1:02X}'


def per_host(values: list[int] | None, index: int, default: int) -> int:
    """A per-host option given as a list: the last value holds for the hosts after it."""
    if not values:
        return default
    return values[min(index, len(values) - 1)]


class LineSink:
    """Writes lines to a pipe without ever blocking the world.

    A parent that stops reading our stdout must not freeze the simulation: lines are queued
    in an asyncio pipe transport; past BUFFER_LIMIT queued bytes new lines are dropped and
    counted.  Regular files are written directly (they do not block).
    """

    BUFFER_LIMIT = 16 << 20

    def __init__(self, file: BinaryIO) -> None:
        self.file = file
        self.transport: asyncio.WriteTransport | None = None
        self.dropped = 0
        self.broken = False

    async def open(self) -> None:
        try:
            self.transport, _ = await asyncio.get_running_loop().connect_write_pipe(asyncio.Protocol, self.file)
        except (ValueError, OSError):
            self.transport = None

    def write(self, data: bytes) -> None:
        if self.broken:
            return
        try:
            if self.transport is None:
                self.file.write(data)
                self.file.flush()
            elif self.transport.is_closing():
                self.broken = True
            elif self.transport.get_write_buffer_size() > self.BUFFER_LIMIT:
                self.dropped += 1
            else:
                self.transport.write(data)
        except (BrokenPipeError, ValueError, OSError):
            self.broken = True  # nobody listens any more: keep running, stop writing

    async def close(self, timeout: float = 0.5) -> None:
        if self.transport is None:
            return
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while (not self.transport.is_closing() and self.transport.get_write_buffer_size()
               and loop.time() < deadline):
            await asyncio.sleep(0.01)
        self.transport.close()


class EventLog:
    """One JSON object per line, with `t` = seconds since the process started."""

    def __init__(self, sink: LineSink, started: float, notify: bool) -> None:
        self.sink = sink
        self.started = started
        self.notify = notify

    def write(self, event_name: str, /, **fields: Any) -> None:
        record = {'event': event_name, 't': round(time.monotonic() - self.started, 4), **fields}
        self.sink.write((json.dumps(record, separators=(',', ':')) + '\n').encode())


class World:
    def __init__(self, options: Any, started: float) -> None:
        self.options = options
        self.started = started
        self.default_rate = options.rate
        self.adv_interval_ms = options.adv_interval_ms
        self.stopping = False
        self.stop_reason = ''
        self._stopped: asyncio.Event | None = None
        self._tasks: set[asyncio.Task] = set()
        self.peripherals: dict[str, Peripheral] = {}
        self.numbers = {kind: 0 for kind in KINDS}
        self.stdout = LineSink(sys.stdout.buffer)
        self.log_sink = LineSink(open(options.log, 'ab')) if options.log else self.stdout
        self.log = EventLog(self.log_sink, started, notify=not options.no_notify_log)
        self.link: WorldLink | None = None
        self.host: WorldController | None = None
        self.hci: H4Server | None = None
        # Every host-side controller with its H4 server (`--hosts`); the first is host/hci.
        self.hosts: list[tuple[WorldController, H4Server]] = []
        self.control_server: asyncio.base_events.Server | None = None
        self.control_port = 0

    # -- events -------------------------------------------------------------------------------
    def event(self, event_name: str, /, **fields: Any) -> None:
        self.log.write(event_name, **fields)

    def notify_event(self, device: str, uuid: str, seq: int, value: bytes, peer: str) -> None:
        if self.log.notify:
            self.log.write('notify', device=device, uuid=uuid, seq=seq, value=value.hex(), peer=peer)

    def spawn(self, coroutine) -> asyncio.Task:
        task = asyncio.get_running_loop().create_task(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    # -- life cycle ---------------------------------------------------------------------------
    async def add(self, kind: str) -> Peripheral:
        if kind not in CLASSES:
            raise KeyError(f'unknown kind {kind!r} (one of {", ".join(KINDS)})')
        self.numbers[kind] += 1
        peripheral = CLASSES[kind](self, self.numbers[kind])
        self.peripherals[peripheral.name] = peripheral
        if self.options.hostile and peripheral.name == self.options.hostile_device:
            peripheral.hostile.set(parse_behaviours(self.options.hostile))
        await peripheral.start()
        return peripheral

    async def run(self) -> int:
        loop = asyncio.get_running_loop()
        self._stopped = asyncio.Event()
        await self.stdout.open()
        if self.log_sink is not self.stdout:
            await self.log_sink.open()
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(sig, self.stop, signal.Signals(sig).name)
        if self.options.exit_on_stdin_eof:
            self._watch_stdin(loop)
        if self.options.exit_with_parent:
            self.spawn(self._watch_parent())

        self.link = WorldLink()
        hci_ports = []
        for index in range(getattr(self.options, 'hosts', 1)):
            controller = WorldController('host' if index == 0 else f'host{index + 1}', link=self.link,
                                         public_address=host_public_address(index), events=self.event,
                                         extended=not self.options.legacy_only, acl_fragment=self.options.acl_fragment,
                                         rssi_offset=per_host(getattr(self.options, 'host_rssi_offset', None), index, 0))
            controller.slot_limit = per_host(getattr(self.options, 'slot_limit', None), index, 0)
            if getattr(self.options, 'key_size_delay_ms', None) is not None:
                controller.answer_key_size_late(self.options.key_size_delay_ms / 1000)
            server = H4Server(controller, self.event)
            hci_ports.append(await server.start(self.options.hci_port if index == 0 else 0))
            self.hosts.append((controller, server))
        self.host, self.hci = self.hosts[0]
        hci_port = hci_ports[0]
        self.control_server = await asyncio.start_server(self._control_client, '127.0.0.1',
                                                         self.options.control_port, reuse_address=True)
        self.control_port = self.control_server.sockets[0].getsockname()[1]

        counts = [('heart', self.options.heart), ('speed', self.options.speed),
                  ('environment', self.options.environment), ('distractor', self.options.distractors),
                  ('secure', len(getattr(self.options, 'secure_profiles', None) or []))]
        await asyncio.gather(*(self.add(kind) for kind, count in counts for _ in range(count)))

        ready = {
            'hci_port': hci_port,
            'hci_ports': hci_ports,
            'control_port': self.control_port,
            'host_address': HOST_PUBLIC_ADDRESS,
            'host_addresses': [str(c.public_address).removesuffix('/P') for c, _ in self.hosts],
            'pid': os.getpid(),
            # CLOCK_MONOTONIC at the start: an event's `t` plus this is when it happened, on the
            # clock every process of the machine shares (latency measurements).
            'monotonic_start': round(self.started, 6),
            'startup_ms': round((time.monotonic() - self.started) * 1000),
            'devices': [p.describe() for p in self.peripherals.values()],
        }
        line = json.dumps({'event': 'ready', **ready}, separators=(',', ':'))
        if self.options.log:  # the ready line always goes to stdout
            self.stdout.write((line + '\n').encode())
        self.event('ready', **ready)

        await self._stopped.wait()
        await self._shutdown()
        return 0

    def stop(self, reason: str = 'stop') -> None:
        if self.stopping:
            return
        self.stopping = True
        self.stop_reason = reason
        if self._stopped is not None:
            self._stopped.set()

    async def _shutdown(self) -> None:
        for peripheral in self.peripherals.values():
            peripheral.stop()
        for _, server in self.hosts:
            server.close()
        if self.control_server is not None:
            self.control_server.close()
        for task in list(self._tasks):
            task.cancel()
        await asyncio.sleep(0)
        self.event('exit', reason=self.stop_reason, dropped_log_lines=self.log_sink.dropped)
        await self.log_sink.close()
        if self.log_sink is not self.stdout:
            await self.stdout.close()

    def _watch_stdin(self, loop: asyncio.AbstractEventLoop) -> None:
        def reader() -> None:
            try:
                while os.read(sys.stdin.fileno(), 4096):
                    pass
            except OSError:
                pass
            try:
                loop.call_soon_threadsafe(self.stop, 'stdin_eof')
            except RuntimeError:
                pass  # loop already closed

        threading.Thread(target=reader, name='stdin-watch', daemon=True).start()

    async def _watch_parent(self) -> None:
        parent = os.getppid()
        while True:
            await asyncio.sleep(0.5)
            if os.getppid() != parent:
                self.stop('parent_exited')
                return

    # -- control port -------------------------------------------------------------------------
    async def _control_client(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while not self.stopping:
                line = await reader.readline()
                if not line:
                    break
                if not line.strip():
                    continue
                try:
                    request = json.loads(line)
                    if not isinstance(request, dict):
                        raise ValueError('a request is a JSON object')
                    reply = await self.command(request)
                except Exception as error:  # every request gets one answer
                    reply = {'ok': False, 'error': f'{type(error).__name__}: {error}'}
                writer.write((json.dumps(reply, separators=(',', ':')) + '\n').encode())
                await writer.drain()
                if request_is_quit(line):
                    self.stop('quit')
                    break
        except (ConnectionError, asyncio.IncompleteReadError):
            pass
        finally:
            writer.close()

    def device(self, key: Any) -> Peripheral:
        if not isinstance(key, str):
            raise KeyError('"device" is required')
        if key in self.peripherals:
            return self.peripherals[key]
        for peripheral in self.peripherals.values():
            if peripheral.address.upper() == key.upper():
                return peripheral
        raise KeyError(f'no device {key!r}')

    def targets(self, request: dict[str, Any]) -> list[Peripheral]:
        if request.get('device') in (None, '*'):
            return list(self.peripherals.values())
        return [self.device(request['device'])]

    async def command(self, request: dict[str, Any]) -> dict[str, Any]:
        handler: Callable | None = getattr(self, f'cmd_{request.get("cmd")}', None)
        if handler is None:
            raise KeyError(f'unknown cmd {request.get("cmd")!r}')
        result = await handler(request)
        if request.get('cmd') != 'status':
            self.event('control', request=request)
        return {'ok': True, **result}

    @staticmethod
    def _host_status(host: WorldController, server: H4Server) -> dict[str, Any]:
        return {
            'client_connected': server.client is not None,
            'connections': [{'handle': c.handle, 'peer': str(c.peer_address), 'own': str(c.self_address)}
                            for c in host.le_connections.values()],
            'pending_connect': str(host.pending_le_connection.peer_address) if host.pending_le_connection else None,
            'scanning': host.le_scan_enable,
            'random_address': str(host.random_address),
            'counters': dict(host.counters),
            'slot_limit': host.slot_limit,
        }

    async def cmd_status(self, _request) -> dict[str, Any]:
        assert self.host is not None and self.hci is not None
        return {
            'host': self._host_status(self.host, self.hci),
            'hosts': [self._host_status(c, s) for c, s in self.hosts],
            'dropped_log_lines': self.log_sink.dropped,
            'devices': [p.status() for p in self.peripherals.values()],
        }

    def _host(self, request: dict[str, Any]) -> tuple[WorldController, H4Server]:
        index = int(request.get('host', 0))
        if not 0 <= index < len(self.hosts):
            raise KeyError(f'no host {index} (the world has {len(self.hosts)}: --hosts)')
        return self.hosts[index]

    async def cmd_hci_drop(self, request) -> dict[str, Any]:
        """The host-side controller `host` is lost: its client's connection is cut, and new
        clients are turned away for `refuse_s` seconds (then it is back)."""
        _, server = self._host(request)
        refuse = float(request.get('refuse_s', 0))
        if not 0 <= refuse <= 3600:
            raise ValueError('refuse_s is within 0..3600')
        return {'dropped': server.drop_client(refuse), 'refuse_s': refuse}

    async def cmd_slot_limit(self, request) -> dict[str, Any]:
        """Connection slots of host-side controller `host`: `limit` links (0 = none), refused
        with `status` (9 or 7) at the Command Status (`at` "status") or the completion."""
        host, _ = self._host(request)
        limit = int(request.get('limit', 0))
        status = int(request.get('status', 0x09))
        at = str(request.get('at', 'status'))
        if limit < 0 or status not in (0x07, 0x09) or at not in ('status', 'complete'):
            raise ValueError('limit >= 0, status 7 or 9, at "status" or "complete"')
        host.slot_limit, host.slot_limit_status, host.slot_limit_at = limit, status, at
        return {'limit': limit, 'status': status, 'at': at}

    async def cmd_drop(self, request) -> dict[str, Any]:
        reason = int(request.get('reason', 0x13))
        dropped = 0
        for peripheral in self.targets(request):
            dropped += await peripheral.drop(reason)
        return {'dropped': dropped}

    async def cmd_advertise(self, request) -> dict[str, Any]:
        on = bool(request.get('on', True))
        for peripheral in self.targets(request):
            await peripheral.set_advertising(on)
        return {'on': on}

    async def cmd_rate(self, request) -> dict[str, Any]:
        hz = float(request['hz'])
        if hz < 0 or hz > 10000:
            raise ValueError('hz must be within 0..10000')
        for peripheral in self.targets(request):
            peripheral.set_rate(hz)
        return {'hz': hz}

    async def cmd_att_error(self, request) -> dict[str, Any]:
        error = int(request.get('error', 0))
        if not 0 <= error <= 0xFF:
            raise ValueError('error is one byte')
        matched = self.device(request.get('device')).set_att_error(str(request['uuid']), error)
        return {'uuid': normalize_uuid(str(request['uuid'])), 'error': error, 'characteristics': matched}

    async def cmd_stall(self, request) -> dict[str, Any]:
        on = bool(request.get('on', True))
        for peripheral in self.targets(request):
            peripheral.stalled = on
        return {'on': on}

    async def cmd_add(self, request) -> dict[str, Any]:
        peripheral = await self.add(str(request.get('kind')))
        self.event('device_added', **peripheral.describe())
        return {'device': peripheral.describe()}

    async def cmd_change_db(self, request) -> dict[str, Any]:
        return await self.device(request.get('device')).change_db(bool(request.get('force', False)))

    async def cmd_battery(self, request) -> dict[str, Any]:
        peripheral = self.device(request.get('device'))
        if not isinstance(peripheral, Heart):
            raise KeyError('battery levels are settable on heart devices')
        return {'level': await peripheral.set_battery(int(request['level']))}

    async def cmd_passkey(self, request) -> dict[str, Any]:
        """The passkey the user of a `passkey-keyboard` Secure device types."""
        peripheral = self.device(request.get('device'))
        if not isinstance(peripheral, Secure):
            raise KeyError('passkeys are typed on secure devices')
        peripheral.type_passkey(int(request['passkey']))
        return {'device': peripheral.name}

    async def cmd_rotate(self, request) -> dict[str, Any]:
        """A `privacy` Secure device advertises with a new resolvable private address."""
        peripheral = self.device(request.get('device'))
        if not isinstance(peripheral, Secure):
            raise KeyError('private addresses are rotated on secure devices')
        return {'device': peripheral.name, 'address': await peripheral.rotate()}

    async def cmd_hostile(self, request) -> dict[str, Any]:
        behaviours = parse_behaviours(request.get('behaviours', []))
        peripheral = self.device(request.get('device'))
        await peripheral.set_hostile(behaviours)
        return {'device': peripheral.name, 'behaviours': sorted(peripheral.hostile.behaviours)}

    async def cmd_indication_burst(self, request) -> dict[str, Any]:
        peripheral = self.device(request.get('device'))
        count = int(request.get('count', 5))
        if not 1 <= count <= 255:
            raise ValueError('count is within 1..255')
        handle = int(request['handle']) if 'handle' in request else peripheral.value_handle(str(request['uuid']))
        return {'handle': handle, 'sent': peripheral.hostile.indication_burst(handle, count)}

    async def cmd_param_flood(self, request) -> dict[str, Any]:
        count = int(request.get('count', 50))
        if not 1 <= count <= 1000:
            raise ValueError('count is within 1..1000')
        return {'sent': self.device(request.get('device')).hostile.param_flood(count)}

    async def cmd_signing(self, request) -> dict[str, Any]:
        """The CSRK a bond gave the device for the signed writes of its peers (or none)."""
        peripheral = self.device(request.get('device'))
        return {'device': peripheral.name, 'csrk': peripheral.signing.set_csrk(request.get('csrk'))}

    async def cmd_quit(self, _request) -> dict[str, Any]:
        return {}


def request_is_quit(line: bytes) -> bool:
    try:
        return json.loads(line).get('cmd') == 'quit'
    except Exception:
        return False


def main(options: Any) -> int:
    from world import STARTED

    started = STARTED
    if options.verbose:
        logging.basicConfig(level=logging.DEBUG, stream=sys.stderr)
    else:
        logging.basicConfig(level=logging.CRITICAL, stream=sys.stderr)
    world = World(options, started)
    return asyncio.run(world.run())
