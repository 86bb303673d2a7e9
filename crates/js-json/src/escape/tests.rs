use proptest::prelude::*;

use super::{Isa, Kernels, NeedsWide, scalar};

/// The SIMD kernel sets this CPU runs.
fn simd_kernels() -> Vec<&'static Kernels> {
    Isa::ALL.into_iter().filter(|&isa| isa != Isa::Scalar).filter_map(Isa::kernels).collect()
}

fn run<T>(f: impl FnOnce(&mut Vec<T>)) -> Vec<T> {
    let mut out = Vec::new();
    f(&mut out);
    out
}

/// Asserts that every SIMD kernel agrees with the scalar one on `input`.
fn check_latin1(input: &[u8]) {
    let scalar = Isa::Scalar.kernels().unwrap();
    let narrow = run(|out| (scalar.latin1_to_latin1)(input, out));
    let wide = run(|out| (scalar.latin1_to_utf16)(input, out));
    let found = (scalar.find_latin1)(input);
    let skipped = (scalar.skip_whitespace_latin1)(input);
    let mut unescaped = Vec::new();
    let stop = (scalar.unescape_latin1)(input, &mut unescaped);
    for kernels in simd_kernels() {
        let mut out = Vec::new();
        let result = ((kernels.unescape_latin1)(input, &mut out), out);
        assert_eq!(result, (stop, unescaped.clone()), "{:?} unescape {input:?}", kernels.isa);
        assert_eq!((kernels.skip_whitespace_latin1)(input), skipped, "{:?} whitespace {input:?}", kernels.isa);
        assert_eq!(run(|out| (kernels.latin1_to_latin1)(input, out)), narrow, "{:?} latin1→8 {input:?}", kernels.isa);
        assert_eq!(run(|out| (kernels.latin1_to_utf16)(input, out)), wide, "{:?} latin1→16 {input:?}", kernels.isa);
        assert_eq!((kernels.find_latin1)(input), found, "{:?} find {input:?}", kernels.isa);
    }
}

/// Asserts that every SIMD kernel agrees with the scalar one on `input`.
fn check_utf16(input: &[u16]) {
    let scalar = Isa::Scalar.kernels().unwrap();
    let wide = run(|out| (scalar.utf16_to_utf16)(input, out));
    let mut narrow = Vec::new();
    let narrow_result = (scalar.utf16_to_latin1)(input, &mut narrow);
    let found = (scalar.find_utf16)(input);
    let skipped = (scalar.skip_whitespace_utf16)(input);
    let mut unescaped = Vec::new();
    let stop = (scalar.unescape_utf16)(input, &mut unescaped);
    for kernels in simd_kernels() {
        let mut out = Vec::new();
        let result = ((kernels.unescape_utf16)(input, &mut out), out);
        assert_eq!(result, (stop, unescaped.clone()), "{:?} unescape {input:x?}", kernels.isa);
        assert_eq!((kernels.skip_whitespace_utf16)(input), skipped, "{:?} whitespace {input:x?}", kernels.isa);
        assert_eq!(run(|out| (kernels.utf16_to_utf16)(input, out)), wide, "{:?} utf16→16 {input:x?}", kernels.isa);
        let mut out = Vec::new();
        let result = (kernels.utf16_to_latin1)(input, &mut out);
        assert_eq!((result, out), (narrow_result, narrow.clone()), "{:?} utf16→8 {input:x?}", kernels.isa);
        assert_eq!((kernels.find_utf16)(input), found, "{:?} find {input:x?}", kernels.isa);
    }
}

fn utf16(s: &str) -> Vec<u16> {
    s.encode_utf16().collect()
}

#[test]
fn scalar_escapes_follow_quote_json_string() {
    let out = run(|out| scalar::latin1_to::<u8>(b"a\"b\\c\x08\x0c\n\r\t\x00\x1f\x7f\xe9/", out));
    assert_eq!(out, b"a\\\"b\\\\c\\b\\f\\n\\r\\t\\u0000\\u001f\x7f\xe9/");
    let input = [0x61, 0xD83D, 0xDE00, 0xD800, 0x62, 0xDFFF, 0x2192, 0xDBFF];
    let out = run(|out| scalar::utf16_to_utf16(&input, out));
    assert_eq!(String::from_utf16(&out).unwrap(), "a\u{1F600}\\ud800b\\udfff\u{2192}\\udbff");
}

