"""Peripherals that require pairing: one Bumble SMP configuration per profile (`--secure`).

Each "Secure N" device serves one service whose characteristics can only be read on an
encrypted link (Insufficient Encryption otherwise) or an authenticated one (Insufficient
Authentication), pairs with the profile's IO capability and Secure Connections setting, and
reports what its user would see as events: `pairing_display` (a passkey or number it shows),
`pairing_compare` (numeric comparison, always accepted), `pairing_passkey_wanted` (the test
answers with the `passkey` control command), `paired`, `pairing_failed`.  Hostile profiles
corrupt one of the peripheral's own SMP PDUs on its way out.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any, Callable

from bumble import gatt, hci, pairing, smp

from world.peripherals import READ, Peripheral, ad, uuid128_bytes

if TYPE_CHECKING:
    from world.runtime import World

SECURE_SERVICE = '5EC0A000-7273-7461-636B-000000000000'
ENCRYPTED_CHARACTERISTIC = '5EC0A001-7273-7461-636B-000000000000'
AUTHENTICATED_CHARACTERISTIC = '5EC0A002-7273-7461-636B-000000000000'
ENCRYPTED_VALUE = b'encrypted'
AUTHENTICATED_VALUE = b'authenticated'
# The passkey the display profiles show (fixed, so a test can type it without reading events).
DISPLAYED_PASSKEY = 123456

IO = pairing.PairingDelegate.IoCapability
PAIRING_REQUEST = 0x01
PAIRING_CONFIRM = 0x03
PAIRING_PUBLIC_KEY = 0x0C
PAIRING_FAILED = 0x05
SMP_CID = 0x0006
AUTH_REQ_SC = 0x08
AUTHENTICATION_REQUIREMENTS = 0x03
UNSPECIFIED_REASON = 0x08

# profile -> (IO capability, Secure Connections, MITM, extra behaviour)
PROFILES: dict[str, tuple[IO, bool, bool, str]] = {
    'just-works': (IO.NO_OUTPUT_NO_INPUT, True, False, ''),
    'numeric-comparison': (IO.DISPLAY_OUTPUT_AND_YES_NO_INPUT, True, True, ''),
    'passkey-display': (IO.DISPLAY_OUTPUT_ONLY, True, True, ''),
    'passkey-keyboard': (IO.KEYBOARD_INPUT_ONLY, True, True, ''),
    'sc-only': (IO.NO_OUTPUT_NO_INPUT, True, False, 'sc_only'),
    'legacy-only': (IO.NO_OUTPUT_NO_INPUT, False, False, ''),
    'legacy-passkey': (IO.DISPLAY_OUTPUT_ONLY, False, True, ''),
    'security-request': (IO.NO_OUTPUT_NO_INPUT, True, False, 'security_request'),
    'hostile-public-key': (IO.NO_OUTPUT_NO_INPUT, True, False, 'corrupt_public_key'),
    'hostile-confirm': (IO.NO_OUTPUT_NO_INPUT, True, False, 'corrupt_confirm'),
    'privacy': (IO.NO_OUTPUT_NO_INPUT, True, False, 'privacy'),
    # A blood-pressure monitor: private addresses only, Passkey Entry (it displays), MITM.
    'privacy-passkey': (IO.DISPLAY_OUTPUT_ONLY, True, True, 'privacy'),
    # Keeps a single bond: once paired, every Pairing Request gets Pairing Failed, Unspecified Reason.
    'single-bond': (IO.NO_OUTPUT_NO_INPUT, True, False, 'single_bond'),
}


def parse_profiles(text: str) -> list[str]:
    names = [p.strip() for p in text.split(',') if p.strip()]
    unknown = [p for p in names if p not in PROFILES]
    if unknown:
        raise ValueError(f'unknown --secure profile {", ".join(unknown)} (one of {", ".join(PROFILES)})')
    return names


class WorldPairingDelegate(pairing.PairingDelegate):
    """The peripheral's user: shows numbers as events, types what the test sends."""

    def __init__(self, peripheral: 'Secure', io: IO) -> None:
        super().__init__(io_capability=io,
                         local_initiator_key_distribution=pairing.PairingDelegate.DEFAULT_KEY_DISTRIBUTION
                         | pairing.PairingDelegate.KeyDistribution.DISTRIBUTE_SIGNING_KEY,
                         local_responder_key_distribution=pairing.PairingDelegate.DEFAULT_KEY_DISTRIBUTION
                         | pairing.PairingDelegate.KeyDistribution.DISTRIBUTE_SIGNING_KEY)
        self.peripheral = peripheral

    async def compare_numbers(self, number: int, digits: int) -> bool:
        self.peripheral.world.event('pairing_compare', device=self.peripheral.name, number=number)
        return True

    async def display_number(self, number: int, digits: int) -> None:
        self.peripheral.world.event('pairing_display', device=self.peripheral.name, number=number)

    async def generate_passkey(self) -> int:
        return DISPLAYED_PASSKEY

    async def get_number(self) -> int | None:
        self.peripheral.world.event('pairing_passkey_wanted', device=self.peripheral.name)
        return await self.peripheral.typed_passkey()


