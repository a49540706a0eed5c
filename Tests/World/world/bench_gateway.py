"""The measuring half of `scripts/bench-gateway` (which builds rtstack and sets up the venv):
`rtstack gateway` and the Python gateway a user would otherwise write (`world.gateway_peer`:
Bumble's host and paho-mqtt) against the same Bumble world and the same mosquitto broker, one
after the other in the same run. Prints figures, asserts nothing.

    python -m world.bench_gateway --rtstack BIN [--seconds S] [--rates R,R] [--links N,N]
                                  [--repeat K] [--before BIN] [--strace]

For each notification rate R (per sensor; three sensors: heart, speed, Thingy):
- notifications/s from the sensors to MQTT delivery: messages that name one notification each
  (a heart's energy_expended, a speed pod's total_distance, a Thingy's temperature) received by
  a subscriber in this process over a window of S seconds, against what the world sent;
- latency, notification → delivery: the world stamps each notification (CLOCK_MONOTONIC at its
  start + the event's t, 0.1 ms resolution); the subscriber stamps its arrival; heart and speed
  values name their notification (energy expended and total distance are its sequence number);
- CPU per 1,000 notifications/s: the gateway process's on-CPU time in the window (all its
  threads, /proc/PID/task/*/schedstat) per second, divided by the delivered rate in thousands.
- CPU µs per notification and the peak RSS (VmHWM) of the gateway process in the run.
- with --strace, one more window per contender under `strace -f -c` (every thread): system calls
  per notification, the most frequent ones named (strace slows the process down, so that window's
  other figures are not used).
For each link count N: RSS (VmRSS, VmHWM) of the gateway process with N sensors connected and
notifying once a second, 3 s after the last one is ready.
Every figure is printed with its ratio rtstack/peer. With --repeat K the contenders take turns K
times (rtstack, peer, rtstack, peer …) and each figure is the median of its K windows; --before
BIN adds a third contender, another rtstack binary (the build before a change), in the same turns.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import signal
import statistics
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import paho.mqtt.client as mqtt

from world.bench_session import cpu_seconds

THINGY_SERVICE = 'EF680100-9B35-4933-9B10-52FFA9740042'
THINGY_TEMPERATURE = 'EF680201-9B35-4933-9B10-52FFA9740042'
# The quantity that names one notification, per kind: (world device kind, uuid logged).
NAMING = {'energy_expended': ('heart', '2A37'), 'total_distance': ('speed', '2A53'), 'temperature': ('environment', THINGY_TEMPERATURE)}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(('127.0.0.1', 0))
        return s.getsockname()[1]


def percentile(values: list[float], p: float) -> float:
    if not values:
        return float('nan')
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(p / 100 * (len(ordered) - 1))))]


class Broker:
    def __init__(self, work: Path) -> None:
        self.port = free_port()
        config = work / 'mosquitto.conf'
        config.write_text(f'listener {self.port} 127.0.0.1\nallow_anonymous true\npersistence false\n'
                          'set_tcp_nodelay true\nmax_queued_messages 1000000\nlog_type none\n')
        self.process = subprocess.Popen(['/usr/sbin/mosquitto', '-c', str(config)], stdout=subprocess.DEVNULL,
                                        stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                socket.create_connection(('127.0.0.1', self.port), timeout=1).close()
                return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError('mosquitto did not start')

    def stop(self) -> None:
        self.process.kill()
        self.process.wait()


class Subscriber:
    """Every message on the measured topics with its arrival time (CLOCK_MONOTONIC), on paho's
    network thread. Only the quantities that name a notification and the link states: a Python
    subscriber of every quantity (four messages a notification) would be the bottleneck both
    contenders' latency is measured through."""

    TOPICS = [f'rtstack/+/+/{q}' for q in ('energy_expended', 'total_distance', 'temperature', 'state')]

    def __init__(self, port: int) -> None:
        self.messages: list[tuple[float, str, bytes]] = []
        self.client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=f'bench-sub-{os.getpid()}')
        self.client.on_message = lambda c, u, m: self.messages.append((time.monotonic(), m.topic, m.payload))
        self.client.on_connect = lambda c, u, f, rc, p: c.subscribe([(t, 1) for t in Subscriber.TOPICS])
        self.client.connect('127.0.0.1', port)
        self.client.loop_start()

    def stop(self) -> None:
        self.client.loop_stop()
        self.client.disconnect()


