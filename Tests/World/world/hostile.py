"""Hostile mode of a peripheral: misbehaviour below Bumble's GATT server, for the host's tests.

Each behaviour is a flag on one peripheral (`--hostile` at start, `hostile` on the control port);
the one-shot floods are control commands (`indication_burst`, `param_flood`).  Raw ATT PDUs go
out through the device's L2CAP layer (`Device.send_l2cap_pdu`, CID 0x0004); the broken L2CAP
frame goes straight onto the world's link from the peripheral's controller, since Bumble's own
ACL path would reassemble (and so swallow) it.  Every misbehaviour performed is logged as a
`hostile` event with its `behaviour`, so a test can count them.
"""

from __future__ import annotations

import struct
from typing import TYPE_CHECKING, Any

from bumble import gatt

if TYPE_CHECKING:
    from world.peripherals import Peripheral

ATT_CID = 0x0004
LE_SIGNALING_CID = 0x0005

EXCHANGE_MTU_REQUEST = 0x02
EXCHANGE_MTU_RESPONSE = 0x03
FIND_INFORMATION_REQUEST = 0x04
FIND_INFORMATION_RESPONSE = 0x05
READ_BY_TYPE_REQUEST = 0x08
READ_BY_TYPE_RESPONSE = 0x09
READ_BY_GROUP_TYPE_RESPONSE = 0x11
HANDLE_VALUE_NOTIFICATION = 0x1B
HANDLE_VALUE_INDICATION = 0x1D
HANDLE_VALUE_CONFIRMATION = 0x1E
ERROR_RESPONSE = 0x01

CONNECTION_PARAMETER_UPDATE_REQUEST = 0x12

# behaviour -> what it does (the README's table is written from this).
BEHAVIOURS: dict[str, str] = {
    'att_truncated': 'Exchange MTU Response cut to 2 bytes (Server Rx MTU missing its second byte)',
    'att_trailing': 'Read By Group Type Responses carry 3 bytes of garbage after the list',
    'stuck_group_type': 'every Read By Group Type Response repeats the first one (the handle never advances)',
    'stuck_read_by_type': 'every Read By Type Response repeats the first one',
    'stuck_find_information': 'every Find Information Response repeats the first one',
    'handle_beyond_end': 'characteristic discovery answers a declaration at Ending Handle + 1',
    'handle_zero': 'Find Information answers handle 0x0000',
    'l2cap_short': 'each ATT response is preceded by an L2CAP frame whose length says 20 bytes more than it carries',
    'mtu23': 'Exchange MTU answered with Server Rx MTU 23',
    'mtu517': 'Exchange MTU answered with Server Rx MTU 517',
    'notify_unknown': 'each notification is followed by two on handles the database does not have (0x0000, 0xFFF0)',
    'short_pdus': 'each notification is followed by a Handle Value Notification and a Handle Value Indication of 2 bytes',
    'bad_adv': 'advertising data whose last AD structure (the name) says 30 bytes and carries 6',
    'silent': 'the link comes up but no ATT request is ever answered (a confirmation is still taken)',
}
REPLAYING = {'stuck_group_type': READ_BY_GROUP_TYPE_RESPONSE, 'stuck_read_by_type': READ_BY_TYPE_RESPONSE,
             'stuck_find_information': FIND_INFORMATION_RESPONSE}
UNKNOWN_HANDLES = (0x0000, 0xFFF0)


def parse_behaviours(value: Any) -> list[str]:
    """'a,b' or ['a', 'b'] -> ['a', 'b'], each checked."""
    items = value.split(',') if isinstance(value, str) else list(value or [])
    out = []
    for item in items:
        name = str(item).strip()
        if not name:
            continue
        if name not in BEHAVIOURS:
            raise KeyError(f'unknown hostile behaviour {name!r} (one of {", ".join(BEHAVIOURS)})')
        out.append(name)
    return out


