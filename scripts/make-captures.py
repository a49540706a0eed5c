#!/usr/bin/env python3
"""Capture shapes for scripts/bench-decode (prints nothing but errors).

    make-captures.py repeat SRC DST TARGET_PACKETS   SRC (btsnoop or pcapng) repeated until it
                                                    has about TARGET_PACKETS packets, timestamps
                                                    kept increasing
    make-captures.py flood DST PACKETS [unique]      a synthetic advertising flood, btsnoop 1002

The flood: a busy room seen by a scanning phone, with the layouts of Core Spec v5.4 Vol 4,
Part E, §7.7.65.2 (LE Advertising Report) and §7.7.65.13 (LE Extended Advertising Report) and
AD structures of Vol 3, Part C, §11. 400 advertisers (iBeacon-style manufacturer data,
Eddystone service data, named sensors with flags and 16-bit UUIDs, Microsoft and Apple
manufacturer data, anonymous non-connectable ones), each repeating its own payload with an
RSSI that wanders, three quarters legacy reports, a quarter extended ones; a seeded random
generator, so the file is the same on every run. With `unique` every report carries fresh
data and a fresh address (the worst case for a decoder that remembers repeated reports).
"""
import random
import struct
import sys

BTSNOOP_EPOCH = 0x00DCDDB30F2F8000


def btsnoop_record(ts_us, received, is_event, data):
    flags = (1 if received else 0) | (2 if is_event else 0)
    return struct.pack('>IIIIq', len(data), len(data), flags, 0, ts_us + BTSNOOP_EPOCH) + data


def repeat_btsnoop(src, dst, target):
    data = open(src, 'rb').read()
    header, body = data[:16], data[16:]
    recs, off = [], 0
    while off + 24 <= len(body):
        orig, incl, flags, drops, ts = struct.unpack('>IIIIq', body[off:off + 24])
        recs.append((orig, incl, flags, drops, ts, body[off + 24:off + 24 + incl]))
        off += 24 + incl
    n = max(1, round(target / len(recs)))
    span = recs[-1][4] - recs[0][4] + 1000
    with open(dst, 'wb') as f:
        f.write(header)
        for i in range(n):
            for (orig, incl, flags, drops, ts, payload) in recs:
                f.write(struct.pack('>IIIIq', orig, incl, flags, drops, ts + i * span))
                f.write(payload)


def repeat_pcapng(src, dst, target):
    """Keeps the blocks up to the first packet block (SHB, IDBs) and repeats the packet blocks
    (EPBs shifted in time; little-endian sections only, as the shared capture is)."""
    data = open(src, 'rb').read()
    blocks, off = [], 0
    while off + 12 <= len(data):
        btype, blen = struct.unpack('<II', data[off:off + 8])
        blocks.append((btype, data[off:off + blen]))
        off += blen
    head = [b for t, b in blocks if t in (0x0A0D0D0A, 1)]
    packets = [b for t, b in blocks if t == 6]

    def stamp(b):
        hi, lo = struct.unpack('<II', b[12:20])
        return hi << 32 | lo

    n = max(1, round(target / len(packets)))
    span = stamp(packets[-1]) - stamp(packets[0]) + 1000
    with open(dst, 'wb') as f:
        for b in head:
            f.write(b)
        for i in range(n):
            for b in packets:
                t = stamp(b) + i * span
                f.write(b[:12] + struct.pack('<II', t >> 32, t & 0xFFFFFFFF) + b[20:])


def ad(t, payload):
    return bytes([len(payload) + 1, t]) + payload


