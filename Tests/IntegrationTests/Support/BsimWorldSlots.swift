import Foundation
import Synchronization

/// How many Zephyr worlds the test process runs at once. A world is several processes (the
/// radio, the controller's H4 bridge, one per peripheral) held to real time only from above: on
/// CI's two cores, with every world suite starting together, fifteen worlds ran at once and each
/// got so little of a core that its simulated seconds fell far behind the real ones the tests
/// and rtstack's own timers count (a passkey shown at 7 s of world time reached rtstack after
/// its 30 s SMP timeout; a first advertisement took longer than a 20 s scan). The others wait
/// for a slot; a world's slot is given back when it stops.
enum BsimWorldSlots {
    static let limit = 4
    private static let inUse = Mutex(0)

    /// Waits for a slot (polling: a test cancelled meanwhile still gets one, and gives it back
    /// at its world's stop). After `patience` s of waiting it goes ahead anyway: a slot a
    /// crashed test never gave back must not hang the rest of the suite.
    static func acquire(patience: Double = 900) async {
        let started = Date()
        while true {
            let taken = inUse.withLock { n -> Bool in
                guard n < limit else { return false }
                n += 1
                return true
            }
            if taken { return }
            if Date().timeIntervalSince(started) > patience {
                inUse.withLock { $0 += 1 }
                return
            }
            try? await Task.sleep(for: .milliseconds(200))
        }
    }

    static func release() {
        inUse.withLock { $0 = max(0, $0 - 1) }
    }
}
