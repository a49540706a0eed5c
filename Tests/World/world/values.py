"""The predictable value sequences the simulated sensors notify, and their encodings.

`seq` counts the notifications one characteristic of one peripheral has sent (0, 1, 2, ...;
it advances only when at least one subscriber got the value, and survives reconnections).
A test can recompute every value from the `seq` it sees (or from the first one it received).
"""

from __future__ import annotations

import struct


def heart_rate_measurement(seq: int, energy_expended: int) -> bytes:
    """Heart Rate Measurement 0x2A37, per Heart Rate Service v1.0.

    flags: bit0 value format (1 = uint16), bits 1-2 sensor contact (0b11 = supported, detected),
           bit3 energy expended present, bit4 RR intervals present.
    bpm = 60 + seq % 100, sent as uint16 when seq % 10 == 0, else uint8;
    energy expended (kJ, uint16) always present = seq minus the value at the last reset through
    the Heart Rate Control Point, saturating at 0xFFFF;
    one RR interval (1/1024 s) = seq % 1024 + 300, present when seq is odd.
    """
    bpm = 60 + seq % 100
    wide = seq % 10 == 0
    rr = seq % 2 == 1
    flags = 0x06 | 0x08 | (0x01 if wide else 0) | (0x10 if rr else 0)
    out = bytearray([flags])
    out += struct.pack('<H', bpm) if wide else bytes([bpm])
    out += struct.pack('<H', min(max(energy_expended, 0), 0xFFFF))
    if rr:
        out += struct.pack('<H', seq % 1024 + 300)
    return bytes(out)


def rsc_speed_raw(seq: int) -> int:
    """Instantaneous speed in 1/256 m/s: round((3.0 + (seq % 10) * 0.1) * 256), half up."""
    return (7680 + 256 * (seq % 10) + 5) // 10


def rsc_measurement(seq: int) -> bytes:
    """RSC Measurement 0x2A53, per Running Speed and Cadence Service v1.0.

    flags 0x07: stride length present, total distance present, running.
    speed (uint16, 1/256 m/s) = rsc_speed_raw(seq); cadence (uint8, 1/min) = 170 + seq % 10;
    stride length (uint16, 1/100 m) = 100 + seq % 50; total distance (uint32, 1/10 m) = seq * 10.
    """
    return struct.pack('<BHBHI', 0x07, rsc_speed_raw(seq), 170 + seq % 10, 100 + seq % 50,
                       (seq * 10) & 0xFFFFFFFF)


RSC_FEATURE = struct.pack('<H', 0x0007)  # stride length, total distance, walking/running status


def thingy_temperature(seq: int) -> bytes:
    """Thingy:52 temperature EF680201: int8 degrees + uint8 hundredths = 20.00 + (seq % 50) / 10."""
    hundredths = 2000 + (seq % 50) * 10
    return struct.pack('<bB', hundredths // 100, hundredths % 100)


def thingy_pressure(seq: int) -> bytes:
    """Thingy:52 pressure EF680202: int32 hPa + uint8 hundredths = 1000 + seq % 30 . (seq * 7) % 100."""
    return struct.pack('<iB', 1000 + seq % 30, (seq * 7) % 100)


def thingy_humidity(seq: int) -> bytes:
    """Thingy:52 humidity EF680203: uint8 percent = 40 + seq % 20."""
    return bytes([40 + seq % 20])
