"""The measuring half of `scripts/soak` (which builds rtstack and starts the world at 20 Hz):
the real `rtstack` session against the world for MINUTES, a random link dropped every random
30-60 s through the control port, then figures. Prints, asserts nothing fatal; the last line
says which criterion held.

    python -m world.soak --ready FILE --log FILE --rtstack BIN --minutes M --work DIR [--seed N]

What it checks:
- notifications: the world logs every notification it sent (`notify`: device, uuid, seq) and
  when each link came and went (`peripheral_connected`/`_disconnected`); rtstack's `--json`
  says what it delivered. The heart-rate Energy Expended and the RSC Total Distance advance by
  exactly one per notification (world/values.py: energy = seq, distance = seq metres), so each
  delivered value names the notification; the Thingy temperature repeats every 50
  (20.0 + (seq % 50) / 10 degrees), so its notifications are matched in order within a link.
  Per world link period, a sent notification missing from what rtstack delivered is "lost
  while up" when a later one of the same link was delivered, and "lost at the drop" when
  nothing after it was (it was in flight when the link went). Only "lost while up" fails, and
  the final period (the session's own shutdown) is left out.
- RSS (VmRSS) and open descriptors (/proc/PID/fd) each minute: end within 10% of minute one,
  and no more descriptors at the end than at minute one.
- reconnection after each drop, from rtstack's timeline: its `disconnected` line to the
  sensor's next `ready` line and to its next measurement.
- CPU time (user + system) of rtstack over the run.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

ROLES = ('heart', 'speed', 'environment')
# The characteristic of each role whose values name the notification (see the module doc).
SEQUENCE_UUID = {'heart': '2A37', 'speed': '2A53', 'environment': 'EF680201-9B35-4933-9B10-52FFA9740042'}
RSS_TOLERANCE = 0.10


@dataclass
class Sample:
    minute: float
    rss_kb: int
    fds: int
    cpu_s: float


@dataclass
class Period:
    """One link of one peripheral as the world saw it: what it notified on it."""
    start: float
    end: float | None = None
    sent: list[int] = field(default_factory=list)
    values: dict[int, str] = field(default_factory=dict)  # seq -> value hex


def proc_sample(pid: int, minute: float) -> Sample | None:
    try:
        rss = 0
        with open(f'/proc/{pid}/status') as f:
            for line in f:
                if line.startswith('VmRSS:'):
                    rss = int(line.split()[1])
        fds = len(os.listdir(f'/proc/{pid}/fd'))
        with open(f'/proc/{pid}/stat') as f:
            fields = f.read().rsplit(')', 1)[1].split()
        ticks = os.sysconf('SC_CLK_TCK')
        cpu = (int(fields[11]) + int(fields[12])) / ticks  # utime, stime (fields 14, 15 of stat)
        return Sample(minute, rss, fds, cpu)
    except (OSError, ValueError, IndexError):
        return None


class Control:
    def __init__(self, port: int) -> None:
        self.sock = socket.create_connection(('127.0.0.1', port), timeout=5)
        self.file = self.sock.makefile('rwb')

    def request(self, **request) -> dict:
        self.file.write((json.dumps(request) + '\n').encode())
        self.file.flush()
        return json.loads(self.file.readline())


def read_lines(path: Path) -> list[dict]:
    out = []
    try:
        with open(path, 'rb') as f:
            for raw in f:
                try:
                    out.append(json.loads(raw))
                except ValueError:
                    pass
    except OSError:
        pass
    return out


def world_periods(events: list[dict], devices: dict[str, str]) -> dict[str, list[Period]]:
    """Per role, the world's link periods with the sequence numbers notified on each."""
    periods: dict[str, list[Period]] = {r: [] for r in ROLES}
    for e in events:
        role = devices.get(e.get('device', ''))
        if role is None:
            continue
        kind = e.get('event')
        if kind == 'peripheral_connected':
            periods[role].append(Period(e['t']))
        elif kind == 'peripheral_disconnected' and periods[role] and periods[role][-1].end is None:
            periods[role][-1].end = e['t']
        elif kind == 'notify' and e.get('uuid', '').upper() == SEQUENCE_UUID[role].upper():
            if periods[role] and periods[role][-1].end is None:
                periods[role][-1].sent.append(e['seq'])
                periods[role][-1].values[e['seq']] = e.get('value', '')
    return periods


