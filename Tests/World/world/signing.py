"""Signed Write Without Response at a peripheral (Core Spec v5.4 Vol 3, Part F, §3.4.5.4).

Bumble 0.0.236's GATT server drops ATT_SIGNED_WRITE_CMD unread.  Here a peripheral checks one
the way a server must (Vol 3, Part H, §2.4.5): the signature is AES-CMAC (Bumble's, over the
`cryptography` package) of the PDU before it and the SignCounter, under the CSRK the client
distributed when it paired, and the counter must be above every counter accepted before.  A
write that passes is applied through the attribute like a Write Command.

The CSRK is installed with the `signing` control command, as it would be stored by a bond.
Every signed write is logged as a `signed_write` event with what was checked.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from bumble import crypto

if TYPE_CHECKING:
    from world.peripherals import Peripheral

SIGNATURE_SIZE = 12


def signature_is_valid(pdu: bytes, csrk: bytes) -> bool:
    """`csrk` most significant octet first, as the specification writes keys."""
    message, signature = pdu[:-SIGNATURE_SIZE], pdu[-SIGNATURE_SIZE:]
    counter, mac = signature[:4], signature[4:]
    # AES-CMAC takes the message most significant octet first: the PDU's octets reversed.
    full = crypto.aes_cmac((message + counter)[::-1], csrk)
    return full[:8][::-1] == mac


class SignedWrites:
    def __init__(self, peripheral: 'Peripheral') -> None:
        self.peripheral = peripheral
        self.csrk: bytes | None = None
        self.last_counter: int | None = None
        self.accepted = 0

    def set_csrk(self, text: str | None) -> str | None:
        if text is None:
            self.csrk = None
        else:
            key = bytes.fromhex(text.replace(' ', ''))
            if len(key) != 16:
                raise ValueError('a CSRK is 16 octets (32 hex digits, most significant first)')
            self.csrk = key
        self.last_counter = None
        return None if self.csrk is None else self.csrk.hex()

    def on_pdu(self, bearer: Any, pdu: bytes) -> None:
        peripheral = self.peripheral
        fields: dict[str, Any] = {'device': peripheral.name, 'peer': str(getattr(bearer, 'peer_address', ''))}
        if len(pdu) < 3 + SIGNATURE_SIZE:
            peripheral.world.event('signed_write', **fields, verified=False, reason='too short', pdu=pdu.hex())
            return
        handle = int.from_bytes(pdu[1:3], 'little')
        value = pdu[3:-SIGNATURE_SIZE]
        counter = int.from_bytes(pdu[-SIGNATURE_SIZE:-SIGNATURE_SIZE + 4], 'little')
        fields.update(handle=handle, value=value.hex(), counter=counter)
        if self.csrk is None:
            peripheral.world.event('signed_write', **fields, verified=False, reason='no CSRK')
            return
        if not signature_is_valid(pdu, self.csrk):
            peripheral.world.event('signed_write', **fields, verified=False, reason='signature')
            return
        if self.last_counter is not None and counter <= self.last_counter:
            peripheral.world.event('signed_write', **fields, verified=True, reason='replayed counter',
                                   last_counter=self.last_counter)
            return
        self.last_counter = counter
        self.accepted += 1
        peripheral.world.event('signed_write', **fields, verified=True, applied=True)
        attribute = peripheral.device.gatt_server.get_attribute(handle)
        if attribute is not None:
            peripheral.world.spawn(self._apply(attribute, bearer, value))

    async def _apply(self, attribute: Any, bearer: Any, value: bytes) -> None:
        try:
            await attribute.write_value(bearer, value)
        except Exception as error:  # the attribute refused it: a command gets no answer
            self.peripheral.world.event('signed_write_refused', device=self.peripheral.name, error=repr(error))
