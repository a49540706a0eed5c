"""The measuring half of `scripts/bench-session` (which sets up, builds and starts the world):
process start → three sensors streaming, for rtstack cold, rtstack with a warm GATT cache and
a Bumble central (`world.bench_central`) doing the same job, on one running world, one
contender at a time (the world's controller takes one host client at a time). Prints figures,
asserts nothing.

    python -m world.bench_session --ready FILE --rtstack BIN --runs N --work DIR

Per run and contender it records, on this side of a pipe:
- start-up: from just before the process is spawned to the arrival of the third sensor's
  first `measurement` line on its stdout (each line is time-stamped as it arrives);
- first line: the same to its first `state` line (the host is initialised and scanning);
  for Bumble also to its `imported` line (Python and Bumble loaded);
- CPU: user + system time of the process when that third line arrives (/proc, 10 ms ticks);
and from its HCI capture (rtstack `--capture`, Bumble `BUMBLE_SNOOPER`), decoded with
`rtstack decode --json`:
- HCI: from the first packet (HCI Reset) to the third link's first notification;
- to 1st connect: from the first packet to the first LE Create Connection (controller
  initialisation, scanning until a sensor is seen);
- connect wait: the sum over the three links of LE Create Connection → its Connection
  Complete (the controller makes one connection at a time, waiting for the target to
  advertise);
- last link: from the last Connection Complete to that link's subscription confirmed (the
  Write Response to its CCCD write); the rest to the first notification is the peripheral's
  pacing (up to one period, 50 ms at 20 Hz);
- ATT requests per sensor sent on its link before its subscription was live (before the
  Write Response to its CCCD write arrived: from then on the peer may notify), and before its
  first notification arrived (which also counts what the host sent while the peripheral's
  pacing held the first notification back, e.g. rtstack's Exchange MTU after a warm start).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from world.control_client import control_request

ROLES = ('heart', 'speed', 'environment')
# Core Spec v5.4 Vol 3, Part F, §3.4.8: the request opcodes of ATT (a response is expected).
ATT_REQUESTS = {0x02, 0x04, 0x06, 0x08, 0x0A, 0x0C, 0x0E, 0x10, 0x12, 0x16, 0x18, 0x20}
ATT_HANDLE_VALUE_NOTIFICATION = 0x1B
ATT_WRITE_RESPONSE = 0x13
CREATE_CONNECTION_OPCODES = {'0x200D', '0x2043'}  # LE Create Connection, LE Extended Create Connection
ROOT = Path(__file__).resolve().parents[3]


@dataclass
class Run:
    contender: str
    startup: float | None = None
    first_line: float | None = None
    cpu: float | None = None
    hci: float | None = None
    to_connect: float | None = None
    connect_wait: float | None = None
    last_link: float | None = None
    requests: dict[str, int] = field(default_factory=dict)
    requests_subscribed: dict[str, int] = field(default_factory=dict)
    marks: dict[str, float] = field(default_factory=dict)  # event name -> arrival of its first line
    error: str | None = None


@dataclass
class Contender:
    name: str
    kind: str  # 'rtstack' or 'bumble'
    option: str  # rtstack: 'cold' | 'warm'; bumble: discovery mode


class World:
    def __init__(self, ready: dict) -> None:
        self.ready = ready
        self.hci_port = ready['hci_port']
        self.kinds = {d['address'].upper(): d['kind'] for d in ready['devices']}

    def status(self) -> dict:
        return control_request(self.ready['control_port'], {'cmd': 'status'}, timeout=5)

    def settle(self) -> None:
        """Waits until the previous client is gone, its links are down and every peripheral
        advertises again, so that each contender starts from the same world."""
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            status = self.status()
            host = status['host']
            if (not host['client_connected'] and not host['connections'] and host['pending_connect'] is None
                    and all(d['advertising'] and not d['connections'] for d in status['devices'])):
                break
            time.sleep(0.05)
        time.sleep(0.3)


def cpu_seconds(pid: int) -> float | None:
    """On-CPU time of the process's live threads (scheduler statistics, nanoseconds)."""
    total = 0
    try:
        for task in Path(f'/proc/{pid}/task').iterdir():
            total += int((task / 'schedstat').read_text().split()[0])
    except (OSError, IndexError, ValueError):
        return None
    return total / 1e9


def measure(command: list[str], env: dict[str, str], run: Run, timeout: float) -> None:
    """Spawns the contender and time-stamps its stdout lines as they arrive."""
    streaming: set[str] = set()
    started = time.monotonic()
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)

    def read() -> None:
        assert process.stdout is not None
        for raw in process.stdout:
            now = time.monotonic()
            line = raw.decode(errors='replace').strip()
            try:
                event = json.loads(line)
            except ValueError:
                continue
            name = event.get('event')
            if isinstance(name, str):
                run.marks.setdefault(name, now - started)
            if name == 'state' and run.first_line is None:
                run.first_line = now - started
            if event.get('event') == 'measurement' and event.get('sensor') in ROLES:
                streaming.add(event['sensor'])
                if len(streaming) == len(ROLES) and run.startup is None:
                    run.startup = now - started
                    run.cpu = cpu_seconds(process.pid)

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
        run.error = f'killed after {timeout} s'
    reader.join(5)
    stderr = process.stderr.read().decode(errors='replace') if process.stderr else ''
    if run.startup is None and run.error is None:
        run.error = f'exit {process.returncode}, streaming {sorted(streaming)}: {stderr.strip()[-300:]}'


