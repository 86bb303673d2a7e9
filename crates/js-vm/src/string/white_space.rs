//! The `WhiteSpace` and `LineTerminator` code points (§12.2, §12.3), which
//! trimming, StringToNumber, Date.parse and RegExp.escape all treat alike.

/// Whether `unit` is a `WhiteSpace` (TAB, VT, FF, SP, NBSP, ZWNBSP or a
/// space separator of category Zs) or a `LineTerminator` (LF, CR, LS, PS).
pub fn is_white_space_or_line_terminator(unit: u16) -> bool {
    matches!(unit, 0x09..=0x0D | 0x20 | 0xA0 | 0x1680 | 0x2000..=0x200A | 0x2028 | 0x2029 | 0x202F | 0x205F | 0x3000 | 0xFEFF)
}
