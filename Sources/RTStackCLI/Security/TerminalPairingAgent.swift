#if canImport(Glibc)
import Glibc
#endif
import HostCore
import Runtime
import Wire

/// rtstack's own pairing agent for the command line: the answers given as options, else a
/// question on the terminal (stderr, answered on stdin), else a refusal — a headless board
/// with no answer fails the pairing at once, naming why, instead of waiting 30 s.
struct TerminalPairingAgent: PairingAgent {
    let passkey: UInt32?
    let confirmsNumbers: Bool
    let interactive: Bool
    let err: OutputStream
    /// Where answers are typed: stdin (a pipe in tests).
    var input: Int32 = 0

    func passkey(for peer: DeviceAddress) async -> UInt32? {
        if let passkey { return passkey }
        guard interactive else {
            say("\(peer) asks for a passkey and no terminal is attached: give it with --passkey N")
            return nil
        }
        let line = await ask("enter the passkey \(peer) shows (6 digits): ")
        guard let text = line?.trimmingCharacters(), let n = UInt32(text), n <= 999_999 else {
            say("no passkey entered; pairing with \(peer) refused")
            return nil
        }
        return n
    }

    func display(passkey: UInt32, for peer: DeviceAddress) async {
        say("pairing with \(peer): type \(PairingPrompt.sixDigits(passkey)) on it")
    }

    func confirm(number: UInt32, for peer: DeviceAddress) async -> Bool {
        let shown = PairingPrompt.sixDigits(number)
        if confirmsNumbers {
            say("pairing with \(peer): numeric comparison \(shown) accepted (--confirm-numbers)")
            return true
        }
        guard interactive else {
            say("\(peer) asks to compare \(shown) and no terminal is attached: give --confirm-numbers to accept")
            return false
        }
        let line = await ask("does \(peer) show \(shown)? [y/N] ")
        return line?.trimmingCharacters().lowercased().hasPrefix("y") == true
    }

    private func say(_ s: String) {
        err.line("rtstack: " + s)
        err.flush()
    }

    /// The user's answer on `input`; nil once the prompt's task is cancelled (the link went
    /// down, the command ended), and the question is then no longer read.
    private func ask(_ question: String) async -> String? {
        err.write(question)
        err.flush()
        return await TerminalLine.read(from: input)
    }
}

extension String {
    fileprivate func trimmingCharacters() -> String {
        String(drop { $0 == " " || $0 == "\t" || $0 == "\r" }.reversed().drop { $0 == " " || $0 == "\t" || $0 == "\r" }.reversed())
    }
}
