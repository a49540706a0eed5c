"""The measuring half of `scripts/bench-proxy` (which builds rtstack and sets up the venv):
`rtstack gateway --esphome` as Home Assistant's Bluetooth proxy, driven by Home Assistant's own
client (aioesphomeapi, in this process) against the Bumble world; and in the same run, as the
yardstick, the same steps by Bumble's host as the central in this process, straight on the same
world: what the figures are without the proxy hop (HCI → rtstack → ESPHome API → client).
Prints figures, asserts nothing.

    python -m world.bench_proxy --rtstack BIN [--seconds S] [--rates R,R] [--devices N]
                                [--listen S] [--repeat K] [--noise]

One run (a new world and a new contender each; the contenders take turns, rtstack first):
- the world: N heart-rate sensors notifying R times a second each, no other devices, every
  advertising event stamped with its send time (`--adv-stamp`: CLOCK_MONOTONIC, 1 µs);
- slots: the `connections free` limit the proxy offers (one adapter);
- advertisement → client: for --listen seconds with every sensor advertising (100 ms apart),
  the client's receipt of each stamped advertising report minus its stamp;
- connect → connected, connect → services: per sensor, one after the other, from the connect
  request (aioesphomeapi's connect v3 without cache; Bumble's `connect`) to the link, and to the
  whole GATT database in hand (the proxy's services response; Bumble's `discover_all` after an
  MTU exchange, as the proxy makes one before it answers);
- then every sensor subscribed (the client writes the CCCD, as Home Assistant's bleak-esphome
  does) and, after 2 s, a window of S seconds: notification → client latency (the world logs each
  notification's send time; the Heart Rate Measurement's energy expended is its sequence number,
  so every sample names its notification), notifications delivered per second against sent,
  CPU per notification of the central's process (all its threads, /proc/PID/task/*/schedstat:
  rtstack's; for the yardstick this process's, Bumble's host and the bookkeeping), peak RSS.
With --noise a third contender, rtstack-noise, is the proxy with an encryption key (Noise, as
Home Assistant is set up for an ESPHome node with `api: encryption:`). With --repeat K each figure
is the median of the K runs, min and max beside it.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from aioesphomeapi import APIClient
from bumble import hci
from bumble.core import UUID
from bumble.device import Device, Peer
from bumble.transport import open_transport

from world.bench_gateway import World, percentile, rss, stop
from world.bench_session import cpu_seconds
from world.controller import stamp_of
from world.gateway_peer import decode

HEART_RATE_MEASUREMENT = '00002a37-0000-1000-8000-00805f9b34fb'
CCCD = '00002902-0000-1000-8000-00805f9b34fb'
WARM_UP_S = 2.0
# Any 32 bytes, Base64: the key both the proxy and the client hold (--noise).
NOISE_KEY = 'AQIDBAUGBwgJCgsMDQ4PEBESExQVFhcYGRobHB0eHyA='


class Run:
    """What one contender's run observed, all times on CLOCK_MONOTONIC."""

    def __init__(self, world: World) -> None:
        self.world = world
        self.advert_latencies: list[float] = []
        self.connect_s: list[float] = []
        self.services_s: list[float] = []
        # (arrival, device address as the world writes it, value)
        self.arrivals: list[tuple[float, str, bytes]] = []
        self.window = (0.0, 0.0)
        self.cpu_s = float('nan')
        self.hwm_kib = 0
        self.slots: int | None = None
        self.mtu: int | None = None

    def advert(self, data: bytes, at: float) -> None:
        stamp = stamp_of(data)
        if stamp is not None:
            self.advert_latencies.append(at - (self.world.start + stamp / 1e6))

    def notified(self, address: str, value: bytes) -> None:
        self.arrivals.append((time.monotonic(), address, value))

    def figures(self) -> dict:
        """The run's figures (milliseconds, per second, µs)."""
        names = {d['address']: d['name'] for d in self.world.ready['devices']}
        sent = sent_notifications(self.world)
        t0, t1 = self.window
        latencies = []
        delivered = 0
        for at, address, value in self.arrivals:
            if not t0 <= at <= t1:
                continue
            delivered += 1
            energy = dict((k, v) for k, v, _ in decode('heart', value)).get('energy_expended')
            when = sent.get((names.get(address, '?'), energy))
            if when is not None:
                latencies.append(at - when)
        seconds = t1 - t0
        sent_in_window = sum(1 for when in sent.values() if t0 <= when <= t1)
        out = {'advert_p50_ms': percentile(self.advert_latencies, 50) * 1000,
               'advert_p99_ms': percentile(self.advert_latencies, 99) * 1000,
               'adverts': len(self.advert_latencies),
               'connect_ms': statistics.median(self.connect_s) * 1000 if self.connect_s else float('nan'),
               'services_ms': statistics.median(self.services_s) * 1000 if self.services_s else float('nan'),
               'sent_rate': sent_in_window / seconds, 'delivered_rate': delivered / seconds,
               'notify_p50_ms': percentile(latencies, 50) * 1000, 'notify_p99_ms': percentile(latencies, 99) * 1000,
               'samples': len(latencies),
               'cpu_us_per_notification': self.cpu_s / delivered * 1e6 if delivered else float('nan'),
               'hwm_mib': self.hwm_kib / 1024}
        if self.slots is not None:
            out['slots'] = self.slots
        return out


