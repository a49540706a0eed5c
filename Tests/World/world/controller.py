"""A Bumble virtual controller with the stock defects of bumble 0.0.236 fixed.

Every controller of the world (the one the host under test drives over TCP, and the one under
each peripheral's Bumble Device) is a WorldController on one WorldLink.  The fixes, each
asserted by the self-test (world/selftest.py):

 1. HCI Reset really resets: links are dropped (the peer sees a supervision timeout), a pending
    LE Create Connection is forgotten, scanning and advertising stop, the filter accept list,
    event masks, scan parameters and the random address return to their defaults.  The same
    reset runs when the TCP client goes away (see hci_server.py).
 2. LE Create Connection Cancel really cancels: Command Complete, then LE (Enhanced) Connection
    Complete with status 0x02 Unknown Connection Identifier.  Without a pending create it
    answers 0x0C Command Disallowed, as the specification requires.
 3. Scanning: legacy LE Set Scan Enable yields legacy LE Advertising Reports (subevent 0x02),
    extended scanning yields Extended Advertising Reports (0x0D) with the legacy-PDU event
    types; Filter_Duplicates is honoured (one report per address and report kind per scan);
    a passive scan gets no scan responses; an active scan gets a SCAN_RSP report, carrying
    the advertiser's scan-response data, only for scannable advertising (ADV_IND,
    ADV_SCAN_IND); non-connectable advertising (ADV_NONCONN_IND, ADV_SCAN_IND) is really sent
    and reported with its type, and cannot be connected to.  Scanning filter policy 1 and
    initiator filter policy 1 use a real filter accept list.
 4. Commands: a vendor opcode (OGF 0x3F) gets Command Complete with 0x01 Unknown HCI Command;
    a command without an implementation gets Command Status 0x01 if it is one that expects
    Command Status, Command Complete 0x01 otherwise; malformed parameters get 0x12; an
    exception inside a handler answers 0x1F instead of leaving the host waiting.  Read Remote
    Version Information, Read RSSI, LE Set Data Length and LE Set PHY are implemented; the
    supported-commands bitmap no longer lists commands nobody implements.
 5. Disconnect of an unknown handle answers Command Status 0x02; a reason the specification
    does not allow answers 0x12; the local Disconnection Complete carries 0x16 (terminated by
    local host) while the peer gets the reason given.
 6. ACL from a central that connected with its PUBLIC address is delivered (WorldLink uses the
    address the link was made with, not the controller's random address).

Also: a random own address that was never set makes LE Create Connection answer 0x12; a
connect to an already-connected peer answers 0x0B; the LE Enhanced Connection Complete event is
used when the host unmasked it; data from a peer reaches the host fragmented to the LL payload
size (27 bytes by default, first fragment PB=0x02, then PB=0x01) instead of in one oversized
packet; ACL from the host larger than the advertised LE buffer size, or for an unknown handle,
is reported as a fault event; advertising intervals are honoured in 0.625 ms units.

Opt-in (`--adv-stamp`, for latency benchmarks): every advertising event's data carries the
moment it was sent, as Manufacturer Specific Data of company 0xFFFF (the identifier reserved
for tests) whose 4 bytes are microseconds since the world started, little-endian (see
`stamped`); a scanner's host subtracts it from its own CLOCK_MONOTONIC.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import struct
import time
import traceback
from typing import Any, Callable

from bumble import controller as bumble_controller
from bumble import hci, ll
from bumble.core import PhysicalTransport
from bumble.link import LocalLink

logger = logging.getLogger(__name__)

# Manufacturer Specific Data (AD type 0xFF) of the test company 0xFFFF: the `--adv-stamp` stamp.
STAMP_PREFIX = bytes([7, 0xFF, 0xFF, 0xFF])


def stamped(data: bytes, microseconds: int) -> bytes:
    """`data` with the send time appended as a Manufacturer Specific Data structure, when the
    31 bytes of a legacy advertising PDU leave room for its 8; else `data` unchanged."""
    stamp = STAMP_PREFIX + struct.pack('<I', microseconds & 0xFFFFFFFF)
    return data + stamp if len(data) + len(stamp) <= 31 else data


def stamp_of(data: bytes) -> int | None:
    """The microseconds `stamped` put into advertising data, if it carries them."""
    at = data.rfind(STAMP_PREFIX)
    if at < 0 or at + len(STAMP_PREFIX) + 4 > len(data):
        return None
    return struct.unpack_from('<I', data, at + len(STAMP_PREFIX))[0]


# Legacy advertising PDU types (Core Vol 6 Part B 2.3).
ADV_IND = 0
ADV_DIRECT_IND = 1
ADV_SCAN_IND = 2
ADV_NONCONN_IND = 3
SCAN_RSP = 4
CONNECTABLE_TYPES = (ADV_IND, ADV_DIRECT_IND)
SCANNABLE_TYPES = (ADV_IND, ADV_SCAN_IND)

# Event types of an Extended Advertising Report for legacy PDUs (Core Vol 4 Part E 7.7.65.13).
EXTENDED_EVENT_TYPE = {ADV_IND: 0x13, ADV_DIRECT_IND: 0x15, ADV_SCAN_IND: 0x12, ADV_NONCONN_IND: 0x10}
EXTENDED_SCAN_RSP_EVENT_TYPE = {ADV_IND: 0x1B, ADV_SCAN_IND: 0x1A}

# HCI status codes used here.
SUCCESS = 0x00
UNKNOWN_HCI_COMMAND = 0x01
UNKNOWN_CONNECTION_IDENTIFIER = 0x02
MEMORY_CAPACITY_EXCEEDED = 0x07
CONNECTION_TIMEOUT = 0x08
CONNECTION_LIMIT_EXCEEDED = 0x09
CONNECTION_ALREADY_EXISTS = 0x0B
COMMAND_DISALLOWED = 0x0C
INVALID_HCI_COMMAND_PARAMETERS = 0x12
CONNECTION_TERMINATED_BY_LOCAL_HOST = 0x16
UNSPECIFIED_ERROR = 0x1F

# Reasons a host may give in HCI Disconnect (Core Vol 4 Part E 7.1.6).
DISCONNECT_REASONS = {0x05, 0x13, 0x14, 0x15, 0x1A, 0x29, 0x3B}

DEFAULT_EVENT_MASK = 0x00001FFFFFFFFFFF
DEFAULT_LE_EVENT_MASK = 0x1F
LE_ENHANCED_CONNECTION_COMPLETE_BIT = 1 << 9

# Advertised in the supported-commands bitmap by stock Bumble, implemented by nobody.
UNIMPLEMENTED_COMMANDS = {
    hci.HCI_READ_CLOCK_OFFSET_COMMAND,
    hci.HCI_LE_REMOTE_CONNECTION_PARAMETER_REQUEST_REPLY_COMMAND,
    hci.HCI_LE_REMOTE_CONNECTION_PARAMETER_REQUEST_NEGATIVE_REPLY_COMMAND,
}

# Address resolution (fix 7): stock claims LL Privacy and accepts the resolving list, but resolves
# nothing. A host that believed it would connect to identity addresses nobody answers to.
RESOLVING_LIST_COMMANDS = {
    hci.HCI_LE_ADD_DEVICE_TO_RESOLVING_LIST_COMMAND,
    hci.HCI_LE_REMOVE_DEVICE_FROM_RESOLVING_LIST_COMMAND,
    hci.HCI_LE_CLEAR_RESOLVING_LIST_COMMAND,
    hci.HCI_LE_READ_RESOLVING_LIST_SIZE_COMMAND,
    hci.HCI_LE_READ_PEER_RESOLVABLE_ADDRESS_COMMAND,
    hci.HCI_LE_READ_LOCAL_RESOLVABLE_ADDRESS_COMMAND,
    hci.HCI_LE_SET_ADDRESS_RESOLUTION_ENABLE_COMMAND,
    hci.HCI_LE_SET_RESOLVABLE_PRIVATE_ADDRESS_TIMEOUT_COMMAND,
    hci.HCI_LE_SET_PRIVACY_MODE_COMMAND,
}

EventSink = Callable[..., None]

# A handler's result saying it answers later by itself (a Command Complete it delays).
DEFERRED = object()


# ---------------------------------------------------------------------------------------------
# Raw HCI event builders (bytes with the H4 type byte).
def command_complete(opcode: int, return_parameters: bytes) -> bytes:
    body = bytes([1]) + struct.pack('<H', opcode) + return_parameters
    return bytes([0x04, 0x0E, len(body)]) + body


def command_status(status: int, opcode: int) -> bytes:
    return bytes([0x04, 0x0F, 4, status, 1]) + struct.pack('<H', opcode)


def le_meta_event(subevent: int, parameters: bytes) -> bytes:
    return bytes([0x04, 0x3E, 1 + len(parameters), subevent]) + parameters


def event(code: int, parameters: bytes) -> bytes:
    return bytes([0x04, code, len(parameters)]) + parameters


def address_key(address: hci.Address) -> tuple[bytes, bool]:
    return (bytes(address), address.is_public)


# ---------------------------------------------------------------------------------------------
@dataclasses.dataclass
class AdvPdu(ll.AdvertisingPdu):
    """A legacy advertising event as it travels on the WorldLink.

    Unlike Bumble's ll.AdvInd it carries the PDU type and the scan-response data, so that a
    scanner can build a truthful report and a scan response of its own data.
    """

    advertiser_address: hci.Address
    adv_type: int
    data: bytes
    scan_response: bytes = b''
    target_address: hci.Address | None = None
    rssi: int = -50


@dataclasses.dataclass
class WorldLegacyAdvertiser(bumble_controller.LegacyAdvertiser):
    """Legacy advertiser that sends every advertising type, at the configured interval."""

    def _on_timer_fired(self) -> None:
        self.send_advertising_data()
        interval = max(self.advertising_interval_min * 0.000625, 0.02)
        self.timer_handle = asyncio.get_running_loop().call_later(interval, self._on_timer_fired)

    def pdu_type(self) -> int:
        return {0x00: ADV_IND, 0x01: ADV_DIRECT_IND, 0x02: ADV_SCAN_IND, 0x03: ADV_NONCONN_IND,
                0x04: ADV_DIRECT_IND}.get(self.advertising_type, ADV_IND)

    def send_advertising_data(self) -> None:
        if not self.enabled:
            return
        adv_type = self.pdu_type()
        data = b'' if adv_type == ADV_DIRECT_IND else bytes(self.advertising_data)
        origin = getattr(self.controller, 'adv_stamp_origin', None)
        if origin is not None and data:
            data = stamped(data, round((time.monotonic() - origin) * 1e6))
        self.controller.send_advertising_pdu(
            AdvPdu(
                advertiser_address=self.address,
                adv_type=adv_type,
                data=data,
                scan_response=bytes(self.scan_response_data) if adv_type in SCANNABLE_TYPES else b'',
                target_address=self.peer_address if adv_type == ADV_DIRECT_IND else None,
                rssi=getattr(self.controller, 'adv_rssi', -50),
            )
        )


class WorldLink(LocalLink):
    """LocalLink whose ACL carries the address the link was made with (fix 6).

    Stock LocalLink stamps LE data with the sender controller's *random* address; a central
    that connected with its public address is known to the peripheral by that public address,
    so the peripheral dropped every packet ("no connection for <addr>").
    """

    def send_acl_data(self, sender_controller, destination_address, transport, data) -> None:
        if transport == PhysicalTransport.LE:
            connection = sender_controller.le_connections.get(destination_address)
            if connection is not None:
                destination = self.find_le_controller(destination_address)
                if destination is not None:
                    source = connection.self_address
                    asyncio.get_running_loop().call_soon(
                        destination.on_link_acl_data, source, transport, data
                    )
                return
        super().send_acl_data(sender_controller, destination_address, transport, data)


# ---------------------------------------------------------------------------------------------
class WorldController(bumble_controller.Controller):
    """Bumble Controller with the defects listed in the module docstring fixed."""

    def __init__(
        self,
        name: str,
        *,
        link: WorldLink,
        public_address: str,
        events: EventSink | None = None,
        extended: bool = True,
        acl_fragment: int = 0,
        le_acl_size: int = 27,
        adv_rssi: int = -50,
        rssi_offset: int = 0,
    ) -> None:
        super().__init__(name, link=link, public_address=public_address)
        self.events = events
        self.acl_fragment = acl_fragment
        self.adv_rssi = adv_rssi
        # CLOCK_MONOTONIC of the world's start when advertising data is stamped (`--adv-stamp`).
        self.adv_stamp_origin: float | None = None
        # What this controller adds to the RSSI of everything it hears (a scanner nearer to or
        # farther from the peripherals than another one on the same link).
        self.rssi_offset = rssi_offset
        # Connection slots (0 = no limit): with this many links up, LE Create Connection is
        # refused with `slot_limit_status` (0x09 Connection Limit Exceeded, or 0x07 Memory
        # Capacity Exceeded) in its Command Status (`slot_limit_at` 'status') or, accepted,
        # ends at once in an LE Connection Complete with that status ('complete').
        # Read Encryption Key Size, opt-in (`answer_key_size_late`): stock Bumble neither lists
        # nor implements it, so a host takes the key's own size. Seconds to hold its Command
        # Complete; None: not supported.
        self.key_size_delay: float | None = None
        self.slot_limit = 0
        self.slot_limit_status = CONNECTION_LIMIT_EXCEEDED
        self.slot_limit_at = 'status'
        self.le_acl_data_packet_length = le_acl_size
        self.supported_max_tx_octets = 251
        self.supported_max_rx_octets = 251
        self.supported_max_tx_time = 17040
        self.supported_max_rx_time = 17040
        if not extended:
            self.le_features = self.le_features & ~(
                hci.LeFeatureMask.LE_EXTENDED_ADVERTISING | hci.LeFeatureMask.LE_PERIODIC_ADVERTISING
            )
        self.le_features = self.le_features & ~hci.LeFeatureMask.LL_PRIVACY
        self.supported_commands = set(self.supported_commands) - UNIMPLEMENTED_COMMANDS - RESOLVING_LIST_COMMANDS
        self.filter_accept_list: set[tuple[bytes, bool]] = set()
        self._seen: set[tuple[bytes, bool, str]] = set()
        self._scan_timer: asyncio.TimerHandle | None = None
        self.scan_mode = 'legacy'
        self.counters = {'commands': 0, 'acl_in': 0, 'acl_out': 0, 'events': 0}
        self._reset_state()

    # -- logging ------------------------------------------------------------------------------
    def _log(self, event_name: str, /, **fields: Any) -> None:
        if self.events is not None:
            self.events(event_name, controller=self.name, **fields)

    def _fault(self, kind: str, **fields: Any) -> None:
        logger.info('fault %s %s', kind, fields)
        self._log('fault', kind=kind, **fields)

    # -- to the host --------------------------------------------------------------------------
    def send_raw(self, packet: bytes) -> None:
        if packet[0] == 0x04:
            self.counters['events'] += 1
        if self.host:
            asyncio.get_running_loop().call_soon(self.host.on_packet, packet)

    def send_hci_packet(self, packet: hci.HCI_Packet) -> None:
        self.send_raw(bytes(packet))

    def _later(self, callback: Callable[[], None]) -> None:
        """Run callback after the Command Complete/Status being produced now has been queued."""
        asyncio.get_running_loop().call_soon(callback)

    # -- from the host ------------------------------------------------------------------------
    def on_packet(self, packet: bytes) -> None:
        try:
            self._on_packet(packet)
        except Exception as error:  # nothing the host sends may take the world down
            self._fault('exception', bytes=packet[:64].hex(), error=repr(error),
                        trace=traceback.format_exc(limit=4))

    def _on_packet(self, packet: bytes) -> None:
        if not packet:
            return
        if packet[0] == 0x01:
            self.counters['commands'] += 1
            self._on_command_bytes(packet)
            return
        try:
            hci_packet = hci.HCI_Packet.from_bytes(packet)
        except Exception as error:  # malformed packet from the host: never fatal
            self._fault('malformed_packet', bytes=packet[:64].hex(), error=str(error))
            return
        self.on_hci_packet(hci_packet)

    def on_hci_packet(self, packet: hci.HCI_Packet) -> None:
        # Stock Controller formats every packet into a debug string first: too slow for
        # thousands of notifications per second.
        if isinstance(packet, hci.HCI_AclDataPacket):
            self.on_hci_acl_data_packet(packet)
        elif isinstance(packet, hci.HCI_Command):
            self.on_hci_command_packet(packet)
        else:
            self._fault('unexpected_packet', type=packet.hci_packet_type)

    def _on_command_bytes(self, packet: bytes) -> None:
        if len(packet) < 4:
            self._fault('malformed_command', bytes=packet.hex())
            return
        opcode = packet[1] | (packet[2] << 8)
        command_class = hci.HCI_Command.command_classes.get(opcode)
        expects_status = command_class is not None and issubclass(command_class, hci.HCI_AsyncCommand)

        def reject(status: int) -> None:
            if expects_status:
                self.send_raw(command_status(status, opcode))
            else:
                self.send_raw(command_complete(opcode, bytes([status])))

        if opcode >> 10 == 0x3F:  # vendor specific: stock Bumble's parser crashed here
            self._fault('vendor_command', opcode=f'0x{opcode:04X}')
            self.send_raw(command_complete(opcode, bytes([UNKNOWN_HCI_COMMAND])))
            return
        if opcode in RESOLVING_LIST_COMMANDS:  # fix 7: not listed, so not taken either
            self._fault('unknown_command', opcode=f'0x{opcode:04X}', name='resolving list')
            reject(UNKNOWN_HCI_COMMAND)
            return
        try:
            command = hci.HCI_Command.from_bytes(packet)
        except Exception as error:
            self._fault('malformed_command', opcode=f'0x{opcode:04X}', bytes=packet.hex(), error=str(error))
            reject(INVALID_HCI_COMMAND_PARAMETERS if command_class else UNKNOWN_HCI_COMMAND)
            return
        handler = getattr(self, f'on_{command.name.lower()}', None) if command_class else None
        if handler is None:
            self._fault('unknown_command', opcode=f'0x{opcode:04X}', name=command.name)
            reject(UNKNOWN_HCI_COMMAND)
            return
        try:
            result = handler(command)
        except Exception as error:
            self._fault('command_exception', name=command.name, error=repr(error),
                        trace=traceback.format_exc(limit=3))
            reject(UNSPECIFIED_ERROR)
            return
        if result is DEFERRED:
            return
        if isinstance(result, (bytes, bytearray)):
            self.send_raw(command_complete(opcode, bytes(result)))
        elif isinstance(command, hci.HCI_SyncCommand):
            if result is None:
                self._fault('no_result', name=command.name)
                reject(UNSPECIFIED_ERROR)
                return
            self.send_hci_packet(
                hci.HCI_Command_Complete_Event(
                    num_hci_command_packets=1, command_opcode=opcode, return_parameters=result
                )
            )

    def on_hci_acl_data_packet(self, packet: hci.HCI_AclDataPacket) -> None:
        self.counters['acl_in'] += 1
        if packet.data_total_length > self.le_acl_data_packet_length:
            self._fault('acl_too_long', handle=packet.connection_handle,
                        length=packet.data_total_length, limit=self.le_acl_data_packet_length)
        connection = self.find_connection_by_handle(packet.connection_handle)
        if connection is None:
            self._fault('acl_unknown_handle', handle=packet.connection_handle)
            return
        connection.on_hci_acl_data_packet(packet)

    # -- fix 1: reset -------------------------------------------------------------------------
    def _reset_state(self) -> None:
        self.event_mask = DEFAULT_EVENT_MASK
        self.event_mask_page_2 = 0
        self.le_event_mask = DEFAULT_LE_EVENT_MASK
        self.le_scan_enable = False
        self.le_scan_type = 0
        self.le_scan_interval = 0x10
        self.le_scan_window = 0x10
        self.le_scan_own_address_type = hci.Address.PUBLIC_DEVICE_ADDRESS
        self.le_scanning_filter_policy = 0
        self.filter_duplicates = False
        self.scan_mode = 'legacy'
        self._seen.clear()
        if self._scan_timer is not None:
            self._scan_timer.cancel()
            self._scan_timer = None
        self.pending_le_connection = None
        self.filter_accept_list.clear()
        self.le_legacy_advertiser.stop()
        self.le_legacy_advertiser = WorldLegacyAdvertiser(self)
        for advertising_set in self.advertising_sets.values():
            advertising_set.stop()
        self.advertising_sets.clear()
        self.default_phy = {'all_phys': 0, 'tx_phys': 0, 'rx_phys': 0}
        self._random_address = hci.Address.ANY_RANDOM

    def world_reset(self, why: str) -> None:
        """Drop every link and forget every state, as a power cycle would."""
        dropped = []
        for connection in list(self.le_connections.values()):
            dropped.append(connection.handle)
            try:  # the peer notices the link is gone (as after a supervision timeout)
                connection.send_ll_control_pdu(ll.TerminateInd(CONNECTION_TIMEOUT))
            except Exception:
                pass
        self.le_connections.clear()
        self.classic_connections.clear()
        self.sco_links.clear()
        self.central_cis_links.clear()
        self.peripheral_cis_links.clear()
        self.pending_periodic_advertising_syncs.clear()
        self.established_periodic_advertising_syncs.clear()
        had_pending = self.pending_le_connection is not None
        was_scanning = self.le_scan_enable
        self._reset_state()
        self._log('reset', why=why, dropped_handles=dropped, cancelled_connect=had_pending,
                  stopped_scan=was_scanning)

    def on_hci_reset_command(self, _command: hci.HCI_Reset_Command) -> bytes:
        self.world_reset('hci_reset')
        return bytes([SUCCESS])

    # -- commands that stock Bumble left unanswered or unimplemented (fix 4) -----------------
    def on_hci_read_remote_version_information_command(self, command) -> None:
        connection = self.find_le_connection_by_handle(command.connection_handle)
        if connection is None:
            self.send_raw(command_status(UNKNOWN_CONNECTION_IDENTIFIER, command.op_code))
            return None
        self.send_raw(command_status(SUCCESS, command.op_code))
        peer = self.link.find_le_controller(connection.peer_address)
        version = getattr(peer, 'lmp_version', hci.HCI_VERSION_BLUETOOTH_CORE_5_0)
        company = getattr(peer, 'manufacturer_company_identifier', 0xFFFF)
        subversion = getattr(peer, 'lmp_subversion', 0)
        handle = connection.handle
        self._later(lambda: self.send_raw(event(
            0x0C, struct.pack('<BHBHH', SUCCESS, handle, version, company, subversion))))
        return None

    def on_hci_read_rssi_command(self, command) -> bytes:
        connection = self.find_connection_by_handle(command.handle)
        if connection is None:
            return struct.pack('<BHb', UNKNOWN_CONNECTION_IDENTIFIER, command.handle, 0)
        return struct.pack('<BHb', SUCCESS, command.handle, -50)

    def on_hci_le_set_data_length_command(self, command) -> bytes:
        connection = self.find_le_connection_by_handle(command.connection_handle)
        if connection is None:
            return struct.pack('<BH', UNKNOWN_CONNECTION_IDENTIFIER, command.connection_handle)
        if not (0x1B <= command.tx_octets <= 0xFB and 0x148 <= command.tx_time <= 0x4290):
            return struct.pack('<BH', INVALID_HCI_COMMAND_PARAMETERS, command.connection_handle)
        handle = connection.handle
        tx_octets, tx_time = command.tx_octets, command.tx_time
        self._later(lambda: self.send_raw(le_meta_event(
            0x07, struct.pack('<HHHHH', handle, tx_octets, tx_time, 27, 328))))
        return struct.pack('<BH', SUCCESS, handle)

    def answer_key_size_late(self, delay: float) -> None:
        """List Read Encryption Key Size and answer it `delay` seconds late: a slow H4 UART or a
        busy controller, whose Command Complete comes after the peer's first key distribution
        PDUs (Bumble's Security Manager sends them as soon as the link is encrypted)."""
        self.key_size_delay = delay
        self.supported_commands = set(self.supported_commands) | {hci.HCI_READ_ENCRYPTION_KEY_SIZE_COMMAND}

    def on_hci_read_encryption_key_size_command(self, command) -> Any:
        if self.key_size_delay is None:
            self._fault('unknown_command', opcode=f'0x{command.op_code:04X}', name=command.name)
            return bytes([UNKNOWN_HCI_COMMAND])
        handle = command.connection_handle
        connection = self.find_le_connection_by_handle(handle)
        # Bumble's link layer encrypts with the whole key the host gives it: 16 octets.
        status, size = (SUCCESS, 16) if connection is not None else (UNKNOWN_CONNECTION_IDENTIFIER, 0)
        reply = command_complete(command.op_code, struct.pack('<BHB', status, handle, size))
        self._log('key_size_held', handle=handle, delay_ms=round(self.key_size_delay * 1000))
        asyncio.get_running_loop().call_later(self.key_size_delay, self.send_raw, reply)
        return DEFERRED

    def on_hci_le_set_phy_command(self, command) -> None:
        connection = self.find_le_connection_by_handle(command.connection_handle)
        if connection is None:
            self.send_raw(command_status(UNKNOWN_CONNECTION_IDENTIFIER, command.op_code))
            return None
        self.send_raw(command_status(SUCCESS, command.op_code))
        handle = connection.handle
        self._later(lambda: self.send_raw(le_meta_event(0x0C, struct.pack('<BHBB', SUCCESS, handle, 1, 1))))
        return None

    # -- fix 5: disconnect --------------------------------------------------------------------
    def on_hci_disconnect_command(self, command: hci.HCI_Disconnect_Command) -> None:
        handle = command.connection_handle
        connection = self.find_le_connection_by_handle(handle)
        if connection is None:
            if (self.find_classic_connection_by_handle(handle) or self.find_classic_sco_link_by_handle(handle)
                    or self.find_iso_link_by_handle(handle)):
                return super().on_hci_disconnect_command(command)
            self.send_raw(command_status(UNKNOWN_CONNECTION_IDENTIFIER, command.op_code))
            return None
        if command.reason not in DISCONNECT_REASONS:
            self.send_raw(command_status(INVALID_HCI_COMMAND_PARAMETERS, command.op_code))
            return None
        self.send_raw(command_status(SUCCESS, command.op_code))
        try:
            connection.send_ll_control_pdu(ll.TerminateInd(command.reason))
        except Exception:
            pass
        self.le_connections.pop(connection.peer_address, None)
        self._log('disconnected', handle=handle, peer=str(connection.peer_address), reason=CONNECTION_TERMINATED_BY_LOCAL_HOST,
                  by='host')
        self._later(lambda: self.send_raw(event(0x05, struct.pack('<BHB', SUCCESS, handle,
                                                                   CONNECTION_TERMINATED_BY_LOCAL_HOST))))
        return None

    def on_le_disconnected(self, connection, reason: int) -> None:
        self._log('disconnected', handle=connection.handle, peer=str(connection.peer_address), reason=reason,
                  by='peer')
        super().on_le_disconnected(connection, reason)

    # -- filter accept list -------------------------------------------------------------------
    def on_hci_le_clear_filter_accept_list_command(self, _command) -> bytes:
        self.filter_accept_list.clear()
        return bytes([SUCCESS])

    def on_hci_le_add_device_to_filter_accept_list_command(self, command) -> bytes:
        if command.address_type == 0xFF:  # anonymous advertisers: nothing on this link is
            return bytes([SUCCESS])
        key = (bytes(command.address), command.address_type in (0, 2))
        if key not in self.filter_accept_list and len(self.filter_accept_list) >= self.filter_accept_list_size:
            return bytes([MEMORY_CAPACITY_EXCEEDED])
        self.filter_accept_list.add(key)
        return bytes([SUCCESS])

    def on_hci_le_remove_device_from_filter_accept_list_command(self, command) -> bytes:
        self.filter_accept_list.discard((bytes(command.address), command.address_type in (0, 2)))
        return bytes([SUCCESS])

    # -- fix 3: scanning ----------------------------------------------------------------------
    def on_hci_le_set_scan_enable_command(self, command) -> bytes:
        self._set_scan(bool(command.le_scan_enable), bool(command.filter_duplicates), 'legacy')
        return bytes([SUCCESS])

    def on_hci_le_set_extended_scan_parameters_command(self, command) -> bytes:
        if self.le_scan_enable:
            return bytes([COMMAND_DISALLOWED])
        self.le_scan_own_address_type = command.own_address_type
        self.le_scanning_filter_policy = command.scanning_filter_policy
        if command.scan_types:
            self.le_scan_type = command.scan_types[0]
            self.le_scan_interval = command.scan_intervals[0]
            self.le_scan_window = command.scan_windows[0]
        return bytes([SUCCESS])

    def on_hci_le_set_extended_scan_enable_command(self, command) -> bytes:
        self._set_scan(bool(command.enable), bool(command.filter_duplicates), 'extended')
        if command.enable and command.duration and not command.period:
            self._scan_timer = asyncio.get_running_loop().call_later(
                command.duration * 0.01, self._on_scan_timeout)
        return bytes([SUCCESS])

    def _set_scan(self, enable: bool, filter_duplicates: bool, mode: str) -> None:
        if self._scan_timer is not None:
            self._scan_timer.cancel()
            self._scan_timer = None
        if enable and not self.le_scan_enable:
            self._seen.clear()  # duplicate filtering starts afresh with each scan
        self.le_scan_enable = enable
        self.filter_duplicates = filter_duplicates
        self.scan_mode = mode
        self._log('scan', enable=enable, mode=mode, active=self.le_scan_type == 1,
                  filter_duplicates=filter_duplicates)

    def _on_scan_timeout(self) -> None:
        self._scan_timer = None
        if self.le_scan_enable:
            self.le_scan_enable = False
            self.send_raw(le_meta_event(0x11, b''))

    def on_ll_advertising_pdu(self, packet: ll.AdvertisingPdu) -> None:
        match packet:
            case ll.ConnectInd():
                self.on_le_connect_ind(packet)
            case AdvPdu():
                self._on_advertising(packet)
            case ll.AdvInd():
                self._on_advertising(AdvPdu(packet.advertiser_address, ADV_IND, packet.data))
            case ll.AdvExtInd():
                self._on_advertising(AdvPdu(packet.advertiser_address, ADV_IND, packet.data))

    def _on_advertising(self, pdu: AdvPdu) -> None:
        if self.le_scan_enable:
            self._report(pdu)
        if self.pending_le_connection is not None:
            self._maybe_connect(pdu)

    def _own_addresses(self) -> list[hci.Address]:
        return [self.random_address, self.public_address]

    def _first_time(self, address: hci.Address, kind: str) -> bool:
        if not self.filter_duplicates:
            return True
        key = (bytes(address), address.is_public, kind)
        if key in self._seen:
            return False
        self._seen.add(key)
        return True

    def _report(self, pdu: AdvPdu) -> None:
        address = pdu.advertiser_address
        if self.le_scanning_filter_policy in (1, 3) and address_key(address) not in self.filter_accept_list:
            return
        if pdu.adv_type == ADV_DIRECT_IND and pdu.target_address not in self._own_addresses():
            return
        if self._first_time(address, 'adv'):
            self._send_report(pdu, pdu.adv_type, pdu.data)
        if self.le_scan_type == 1 and pdu.adv_type in SCANNABLE_TYPES and self._first_time(address, 'rsp'):
            self._send_report(pdu, SCAN_RSP, pdu.scan_response)

    def _send_report(self, pdu: AdvPdu, kind: int, data: bytes) -> None:
        address = pdu.advertiser_address
        address_type = 0 if address.is_public else 1
        rssi = max(-127, min(20, pdu.rssi + self.rssi_offset)) & 0xFF
        if self.scan_mode == 'extended':
            event_type = (EXTENDED_SCAN_RSP_EVENT_TYPE[pdu.adv_type] if kind == SCAN_RSP
                          else EXTENDED_EVENT_TYPE[kind])
            direct = pdu.target_address if kind == ADV_DIRECT_IND and pdu.target_address else None
            body = (bytes([1]) + struct.pack('<HB', event_type, address_type) + bytes(address)
                    + bytes([1, 0, 0xFF, 0x7F, rssi]) + struct.pack('<H', 0)
                    + bytes([0 if direct is None or direct.is_public else 1])
                    + (bytes(direct) if direct else bytes(6))
                    + bytes([len(data)]) + data)
            self.send_raw(le_meta_event(0x0D, body))
        else:
            body = bytes([1, kind, address_type]) + bytes(address) + bytes([len(data)]) + data + bytes([rssi])
            self.send_raw(le_meta_event(0x02, body))

    # -- fix 2 and friends: connection creation -----------------------------------------------
    def _check_create(self, command) -> int:
        if self.pending_le_connection is not None:
            return COMMAND_DISALLOWED
        if command.own_address_type in (1, 3) and bytes(self.random_address) == bytes(6):
            return INVALID_HCI_COMMAND_PARAMETERS
        if command.initiator_filter_policy == 0 and self.le_connections.get(command.peer_address):
            return CONNECTION_ALREADY_EXISTS
        return SUCCESS

    def _slots_full(self) -> bool:
        return self.slot_limit > 0 and len(self.le_connections) >= self.slot_limit

    def on_hci_le_create_connection_command(self, command) -> None:
        status = self._check_create(command)
        if status == SUCCESS and self._slots_full() and self.slot_limit_at == 'status':
            status = self.slot_limit_status
            self._log('slot_refused', peer=str(command.peer_address), at='status', status=status,
                      links=len(self.le_connections), limit=self.slot_limit)
        self.send_raw(command_status(status, command.op_code))
        if status != SUCCESS:
            return None
        if self._slots_full():  # slot_limit_at == 'complete'
            peer = command.peer_address
            refusal = self.slot_limit_status
            self._log('slot_refused', peer=str(peer), at='complete', status=refusal,
                      links=len(self.le_connections), limit=self.slot_limit)
            self._later(lambda: self._connection_complete(refusal, 0, peer, 0, 0, 0))
            return None
        self.pending_le_connection = command
        self._log('connecting', peer=str(command.peer_address), filter_policy=command.initiator_filter_policy)
        return None

    def on_hci_le_extended_create_connection_command(self, command) -> None:
        self.on_hci_le_create_connection_command(command)
        return None

    def on_hci_le_create_connection_cancel_command(self, _command) -> bytes:
        pending = self.pending_le_connection
        if pending is None:
            return bytes([COMMAND_DISALLOWED])
        self.pending_le_connection = None
        self._log('connect_cancelled', peer=str(pending.peer_address))
        self._later(lambda: self._connection_complete(
            UNKNOWN_CONNECTION_IDENTIFIER, 0, pending.peer_address, 0, 0, 0))
        return bytes([SUCCESS])

    def _connection_complete(self, status: int, handle: int, peer: hci.Address, interval: int,
                             latency: int, timeout: int) -> None:
        peer_type = 0 if peer.is_public else 1
        if self.le_event_mask & LE_ENHANCED_CONNECTION_COMPLETE_BIT:
            body = (struct.pack('<BHBB', status, handle, 0, peer_type) + bytes(peer) + bytes(12)
                    + struct.pack('<HHHB', interval, latency, timeout, 0))
            self.send_raw(le_meta_event(0x0A, body))
        else:
            body = (struct.pack('<BHBB', status, handle, 0, peer_type) + bytes(peer)
                    + struct.pack('<HHHB', interval, latency, timeout, 0))
            self.send_raw(le_meta_event(0x01, body))

    def accepts_connection(self, address: hci.Address) -> bool:
        advertiser = self.le_legacy_advertiser
        if advertiser.enabled and advertiser.address == address:
            return advertiser.pdu_type() in CONNECTABLE_TYPES
        return any(s.enabled and s.address == address for s in self.advertising_sets.values())

    def _maybe_connect(self, pdu: AdvPdu) -> None:
        pending = self.pending_le_connection
        if pdu.adv_type not in CONNECTABLE_TYPES:
            return
        address = pdu.advertiser_address
        if pending.initiator_filter_policy == 0:
            if address != pending.peer_address:
                return
        elif address_key(address) not in self.filter_accept_list:
            return
        if pdu.adv_type == ADV_DIRECT_IND and pdu.target_address not in self._own_addresses():
            return
        if self.le_connections.get(address):
            return
        target = self.link.find_le_controller(address)
        if target is None or (hasattr(target, 'accepts_connection') and not target.accepts_connection(address)):
            return
        self._establish(pending, address)

    def _establish(self, pending, peer_address: hci.Address) -> None:
        self_address = self.public_address if pending.own_address_type in (0, 2) else self.random_address
        if isinstance(pending, hci.HCI_LE_Extended_Create_Connection_Command):
            interval = pending.connection_interval_mins[0]
            latency = pending.max_latencies[0]
            timeout = pending.supervision_timeouts[0]
        else:
            interval = pending.connection_interval_min
            latency = pending.max_latency
            timeout = pending.supervision_timeout
        handle = self.allocate_connection_handle()
        self.le_connections[peer_address] = bumble_controller.Connection(
            controller=self,
            handle=handle,
            role=hci.Role.CENTRAL,
            self_address=self_address,
            peer_address=peer_address,
            link=self.link,
            transport=PhysicalTransport.LE,
            link_type=hci.HCI_Connection_Complete_Event.LinkType.ACL,
        )
        self.pending_le_connection = None
        self.send_advertising_pdu(ll.ConnectInd(initiator_address=self_address, advertiser_address=peer_address,
                                                interval=interval, latency=latency, timeout=timeout))
        self._log('connected', handle=handle, peer=str(peer_address), own=str(self_address))
        self._connection_complete(SUCCESS, handle, peer_address, interval, latency, timeout)

    def on_le_connect_ind(self, packet: ll.ConnectInd) -> None:
        if not self.accepts_connection(packet.advertiser_address):
            return
        super().on_le_connect_ind(packet)

    # -- data from a peer to the host ---------------------------------------------------------
    def on_link_acl_data(self, sender_address: hci.Address, transport: PhysicalTransport, data: bytes) -> None:
        if transport != PhysicalTransport.LE:
            super().on_link_acl_data(sender_address, transport, data)
            return
        connection = self.le_connections.get(sender_address)
        if connection is None:
            return  # the link is gone (e.g. reset): data in flight is lost, as over the air
        self.counters['acl_out'] += 1
        size = self.acl_fragment if self.acl_fragment > 0 else len(data)
        for offset in range(0, max(len(data), 1), size):
            chunk = data[offset : offset + size]
            flags = 0x2 if offset == 0 else 0x1
            self.send_raw(bytes([0x02]) + struct.pack('<HH', connection.handle | (flags << 12), len(chunk)) + chunk)