def session_runs(lines: list[dict]) -> dict[str, list[list[dict]]]:
    """Per role, rtstack's measurements split at each of its `disconnected` lines."""
    runs: dict[str, list[list[dict]]] = {r: [[]] for r in ROLES}
    for e in lines:
        role = e.get('sensor')
        if role not in runs:
            continue
        if e.get('event') == 'state' and e.get('state') == 'disconnected':
            if runs[role][-1]:
                runs[role].append([])
        elif e.get('event') == 'measurement':
            runs[role][-1].append(e)
    return {r: [run for run in v if run] for r, v in runs.items()}


def delivered_seqs(role: str, measurements: list[dict]) -> list[int]:
    key = {'heart': 'energy_kj', 'speed': 'distance_m'}.get(role)
    out = []
    for m in measurements:
        if key in m:
            out.append(int(round(m[key])))
    return out


def match_residues(sent: list[int], residues: list[int]) -> tuple[set[int], int]:
    """Matches delivered temperatures (seq % 50) to the sent seqs of one link, in order."""
    matched: set[int] = set()
    unmatched = 0
    i = 0
    for r in residues:
        j = i
        while j < len(sent) and sent[j] % 50 != r:
            j += 1
        if j == len(sent):
            unmatched += 1
            continue
        matched.add(sent[j])
        i = j + 1
    return matched, unmatched


def captured_values(rtstack: str, capture: Path) -> set[str] | None:
    """The values of every notification in rtstack's HCI capture (what reached the host)."""
    try:
        out = subprocess.run([rtstack, 'decode', str(capture), '--json', '--filter', 'att=notification'],
                             capture_output=True, check=False, timeout=300).stdout
    except (OSError, subprocess.TimeoutExpired):
        return None
    values = set()
    for raw in out.splitlines():
        try:
            att = json.loads(raw).get('att')
        except ValueError:
            continue
        if att and 'value' in att:
            values.add(att['value'])
    return values


def analyse_notifications(world_events: list[dict], session: list[dict], devices: dict[str, str],
                          captured: set[str] | None) -> dict:
    periods = world_periods(world_events, devices)
    runs = session_runs(session)
    result = {}
    for role in ROLES:
        ps = periods[role]
        sent_total = sum(len(p.sent) for p in ps)
        delivered_count = sum(len(run) for run in runs[role])
        duplicates = 0
        unknown = 0
        if role == 'environment':
            # k-th link of the world ↔ k-th run of rtstack measurements (both split at drops).
            delivered: set[int] = set()
            active = [p for p in ps if p.sent]
            for k, p in enumerate(active):
                if k >= len(runs[role]):
                    break
                residues = [int(round((m['celsius'] - 20.0) * 10)) % 50 for m in runs[role][k] if 'celsius' in m]
                got, miss = match_residues(p.sent, residues)
                delivered |= got
                unknown += miss
        else:
            values = [v for run in runs[role] for v in delivered_seqs(role, run)]
            delivered = set(values)
            duplicates = len(values) - len(delivered)
            all_sent = {s for p in ps for s in p.sent}
            unknown = len(delivered - all_sent)
        lost_up: list[int] = []
        lost_at_drop: list[int] = []
        lost_at_end = 0
        reached_host = 0  # lost ones whose value is in rtstack's capture (heart, speed: values are unique)
        for index, p in enumerate(ps):
            if captured is not None and role != 'environment':
                reached_host += sum(1 for s in p.sent if s not in delivered and p.values.get(s) in captured)
            got = [s for s in p.sent if s in delivered]
            last = max(got) if got else -1
            missing = [s for s in p.sent if s not in delivered]
            if index == len(ps) - 1:
                lost_at_end = len(missing)  # the session's own shutdown
                missing_up = [s for s in missing if s < last]
                lost_up += missing_up
                continue
            lost_up += [s for s in missing if s < last]
            lost_at_drop += [s for s in missing if s > last]
        result[role] = {
            'links': len(ps), 'sent': sent_total, 'delivered': delivered_count,
            'lost_up': lost_up, 'lost_at_drop': len(lost_at_drop), 'lost_at_end': lost_at_end,
            'duplicates': duplicates, 'unknown': unknown, 'reached_host': reached_host,
        }
    return result


