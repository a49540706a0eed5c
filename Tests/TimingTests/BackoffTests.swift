import Testing
import Timing

@Suite struct BackoffTests {
    static let ms: UInt64 = 1_000_000

    @Test func theWaitDoublesUpToTheMaximumAndStartsAgainAfterAReset() {
        var b = Backoff(initial: 500 * Self.ms, maximum: 8_000 * Self.ms)
        #expect((0..<7).map { _ in b.nextDelay() } == [500, 1_000, 2_000, 4_000, 8_000, 8_000, 8_000].map { $0 * Self.ms })
        #expect(b.consecutiveFailures == 7)
        b.reset()
        #expect(b.nextDelay() == 500 * Self.ms)
    }

    @Test func jitterStaysWithinItsFractionOfEachWait() {
        var b = Backoff(initial: 500 * Self.ms, maximum: 8_000 * Self.ms, jitter: 0.2, seed: 1)
        var differs = false
        for base in [500, 1_000, 2_000, 4_000, 8_000, 8_000, 8_000].map({ Double($0 * Self.ms) }) {
            let d = Double(b.nextDelay())
            #expect(d >= base * 0.8 && d <= base * 1.2, "\(d) vs \(base)")
            if d != base { differs = true }
        }
        #expect(differs)
    }

    @Test func theSameSeedGivesTheSameWaitsAndAnotherSeedOthers() {
        func waits(_ seed: UInt64) -> [UInt64] {
            var b = Backoff(initial: 500 * Self.ms, maximum: 30_000 * Self.ms, jitter: 0.2, seed: seed)
            return (0..<5).map { _ in b.nextDelay() }
        }
        #expect(waits(7) == waits(7))
        #expect(waits(7) != waits(8))
    }

    @Test func aCallerThatCountsAttemptsItselfGetsTheSameWaits() {
        var counting = Backoff(initial: 250 * Self.ms, maximum: 10_000 * Self.ms, jitter: 0.3)
        let pure = counting
        #expect((0..<8).map { _ in counting.nextDelay() } == (0..<8).map(pure.delay(afterAttempt:)))
    }

    @Test func hugeAttemptCountsAndMultipliersStayAtTheMaximumWithoutOverflow() {
        let b = Backoff(initial: 1 << 62, maximum: UInt64.max, multiplier: 1_000)
        #expect(b.delay(afterAttempt: 1_000_000) == UInt64.max)
        let flat = Backoff(initial: 3 * Self.ms, maximum: 10 * Self.ms, multiplier: 1)
        #expect(flat.delay(afterAttempt: Int.max) == 3 * Self.ms)
    }

    @Test func aLimitOfAttemptsEndsTheRetries() {
        var b = Backoff.init(initial: Self.ms, maximum: Self.ms)
        #expect(b.allowsAttempt(after: 1_000))
        b.maximumAttempts = 3
        #expect(b.allowsAttempt(after: 2) && !b.allowsAttempt(after: 3))
    }
}
