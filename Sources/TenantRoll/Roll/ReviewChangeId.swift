import Foundation

/// A Gerrit `Change-Id` (`I` and 40 hex digits) stable per repository, target and the target's tip the proposal
/// was made on: a new general change while the review is open updates it (a new patch set); once it landed, the
/// target moved and the next roll opens a new change.
enum ReviewChangeId {
    static func make(repository: String, target: String, base: String) -> String {
        let text = Array("tenantctl roll\n\(repository)\n\(target)\n\(base)".utf8)
        var digits = ""
        for seed in UInt64(0)..<3 {
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325 ^ (seed &* 0x9e37_79b9_7f4a_7c15)
            for byte in text {
                hash ^= UInt64(byte)
                hash = hash &* 0x100_0000_01b3
            }
            let hex = String(hash, radix: 16)
            digits += String(repeating: "0", count: 16 - hex.count) + hex
        }
        return "I" + digits.prefix(40)
    }
}