#[test]
fn utf16_to_latin1_stops_at_first_wide_character() {
    let input = utf16("ab\"c\u{e9}\u{2192}x");
    for kernels in Isa::ALL.into_iter().filter_map(Isa::kernels) {
        let mut out = Vec::new();
        assert_eq!((kernels.utf16_to_latin1)(&input, &mut out), Err(NeedsWide { consumed: 5 }));
        assert_eq!(out, b"ab\\\"c\xe9");
        // A lone surrogate escapes to ASCII, so it does not stop the kernel.
        let mut out = Vec::new();
        assert_eq!((kernels.utf16_to_latin1)(&[0x41, 0xDC00, 0x42], &mut out), Ok(()));
        assert_eq!(out, b"A\\udc00B");
    }
}

#[test]
fn public_functions_use_a_detected_kernel() {
    let kernels = super::active();
    #[cfg(target_arch = "x86_64")]
    assert_ne!(kernels.isa, Isa::Scalar);
    let mut out = Vec::new();
    super::escape_utf16(&utf16("\u{2192}\"\n"), &mut out);
    assert_eq!(String::from_utf16(&out).unwrap(), "\u{2192}\\\"\\n");
}

/// Every character that needs escaping, and characters either side of the
/// Latin-1 boundary.
const SPECIAL_LATIN1: [u8; 38] = {
    let mut all = [0u8; 38];
    let mut c = 0;
    while c < 0x20 {
        all[c] = c as u8;
        c += 1;
    }
    all[32] = b'"';
    all[33] = b'\\';
    all[34] = 0x7F;
    all[35] = 0x80;
    all[36] = 0xFF;
    all[37] = b' ';
    all
};

#[test]
fn every_escape_at_every_position_latin1() {
    for background in [b'a', 0xE9] {
        for len in [1, 16, 17, 31, 32, 33, 47, 64, 65, 100] {
            for pos in 0..len.min(65) {
                for &special in &SPECIAL_LATIN1 {
                    let mut input = vec![background; len];
                    input[pos] = special;
                    check_latin1(&input);
                    // A second escape right after, and at the end.
                    if pos + 1 < len {
                        input[pos + 1] = b'"';
                    }
                    input[len - 1] = b'\\';
                    check_latin1(&input);
                }
            }
        }
    }
}

#[test]
fn every_escape_at_every_position_utf16() {
    let specials: Vec<u16> = SPECIAL_LATIN1
        .iter()
        .map(|&b| u16::from(b))
        .chain([0x100, 0x2192, 0x4E2D, 0xD7FF, 0xD800, 0xDBFF, 0xDC00, 0xDFFF, 0xE000, 0xFFFF])
        .collect();
    for background in [u16::from(b'a'), 0xE9, 0x4E2D] {
        for len in [1, 16, 17, 31, 32, 33, 64, 65, 100] {
            for pos in 0..len.min(65) {
                for &special in &specials {
                    let mut input = vec![background; len];
                    input[pos] = special;
                    check_utf16(&input);
                    if pos + 1 < len {
                        input[pos + 1] = u16::from(b'\n');
                    }
                    check_utf16(&input);
                }
            }
        }
    }
}

