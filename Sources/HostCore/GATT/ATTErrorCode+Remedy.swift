import Wire

extension ATTErrorCode {
    /// What the user can do about a peer's ATT Error Response with this code to `request`. The
    /// code says why the server refused (Core Spec v5.4 Vol 3, Part F, §3.4.1.1); it does not
    /// say what to try instead, which is written here once for every command, the session and
    /// the gateway. Every code has one, reserved and profile-defined ones included: a server
    /// may send any octet.
    public func remedy(for request: ATTOpcode) -> String {
        let writing = request == .writeRequest || request == .prepareWriteRequest || request == .executeWriteRequest
            || request == .writeCommand || request == .signedWriteCommand
        switch rawValue {
        case 0x01:
            return "the handle is not in the peer's database: it was mistyped, or the database changed since it was "
                + "learnt; name the characteristic by UUID, or see the handles with rtstack gatt ADDRESS"
        case 0x02:
            return "the peer does not let this attribute be read (rtstack gatt ADDRESS shows its properties); a value "
                + "that is only notified arrives with rtstack subscribe ADDRESS UUID"
        case 0x03:
            return "the peer does not let this attribute be written (rtstack gatt ADDRESS shows its properties); one that "
                + "takes only Write Without Response is written with --no-response"
        case 0x04:
            return "the peer could not parse the request (a defect in the peer or in rtstack): record it with "
                + "--capture FILE and report it with the capture"
        case 0x05:
            return "the peer needs an authenticated (MITM-protected) bond: pair with a passkey or numeric comparison "
                + "(rtstack pair ADDRESS, with --passkey when the peer shows one)"
        case 0x06:
            return "the peer does not implement this request: use the plain form (a single read, or a write that fits one "
                + "Write Request)"
        case 0x07:
            return writing
                ? "the peer refused the offset of a long write: write a value that fits one Write Request (ATT_MTU − 3 octets)"
                : "the value is shorter than the offset asked for (it changed while it was read in parts): read it again"
        case 0x08:
            return "the peer's own application must authorize this access (confirm on the peer, or allow rtstack there); "
                + "pairing does not change it"
        case 0x09:
            return "the peer's queue for long and reliable writes is full: write fewer or shorter values at once"
        case 0x0A:
            return "the peer has no attribute there: check the UUID or handle against rtstack gatt ADDRESS"
        case 0x0B:
            return writing
                ? "this attribute cannot be written in parts: write a value that fits one Write Request (ATT_MTU − 3 octets)"
                : "this attribute cannot be read in parts: its value is what one Read Response holds"
        case 0x0C:
            return "the peer wants a longer encryption key than the link has: pair again (rtstack pair ADDRESS)"
        case 0x0D:
            return "the value has a length this characteristic does not take: write as many octets as its specification "
                + "(or the peer's documentation) says; reading it shows the length of the value it holds now"
        case 0x0E:
            return "the peer failed for a reason of its own: try again; if it keeps failing, the peer's log says why"
        case 0x0F:
            return "the peer needs an encrypted link for this and pairing did not give one; rtstack pair ADDRESS pairs "
                + "on its own and names what failed"
        case 0x10:
            return "the peer does not group attributes by that type (a defect in the peer's service discovery): record it "
                + "with --capture FILE and report it"
        case 0x11:
            return "the peer is out of memory or queue space: try again later, with fewer links or subscriptions to it"
        case 0x12:
            return "the peer's database changed under rtstack: run the command again (it discovers the database anew)"
        case 0x13:
            return "the peer refused this value: write one the characteristic's specification allows"
        case 0x80...0x9F:
            return "an error of the service's own specification (the request reached the peer's application, which "
                + "refused it): its meaning is in that service's specification or the peer's documentation"
        case 0xFC:
            return "the peer refuses this write in its present state: see the service's specification for when it takes it"
        case 0xFD:
            return "the peer wants notifications or indications on first: subscribe (rtstack subscribe ADDRESS UUID) "
                + "and make the request while subscribed"
        case 0xFE:
            return "the peer is still busy with an earlier request of this kind: wait for it to end, then try again"
        case 0xFF:
            return "the value is outside the range the characteristic allows: write one within its range (its specification)"
        case 0xE0...0xFB:
            return "a common profile error code no specification defines yet: the peer's documentation says what it means"
        default:
            return "an error code the Core Specification does not define: the peer's documentation says what it means"
        }
    }
}
