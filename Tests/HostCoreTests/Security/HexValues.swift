import SecurityCrypto
import Wire

/// Byte strings and 128-bit values written as in the specification's sample data.
func hx(_ s: String) -> [UInt8] { Hex.parse(s) ?? [] }
func v128(_ s: String) -> UInt128 { NettleCryptography.value(hx(s)) }
