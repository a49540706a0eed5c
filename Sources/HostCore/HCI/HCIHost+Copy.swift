extension HCIHost {
    /// A copy of this host made before its first link: it goes on from here exactly as this
    /// host would, fed the same inputs, and independently of it (nothing of one changes the
    /// other). Nil once `connect` has made a link — a link's record, connection, GATT client
    /// and procedures are classes that a copy would share — or while the link table holds a
    /// request or an ATT PDU.
    ///
    /// Why: the host fuzz harness brings a host up once per controller and security setting
    /// and starts every input from a copy of it, instead of replaying the eleven commands of
    /// bring-up into a new host per input, which was most of an execution (Docs/fuzzing.md).
    /// The crypto of the security settings is copied as the value it is; a crypto that is a
    /// class would be shared, as it is by every link of one host.
    public func copyBeforeLinks() -> HCIHost? {
        guard let table = LinkTable(copyingWithoutLinks: linkTable) else { return nil }
        return HCIHost(copying: self, linkTable: table)
    }
}
