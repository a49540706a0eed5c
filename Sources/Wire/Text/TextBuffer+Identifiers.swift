/// Identifiers written as `TextBuffer` text, in the forms their `String` properties give.
extension TextBuffer {
    /// `uuid.string`: `2A37`, `0000FEAA` or the 8-4-4-4-12 form. The JSON view names the
    /// characteristic of every notification it knows, and building the `String` cost more
    /// than the rest of the packet's line.
    public mutating func append(_ uuid: BluetoothUUID) {
        if let short = uuid.uuid16 {
            appendUpperHexDigits(UInt64(short), count: 4)
        } else if let medium = uuid.uuid32 {
            appendUpperHexDigits(UInt64(medium), count: 8)
        } else {
            appendUpperHexDigits(uuid.high >> 32, count: 8)
            append(byte: 0x2D)
            appendUpperHexDigits((uuid.high >> 16) & 0xFFFF, count: 4)
            append(byte: 0x2D)
            appendUpperHexDigits(uuid.high & 0xFFFF, count: 4)
            append(byte: 0x2D)
            appendUpperHexDigits(uuid.low >> 48, count: 4)
            append(byte: 0x2D)
            appendUpperHexDigits(uuid.low & 0xFFFF_FFFF_FFFF, count: 12)
        }
    }

    /// The low `n` digits of `v`, upper case, without `0x`.
    private mutating func appendUpperHexDigits(_ v: UInt64, count n: Int) {
        let to = reserve(n)
        var rest = v
        var i = n &- 1
        while i >= 0 {
            to[i] = TextBuffer.hexDigit(UInt8(truncatingIfNeeded: rest), upper: true)
            rest >>= 4
            i &-= 1
        }
        used += n
    }
}
