/// The kernel keeps the link layer: no management command changes a connected link's
/// parameters (Load Connection Parameters is for the next connection), so the kernel's backend
/// refuses rather than pretend.
extension KernelHost {
    public func updateConnection(_ link: LinkID, to parameters: ConnectionParameters, at now: HostTime) throws(ConnectionUpdateRefusal) {
        throw .unsupported("the kernel's backend (--backend kernel) keeps the link layer and has no request for it; use an HCI backend")
    }
}