def sent_notifications(world: World) -> dict[tuple[str, int], float]:
    """(device name, sequence number) → when the world sent that notification, from its log."""
    out: dict[tuple[str, int], float] = {}
    for line in world.log.read_text().splitlines():
        if '"notify"' not in line:
            continue
        e = json.loads(line)
        if e.get('event') == 'notify':
            out[(e['device'], e['seq'])] = world.start + e['t']
    return out


def hearts(world: World) -> list[str]:
    return [d['address'] for d in world.ready['devices'] if d['kind'] == 'heart']


def world_options(options: argparse.Namespace, rate: float) -> list[str]:
    return ['--heart', str(options.devices), '--speed', '0', '--environment', '0', '--distractors', '0',
            '--rate', str(rate), '--adv-stamp']


async def window(run: Run, options: argparse.Namespace, pid: int) -> None:
    """The warm-up, then the measured window with the central's CPU time around it."""
    await asyncio.sleep(WARM_UP_S)
    cpu0, t0 = cpu_seconds(pid), time.monotonic()
    await asyncio.sleep(options.seconds)
    cpu1, t1 = cpu_seconds(pid), time.monotonic()
    run.window = (t0, t1)
    if cpu0 is not None and cpu1 is not None:
        run.cpu_s = cpu1 - cpu0
    run.hwm_kib = rss(pid).get('VmHWM', 0)


# -- rtstack gateway --esphome, and aioesphomeapi ------------------------------------------------

def start_gateway(options: argparse.Namespace, world: World, work: Path, key: str | None) -> tuple[subprocess.Popen, int, Path]:
    errors = work / f'gateway-{time.monotonic_ns()}.err'
    command = [options.rtstack, 'gateway', '--adapter', f'tcp:127.0.0.1:{world.hci_port}', '--esphome', '127.0.0.1:0',
               '--esphome-name', 'bench', '--state-dir', str(work / f'state-{time.monotonic_ns()}'),
               '--control-socket', 'off', '--log-level', 'info'] + (['--esphome-key', key] if key else [])
    with errors.open('wb') as sink:
        process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=sink)
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline and process.poll() is None:
        match = re.search(r'Bluetooth proxy API on \S*:(\d+)', errors.read_text(errors='replace'))
        if match:
            return process, int(match.group(1)), errors
        time.sleep(0.05)
    stop(process)
    raise RuntimeError(f'the gateway did not say where it listens: {errors.read_text(errors="replace")[-500:]}')