def analyse_capture(rtstack: str, capture: Path, world: World, run: Run) -> None:
    """Counts ATT requests per link up to its subscription (CCCD Write Response) and up to its
    first notification, and times the connections."""
    if not capture.exists() or capture.stat().st_size <= 16:
        run.error = run.error or f'no capture {capture.name}'
        return
    output = subprocess.run([rtstack, 'decode', '--json', str(capture)], capture_output=True, text=True).stdout
    role_of: dict[int, str] = {}
    requests: dict[int, int] = {}
    requests_subscribed: dict[int, int] = {}
    first_notification: dict[int, float] = {}
    connected: dict[int, float] = {}
    subscribed: dict[int, float] = {}
    create_sent: float | None = None
    connect_wait = 0.0
    first_time: float | None = None
    for line in output.splitlines():
        packet = json.loads(line)
        if 'index' not in packet:
            continue  # the summary object
        t = float(packet['time'])
        if first_time is None:
            first_time = t
        if packet['type'] == 'command' and packet.get('code') in CREATE_CONNECTION_OPCODES:
            create_sent = t
            if run.to_connect is None:
                run.to_connect = t - first_time
        elif packet['type'] == 'event' and 'Connection Complete' in packet.get('name', ''):
            fields = {f['label']: f['value'] for f in packet.get('fields', [])}
            if fields.get('Status', '').startswith('Success') and 'handle' in packet:
                peer = fields.get('Peer address', '').split(' ')[0].upper()
                role_of[packet['handle']] = world.kinds.get(peer, peer)
                connected.setdefault(packet['handle'], t)
            if create_sent is not None:
                connect_wait += t - create_sent
                create_sent = None
        att = packet.get('att')
        if att is None or 'handle' not in packet:
            continue
        link = packet['handle']
        if link in first_notification:
            continue
        if att['opcode'] == ATT_HANDLE_VALUE_NOTIFICATION and packet['direction'] == 'rx':
            first_notification[link] = t
        elif att['opcode'] == ATT_WRITE_RESPONSE and packet['direction'] == 'rx':
            subscribed.setdefault(link, t)
        elif att['opcode'] in ATT_REQUESTS and packet['direction'] == 'tx':
            requests[link] = requests.get(link, 0) + 1
            if link not in subscribed:
                requests_subscribed[link] = requests_subscribed.get(link, 0) + 1
    run.requests = {role_of.get(link, f'handle {link}'): count for link, count in requests.items()}
    run.requests_subscribed = {role_of.get(link, f'handle {link}'): count for link, count in requests_subscribed.items()}
    run.connect_wait = connect_wait
    if connected:
        last = max(connected, key=lambda link: connected[link])
        if last in subscribed:
            run.last_link = subscribed[last] - connected[last]
    if first_time is not None and len(first_notification) >= len(ROLES):
        run.hci = sorted(first_notification.values())[len(ROLES) - 1] - first_time


def run_contender(contender: Contender, index: int, options: argparse.Namespace, world: World) -> Run:
    work = Path(options.work)
    run = Run(contender.name)
    capture = work / f'{contender.name.replace(" ", "-")}-{index}.btsnoop'
    adapter = f'tcp:127.0.0.1:{world.hci_port}'
    env = dict(os.environ)
    if contender.kind == 'rtstack':
        state = work / f'state-{index}'
        if contender.option == 'cold':
            shutil.rmtree(state, ignore_errors=True)
        command = [options.rtstack, '--adapter', adapter, '--json', '--duration', '3',
                   '--state-dir', str(state), '--capture', str(capture)]
    else:
        env['PYTHONPATH'] = str(ROOT / 'Tests' / 'World')
        env['BUMBLE_SNOOPER'] = f'btsnoop:file:{capture}'
        command = [sys.executable, '-m', 'world.bench_central', '--transport',
                   f'tcp-client:127.0.0.1:{world.hci_port}', '--discovery', contender.option]
    world.settle()
    measure(command, env, run, timeout=30)
    analyse_capture(options.rtstack, capture, world, run)
    return run


def median_range(values: list[float], scale: float = 1.0, digits: int = 3) -> str:
    if not values:
        return 'n/a'
    v = [x * scale for x in values]
    return f'{statistics.median(v):.{digits}f} ({min(v):.{digits}f}–{max(v):.{digits}f})'


