"""H4 framing: one packet-type byte followed by an HCI packet.

Used on both ends of the TCP link: by the world's H4 server (host -> controller) and by the
self-test's raw HCI client (controller -> host).  Packets are handed out *with* their type
byte, which is also the byte layout Bumble's Controller.on_packet() expects.
"""

from __future__ import annotations

COMMAND = 0x01
ACL = 0x02
SCO = 0x03
EVENT = 0x04
ISO = 0x05

# packet type -> (header length after the type byte, function(header) -> payload length)
_HEADERS = {
    COMMAND: (3, lambda h: h[2]),
    ACL: (4, lambda h: h[2] | (h[3] << 8)),
    SCO: (3, lambda h: h[2]),
    EVENT: (2, lambda h: h[1]),
    ISO: (4, lambda h: h[2] | ((h[3] & 0x3F) << 8)),
}


class H4Error(Exception):
    """The byte stream cannot be framed (unknown packet type): the stream is lost."""


class H4Parser:
    """Incremental H4 deframer.  feed() returns the complete packets found so far."""

    def __init__(self) -> None:
        self._buffer = bytearray()

    def feed(self, data: bytes) -> list[bytes]:
        self._buffer += data
        packets: list[bytes] = []
        buffer = self._buffer
        offset = 0
        while offset < len(buffer):
            packet_type = buffer[offset]
            header = _HEADERS.get(packet_type)
            if header is None:
                self._buffer = bytearray()
                raise H4Error(f'unknown H4 packet type 0x{packet_type:02X}')
            header_length, payload_length = header
            if len(buffer) - offset - 1 < header_length:
                break
            total = 1 + header_length + payload_length(
                buffer[offset + 1 : offset + 1 + header_length]
            )
            if len(buffer) - offset < total:
                break
            packets.append(bytes(buffer[offset : offset + total]))
            offset += total
        del buffer[:offset]
        return packets
