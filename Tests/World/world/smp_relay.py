"""A central's HCI and L2CAP, with its Security Manager channel handed to another process.

For testing rtstack's pairing state machine end to end against Bumble's SMP before the host
drives it: a Bumble `Device` connects (over the world's H4 port) to a `Secure N` peripheral,
forwards every PDU on CID 0x0006 to stdout and sends what stdin gives, encrypts with HCI LE
Enable Encryption when told, and reads a characteristic when told (proof that the link is
encrypted with the key the pairing made).

    python -m world.smp_relay --transport tcp-client:127.0.0.1:PORT --peer C5:00:00:00:00:01

stdin:  `smp HEX` | `encrypt LTK EDIV RAND` (hex, most significant first) | `read UUID` | `quit`
stdout: `address ADDRESS` (its own random static address) | `ready HANDLE` | `smp HEX` | `encrypted KEYSIZE` | `encryption-failed STATUS`
        | `read ok HEX` | `read error CODE` | `disconnected REASON` | `error TEXT`
"""

from __future__ import annotations

import argparse
import asyncio
import sys

from bumble import att, hci
from bumble.device import Device, Peer
from bumble.transport import open_transport

SMP_CID = 0x0006


def say(*words: object) -> None:
    sys.stdout.write(' '.join(str(w) for w in words) + '\n')
    sys.stdout.flush()


async def run(options: argparse.Namespace) -> int:
    async with await open_transport(options.transport) as (source, sink):
        address = hci.Address.generate_static_address()
        device = Device.with_hci('smp-relay', address, source, sink)
        await device.power_on()
        # The initiator address of c1 / f5 / f6 is this one (the central connects with it).
        say('address', str(device.random_address).split('/')[0])
        connection = await device.connect(hci.Address(options.peer), own_address_type=hci.OwnAddressType.RANDOM)
        handle = connection.handle
        device.l2cap_channel_manager.deregister_fixed_channel(SMP_CID)
        device.l2cap_channel_manager.register_fixed_channel(
            SMP_CID, lambda _handle, pdu: say('smp', bytes(pdu).hex()))
        # Bumble's controller reports Encryption Change v1 (no key size) and has no Read
        # Encryption Key Size; its link layer encrypts with the 16 octets of the key it is given.
        connection.on('connection_encryption_change',
                      lambda: say('encrypted', connection.encryption_key_size or 16) if connection.is_encrypted else None)
        connection.on('connection_encryption_failure', lambda error: say('encryption-failed', int(error)))
        done = asyncio.get_running_loop().create_future()
        connection.on('disconnection', lambda reason: (say('disconnected', reason), done.done() or done.set_result(1)))
        say('ready', handle)

        reader = asyncio.StreamReader()
        await asyncio.get_running_loop().connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)

        async def commands() -> None:
            while True:
                line = (await reader.readline()).decode().split()
                if not line or line[0] == 'quit':
                    break
                if line[0] == 'smp':
                    device.send_l2cap_pdu(handle, SMP_CID, bytes.fromhex(line[1]))
                elif line[0] == 'encrypt':
                    ltk, ediv, rand = bytes.fromhex(line[1]), int(line[2], 16), int(line[3], 16)
                    status = await device.send_command(hci.HCI_LE_Enable_Encryption_Command(
                        connection_handle=handle, random_number=rand.to_bytes(8, 'little'),
                        encrypted_diversifier=ediv, long_term_key=ltk[::-1]))
                    if getattr(status, 'status', 0):
                        say('encryption-failed', status.status)
                elif line[0] == 'read':
                    peer = Peer(connection)
                    await peer.discover_services()
                    characteristics = await peer.discover_characteristics()
                    wanted = [c for c in characteristics if str(c.uuid).upper() == line[1].upper()]
                    try:
                        value = await peer.read_value(wanted[0]) if wanted else b''
                        say('read ok', bytes(value).hex())
                    except att.ATT_Error as error:
                        say('read error', f'0x{int(error.error_code):02x}')
            if not done.done():
                done.set_result(0)

        task = asyncio.create_task(commands())
        await done
        task.cancel()
        return 0


def main() -> int:
    top = argparse.ArgumentParser(prog='smp_relay', description=__doc__.split('\n\n')[0])
    top.add_argument('--transport', required=True)
    top.add_argument('--peer', required=True)
    top.add_argument('--verbose-address', action='store_true', help='(kept for callers; the address line is always printed)')
    options = top.parse_args()
    try:
        return asyncio.run(run(options))
    except Exception as error:  # one line the parent can show
        say('error', f'{type(error).__name__}: {error}')
        return 1


if __name__ == '__main__':
    sys.exit(main())
