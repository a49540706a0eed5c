"""Command line: `python -m world run [options]` and `python -m world selftest [options]`."""

from __future__ import annotations

import argparse
import sys


def _count(text: str) -> int:
    value = int(text)
    if not 0 <= value <= 60:
        raise argparse.ArgumentTypeError('a count is within 0..60')
    return value


def _port(text: str) -> int:
    value = int(text)
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError('a port is within 0..65535')
    return value


def _rate(text: str) -> float:
    value = float(text)
    if not 0 <= value <= 10000:
        raise argparse.ArgumentTypeError('a rate is within 0..10000 Hz')
    return value


def _int_list(text: str) -> list[int]:
    try:
        return [int(part, 0) for part in text.split(',')]
    except ValueError:
        raise argparse.ArgumentTypeError(f'{text!r} is not a comma-separated list of integers') from None


def _hosts(text: str) -> int:
    value = int(text)
    if not 1 <= value <= 8:
        raise argparse.ArgumentTypeError('hosts is within 1..8')
    return value


def _behaviours(text: str) -> str:
    from world.hostile import parse_behaviours

    try:
        return ','.join(parse_behaviours(text))
    except KeyError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def _secure_profiles(text: str) -> list[str]:
    from world.secure import parse_profiles

    try:
        return parse_profiles(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(prog='world', description=__doc__)
    commands = top.add_subparsers(dest='command', required=True)

    run = commands.add_parser('run', help='run the test world until SIGTERM/SIGINT, quit, or stdin EOF')
    run.add_argument('--hci-port', type=_port, default=0, help='H4-over-TCP port on 127.0.0.1 (0 = a free one)')
    run.add_argument('--control-port', type=_port, default=0, help='JSON control port on 127.0.0.1 (0 = a free one)')
    run.add_argument('--heart', type=_count, default=1, help='heart-rate sensors (default 1)')
    run.add_argument('--speed', type=_count, default=1, help='running speed and cadence sensors (default 1)')
    run.add_argument('--environment', type=_count, default=1, help='Thingy:52 environment sensors (default 1)')
    run.add_argument('--distractors', type=_count, default=2, help='devices a scanner must ignore (default 2)')
    run.add_argument('--rate', type=_rate, default=1.0, help='notifications per second per sensor (default 1)')
    run.add_argument('--adv-interval-ms', type=float, default=100.0, help='advertising interval (default 100 ms)')
    run.add_argument('--acl-fragment', type=int, default=27,
                     help='split data to the host into ACL fragments of this size (default 27, 0 = whole)')
    run.add_argument('--hosts', type=_hosts, default=1,
                     help='host-side controllers on the one link, each with its own H4 port (default 1)')
    run.add_argument('--slot-limit', type=_int_list, metavar='N[,N...]',
                     help='connection slots per host-side controller (0 = no limit); more creates get 0x09')
    run.add_argument('--host-rssi-offset', type=_int_list, metavar='DB[,DB...]',
                     help='added to the RSSI each host-side controller reports (one value per host)')
    run.add_argument('--legacy-only', action='store_true',
                     help='the host-side controller does not claim LE extended advertising')
    run.add_argument('--key-size-delay-ms', type=float, default=None, metavar='MS',
                     help='the host-side controller lists Read Encryption Key Size and holds its Command Complete MS ms '
                          '(a slow UART, a busy controller); without it the command is not supported')
    run.add_argument('--eatt', action='store_true',
                     help='peripherals claim EATT: Server Supported Features (0x2B3A) with the EATT Supported bit')
    run.add_argument('--exit-on-stdin-eof', action='store_true', help='exit when standard input reaches EOF')
    run.add_argument('--exit-with-parent', action='store_true', help='exit when the parent process goes away')
    run.add_argument('--log', metavar='FILE', help='write events to FILE instead of stdout (ready line on both)')
    run.add_argument('--no-notify-log', action='store_true', help='do not log one line per notification')
    run.add_argument('--adv-stamp', action='store_true',
                     help='stamp every advertising event with its send time (Manufacturer Specific Data of company 0xFFFF)')
    run.add_argument('--hostile', metavar='BEHAVIOUR[,...]', default='', type=_behaviours,
                     help='make --hostile-device misbehave (world/hostile.py lists the behaviours)')
    run.add_argument('--hostile-device', metavar='NAME', default='Heart 1',
                     help='the device --hostile applies to (default "Heart 1")')
    run.add_argument('--secure', metavar='PROFILE[,...]', dest='secure_profiles', default=[], type=_secure_profiles,
                     help='one "Secure N" peripheral per profile that requires pairing (world/secure.py lists them)')
    run.add_argument('--verbose', action='store_true', help="Bumble's debug log on stderr")

    selftest = commands.add_parser('selftest', help='start a world and check it with a raw HCI client')
    selftest.add_argument('-k', dest='only', metavar='SUBSTRING', help='run only the tests whose name contains this')
    selftest.add_argument('-v', dest='verbose', action='store_true', help='print the world log on failure')

    bench = commands.add_parser('bench', help='measure notification throughput over three links')
    bench.add_argument('rates', nargs='*', type=_rate, default=[500.0, 1000.0, 2000.0],
                       help='rates to ask for, per sensor (default 500 1000 2000)')
    return top


def main(argv: list[str] | None = None) -> int:
    options = parser().parse_args(argv)
    if options.command == 'run':
        from world.runtime import main as run_main

        return run_main(options)
    if options.command == 'bench':
        from world.bench import main as bench_main

        return bench_main(options)
    from world.selftest import main as selftest_main

    return selftest_main(options)


if __name__ == '__main__':
    sys.exit(main())