#[test]
fn scalar_unescape_decodes_two_character_escapes_only() {
    let input = br#"a\"b\\c\/\b\f\n\r\tz\u0041"#;
    let mut out = Vec::new();
    let stop = scalar::unescape(input, &mut out);
    assert_eq!((stop, out.as_slice()), (input.len() - 6, b"a\"b\\c/\x08\x0c\n\r\tz".as_slice()));
    for (input, stop) in [(&br#"ab"c"#[..], 2), (br"ab\x", 2), (br"ab\", 2), (b"a\x01", 1), (b"abc", 3)] {
        assert_eq!(scalar::unescape(input, &mut Vec::new()), stop, "{input:?}");
    }
}

#[test]
fn escapes_to_decode_at_every_position() {
    let pairs: [[u8; 2]; 8] = [*br"\n", *br#"\""#, *br"\u", *br"\x", *br"\\", *br"\/", [b'"', b'a'], [0x1F, b'a']];
    for background in [b'a', 0xE9] {
        for len in [2, 16, 17, 31, 32, 33, 63, 64, 65, 100, 130] {
            for pos in 0..len - 1 {
                for pair in pairs {
                    let mut input = vec![background; len];
                    input[pos..pos + 2].copy_from_slice(&pair);
                    check_latin1(&input);
                    check_latin1(&input[..=pos]);
                    let mut wide: Vec<u16> = input.iter().map(|&b| u16::from(b)).collect();
                    check_utf16(&wide);
                    wide[len - 1] = 0x2192;
                    check_utf16(&wide);
                }
            }
        }
    }
}

#[test]
fn whitespace_runs_end_at_every_position() {
    for len in 0..=100 {
        for end in 0..=len {
            for stop in [b'x', b'"', 0x0B, 0x0C, 0xA0, 0x00] {
                let mut latin1: Vec<u8> = (0..len).map(|i| b" \t\n\r"[i % 4]).collect();
                if end < len {
                    latin1[end] = stop;
                }
                check_latin1(&latin1);
                let mut utf16: Vec<u16> = latin1.iter().map(|&b| u16::from(b)).collect();
                check_utf16(&utf16);
                if end < len {
                    utf16[end] = 0x3000;
                    check_utf16(&utf16);
                }
            }
        }
    }
}

#[test]
fn surrogates_at_every_position_and_block_edge() {
    for background in [u16::from(b'x'), 0xE9, 0x3042] {
        for len in 1..=70 {
            for pos in 0..len {
                for pattern in [
                    &[0xD83D, 0xDE00][..],
                    &[0xD83D][..],
                    &[0xDE00][..],
                    &[0xDE00, 0xD83D][..],
                    &[0xD83D, 0xD83D, 0xDE00][..],
                ] {
                    let mut input = vec![background; len];
                    for (i, &unit) in pattern.iter().enumerate() {
                        if let Some(slot) = input.get_mut(pos + i) {
                            *slot = unit;
                        }
                    }
                    check_utf16(&input);
                }
            }
        }
    }
}

/// The 16-bit kernels escape the first marked unit of a block directly
/// when it is Latin-1, and compute the block's surrogate masks only when it
/// is not: an escape before, after or between surrogates (paired or lone)
/// at every pair of positions across two blocks.
#[test]
fn escapes_and_surrogates_at_every_pair_of_positions() {
    for background in [u16::from(b'x'), 0x3042] {
        for len in [63, 64, 65, 96, 129] {
            for first in 0..len {
                for second in (first + 1..len).step_by(3) {
                    for pattern in [&[0xD83D, 0xDE00][..], &[0xD83D][..], &[0xDE00][..]] {
                        for escape in [u16::from(b'"'), 0x01, u16::from(b'\\')] {
                            let mut input = vec![background; len];
                            input[first] = escape;
                            for (i, &unit) in pattern.iter().enumerate() {
                                if let Some(slot) = input.get_mut(second + i) {
                                    *slot = unit;
                                }
                            }
                            check_utf16(&input);
                            input.swap(first, second);
                            check_utf16(&input);
                        }
                    }
                }
            }
        }
    }
}

#[test]
fn widened_escape_table_matches_the_byte_table() {
    for byte in 0..=255u8 {
        let (sequence, len) = scalar::escaped(byte);
        let wide = scalar::ESCAPED_WIDE[usize::from(byte)];
        assert_eq!(wide[..6], sequence.map(u16::from), "{byte:#x}");
        assert_eq!(wide[7], u16::from(len), "{byte:#x}");
        if scalar::needs_escape(byte) {
            let mut narrow: Vec<u8> = Vec::with_capacity(8);
            let mut units: Vec<u16> = Vec::with_capacity(8);
            // SAFETY: both vectors have 8 spare units.
            unsafe {
                scalar::write_escape(byte, &mut narrow);
                scalar::write_escape(byte, &mut units);
            }
            assert_eq!(units, narrow.iter().map(|&b| u16::from(b)).collect::<Vec<_>>(), "{byte:#x}");
            let mut pushed: Vec<u8> = Vec::new();
            scalar::push_escape(byte, &mut pushed);
            assert_eq!(narrow, pushed, "{byte:#x}");
        }
    }
}

/// Characters drawn as engines meet them: mostly source-code-like ASCII,
/// with every escape, Latin-1, CJK, arrows and surrogates mixed in.
fn biased_unit() -> impl Strategy<Value = u16> {
    prop_oneof![
        40 => prop::sample::select(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 (){}[];.,=+-*/<>_:'".to_vec())
            .prop_map(u16::from),
        6 => prop::sample::select(b"\"\\\n\t\r\x08\x0c\x00\x01\x1f".to_vec()).prop_map(u16::from),
        4 => 0x80u16..=0xFF,
        6 => 0x4E00u16..=0x9FFF,
        2 => Just(0x2192u16),
        3 => 0xD800u16..=0xDBFF,
        3 => 0xDC00u16..=0xDFFF,
        2 => any::<u16>(),
    ]
}

/// Well-formed pairs are more likely than lone surrogates: emoji runs.
fn biased_utf16() -> impl Strategy<Value = Vec<u16>> {
    prop_oneof![
        3 => prop::collection::vec(biased_unit(), 0..140),
        1 => (prop::collection::vec(biased_unit(), 0..100), prop::collection::vec(0usize..100, 0..6)).prop_map(
            |(mut units, spots)| {
                for spot in spots {
                    if spot + 1 < units.len() {
                        units[spot] = 0xD83D;
                        units[spot + 1] = 0xDE80;
                    }
                }
                units
            }
        ),
    ]
}

fn biased_latin1() -> impl Strategy<Value = Vec<u8>> {
    prop::collection::vec(
        prop_oneof![
            40 => 0x20u8..0x7F,
            6 => prop::sample::select(b"\"\\\n\t\r\x08\x0c\x00\x01\x1f".to_vec()),
            4 => 0x7Fu8..=0xFF,
            1 => any::<u8>(),
        ],
        0..140,
    )
}

/// A small deterministic generator (xorshift64*) for the bulk differential
/// runs: proptest's strategies are too slow for 200,000 cases in a debug
/// build, and proptest (below) still shrinks failures on fewer cases.
struct Draw(u64);

impl Draw {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    fn latin1(&mut self) -> u8 {
        const ESCAPES: &[u8] = b"\"\\\n\t\r\x08\x0c\x00\x01\x1f";
        match self.below(51) {
            0..40 => 0x20 + self.below(0x5F) as u8,
            40..46 => ESCAPES[self.below(ESCAPES.len() as u64) as usize],
            46..50 => 0x7F + self.below(0x81) as u8,
            _ => self.next() as u8,
        }
    }

    fn utf16(&mut self) -> u16 {
        match self.below(66) {
            0..46 => u16::from(self.latin1()),
            46..52 => 0x4E00 + self.below(0x5200) as u16,
            52..54 => 0x2192,
            54..57 => 0xD800 + self.below(0x400) as u16,
            57..60 => 0xDC00 + self.below(0x400) as u16,
            60..64 => {
                // Stands for a pair; the caller splits it.
                0xFFFF
            }
            _ => self.next() as u16,
        }
    }

    fn utf16_string(&mut self) -> Vec<u16> {
        let len = self.below(140) as usize;
        let mut units = Vec::with_capacity(len + 1);
        while units.len() < len {
            match self.utf16() {
                0xFFFF => units.extend([0xD83D, 0xDE00 + self.below(0x50) as u16]),
                unit => units.push(unit),
            }
        }
        units
    }
}

const BULK_CASES: usize = 200_000;

#[test]
fn simd_matches_scalar_on_200k_latin1_strings() {
    let mut draw = Draw(0x9E37_79B9_7F4A_7C15);
    for _ in 0..BULK_CASES {
        let len = draw.below(140) as usize;
        let input: Vec<u8> = (0..len).map(|_| draw.latin1()).collect();
        check_latin1(&input);
    }
}

#[test]
fn simd_matches_scalar_on_200k_utf16_strings() {
    let mut draw = Draw(0xD1B5_4A32_D192_ED03);
    for _ in 0..BULK_CASES {
        check_utf16(&draw.utf16_string());
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 5_000, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn simd_matches_scalar_latin1(input in biased_latin1()) {
        check_latin1(&input);
    }

    #[test]
    fn simd_matches_scalar_utf16(input in biased_utf16()) {
        check_utf16(&input);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 5_000, failure_persistence: None, ..ProptestConfig::default() })]

    /// Where QuoteJSONString and serde_json's escaping coincide (well-formed
    /// strings), both must produce the same characters.
    #[test]
    fn agrees_with_serde_json(text in "(?s).{0,80}") {
        let expected = serde_json::to_string(&text).unwrap();
        let expected = &expected[1..expected.len() - 1];
        let mut out = Vec::new();
        super::escape_utf16(&utf16(&text), &mut out);
        prop_assert_eq!(String::from_utf16(&out).unwrap(), expected);
        let latin1: Vec<u8> = text.chars().filter_map(|c| u8::try_from(u32::from(c)).ok()).collect();
        let latin1_text: String = latin1.iter().map(|&b| char::from(b)).collect();
        let expected = serde_json::to_string(&latin1_text).unwrap();
        let mut out = Vec::new();
        super::escape_latin1(&latin1, &mut out);
        prop_assert_eq!(out.iter().map(|&b| char::from(b)).collect::<String>(), &expected[1..expected.len() - 1]);
    }
}

#[test]
fn table_escape_decoding_agrees_with_the_match() {
    for letter in 0..=u16::MAX {
        assert_eq!(scalar::simple_escape_fast(letter), scalar::simple_escape(letter), "{letter:#x}");
    }
}

/// Every unescape kernel against the scalar one on `input`, appending to
/// an output that already holds `prefix` units (so blocks are stored at
/// every output alignment).
fn check_unescape_utf16(input: &[u16], prefix: usize) {
    let scalar = Isa::Scalar.kernels().unwrap();
    let mut expected = vec![0x41; prefix];
    let run = (scalar.unescape_utf16)(input, &mut expected);
    for kernels in simd_kernels() {
        let mut out = vec![0x41; prefix];
        let got = (kernels.unescape_utf16)(input, &mut out);
        assert_eq!((got, &out), (run, &expected), "{:?} unescape after {prefix} {input:x?}", kernels.isa);
    }
}

/// String contents as they come in JSON text: prose with the escapes that
/// a block can decode in one step (`\n`, `\"`, `\/`, …), the ones it
/// cannot (`\\`, `\u`, invalid), Latin-1 and wide characters, and then the
/// closing quote and more JSON.
fn json_string_contents(draw: &mut Draw, len: usize) -> Vec<u16> {
    const PIECES: [&str; 14] =
        [r"\n", r#"\""#, r"\/", r"\t", r"\b", r"\f", r"\r", r"\\", r"\u00e9", r"\x", "é", "→", "中文", "\u{1F600}"];
    let mut units = Vec::with_capacity(len + 16);
    while units.len() < len {
        match draw.below(10) {
            0..2 => units.extend(PIECES[draw.below(PIECES.len() as u64) as usize].encode_utf16()),
            _ => units.push(u16::from(b'a') + draw.below(26) as u16),
        }
    }
    units.extend("\", \"b\": \"→\"".encode_utf16());
    units
}

#[test]
fn unescape_matches_scalar_on_long_strings_with_escapes() {
    let mut draw = Draw(0x5EED_0FE5_CA9E_5001);
    for case in 0..20_000 {
        let len = draw.below(400) as usize;
        let input = json_string_contents(&mut draw, len);
        check_unescape_utf16(&input, case % 70);
    }
}

#[test]
fn unescape_escape_pairs_at_every_position_and_block_edge() {
    let pairs: [&[u16]; 8] = [
        &[0x5C, 0x6E],
        &[0x5C, 0x22],
        &[0x5C, 0x5C],
        &[0x5C, 0x75],
        &[0x5C, 0x2192],
        &[0x22, 0x61],
        &[0x0A, 0x61],
        &[0x5C, 0x0A],
    ];
    for background in [u16::from(b'a'), 0xE9, 0x4E2D] {
        for len in [64, 65, 127, 128, 129, 200] {
            for pos in 0..len - 1 {
                for pair in pairs {
                    let mut input = vec![background; len];
                    input[pos..pos + 2].copy_from_slice(pair);
                    check_unescape_utf16(&input, 0);
                    // A second escape in the same block, and a wide unit
                    // after the first one.
                    if pos + 4 < len {
                        input[pos + 2..pos + 4].copy_from_slice(&[0x5C, 0x74]);
                        check_unescape_utf16(&input, 3);
                        input[pos + 4] = 0x2192;
                        check_unescape_utf16(&input, 1);
                    }
                }
            }
        }
    }
}
