import HostCore
import Wire

/// The agent's answers to pairing prompts, each asked in a task of its own (the agent may wait
/// for its user) and handed back to the host as a loop job. A link has one prompt at a time.
/// Its task is cancelled when the link goes down, when a newer prompt of the link replaces it,
/// and when the application ends, so that an agent waiting for its user stops (the terminal
/// agent stops reading stdin) and no answer reaches a host that has moved on.
///
/// Part of an application's loop-thread state (`CentralBridge`, the CLI's run session): used
/// on the loop thread only, like the rest of it.
public struct PairingPromptTasks {
    private var tasks: [LinkID: Task<Void, Never>] = [:]

    public init() {}

    /// Asks `agent` about `prompt` of `link` with `peer`; the answer, unless cancelled first,
    /// goes to the host through `loop`.
    public mutating func ask(_ agent: any PairingAgent, _ prompt: PairingPrompt, peer: DeviceAddress, link: LinkID,
                             loop: EventLoop<AdapterDriver>) {
        tasks.removeValue(forKey: link)?.cancel()
        tasks[link] = Task {
            guard let answer = await agent.answer(prompt, for: peer), !Task.isCancelled else { return }
            _ = loop.submit { driver in driver.run { driver.host.answerPairing(link, answer, at: driver.currentTime) } }
        }
    }

    /// The link went down: its prompt is moot.
    public mutating func cancel(_ link: LinkID) {
        tasks.removeValue(forKey: link)?.cancel()
    }

    /// The application ends (the loop stops, the adapter was lost).
    public mutating func cancelAll() {
        for t in tasks.values { t.cancel() }
        tasks = [:]
    }

}
