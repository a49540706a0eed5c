/// Connections by Connection_Handle, for the data path: a board keeps a handful of links,
/// and a linear scan of a few handles beats hashing (which showed up as the largest single
/// cost of an inbound notification after the exclusivity checks). Same subscript as the
/// dictionary it replaces.
struct HandleTable {
    private var handles: [UInt16] = []
    private var connections: [Connection] = []

    init() {}

    subscript(handle: UInt16) -> Connection? {
        get {
            var i = 0
            while i < handles.count {
                if handles[i] == handle { return connections[i] }
                i += 1
            }
            return nil
        }
        set {
            if let i = handles.firstIndex(of: handle) {
                if let link = newValue {
                    connections[i] = link
                } else {
                    handles.remove(at: i)
                    connections.remove(at: i)
                }
            } else if let link = newValue {
                handles.append(handle)
                connections.append(link)
            }
        }
    }

    var count: Int { handles.count }
    var isEmpty: Bool { handles.isEmpty }

    mutating func removeAll() {
        handles.removeAll()
        connections.removeAll()
    }
}
