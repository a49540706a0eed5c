/// A failure a command finds itself (a characteristic the peer lacks, one that cannot notify,
/// a value too long for the request asked for): what was wrong and what to do, said by the
/// command that knows both, printed like every other failure (`FailureReport`).
struct CommandFailure: Error {
    var cause: String
    var remedy: String
    var code: ExitCode = .failure
}