async def rtstack_run(options: argparse.Namespace, rate: float, work: Path, key: str | None = None) -> Run:
    world = World(work, world_options(options, rate))
    run = Run(world)
    process, port, _ = start_gateway(options, world, work, key)
    client = APIClient('127.0.0.1', port, None, noise_psk=key, client_info='rtstack bench-proxy')
    try:
        await asyncio.wait_for(client.connect(login=True), 15)
        info = await asyncio.wait_for(client.device_info(), 10)
        flags = info.bluetooth_proxy_feature_flags_compat(client.api_version)
        offered: asyncio.Future = asyncio.get_running_loop().create_future()

        def on_free(free: int, limit: int, allocated: list[int]) -> None:
            if limit > 0 and not offered.done():
                offered.set_result(limit)

        client.subscribe_bluetooth_connections_free(on_free)
        run.slots = await asyncio.wait_for(offered, 10)

        def on_advertisements(batch) -> None:
            at = time.monotonic()
            for adv in batch.advertisements:
                run.advert(bytes(adv.data), at)

        client.subscribe_bluetooth_le_raw_advertisements(on_advertisements)
        await asyncio.sleep(options.listen)
        for address in hearts(world):
            number = int(address.replace(':', ''), 16)
            connected = asyncio.Event()

            def on_state(is_connected: bool, mtu: int, error: int, connected=connected) -> None:
                if is_connected:
                    run.mtu = mtu
                    connected.set()

            started = time.monotonic()
            await asyncio.wait_for(client.bluetooth_device_connect(number, on_state, timeout=20, feature_flags=flags,
                                                                   has_cache=False, address_type=1), 25)
            await asyncio.wait_for(connected.wait(), 5)
            run.connect_s.append(time.monotonic() - started)
            services = await asyncio.wait_for(client.bluetooth_gatt_get_services(number), 20)
            run.services_s.append(time.monotonic() - started)
            measurement = next(c for s in services.services for c in s.characteristics if c.uuid == HEART_RATE_MEASUREMENT)
            cccd = next(d.handle for d in measurement.descriptors if d.uuid == CCCD)
            await asyncio.wait_for(client.bluetooth_gatt_start_notify(
                number, measurement.handle, lambda _h, data, a=address: run.notified(a, bytes(data))), 10)
            await asyncio.wait_for(client.bluetooth_gatt_write_descriptor(number, cccd, b'\x01\x00'), 10)
        await window(run, options, process.pid)
        await asyncio.wait_for(client.disconnect(), 10)
    finally:
        stop(process)
        world.stop()
    return run


# -- the yardstick: Bumble's host as the central -------------------------------------------------

async def bumble_run(options: argparse.Namespace, rate: float, work: Path) -> Run:
    world = World(work, world_options(options, rate))
    run = Run(world)
    try:
        async with await open_transport(f'tcp-client:127.0.0.1:{world.hci_port}') as (source, sink):
            device = Device.with_hci('bench-central', hci.Address.generate_static_address(), source, sink)
            await device.power_on()
            # Under an active scan Bumble hands on an advertisement with its scan response, the
            # data of both merged (the world sends the response in the same advertising event).
            device.on('advertisement', lambda adv: run.advert(bytes(adv.data), time.monotonic()))
            await device.start_scanning(active=True, filter_duplicates=False)
            await asyncio.sleep(options.listen)
            # A proxy keeps scanning while Home Assistant subscribes; so does this central.
            for address in hearts(world):
                started = time.monotonic()
                connection = await asyncio.wait_for(
                    device.connect(hci.Address(address, hci.Address.RANDOM_DEVICE_ADDRESS),
                                   own_address_type=hci.OwnAddressType.RANDOM), 25)
                run.connect_s.append(time.monotonic() - started)
                peer = Peer(connection)
                run.mtu = await peer.request_mtu(517)
                await asyncio.wait_for(peer.discover_all(), 20)
                run.services_s.append(time.monotonic() - started)
                measurement = next(c for s in peer.services for c in s.characteristics
                                   if c.uuid == UUID.from_16_bits(0x2A37))
                await peer.subscribe(measurement, lambda value, a=address: run.notified(a, bytes(value)))
            await window(run, options, os.getpid())
            await device.stop_scanning()
    finally:
        world.stop()
    return run


async def rtstack_noise_run(options: argparse.Namespace, rate: float, work: Path) -> Run:
    return await rtstack_run(options, rate, work, NOISE_KEY)


def summary(runs: list[dict], key: str) -> tuple[float, float, float]:
    values = [r[key] for r in runs if key in r and r[key] == r[key]]
    if not values:
        return float('nan'), float('nan'), float('nan')
    return statistics.median(values), min(values), max(values)


COLUMNS = [('advert → client p50 ms', 'advert_p50_ms', 2), ('advert → client p99 ms', 'advert_p99_ms', 2),
           ('connect → connected ms', 'connect_ms', 1), ('connect → services ms', 'services_ms', 1),
           ('notifications sent/s', 'sent_rate', 1), ('delivered/s', 'delivered_rate', 1),
           ('notification → client p50 ms', 'notify_p50_ms', 2), ('notification → client p99 ms', 'notify_p99_ms', 2),
           ('CPU µs per notification', 'cpu_us_per_notification', 1), ('peak RSS MiB', 'hwm_mib', 1)]