def reconnections(session: list[dict]) -> list[tuple[str, float, float | None, float | None]]:
    """(role, time of rtstack's disconnected line, → ready, → first measurement) per drop."""
    out = []
    pending: dict[str, list] = {}
    for e in session:
        role = e.get('sensor')
        if role not in ROLES:
            continue
        if e.get('event') == 'state' and e.get('state') == 'disconnected':
            pending[role] = [role, e['time'], None, None]
            out.append(pending[role])
        elif role in pending:
            rec = pending[role]
            if e.get('event') == 'state' and e.get('state') == 'ready' and rec[2] is None:
                rec[2] = e['time'] - rec[1]
            elif e.get('event') == 'measurement' and rec[3] is None:
                rec[3] = e['time'] - rec[1]
                del pending[role]
    return [tuple(r) for r in out]


def fmt_stats(values: list[float]) -> str:
    if not values:
        return 'none'
    return (f'min {min(values) * 1000:.0f} ms, median {statistics.median(values) * 1000:.0f} ms, '
            f'max {max(values) * 1000:.0f} ms')


def main() -> int:
    parser = argparse.ArgumentParser(prog='world.soak')
    parser.add_argument('--ready', required=True, type=Path, help="the world's stdout (ready line first)")
    parser.add_argument('--log', required=True, type=Path, help="the world's event log (--log FILE)")
    parser.add_argument('--rtstack', required=True)
    parser.add_argument('--minutes', type=float, default=10.0)
    parser.add_argument('--work', required=True, type=Path)
    parser.add_argument('--seed', type=int, default=None)
    parser.add_argument('--drop-min', type=float, default=30.0)
    parser.add_argument('--drop-max', type=float, default=60.0)
    parser.add_argument('--capture', action='store_true', help='rtstack --capture WORK/session.btsnoop (to look into a loss)')
    args = parser.parse_args()

    seed = args.seed if args.seed is not None else random.randrange(1 << 31)
    rng = random.Random(seed)
    with open(args.ready) as f:
        ready = json.loads(f.readline())
    names = {d['kind']: d for d in ready['devices'] if d['kind'] in ROLES}
    devices = {d['name']: d['kind'] for d in names.values()}
    control = Control(ready['control_port'])

    state = args.work / 'state'
    state.mkdir(parents=True, exist_ok=True)
    out_path = args.work / 'session.jsonl'
    command = [args.rtstack, '--adapter', f'tcp:127.0.0.1:{ready["hci_port"]}', '--json',
               '--state-dir', str(state)]
    if args.capture:
        command += ['--capture', str(args.work / 'session.btsnoop')]
    for role in ROLES:
        command += [f'--{role}', f'{names[role]["address"]}/random']
    print(f'soak: {" ".join(command[:1])} {" ".join(command[1:])}; {args.minutes:g} min, '
          f'a random link dropped every {args.drop_min:g}-{args.drop_max:g} s (seed {seed})', flush=True)
    with open(out_path, 'wb') as out, open(args.work / 'session.err', 'wb') as err:
        process = subprocess.Popen(command, stdout=out, stderr=err)
    started = time.monotonic()
    total = args.minutes * 60.0
    samples: list[Sample] = []
    drops: list[tuple[float, str]] = []
    next_sample = 60.0
    next_drop = rng.uniform(args.drop_min, args.drop_max)
    try:
        while True:
            now = time.monotonic() - started
            if process.poll() is not None:
                print(f'soak: rtstack exited early with status {process.returncode} at {now:.1f} s', flush=True)
                break
            if now >= next_sample or now >= total:
                s = proc_sample(process.pid, min(now, total) / 60.0)
                if s:
                    samples.append(s)
                    print(f'soak: minute {s.minute:4.1f}  RSS {s.rss_kb} kB  fds {s.fds}  CPU {s.cpu_s:.2f} s', flush=True)
                next_sample += 60.0
            if now >= total:
                break
            if now >= next_drop and now < total - 10.0:  # each drop has time to reconnect
                role = rng.choice(ROLES)
                reply = control.request(cmd='drop', device=names[role]['name'])
                drops.append((now, role))
                print(f'soak: {now:6.1f} s  drop {role} ({names[role]["name"]}): {reply}', flush=True)
                next_drop = now + rng.uniform(args.drop_min, args.drop_max)
            time.sleep(max(0.05, min(next_sample, next_drop, total) - (time.monotonic() - started)))
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGINT)  # a clean end: disconnect every link, summary
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
    wall = time.monotonic() - started
    time.sleep(0.5)  # the world logs the last disconnections
    status = control.request(cmd='status')

    session = read_lines(out_path)
    world_events = read_lines(args.log)
    captured = captured_values(args.rtstack, args.work / 'session.btsnoop') if args.capture else None
    notes = analyse_notifications(world_events, session, devices, captured)
    reconnects = reconnections(session)

    print()
    print(f'run: {wall:.1f} s wall, {len(drops)} drops '
          f'({", ".join(f"{r} {sum(1 for _, x in drops if x == r)}" for r in ROLES)}), '
          f'rtstack exit status {process.returncode}')
    print('notifications (sequence fields: heart energy expended, speed total distance, environment temperature seq % 50):')
    lost_up_total = 0
    for role in ROLES:
        n = notes[role]
        lost_up_total += len(n['lost_up']) + n['reached_host']  # in the capture yet not delivered: rtstack lost it
        example = f' e.g. seq {n["lost_up"][:5]}' if n['lost_up'] else ''
        print(f'  {role:<12} links {n["links"]:3}  sent {n["sent"]:6}  delivered {n["delivered"]:6}  '
              f'lost while up {len(n["lost_up"])}{example}  lost at a drop (in flight) {n["lost_at_drop"]}  '
              f'at shutdown {n["lost_at_end"]}  duplicates {n["duplicates"]}  unmatched {n["unknown"]}'
              + (f'  lost but in the HCI capture {n["reached_host"]}' if captured is not None and role != 'environment' else ''))
    faults = [e for e in world_events if e.get('event') == 'fault']
    print(f'  world: {len(faults)} fault lines ({", ".join(sorted({f.get("kind", "?") for f in faults})) or "none"}), '
          f'dropped log lines {status.get("dropped_log_lines")}')

    print('reconnections (rtstack timeline: disconnected → ready → first measurement):')
    # The drops' disconnections; those of the session's own shutdown (last seconds) are left out.
    dropped = [r for r in reconnects if r[1] < total - 5.0]
    to_ready = [r[2] for r in dropped if r[2] is not None]
    to_data = [r[3] for r in dropped if r[3] is not None]
    for role in ROLES:
        mine = [r[3] for r in dropped if r[0] == role and r[3] is not None]
        if mine:
            print(f'  {role:<12} {len(mine)}: to data {fmt_stats(mine)}')
    print(f'  all          {len(to_data)} resumed of {len(dropped)} disconnections ({len(drops)} drops): '
          f'to ready {fmt_stats(to_ready)}; to data {fmt_stats(to_data)}')

    print('resources (rtstack):')
    for s in samples:
        print(f'  minute {s.minute:4.1f}  VmRSS {s.rss_kb:6} kB  fds {s.fds:3}  CPU {s.cpu_s:7.2f} s')
    rss_ok = fd_ok = False
    if len(samples) >= 2:
        first, last = samples[0], samples[-1]
        growth = (last.rss_kb - first.rss_kb) / first.rss_kb
        rss_ok = abs(growth) <= RSS_TOLERANCE
        fd_ok = last.fds <= first.fds
        cpu_rate = (last.cpu_s - first.cpu_s) / max(1e-9, (last.minute - first.minute) * 60)
        print(f'  RSS end vs minute one: {first.rss_kb} → {last.rss_kb} kB ({growth * 100:+.1f}%; limit ±{RSS_TOLERANCE * 100:.0f}%)')
        print(f'  open descriptors minute one → end: {first.fds} → {last.fds}')
        print(f'  CPU: {last.cpu_s:.2f} s in {last.minute * 60:.0f} s ({last.cpu_s / (last.minute * 60) * 100:.2f}% of one core; '
              f'{cpu_rate * 100:.2f}% after minute one); '
              f'{sum(notes[r]["delivered"] for r in ROLES) / max(last.cpu_s, 1e-9):.0f} measurements per CPU second')
    else:
        print('  fewer than two samples (the run was shorter than a minute or rtstack exited)')
    reconnect_ok = len(to_data) == len(dropped) and len(dropped) >= len(drops)
    verdict = [
        f'notifications {"held" if lost_up_total == 0 else f"FAILED ({lost_up_total} lost while up)"}',
        f'RSS {"held" if rss_ok else "FAILED"}',
        f'fds {"held" if fd_ok else "FAILED"}',
        f'reconnections {"held" if reconnect_ok else "FAILED"} ({len(to_data)}/{len(drops)} resumed)',
    ]
    ok = lost_up_total == 0 and rss_ok and fd_ok and reconnect_ok
    print(f'soak {"PASSED" if ok else "FAILED"}: ' + ', '.join(verdict))
    return 0


if __name__ == '__main__':
    sys.exit(main())