class World:
    def __init__(self, work: Path, options: list[str]) -> None:
        self.log = work / f'world-{time.monotonic_ns()}.log'
        self.process = subprocess.Popen([sys.executable, '-m', 'world', 'run', '--exit-on-stdin-eof', '--log', str(self.log)] + options,
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        assert self.process.stdout is not None
        self.ready = json.loads(self.process.stdout.readline())
        self.hci_port = self.ready['hci_port']
        self.start = self.ready['monotonic_start']

    def sent(self) -> dict[tuple[str, int], float]:
        """(kind, seq) → when the world sent it, from its log."""
        kinds = {d['name']: d['kind'] for d in self.ready['devices']}
        out: dict[tuple[str, int], float] = {}
        for line in self.log.read_text().splitlines():
            if '"notify"' not in line:
                continue
            e = json.loads(line)
            if e.get('event') != 'notify':  # the ready line lists each device's `notify` too
                continue
            out[(kinds.get(e['device'], '?') + ':' + e['uuid'], e['seq'])] = self.start + e['t']
        return out

    def stop(self) -> None:
        if self.process.stdin:
            self.process.stdin.close()
        try:
            self.process.wait(5)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def contender_command(name: str, options: argparse.Namespace, world: World, broker: Broker, work: Path,
                      devices: list[str] | None) -> list[str]:
    if name in ('rtstack', 'before'):
        command = [options.rtstack if name == 'rtstack' else options.before, 'gateway', '--adapter', f'tcp:127.0.0.1:{world.hci_port}', '--mqtt', f'mqtt://127.0.0.1:{broker.port}',
                   '--gateway-id', 'bench', '--state-dir', str(work / f'state-{time.monotonic_ns()}'), '--control-socket', 'off']
        for d in devices or []:
            command += ['--device', d]
        return command
    command = [sys.executable, '-m', 'world.gateway_peer', '--transport', f'tcp-client:127.0.0.1:{world.hci_port}',
               '--mqtt', f'127.0.0.1:{broker.port}', '--id', 'bench']
    return command


def start(name: str, options: argparse.Namespace, world: World, broker: Broker, work: Path,
          devices: list[str] | None) -> tuple[subprocess.Popen, Path]:
    """The contender, its standard error kept in a file for the report of a run that fails."""
    errors = work / f'{name}-{time.monotonic_ns()}.err'
    with errors.open('wb') as sink:
        process = subprocess.Popen(contender_command(name, options, world, broker, work, devices),
                                   stdout=subprocess.DEVNULL, stderr=sink)
    return process, errors


def exited(process: subprocess.Popen, errors: Path) -> str:
    """Why a contender is not there: its exit status and last lines of standard error."""
    if process.poll() is None:
        return ''
    tail = ' | '.join(errors.read_text(errors='replace').strip().splitlines()[-3:])
    return f'; it exited with status {process.returncode}: {tail}'


def stop(process: subprocess.Popen) -> None:
    process.send_signal(signal.SIGTERM)
    try:
        process.wait(15)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def attach_strace(pid: int, out: Path) -> subprocess.Popen:
    """`strace -f -c` attached to every thread of `pid`; its summary goes to `out` when it is
    interrupted."""
    command = ['strace', '-f', '-c', '-qq', '-o', str(out)]
    for task in Path(f'/proc/{pid}/task').iterdir():
        command += ['-p', task.name]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(0.5)  # attached to every thread before the window opens
    return process


def strace_summary(out: Path) -> dict[str, int]:
    """Calls per system call from a `strace -c` table, and their sum under the key 'total'
    (strace versions differ in the columns of their own total row)."""
    calls: dict[str, int] = {}
    for line in out.read_text(errors='replace').splitlines():
        fields = line.split()
        # % time, seconds, usecs/call, calls, [errors], syscall
        if len(fields) < 5 or fields[-1] == 'total' or not re.match(r'^[\d.]+$', fields[0]):
            continue
        calls[fields[-1]] = int(fields[3])
    calls['total'] = sum(calls.values())
    return calls


def stream(name: str, options: argparse.Namespace, rate: float, work: Path, traced: bool = False) -> dict:
    broker = Broker(work)
    sub = Subscriber(broker.port)
    world = World(work, ['--heart', '1', '--speed', '1', '--environment', '1', '--distractors', '0', '--rate', str(rate)])
    process, errors = start(name, options, world, broker, work, None)
    try:
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline and process.poll() is None:
            seen = {t.rsplit('/', 1)[-1] for _, t, _ in sub.messages[-2000:]}
            if all(q in seen for q in NAMING):
                break
            time.sleep(0.1)
        else:
            return {'error': 'not all three sensors streaming within 90 s' + exited(process, errors)}
        time.sleep(2)
        trace = work / f'strace-{name}-{time.monotonic_ns()}.txt'
        tracer = attach_strace(process.pid, trace) if traced else None
        cpu0, t0 = cpu_seconds(process.pid), time.monotonic()
        time.sleep(options.seconds)
        cpu1, t1 = cpu_seconds(process.pid), time.monotonic()
        if tracer:
            tracer.send_signal(signal.SIGINT)
            tracer.wait(30)
        peak = rss(process.pid)
        time.sleep(1)
    finally:
        stop(process)
        world.stop()
        sub.stop()
        broker.stop()
    sent = world.sent()
    delivered = 0
    latencies: list[float] = []
    seen: set[tuple[str, int]] = set()
    for at, topic, payload in sub.messages:
        quantity = topic.rsplit('/', 1)[-1]
        if quantity not in NAMING or not t0 <= at <= t1:
            continue
        delivered += 1
        if quantity == 'temperature':
            continue
        kind, uuid = NAMING[quantity]
        seq = round(json.loads(payload)['value'])
        key = (kind + ':' + uuid, seq)
        if key in sent and key not in seen:
            seen.add(key)
            latencies.append(at - sent[key])
    sent_in_window = sum(1 for when in sent.values() if t0 <= when <= t1)
    delivered_rate = delivered / (t1 - t0)
    if tracer:
        calls = strace_summary(trace)
        per = delivered if delivered else float('nan')
        top = sorted(((n, c) for n, c in calls.items() if n != 'total'), key=lambda nc: -nc[1])[:6]
        return {'syscalls_per_notification': calls.get('total', 0) / per,
                'top': ', '.join(f'{n} {c / per:.2f}' for n, c in top), 'delivered_rate': delivered_rate}
    cpu = (cpu1 - cpu0) / (t1 - t0) if cpu0 is not None and cpu1 is not None else float('nan')
    return {'sent_rate': sent_in_window / (t1 - t0), 'delivered_rate': delivered_rate,
            'p50_ms': percentile(latencies, 50) * 1000, 'p99_ms': percentile(latencies, 99) * 1000,
            'max_ms': max(latencies, default=float('nan')) * 1000, 'samples': len(latencies),
            'cpu_share': cpu, 'cpu_per_1000': cpu / (delivered_rate / 1000) if delivered_rate > 0 else float('nan'),
            'cpu_us_per_notification': cpu / delivered_rate * 1e6 if delivered_rate > 0 else float('nan'),
            'hwm_kib': peak.get('VmHWM', 0)}


def rss(pid: int) -> dict[str, int]:
    """The process's memory figures (kB); none once it has exited."""
    out: dict[str, int] = {}
    try:
        status = Path(f'/proc/{pid}/status').read_text()
    except OSError:
        return out
    for line in status.splitlines():
        key, _, value = line.partition(':')
        if key in ('VmRSS', 'VmHWM', 'RssAnon', 'RssFile'):
            out[key] = int(value.split()[0])
    return out


def links(name: str, options: argparse.Namespace, count: int, work: Path) -> dict:
    hearts, speeds = (count + 2) // 3, (count + 1) // 3
    things = count - hearts - speeds
    broker = Broker(work)
    sub = Subscriber(broker.port)
    world = World(work, ['--heart', str(hearts), '--speed', str(speeds), '--environment', str(things), '--distractors', '0',
                         '--rate', '1', '--no-notify-log'])
    devices = [f'service=180D,max={hearts},subscribe=2A37', f'service=1814,max={speeds},subscribe=2A53',
               f'service={THINGY_SERVICE},max={things},subscribe={THINGY_TEMPERATURE}']
    process, errors = start(name, options, world, broker, work, devices)
    started = time.monotonic()
    try:
        deadline = started + 240
        ready: set[str] = set()
        while time.monotonic() < deadline and len(ready) < count and process.poll() is None:
            for _, topic, payload in sub.messages[-5000:]:
                if topic.endswith('/state') and b'"state":"ready"' in payload:
                    ready.add(topic)
            time.sleep(0.2)
        if len(ready) < count:
            return {'error': f'{len(ready)} of {count} links ready within 240 s' + exited(process, errors)}
        ready_after = time.monotonic() - started
        time.sleep(3)
        figures = rss(process.pid)
        figures['ready_s'] = round(ready_after, 1)
        return figures
    finally:
        stop(process)
        world.stop()
        sub.stop()
        broker.stop()


def main(argv: list[str] | None = None) -> int:
    top = argparse.ArgumentParser(prog='bench_gateway', description=__doc__.split('\n\n')[0])
    top.add_argument('--rtstack', required=True, help='the rtstack binary')
    top.add_argument('--seconds', type=float, default=10.0, help='measured window per run (default 10)')
    top.add_argument('--rates', default='100,300,1000', help='notifications per second per sensor (default 100,300,1000)')
    top.add_argument('--links', default='20,50', help='link counts for RSS (default 20,50)')
    top.add_argument('--repeat', type=int, default=1, help='windows per contender and rate, taken in turns; medians (default 1)')
    top.add_argument('--before', help='another rtstack binary, a third contender in the same turns')
    top.add_argument('--strace', action='store_true', help='one more window per contender under strace -f -c: system calls per notification')
    options = top.parse_args(argv)
    work = Path(tempfile.mkdtemp(prefix='bench-gateway-'))
    contenders = ['rtstack'] + (['before'] if options.before else []) + ['peer']
    print(f'machine: {os.cpu_count()} cores, load average {" ".join(open("/proc/loadavg").read().split()[:3])} at start')
    print('contenders: rtstack = rtstack gateway (static binary) | peer = Bumble host + paho-mqtt in Python (world.gateway_peer)')
    if options.before:
        print(f'before = rtstack gateway of {options.before}')
    print('both: QoS 1, one JSON message per quantity; same Bumble world, same mosquitto, one after the other'
          + (f'; {options.repeat} turns, medians' if options.repeat > 1 else ''))
    stream_columns = [('sent/s', 'sent_rate', 8, 0), ('delivered/s', 'delivered_rate', 11, 0), ('p50 ms', 'p50_ms', 8, 2),
                      ('p99 ms', 'p99_ms', 8, 2), ('max ms', 'max_ms', 8, 1), ('CPU share', 'cpu_share', 9, 3),
                      ('CPU s/1,000/s', 'cpu_per_1000', 13, 3), ('CPU µs/notif', 'cpu_us_per_notification', 12, 1),
                      ('peak RSS MiB', 'hwm_mib', 12, 1)]
    for rate in [float(r) for r in options.rates.split(',') if r]:
        print(f'\n{rate:g} notifications/s per sensor, three sensors, {options.seconds:g} s window '
              '(latency: world notification → subscriber; each sample names its notification):')
        windows: dict[str, list[dict]] = {name: [] for name in contenders}
        for _ in range(max(1, options.repeat)):
            for name in contenders:
                r = stream(name, options, rate, work)
                windows[name].append(r)
        results = {name: medians(rs) for name, rs in windows.items()}
        for r in results.values():
            if 'hwm_kib' in r:
                r['hwm_mib'] = r['hwm_kib'] / 1024
        print_table(results, stream_columns, extra=lambda r: f'  ({r["samples"]:.0f} latency samples)')
        if options.strace:
            print('  system calls per notification (strace -f -c, every thread, one more window each):')
            for name in contenders:
                r = stream(name, options, rate, work, traced=True)
                if 'error' in r:
                    print(f'  {name:<14}  {r["error"]}', flush=True)
                else:
                    print(f'  {name:<14}{r["syscalls_per_notification"]:>8.1f}  ({r["top"]})', flush=True)
    link_columns = [('VmRSS MiB', 'rss_mib', 9, 1), ('VmHWM MiB', 'hwm_mib', 9, 1), ('anon MiB', 'anon_mib', 8, 1),
                    ('file MiB', 'file_mib', 8, 1), ('ready after s', 'ready_s', 13, 1)]
    for count in [int(n) for n in options.links.split(',') if n]:
        print(f'\n{count} links, 1 notification/s each (3 s after the last is ready):')
        results = {}
        for name in contenders:
            r = links(name, options, count, work)
            if 'VmRSS' in r:
                r.update(rss_mib=r['VmRSS'] / 1024, hwm_mib=r['VmHWM'] / 1024, anon_mib=r.get('RssAnon', 0) / 1024,
                         file_mib=r.get('RssFile', 0) / 1024)
            results[name] = r
        print_table(results, link_columns)
    return 0


def medians(windows: list[dict]) -> dict:
    """Each figure's median over the windows that did not fail (the first error if all did)."""
    good = [w for w in windows if 'error' not in w]
    if not good:
        return windows[0]
    return {key: statistics.median(w[key] for w in good) for key in good[0]}


def print_table(results: dict[str, dict], columns: list[tuple[str, str, int, int]], extra=None) -> None:
    """One row per contender and the ratio rtstack/peer of every column (below 1: rtstack needs
    less, or is faster for latency; above 1 for rates: rtstack delivers more)."""
    print('  ' + f'{"":<14}' + ''.join(f'{title:>{width + 2}}' for title, _, width, _ in columns))
    for name, r in results.items():
        if 'error' in r:
            print(f'  {name:<14}  {r["error"]}', flush=True)
            continue
        print(f'  {name:<14}' + ''.join(f'{r[key]:>{width + 2}.{digits}f}' for _, key, width, digits in columns)
              + (extra(r) if extra else ''), flush=True)
    for name in ('rtstack', 'before'):
        a, b = results.get(name, {}), results.get('peer', {})
        if 'error' in a or 'error' in b or not a or not b:
            continue
        cells = []
        for _, key, width, _ in columns:
            ratio = a[key] / b[key] if b[key] else float('nan')
            cells.append(f'{ratio:>{width + 2}.2f}' if not 0 < ratio < 0.1 else f'{ratio:>{width + 2}.2g}')
        print(f'  {name + "/peer":<14}' + ''.join(cells), flush=True)


if __name__ == '__main__':
    sys.exit(main())
