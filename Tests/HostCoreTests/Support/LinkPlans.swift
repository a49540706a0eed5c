import Timing
@testable import HostCore

extension LinkPlan {
    /// A plan that asks nothing of GATT: no Exchange MTU, no discovery, no subscriptions. The
    /// link's GATT session has nothing to do and reports `.ready` as soon as the link is up, with
    /// no ATT request on the air and no ATT deadline. Tests about the controller side (initiator,
    /// scanner, ACL scheduler, reconnection) use it so that their packet counts and state
    /// sequences hold only what the controller side does.
    static var noGATT: LinkPlan {
        var plan = LinkPlan()
        plan.mtu = nil
        plan.discover = false
        plan.subscriptions = []
        plan.cachedDatabase = nil
        return plan
    }

    /// `noGATT` with a reconnect policy.
    static func noGATT(reconnect policy: Backoff) -> LinkPlan {
        var plan = LinkPlan.noGATT
        plan.reconnect = policy
        return plan
    }
}