def advertiser_payload(rng, kind, number):
    if kind == 'ibeacon':
        uuid = bytes(rng.randrange(256) for _ in range(16))
        return ad(0x01, b'\x06') + ad(0xFF, b'\x4c\x00\x02\x15' + uuid + struct.pack('>HHb', number, rng.randrange(65536), -59))
    if kind == 'eddystone':
        return ad(0x01, b'\x06') + ad(0x03, b'\xaa\xfe') + ad(0x16, b'\xaa\xfe\x10\x00\x03' + f'example.com/{number}'.encode())
    if kind == 'sensor':
        name = f'Sensor {number}'.encode()
        return ad(0x01, b'\x06') + ad(0x03, struct.pack('<HH', 0x181A, 0x180F)) + ad(0x09, name) + ad(0x0A, b'\x04')
    if kind == 'microsoft':
        return ad(0xFF, b'\x06\x00\x01\x09\x20\x02' + bytes(rng.randrange(256) for _ in range(23)))
    if kind == 'apple':
        return ad(0xFF, b'\x4c\x00\x10\x05' + bytes(rng.randrange(256) for _ in range(5)))
    return ad(0xFF, bytes(rng.randrange(256) for _ in range(rng.randrange(4, 26))))


def legacy_report(event_type, address_type, address, data, rssi):
    params = bytes([0x02, 0x01, event_type, address_type]) + address + bytes([len(data)]) + data + struct.pack('b', rssi)
    return bytes([0x04, 0x3E, len(params)]) + params


def extended_report(event_type, address_type, address, data, rssi):
    params = (bytes([0x0D, 0x01]) + struct.pack('<H', event_type) + bytes([address_type]) + address
              + bytes([0x01, 0x00, 0xFF, 0x7F]) + struct.pack('b', rssi) + struct.pack('<H', 0)
              + bytes([0x00]) + bytes(6) + bytes([len(data)]) + data)
    return bytes([0x04, 0x3E, len(params)]) + params


def flood(dst, packets, unique):
    rng = random.Random(20241201)
    kinds = ['ibeacon', 'eddystone', 'sensor', 'microsoft', 'apple', 'other']
    devices = []
    for n in range(400):
        kind = kinds[n % len(kinds)]
        address = bytes(rng.randrange(256) for _ in range(5)) + bytes([0xC0 | rng.randrange(64)])
        devices.append({'kind': kind, 'address': address, 'data': advertiser_payload(rng, kind, n),
                        'rssi': rng.randrange(-95, -40), 'extended': n % 4 == 3,
                        'type': 0x00 if kind in ('sensor', 'eddystone') else 0x03})
    ts = 1_700_000_000_000_000
    with open(dst, 'wb') as f:
        f.write(b'btsnoop\0' + struct.pack('>II', 1, 1002))
        # LE Set Scan Enable and its Command Complete first, as a phone's capture starts.
        f.write(btsnoop_record(ts, False, True, bytes([0x01, 0x0C, 0x20, 0x02, 0x01, 0x00])))
        f.write(btsnoop_record(ts + 100, True, True, bytes([0x04, 0x0E, 0x04, 0x01, 0x0C, 0x20, 0x00])))
        for i in range(packets - 2):
            ts += rng.randrange(200, 3000)
            d = rng.choice(devices)
            d['rssi'] = max(-100, min(-30, d['rssi'] + rng.choice((-1, 0, 0, 0, 1))))
            address, data = d['address'], d['data']
            if unique:
                address = bytes(rng.randrange(256) for _ in range(6))
                data = advertiser_payload(rng, 'other', i)
            if d['extended']:
                packet = extended_report(0x0013 if d['type'] == 0 else 0x0010, d['type'] & 1, address, data, d['rssi'])
            else:
                packet = legacy_report(0x00 if d['type'] == 0 else 0x03, d['type'] & 1, address, data, d['rssi'])
            f.write(btsnoop_record(ts, True, True, packet))


if __name__ == '__main__':
    if len(sys.argv) >= 5 and sys.argv[1] == 'repeat':
        src, dst, target = sys.argv[2], sys.argv[3], int(sys.argv[4])
        (repeat_pcapng if open(src, 'rb').read(4) == b'\x0a\x0d\x0d\x0a' else repeat_btsnoop)(src, dst, target)
    elif len(sys.argv) >= 4 and sys.argv[1] == 'flood':
        flood(sys.argv[2], int(sys.argv[3]), len(sys.argv) > 4 and sys.argv[4] == 'unique')
    else:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
