// Transports (H4 over TCP/serial, HCI sockets, replay) and the event loop.
import CBluetooth
