import Testing
@testable import Sensors

/// The gateway's timestamps, written digit by digit into the string: the same text as the
/// calendar gives (values checked with Python's datetime), at the edges of what is written
/// directly and beyond them.
struct UnixTimeTests {
    @Test func secondsSince1970BecomeCalendarText() {
        #expect(UnixTime.iso8601(seconds: 0) == "1970-01-01T00:00:00Z")
        #expect(UnixTime.iso8601(seconds: 1_700_000_000) == "2023-11-14T22:13:20Z")
        #expect(UnixTime.iso8601(seconds: 951_782_400) == "2000-02-29T00:00:00Z", "a leap day of a century leap year")
        #expect(UnixTime.iso8601(seconds: -1) == "1969-12-31T23:59:59Z")
        #expect(UnixTime.iso8601(seconds: -62_135_596_800) == "0001-01-01T00:00:00Z", "a year below 1000 has four digits")
        #expect(UnixTime.iso8601(seconds: -62_167_219_200) == "0000-01-01T00:00:00Z")
        #expect(UnixTime.iso8601(seconds: 253_402_300_799) == "9999-12-31T23:59:59Z")
    }

    @Test func yearsBeyondFourDigitsPrintAsTheyCome() {
        #expect(UnixTime.iso8601(seconds: 253_402_300_800) == "10000-01-01T00:00:00Z")
        #expect(UnixTime.iso8601(seconds: -62_198_755_200) == "-1-01-01T00:00:00Z")
        #expect(UnixTime.iso8601(253_402_300_800.5) == "10000-01-01T00:00:00.500Z")
    }

    @Test func millisecondsAreRoundedDownAndPadded() {
        #expect(UnixTime.iso8601(1_700_000_000.25) == "2023-11-14T22:13:20.250Z")
        #expect(UnixTime.iso8601(1_600_000_000.0049) == "2020-09-13T12:26:40.004Z")
        #expect(UnixTime.iso8601(1_600_000_000.0625) == "2020-09-13T12:26:40.062Z")
        #expect(UnixTime.iso8601(-0.5) == "1969-12-31T23:59:59.500Z")
        #expect(UnixTime.iso8601(.nan) == "1970-01-01T00:00:00Z", "no clock: the epoch, as before")
    }
}
