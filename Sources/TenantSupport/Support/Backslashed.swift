/// Backslash escaping for the double-quoted tokens of the formats tenantctl writes: JSON, Swift literals,
/// `.strings` files and git fast-import paths. They agree on `\"`, `\\`, `\n` and `\t`; they differ only in how
/// any other control character is written, which each format passes as `control`.
public enum Backslashed {
    /// `text` between double quotes: `"` and `\` escaped, newline and tab as `\n` and `\t`, and every other scalar
    /// for which `control` returns a spelling written that way (a carriage return too, so a format decides
    /// whether it is `\r`). Everything else is copied as is.
    public static func quoted(_ text: String, control: (Unicode.Scalar) -> String?) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            default:
                if let spelled = control(scalar) {
                    out += spelled
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }

    /// `\r` for a carriage return, else `spelling` for a Unicode control character (general category Cc), else
    /// nil: the rule of Swift literals and `.strings` files.
    package static func unicodeControl(_ scalar: Unicode.Scalar, spelling: (UInt32) -> String) -> String? {
        if scalar == "\r" { return "\\r" }
        return scalar.properties.generalCategory == .control ? spelling(scalar.value) : nil
    }
}
