"""The measuring half of `scripts/bench-footprint` (which sets up, builds and starts the world):
peak RSS of a three-link session, RSS per extra link, and time from exec to the first HCI
command, for rtstack and, where the same job exists, the Bumble central
(`world.bench_central`) in the same run. Prints figures, asserts nothing.

    python -m world.bench_footprint --ready FILE --rtstack BIN --bench BIN --runs N --work DIR

- peak RSS: the child's `VmHWM` (/proc/PID/status, polled every 20 ms, the last value before it
  exits) for `rtstack --adapter tcp:… --json --duration 3` with a fresh state directory (three
  sensors connected, discovered, streaming for 3 s), and for the Bumble central doing the same
  job (`--duration 3`). Not `ru_maxrss` from wait4: Linux carries the high-water mark of the
  forked (Python) parent's memory across exec into it, which made an 11 MB process read 16 MB;
- per link: `rtstack-bench links PORT K 3` (the real runtime — TCP transport, event loop,
  HostDriver, Host — connecting K sensors of each role, as the session does for one) reports
  VmRSS/VmHWM from /proc/self/status once 3K links stream and 3 s later; the extra kB per link is
  (RSS(6) − RSS(3)) / 3 and (RSS(12) − RSS(3)) / 9;
- exec → first HCI command: a TCP listener on 127.0.0.1 stands in for the controller; the
  time runs from just before the spawn (fork + exec included) to the arrival of the first byte
  the process writes (the H4 indicator of HCI Reset); the process is then killed.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from world.bench_session import World

ROOT = Path(__file__).resolve().parents[3]


def median_range(values: list[float], digits: int = 1) -> str:
    if not values:
        return 'n/a'
    return f'{statistics.median(values):.{digits}f} ({min(values):.{digits}f}–{max(values):.{digits}f})'


def vm_hwm_kb(pid: int) -> int | None:
    try:
        for line in Path(f'/proc/{pid}/status').read_text().splitlines():
            if line.startswith('VmHWM:'):
                return int(line.split()[1])
    except (OSError, ValueError, IndexError):
        return None
    return None


def peak_rss_kb(command: list[str], env: dict[str, str], timeout: float = 30) -> tuple[int | None, str]:
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env)
    output: list[bytes] = []
    reader = threading.Thread(target=lambda: output.append(process.stdout.read() if process.stdout else b''),
                              daemon=True)
    reader.start()
    deadline = time.monotonic() + timeout
    peak: int | None = None
    while process.poll() is None:
        # VmHWM only grows, so the last reading before exit is the peak (to within 20 ms of the end).
        hwm = vm_hwm_kb(process.pid)
        if hwm is not None:
            peak = hwm
        if time.monotonic() > deadline:
            process.kill()
            process.wait()
            return None, 'timed out'
        time.sleep(0.02)
    reader.join(5)
    measurements = b''.join(output).count(b'"measurement"')
    return peak, f'exit {process.returncode}, {measurements} measurement lines'


def first_command_ms(command_for_port, env: dict[str, str], runs: int) -> list[float]:
    times: list[float] = []
    for _ in range(runs):
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as listener:
            listener.bind(('127.0.0.1', 0))
            listener.listen(1)
            port = listener.getsockname()[1]
            started = time.monotonic_ns()
            process = subprocess.Popen(command_for_port(port), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                       env=env)
            listener.settimeout(20)
            try:
                conn, _ = listener.accept()
                with conn:
                    conn.settimeout(20)
                    data = conn.recv(1)
                    arrived = time.monotonic_ns()
                    if data:
                        times.append((arrived - started) / 1e6)
            except OSError:
                pass
            process.kill()
            process.wait()
    return times


def links_figures(bench: str, world: World, per_role: int) -> dict[str, dict[str, int]] | None:
    world.settle()
    out = subprocess.run([bench, 'links', str(world.hci_port), str(per_role), '3'], capture_output=True, text=True,
                         timeout=90).stdout
    figures: dict[str, dict[str, int]] = {}
    for line in out.splitlines():
        m = re.match(r'links \d+ kB (before|streaming|after \d+ s): (.*)', line)
        if m:
            stage = m.group(1).split(' ')[0]
            values = m.group(2).split()
            figures[stage] = {values[i]: int(values[i + 1]) for i in range(0, len(values) - 1, 2)}
    if 'after' not in figures:
        print(f'links {3 * per_role}: failed: {out.strip()[-300:]}')
        return None
    return figures


def main(argv: list[str] | None = None) -> int:
    top = argparse.ArgumentParser(prog='bench_footprint', description=__doc__.split('\n\n')[0])
    top.add_argument('--ready', required=True)
    top.add_argument('--rtstack', required=True)
    top.add_argument('--bench', required=True)
    top.add_argument('--runs', type=int, default=5)
    top.add_argument('--exec-runs', type=int, default=30)
    options = top.parse_args(argv)
    world = World(json.loads(Path(options.ready).read_text().splitlines()[0]))
    env = dict(os.environ)
    bumble_env = dict(os.environ, PYTHONPATH=str(ROOT / 'Tests' / 'World'))
    adapter = f'tcp:127.0.0.1:{world.hci_port}'

    # Peak RSS of a three-link session.
    rt_rss: list[float] = []
    bumble_rss: list[float] = []
    for i in range(options.runs):
        world.settle()
        with tempfile.TemporaryDirectory() as state:
            kb, note = peak_rss_kb([options.rtstack, '--adapter', adapter, '--json', '--duration', '3',
                                    '--state-dir', state], env)
        print(f'run {i + 1}: rtstack three-link session peak RSS {kb} kB ({note})', flush=True)
        if kb:
            rt_rss.append(kb / 1024)
        world.settle()
        kb, note = peak_rss_kb([sys.executable, '-m', 'world.bench_central', '--transport',
                                f'tcp-client:127.0.0.1:{world.hci_port}', '--discovery', 'full', '--duration', '3'],
                               bumble_env)
        print(f'run {i + 1}: Bumble central three-link peak RSS {kb} kB ({note})', flush=True)
        if kb:
            bumble_rss.append(kb / 1024)

    # RSS per link.
    per_links: dict[int, list[dict[str, dict[str, int]]]] = {3: [], 6: [], 12: []}
    for i in range(options.runs):
        for links in (3, 6, 12):
            f = links_figures(options.bench, world, links // 3)
            if f:
                per_links[links].append(f)
                print(f'run {i + 1}: {links} links: VmRSS streaming {f["streaming"]["VmRSS"]} kB, after 3 s '
                      f'{f["after"]["VmRSS"]} kB, VmHWM {f["after"]["VmHWM"]} kB, RssAnon {f["after"]["RssAnon"]} kB',
                      flush=True)

    # exec → first HCI command.
    state = tempfile.mkdtemp()
    rt_exec = first_command_ms(lambda port: [options.rtstack, '--adapter', f'tcp:127.0.0.1:{port}', '--json',
                                             '--duration', '5', '--state-dir', state], env, options.exec_runs)
    bumble_exec = first_command_ms(lambda port: [sys.executable, '-m', 'world.bench_central', '--transport',
                                                 f'tcp-client:127.0.0.1:{port}', '--discovery', 'full'],
                                   bumble_env, max(5, options.exec_runs // 3))

    print()
    print('Peak RSS of a three-link session (MB, median (min–max)):')
    print(f'  rtstack {median_range(rt_rss, 2)}   Bumble central {median_range(bumble_rss, 2)}'
          + (f'   ratio rtstack/Bumble {statistics.median(rt_rss) / statistics.median(bumble_rss):.3f}'
             if rt_rss and bumble_rss else ''))
    print('RSS with 3, 6 and 12 links streaming (rtstack-bench links; kB, median over runs):')
    med: dict[int, dict[str, float]] = {}
    for links, figures in per_links.items():
        if not figures:
            continue
        med[links] = {
            'streaming': statistics.median(f['streaming']['VmRSS'] for f in figures),
            'after': statistics.median(f['after']['VmRSS'] for f in figures),
            'hwm': statistics.median(f['after']['VmHWM'] for f in figures),
            'anon': statistics.median(f['after']['RssAnon'] for f in figures),
        }
        print(f'  {links:>2} links: VmRSS {med[links]["after"]:.0f} (at streaming {med[links]["streaming"]:.0f}), '
              f'VmHWM {med[links]["hwm"]:.0f}, RssAnon {med[links]["anon"]:.0f}')
    if 3 in med:
        for links in (6, 12):
            if links in med:
                extra = links - 3
                print(f'  per extra link, 3 → {links}: VmRSS {(med[links]["after"] - med[3]["after"]) / extra:.1f} kB, '
                      f'VmHWM {(med[links]["hwm"] - med[3]["hwm"]) / extra:.1f} kB, '
                      f'RssAnon {(med[links]["anon"] - med[3]["anon"]) / extra:.1f} kB')
    print('exec → first HCI command written (ms):')
    for name, values in (('rtstack', rt_exec), ('Bumble central', bumble_exec)):
        if values:
            s = sorted(values)
            p90 = s[min(len(s) - 1, int(0.9 * len(s) + 0.999) - 1)]
            print(f'  {name}: median {statistics.median(s):.2f}, p90 {p90:.2f}, min {s[0]:.2f}, max {s[-1]:.2f} '
                  f'({len(s)} runs)')
    if rt_exec and bumble_exec:
        print(f'  ratio of medians rtstack/Bumble {statistics.median(rt_exec) / statistics.median(bumble_exec):.3f}')
    return 0


if __name__ == '__main__':
    sys.exit(main())