def median(values: list[float]) -> float | None:
    return statistics.median(values) if values else None


def report(contenders: list[Contender], runs: dict[str, list[Run]]) -> None:
    def column(name: str, attribute: str) -> list[float]:
        return [getattr(r, attribute) for r in runs[name] if getattr(r, attribute) is not None]

    print()
    print('Process start → three sensors streaming, in seconds: median (min–max) over the runs')
    header = (f'{"contender":<17} {"start-up":<21} {"first line":<21} {"CPU":<21} '
              f'ATT requests heart/speed/env: before subscribed | before 1st notification')
    print(header)
    print('-' * len(header))

    def counts_of(ok: list[Run], attribute: str) -> str:
        counts = []
        for role in ROLES:
            seen = sorted({getattr(r, attribute).get(role, 0) for r in ok})
            counts.append('/'.join(str(n) for n in seen) if seen else '?')
        return ' / '.join(counts)

    for c in contenders:
        ok = [r for r in runs[c.name] if r.error is None]
        print(f'{c.name:<17} {median_range(column(c.name, "startup")):<21} '
              f'{median_range(column(c.name, "first_line")):<21} {median_range(column(c.name, "cpu")):<21} '
              f'{counts_of(ok, "requests_subscribed")} | {counts_of(ok, "requests")}   ({len(ok)}/{len(runs[c.name])} runs ok)')
    print()
    print('From the HCI captures, in seconds: median (min–max)')
    header = (f'{"contender":<17} {"reset→streaming":<21} {"reset→1st connect":<21} '
              f'{"connect wait (sum)":<21} {"last link→subscribed":<21}')
    print(header)
    print('-' * len(header))
    for c in contenders:
        print(f'{c.name:<17} {median_range(column(c.name, "hci")):<21} {median_range(column(c.name, "to_connect")):<21} '
              f'{median_range(column(c.name, "connect_wait")):<21} {median_range(column(c.name, "last_link")):<21}')
    print()
    for c in contenders:
        imported = [r.marks['imported'] for r in runs[c.name] if 'imported' in r.marks]
        if imported:
            print(f'{c.name}: of its start-up, process start → Python and Bumble imported {median_range(imported)}')
    for c in contenders:
        for r in runs[c.name]:
            if r.error:
                print(f'  {c.name}: {r.error}')
    print()
    rtstack = [c for c in contenders if c.kind == 'rtstack']
    bumble = [c for c in contenders if c.kind == 'bumble']
    for metric, label in (('startup', 'start-up'), ('hci', 'HCI reset→streaming'), ('cpu', 'CPU')):
        for r in rtstack:
            parts = []
            for b in bumble:
                mr, mb = median(column(r.name, metric)), median(column(b.name, metric))
                if mr and mb:
                    parts.append(f'{b.name} {mr / mb:.3f} (Bumble/rtstack {mb / mr:.1f}x)')
            if parts:
                print(f'ratio {label:<20} {r.name} / ' + ', '.join(parts))


def main(argv: list[str] | None = None) -> int:
    top = argparse.ArgumentParser(prog='bench_session', description=__doc__.split('\n\n')[0])
    top.add_argument('--ready', required=True, help="file holding the world's ready line")
    top.add_argument('--rtstack', required=True, help='the rtstack executable')
    top.add_argument('--runs', type=int, default=5)
    top.add_argument('--work', required=True, help='directory for captures and state directories')
    top.add_argument('--verbose', action='store_true', help='print every run')
    options = top.parse_args(argv)
    world = World(json.loads(Path(options.ready).read_text().splitlines()[0]))
    contenders = [
        Contender('rtstack cold', 'rtstack', 'cold'),
        Contender('rtstack warm', 'rtstack', 'warm'),
        Contender('bumble full', 'bumble', 'full'),
        Contender('bumble targeted', 'bumble', 'targeted'),
    ]
    runs: dict[str, list[Run]] = {c.name: [] for c in contenders}
    for index in range(options.runs):
        for contender in contenders:
            run = run_contender(contender, index, options, world)
            runs[contender.name].append(run)
            if options.verbose:
                figures = ' '.join(f'{name} {value:.3f}' for name, value in (
                    ('start-up', run.startup), ('first-line', run.first_line), ('cpu', run.cpu), ('hci', run.hci),
                    ('to-connect', run.to_connect), ('connect-wait', run.connect_wait), ('last-link', run.last_link))
                    if value is not None)
                print(f'run {index + 1} {contender.name:<16} {figures} requests before subscribed {run.requests_subscribed}, '
                      f'before 1st notification {run.requests} {run.error or ""}',
                      flush=True)
        print(f'run {index + 1}/{options.runs}: ' + ', '.join(
            f'{c.name} {runs[c.name][-1].startup:.3f} s' if runs[c.name][-1].startup is not None
            else f'{c.name} failed' for c in contenders), flush=True)
    report(contenders, runs)
    return 0


if __name__ == '__main__':
    sys.exit(main())
