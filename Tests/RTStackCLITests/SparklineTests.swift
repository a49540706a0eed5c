import Glibc
import RunTracker
import Sensors
import Testing
import Wire
@testable import RTStackCLI

@Suite struct SparklineTests {
    @Test func aRisingMinuteRisesFromTheLowestToTheHighestBlock() {
        var s = Sparkline()
        for i in 0..<60 { s.add(60 + Double(i), at: Double(i)) }
        let line = s.render(at: 59)
        #expect(line.count == Sparkline.slots)
        #expect(line.first == "▁" && line.last == "█")
        #expect(Array(line) == Array(line).sorted { Sparkline.blocks.firstIndex(of: $0)! < Sparkline.blocks.firstIndex(of: $1)! })
    }

    @Test func slotsWithoutValuesAreBlankAndOldValuesLeave() {
        var s = Sparkline()
        s.add(10, at: 0)
        s.add(20, at: 10)
        var line = Array(s.render(at: 10))
        #expect(line.suffix(6) == ["▁", " ", " ", " ", " ", "█"], "\(line)")
        // A minute later the first value has left the window; one value alone is drawn mid-height.
        line = Array(s.render(at: 66))
        #expect(line.filter { $0 != " " } == ["▄"], "\(line)")
        #expect(s.render(at: 200).isEmpty, "nothing in the last minute")
    }

    @Test func aSteadyValueIsAFlatLine() {
        var s = Sparkline()
        for i in 0..<10 { s.add(21.5, at: Double(i)) }
        #expect(Set(s.render(at: 9).filter { $0 != " " }) == ["▄"])
        s.add(.nan, at: 9)
        #expect(Set(s.render(at: 9).filter { $0 != " " }) == ["▄"], "a NaN is no value")
    }

    @Test func blocksScaleBetweenTheMinutesLowestAndHighest() {
        var s = Sparkline()
        s.add(0, at: 0)
        s.add(50, at: 2)
        s.add(100, at: 4)
        s.add(25, at: 6)
        #expect(Array(s.render(at: 6)).suffix(4) == ["▁", "▅", "█", "▃"])
        // Negative values scale the same way.
        var n = Sparkline()
        n.add(-10, at: 0)
        n.add(-20, at: 2)
        #expect(Array(n.render(at: 2)).suffix(2) == ["█", "▁"])
    }

    @Test func aSlotShowsTheMeanOfItsValues() {
        var s = Sparkline()
        s.add(0, at: 0)
        s.add(100, at: 4)
        s.add(0, at: 2)
        s.add(100, at: 3)  // slot 1's mean is 50
        #expect(Array(s.render(at: 4)).suffix(3) == ["▁", "▅", "█"])
    }

    @Test func noValuesDrawNothing() {
        #expect(Sparkline().render(at: 0).isEmpty)
        #expect(Sparkline().render(at: 1e6).isEmpty)
    }

    @Test(arguments: [Double.nan, .infinity, -.infinity, -1, 1e300, -.greatestFiniteMagnitude])
    func aTimeNoSessionReachesIsIgnoredWithoutATrap(seconds: Double) {
        var s = Sparkline()
        s.add(5, at: 0)
        s.add(7, at: seconds)
        #expect(s.render(at: seconds).isEmpty)
        #expect(s.render(at: 0) == String(repeating: " ", count: Sparkline.slots - 1) + "▄")
    }

    @Test func valuesThatAreNoNumberAreLeftOutAndExtremesDoNotTrap() {
        var s = Sparkline()
        s.add(.infinity, at: 0)
        s.add(-.infinity, at: 0)
        s.add(.nan, at: 0)
        #expect(s.render(at: 0).isEmpty, "only non-numbers: nothing to draw")
        s.add(.greatestFiniteMagnitude, at: 0)
        s.add(-.greatestFiniteMagnitude, at: 2)
        s.add(0, at: 4)
        #expect(Array(s.render(at: 4)).suffix(3) == ["█", "▁", "▅"])
        // Two maxima in one slot overflow its sum to infinity: drawn mid-height, no trap.
        s.add(.greatestFiniteMagnitude, at: 6)
        s.add(.greatestFiniteMagnitude, at: 6)
        #expect(s.render(at: 6).count == Sparkline.slots)
    }

    /// The live view on a terminal (a pseudo-terminal here) draws each sensor's sparkline next
    /// to its values.
    @Test func theLiveViewDrawsTheTrend() throws {
        var master: Int32 = -1, slave: Int32 = -1
        try #require(openpty(&master, &slave, nil, nil, nil) == 0)
        defer { close(master); close(slave) }
        _ = fcntl(master, F_SETFL, fcntl(master, F_GETFL) | O_NONBLOCK)
        let out = OutputStream(fd: slave)
        let view = LiveView(roles: [.heart], out: out)
        for i in 0..<20 {
            view.apply(.measurement(.heart, .heartRate(HeartRateMeasurement(heartRate: UInt16(60 + i))),
                                    address: DeviceAddress(.zero, type: .randomDevice), at: 0), secondsSinceStart: Double(i) * 2)
        }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = read(master, &buffer, buffer.count)
            if n <= 0 { break }
            bytes += buffer[0..<n]
        }
        let text = String(decoding: bytes, as: UTF8.self)
        // The terminal turns each "\n" into "\r\n", one Character in Swift: split on both.
        let last = text.split(whereSeparator: \.isNewline).last { $0.contains("79 bpm") }.map { String($0.filter { $0 != "\r" }) } ?? ""
        #expect(last.contains("▁") && last.hasSuffix("█"), "the last frame's heart line: \(last)")
    }
}