def report(rate: float, results: dict[str, list[dict]], repeat: int) -> None:
    spread = f'median of {repeat} runs [min–max]' if repeat > 1 else 'one run'
    print(f'\n{rate:g} notifications/s per sensor ({spread}):')
    proxies = [name for name in results if name != 'bumble']
    print(f'  {"":<30}' + ''.join(f'{name:>26}' for name in results) + ''.join(f'{name + "/bumble":>22}' for name in proxies))
    for title, key, digits in COLUMNS:
        cells, medians = [], {}
        for name, runs in results.items():
            median, low, high = summary(runs, key)
            medians[name] = median
            text = f'{median:.{digits}f}' + (f' [{low:.{digits}f}–{high:.{digits}f}]' if repeat > 1 else '')
            cells.append(f'{text:>26}')
        ratios = [medians[name] / medians['bumble'] if medians['bumble'] else float('nan') for name in proxies]
        print(f'  {title:<30}' + ''.join(cells) + ''.join(f'{r:>22.2f}' for r in ratios), flush=True)
    for name, runs in results.items():
        samples = sum(r.get('samples', 0) for r in runs)
        adverts = sum(r.get('adverts', 0) for r in runs)
        slots = {r['slots'] for r in runs if 'slots' in r}
        mtus = {r['mtu'] for r in runs if r.get('mtu')}
        print(f'  {name}: {samples} notification samples, {adverts} advertisement samples'
              + (f', slots offered {sorted(slots)}' if slots else '') + (f', ATT MTU {sorted(mtus)}' if mtus else ''))


def main(argv: list[str] | None = None) -> int:
    top = argparse.ArgumentParser(prog='bench_proxy', description=__doc__.split('\n\n')[0])
    top.add_argument('--rtstack', required=True, help='the rtstack binary')
    top.add_argument('--seconds', type=float, default=10.0, help='measured notification window per run (default 10)')
    top.add_argument('--rates', default='5,50,200', help='notifications per second per sensor (default 5,50,200)')
    top.add_argument('--devices', type=int, default=3, help='heart-rate sensors connected (default 3)')
    top.add_argument('--listen', type=float, default=5.0, help='seconds of advertisements before connecting (default 5)')
    top.add_argument('--repeat', type=int, default=3, help='runs per contender and rate, taken in turns (default 3)')
    top.add_argument('--noise', action='store_true', help='a third contender: the proxy with an encryption key (Noise)')
    options = top.parse_args(argv)
    work = Path(tempfile.mkdtemp(prefix='bench-proxy-'))
    print(f'machine: {os.cpu_count()} cores, load average {" ".join(open("/proc/loadavg").read().split()[:3])} at start')
    print('rtstack = rtstack gateway --esphome (static binary), Home Assistant\'s aioesphomeapi as its client in this process')
    if options.noise:
        print('rtstack-noise = the same with an encryption key (Noise_NNpsk0, ChaCha20-Poly1305)')
    print('bumble  = Bumble\'s host as the central in this process, on the same world: no proxy hop (the yardstick)')
    print(f'{options.devices} heart-rate sensors, advertising every 100 ms until connected; {options.seconds:g} s windows')
    for rate in [float(r) for r in options.rates.split(',') if r]:
        contenders = {'rtstack': rtstack_run, **({'rtstack-noise': rtstack_noise_run} if options.noise else {}), 'bumble': bumble_run}
        results: dict[str, list[dict]] = {name: [] for name in contenders}
        for _ in range(max(1, options.repeat)):
            for name, contender in contenders.items():
                try:
                    r = asyncio.run(contender(options, rate, work))
                    figures = r.figures()
                    if r.mtu:
                        figures['mtu'] = r.mtu
                    results[name].append(figures)
                except Exception as error:  # a failed run is reported and left out of the medians
                    print(f'  {name} at {rate:g}/s: the run failed: {type(error).__name__}: {error}', flush=True)
        report(rate, results, max(1, options.repeat))
    return 0


if __name__ == '__main__':
    sys.exit(main())