class Hostility:
    """The hostile behaviours of one peripheral and the hooks its ATT path calls."""

    def __init__(self, peripheral: 'Peripheral') -> None:
        self.peripheral = peripheral
        self.behaviours: set[str] = set()
        # (connection handle, response opcode) -> the first response, replayed by stuck_*.
        self._first: dict[tuple[int, int], bytes] = {}
        self.counts: dict[str, int] = {}
        self.indications_outstanding = 0
        self.confirmations = 0
        self.stray_confirmations = 0
        self.parameter_update_responses = 0
        server = peripheral.device.gatt_server
        self._default_max_mtu = server.max_mtu
        server.send_response = self._respond
        manager = peripheral.device.l2cap_channel_manager
        original = manager.on_l2cap_connection_parameter_update_response

        def on_update_response(connection, cid, response) -> None:
            self.parameter_update_responses += 1
            self.peripheral.world.event('hostile_update_response', device=self.peripheral.name,
                                        identifier=response.identifier, result=response.result,
                                        count=self.parameter_update_responses)
            if manager.connection_parameters_update_response:
                original(connection, cid, response)

        manager.on_l2cap_connection_parameter_update_response = on_update_response

    # -- settings -----------------------------------------------------------------------------
    def set(self, behaviours: list[str]) -> None:
        self.behaviours = set(behaviours)
        self._first.clear()
        server = self.peripheral.device.gatt_server
        server.max_mtu = (23 if 'mtu23' in self.behaviours else 517 if 'mtu517' in self.behaviours
                          else self._default_max_mtu)

    def connected(self) -> None:
        """A new link: the stuck_* answers start over from its first response."""
        self._first.clear()

    def status(self) -> dict[str, Any]:
        return {'behaviours': sorted(self.behaviours), 'counts': dict(self.counts),
                'confirmations': self.confirmations, 'stray_confirmations': self.stray_confirmations,
                'parameter_update_responses': self.parameter_update_responses}

    def _did(self, behaviour: str, **fields: Any) -> None:
        self.counts[behaviour] = self.counts.get(behaviour, 0) + 1
        self.peripheral.world.event('hostile', device=self.peripheral.name, behaviour=behaviour,
                                    count=self.counts[behaviour], **fields)

    def _send_att(self, handle: int, pdu: bytes) -> None:
        self.peripheral.device.send_l2cap_pdu(handle, ATT_CID, pdu)

    # -- requests from the host ---------------------------------------------------------------
    def on_request(self, bearer, pdu) -> bool:
        """Called before the GATT server; True when the PDU was handled here."""
        opcode = pdu.op_code
        if opcode == HANDLE_VALUE_CONFIRMATION and self.indications_outstanding:
            self.indications_outstanding -= 1
            self.confirmations += 1
            self.peripheral.world.event('hostile_confirmation', device=self.peripheral.name,
                                        count=self.confirmations, outstanding=self.indications_outstanding)
            return True
        if opcode == HANDLE_VALUE_CONFIRMATION and 'short_pdus' in self.behaviours:
            # Only the broken indications went out: the host confirmed one it should have dropped.
            self.stray_confirmations += 1
            self.peripheral.world.event('hostile_stray_confirmation', device=self.peripheral.name,
                                        count=self.stray_confirmations)
            return True
        if not self.behaviours:
            return False
        if 'silent' in self.behaviours and opcode != HANDLE_VALUE_CONFIRMATION:
            # Dropped: the host's 30 s ATT transaction timer is all that ends the wait.
            self._did('silent', opcode=f'0x{opcode:02X}')
            return True
        if opcode == EXCHANGE_MTU_REQUEST and 'att_truncated' in self.behaviours:
            self._send_att(bearer.handle, bytes([EXCHANGE_MTU_RESPONSE, 0x05]))
            self._did('att_truncated')
            return True
        if opcode == READ_BY_TYPE_REQUEST and 'handle_beyond_end' in self.behaviours \
                and pdu.attribute_type == gatt.GATT_CHARACTERISTIC_ATTRIBUTE_TYPE:
            end = pdu.ending_handle
            handle = end + 1 if end < 0xFFFF else 0x0000
            value_handle = (handle + 1) & 0xFFFF
            entry = struct.pack('<HBHH', handle, 0x02, value_handle, 0x2A00)
            self._send_att(bearer.handle, bytes([READ_BY_TYPE_RESPONSE, len(entry)]) + entry)
            self._did('handle_beyond_end', request_end=end, answered=handle)
            return True
        if opcode == FIND_INFORMATION_REQUEST and 'handle_zero' in self.behaviours:
            self._send_att(bearer.handle, bytes([FIND_INFORMATION_RESPONSE, 0x01]) + struct.pack('<HH', 0x0000, 0x2902))
            self._did('handle_zero', request_start=pdu.starting_handle)
            return True
        return False

    # -- responses of the GATT server ---------------------------------------------------------
    def _respond(self, bearer, response) -> None:
        data = bytes(response)
        if self.behaviours:
            for behaviour, opcode in REPLAYING.items():
                if behaviour not in self.behaviours:
                    continue
                request_opcode = opcode - 1
                if data[0] == opcode or (data[0] == ERROR_RESPONSE and len(data) > 1 and data[1] == request_opcode):
                    key = (bearer.handle, opcode)
                    if key not in self._first:
                        if data[0] == opcode:
                            self._first[key] = data
                    else:
                        data = self._first[key]
                        self._did(behaviour)
            if data[0] == READ_BY_GROUP_TYPE_RESPONSE and 'att_trailing' in self.behaviours:
                data += b'\xde\xad\xbe'
                self._did('att_trailing')
            if 'l2cap_short' in self.behaviours:
                self._short_frame(bearer.handle, data)
        self.peripheral.device.gatt_server.send_gatt_pdu(bearer, data)

    def _short_frame(self, handle: int, payload: bytes) -> None:
        """An L2CAP basic frame announcing 20 bytes more than it carries, sent as one PDU on
        the link; the host sees a start fragment (or a few) and then the next frame's start."""
        connection = self.peripheral.controller.find_connection_by_handle(handle)
        if connection is None:
            return
        frame = struct.pack('<HH', len(payload) + 20, ATT_CID) + payload
        connection.on_acl_pdu(frame)
        self._did('l2cap_short', announced=len(payload) + 20, carried=len(payload))

    # -- notifications ------------------------------------------------------------------------
    def after_notification(self, handle: int, value: bytes) -> None:
        if 'notify_unknown' in self.behaviours:
            for unknown in UNKNOWN_HANDLES:
                self._send_att(handle, bytes([HANDLE_VALUE_NOTIFICATION]) + struct.pack('<H', unknown) + value[:20])
            self.counts['notify_unknown'] = self.counts.get('notify_unknown', 0) + len(UNKNOWN_HANDLES)
        if 'short_pdus' in self.behaviours:
            # The Attribute Handle needs 2 octets (Core Spec v5.4 Vol 3, Part F, §3.4.7.1-2).
            self._send_att(handle, bytes([HANDLE_VALUE_NOTIFICATION, 0x01]))
            self._send_att(handle, bytes([HANDLE_VALUE_INDICATION, 0x01]))
            self.counts['short_pdus'] = self.counts.get('short_pdus', 0) + 2

    # -- advertising --------------------------------------------------------------------------
    def advertising_data(self, data: bytes) -> bytes:
        if 'bad_adv' not in self.behaviours:
            return data
        # Keep the flags and the service list, end with a name structure that overruns.
        return data[:3] + bytes([0x03, 0x03, 0x0D, 0x18]) + bytes([0x1E, 0x09]) + b'Hostil'

    # -- one-shot floods ----------------------------------------------------------------------
    def indication_burst(self, value_handle: int, count: int) -> int:
        """`count` Handle Value Indications back to back, without waiting for confirmations
        (a server may have one outstanding, Core Spec v5.4 Vol 3, Part F, §3.4.7.2); values are
        one byte each, 0, 1, 2, …"""
        sent = 0
        for connection in list(self.peripheral.device.connections.values()):
            for i in range(count):
                self._send_att(connection.handle, bytes([HANDLE_VALUE_INDICATION])
                               + struct.pack('<H', value_handle) + bytes([i & 0xFF]))
                self.indications_outstanding += 1
                sent += 1
        self._did('indication_burst', handle=value_handle, sent=sent)
        return sent

    def param_flood(self, count: int) -> int:
        """`count` L2CAP Connection Parameter Update Requests (Vol 3, Part A, §4.20) at once,
        identifiers 1, 2, …, each with valid parameters (interval 30-50 ms, latency 0, timeout 4 s)."""
        sent = 0
        for connection in list(self.peripheral.device.connections.values()):
            for i in range(count):
                identifier = i % 255 + 1
                interval_min = 24 + i % 8
                body = struct.pack('<HHHH', interval_min, 40, 0, 400)
                frame = struct.pack('<BBH', CONNECTION_PARAMETER_UPDATE_REQUEST, identifier, len(body)) + body
                self.peripheral.device.send_l2cap_pdu(connection.handle, LE_SIGNALING_CID, frame)
                sent += 1
        self._did('param_flood', sent=sent)
        return sent
