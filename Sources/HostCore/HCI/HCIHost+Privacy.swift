import Wire

extension HCIHost {
    /// Answers of the resolving-list commands: a failure turns controller resolution off for
    /// this controller (the host resolves in software instead).
    func privacyAnswered(_ answer: CommandAnswer, at now: HostTime) {
        guard !answer.status.isSuccess else { return }
        warn("\(answer.command.opcode.name) failed: \(answer.status); resolving private addresses in software")
    }
}