class Secure(Peripheral):
    kind = 'secure'

    def __init__(self, world: 'World', number: int) -> None:
        profiles = getattr(world.options, 'secure_profiles', None) or ['just-works']
        self.profile = profiles[(number - 1) % len(profiles)]
        self.passkey_future: asyncio.Future | None = None
        super().__init__(world, number)
        io, sc, mitm, extra = PROFILES[self.profile]
        self.extra = extra
        delegate = WorldPairingDelegate(self, io)
        self.device.pairing_config_factory = lambda _connection: pairing.PairingConfig(
            sc=sc, mitm=mitm, bonding=True, delegate=delegate)
        manager = self.device.smp_manager
        if extra == 'sc_only':
            self._refuse_legacy(manager)
        self.bonded = False
        # Whether each bonded peer's key is authenticated (by the address it paired from).
        self.authenticated_bonds: dict[str, bool] = {}
        if extra == 'single_bond':
            self._keep_one_bond(manager)
        if extra in ('corrupt_public_key', 'corrupt_confirm'):
            self._corrupt_outgoing(manager, PAIRING_PUBLIC_KEY if extra == 'corrupt_public_key' else PAIRING_CONFIRM)

    def world_name(self) -> str:
        return f'Secure {self.number}'

    # -- privacy ------------------------------------------------------------------------------
    async def start(self) -> None:
        if self.extra == 'privacy':
            await self.device.power_on()
            await self._use_new_rpa()
            if self.advertise_wanted:
                await self._advertise(True)
            self.set_rate(self.rate)
            return
        await super().start()

    async def _use_new_rpa(self) -> str:
        """A new resolvable private address from the device's IRK (which it distributes when
        pairing), set on its controller before it advertises with it."""
        rpa = hci.Address.generate_private_address(self.device.irk)
        await self.device.send_command(hci.HCI_LE_Set_Random_Address_Command(random_address=rpa))
        self.device.random_address = rpa
        self.rpa = str(rpa).split('/')[0]
        return self.rpa

    async def rotate(self) -> str:
        """Advertises with a new RPA (the link, if any, keeps its own)."""
        if self.extra != 'privacy':
            raise KeyError(f'{self.name} does not use private addresses (profile privacy)')
        advertising = self.advertising
        if advertising:
            await self._advertise(False)
        address = await self._use_new_rpa()
        self.world.event('rpa', device=self.name, address=address)
        if advertising or (self.advertise_wanted and not self.device.connections):
            await self._advertise(True)
        return address

    def advertising_data(self) -> bytes:
        return ad(0x01, bytes([0x06])) + ad(0x07, uuid128_bytes(SECURE_SERVICE)) + ad(0x09, self.name.encode())

    def services(self) -> list[gatt.Service]:
        encrypted = gatt.Characteristic(ENCRYPTED_CHARACTERISTIC, READ, gatt.Characteristic.READABLE | gatt.Characteristic.READ_REQUIRES_ENCRYPTION,
                                        ENCRYPTED_VALUE)
        authenticated = gatt.Characteristic(AUTHENTICATED_CHARACTERISTIC, READ,
                                            gatt.Characteristic.READABLE | gatt.Characteristic.READ_REQUIRES_AUTHENTICATION,
                                            AUTHENTICATED_VALUE)
        return [gatt.Service(SECURE_SERVICE, [encrypted, authenticated])]

    def describe(self) -> dict[str, Any]:
        out = {**super().describe(), 'profile': self.profile,
               'passkey': DISPLAYED_PASSKEY if self.profile in ('passkey-display', 'legacy-passkey', 'privacy-passkey') else None}
        if self.extra == 'privacy':
            # The address it advertises with now; the identity it distributes is its public one.
            out['address'] = getattr(self, 'rpa', self.address)
            out['identity'] = self.public_address
        return out

    # -- pairing ------------------------------------------------------------------------------
    def _on_connection(self, connection) -> None:
        super()._on_connection(connection)
        connection.on('pairing', lambda keys: self._paired(connection, keys))
        connection.on('pairing_failure', lambda reason: self.world.event(
            'pairing_failed', device=self.name, peer=str(connection.peer_address), reason=int(reason)))
        connection.on('connection_encryption_change', lambda: self._encryption_changed(connection))
        if self.extra == 'security_request':
            self.world.spawn(self._request_security(connection))

    def _encryption_changed(self, connection) -> None:
        if connection.is_encrypted:
            # Bumble 0.0.236 counts every LE encryption as authenticated; a real server asks
            # whether the key came from an authenticated (MITM) pairing, so Just Works does not
            # open a characteristic that needs authentication.
            connection.authenticated = self._key_authenticated(connection)
        self.world.event('encryption_change', device=self.name, encrypted=bool(connection.is_encrypted),
                         authenticated=bool(connection.authenticated))

    def _key_authenticated(self, connection) -> bool:
        session = self.device.smp_manager.sessions.get(connection.handle)
        if session is not None:  # pairing on this link: its association model decides
            return session.pairing_method != smp.PairingMethod.JUST_WORKS
        return self.authenticated_bonds.get(str(connection.peer_address), False)

    def _paired(self, connection, keys) -> None:
        self.bonded = True
        # Bumble marks the link authenticated after any pairing; the key says whether it was.
        ltk = keys.ltk or keys.ltk_peripheral or keys.ltk_central  # legacy: the distributed ones
        connection.authenticated = bool(ltk and ltk.authenticated)
        self.authenticated_bonds[str(connection.peer_address)] = connection.authenticated
        self.world.event('paired', device=self.name, peer=str(connection.peer_address), profile=self.profile,
                         authenticated=bool(connection.authenticated), sc=bool(getattr(connection, 'sc', False)))

    async def _request_security(self, connection) -> None:
        await asyncio.sleep(0.05)
        if connection.handle in self.device.connections:
            self.device.request_pairing(connection)
            self.world.event('security_request_sent', device=self.name)

    def _refuse_pairing(self, manager, reason: int, why: str, refuses: Callable[[bytes], bool]) -> None:
        """Answers a Pairing Request that `refuses` picks with Pairing Failed `reason`."""
        original = manager.on_smp_pdu

        def on_smp_pdu(connection, pdu: bytes) -> None:
            if pdu and pdu[0] == PAIRING_REQUEST and refuses(pdu):
                self.world.event('pairing_failed', device=self.name, peer=str(connection.peer_address),
                                 reason=reason, why=why)
                connection.send_l2cap_pdu(SMP_CID, bytes([PAIRING_FAILED, reason]))
                return
            original(connection, pdu)

        manager.on_smp_pdu = on_smp_pdu

    def _refuse_legacy(self, manager) -> None:
        self._refuse_pairing(manager, AUTHENTICATION_REQUIREMENTS, 'legacy pairing refused (SC only)',
                             lambda pdu: len(pdu) >= 4 and not pdu[3] & AUTH_REQ_SC)

    def _keep_one_bond(self, manager) -> None:
        """A peripheral with room for one bond that it already holds refuses any new pairing
        without saying why, as many do."""
        self._refuse_pairing(manager, UNSPECIFIED_REASON, 'a bond is kept already (single bond)',
                             lambda _pdu: self.bonded)

    def _corrupt_outgoing(self, manager, code: int) -> None:
        def send_command(connection, command) -> None:
            pdu = bytearray(bytes(command))
            if pdu and pdu[0] == code:
                pdu[-1] ^= 0x01  # the last byte: Y's most significant byte, or the confirm value's
                self.world.event('hostile', device=self.name, behaviour=self.extra)
            connection.send_l2cap_pdu(SMP_CID, bytes(pdu))

        manager.send_command = send_command

    async def typed_passkey(self) -> int:
        self.passkey_future = asyncio.get_running_loop().create_future()
        return await self.passkey_future

    def type_passkey(self, passkey: int) -> None:
        if self.passkey_future is None or self.passkey_future.done():
            raise KeyError(f'{self.name} is not waiting for a passkey')
        self.passkey_future.set_result(passkey)
