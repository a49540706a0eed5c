"""H4-over-TCP server in front of the host-side WorldController.

One client at a time (a second one is refused and closed at once).  When the client goes
away, for whatever reason, the controller is reset (links dropped, pending connect cancelled,
scanning stopped), so a crashed test leaves nothing behind, and the next client is accepted.
"""

from __future__ import annotations

import asyncio
import socket
import time
from typing import Any, Callable

from world.h4 import H4Error, H4Parser


class _Client(asyncio.Protocol):
    def __init__(self, server: 'H4Server') -> None:
        self.server = server
        self.parser = H4Parser()
        self.transport: asyncio.Transport | None = None
        self.peer = ''
        self.accepted = False

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        peer = transport.get_extra_info('peername')
        self.peer = f'{peer[0]}:{peer[1]}' if peer else '?'
        sock = transport.get_extra_info('socket')
        if sock is not None:
            try:
                sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            except OSError:
                pass
        if self.server.client is not None:
            self.server.events('hci_client_refused', peer=self.peer, reason='another client is connected')
            transport.close()
            return
        if time.monotonic() < self.server.refuse_until:
            self.server.events('hci_client_refused', peer=self.peer, reason='the adapter is lost (hci_drop)')
            transport.abort()
            return
        self.accepted = True
        self.server.client = self
        self.server.events('hci_client', connected=True, peer=self.peer)

    def data_received(self, data: bytes) -> None:
        if not self.accepted:
            return
        try:
            packets = self.parser.feed(data)
        except H4Error as error:
            self.server.events('fault', kind='h4_framing', error=str(error), peer=self.peer)
            packets = []
            if self.transport is not None:
                self.transport.close()
        for packet in packets:
            self.server.controller.on_packet(packet)

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.accepted:
            return
        self.accepted = False
        if self.server.client is self:
            self.server.client = None
            self.server.events('hci_client', connected=False, peer=self.peer)
            self.server.controller.world_reset('client_disconnected')

    def send(self, packet: bytes) -> None:
        if self.transport is not None and not self.transport.is_closing():
            self.transport.write(packet)


class H4Server:
    """Bridges one TCP client and a controller; the controller's host sink is this object."""

    def __init__(self, controller: Any, events: Callable[..., None]) -> None:
        self.controller = controller
        self.events = events
        self.client: _Client | None = None
        self.server: asyncio.base_events.Server | None = None
        self.port = 0
        self.dropped_while_no_client = 0
        # Until then new clients are turned away: an adapter that is gone (unplugged, its
        # firmware crashed) and comes back later.
        self.refuse_until = 0.0
        controller.host = self

    async def start(self, port: int) -> int:
        loop = asyncio.get_running_loop()
        self.server = await loop.create_server(lambda: _Client(self), '127.0.0.1', port, reuse_address=True)
        self.port = self.server.sockets[0].getsockname()[1]
        return self.port

    # Packet sink protocol used by the controller (bytes include the H4 type byte).
    def on_packet(self, packet: bytes) -> None:
        if self.client is not None:
            self.client.send(packet)
        else:
            self.dropped_while_no_client += 1

    def drop_client(self, refuse_seconds: float) -> bool:
        """Cuts the client's connection (the host sees the adapter vanish) and turns new
        clients away for `refuse_seconds`; the controller resets as after any client loss."""
        self.refuse_until = time.monotonic() + max(0.0, refuse_seconds)
        client = self.client
        if client is None or client.transport is None:
            return False
        client.transport.abort()
        return True

    def close(self) -> None:
        if self.client is not None and self.client.transport is not None:
            self.client.transport.abort()
        if self.server is not None:
            self.server.close()
