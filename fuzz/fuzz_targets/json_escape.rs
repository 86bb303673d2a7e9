//! Every SIMD escape and scan kernel this CPU runs against the scalar
//! reference, on the same input read as Latin-1 and as UTF-16.

#![no_main]

use js_json::{Isa, Kernels};
use libfuzzer_sys::fuzz_target;

fn compare(reference: &Kernels, kernels: &Kernels, latin1: &[u8], utf16: &[u16]) {
    let isa = kernels.isa;
    let (mut want8, mut got8) = (Vec::new(), Vec::new());
    (reference.latin1_to_latin1)(latin1, &mut want8);
    (kernels.latin1_to_latin1)(latin1, &mut got8);
    assert_eq!(want8, got8, "{isa:?} latin1_to_latin1");

    let (mut want16, mut got16) = (Vec::new(), Vec::new());
    (reference.latin1_to_utf16)(latin1, &mut want16);
    (kernels.latin1_to_utf16)(latin1, &mut got16);
    assert_eq!(want16, got16, "{isa:?} latin1_to_utf16");

    let (mut want16, mut got16) = (Vec::new(), Vec::new());
    (reference.utf16_to_utf16)(utf16, &mut want16);
    (kernels.utf16_to_utf16)(utf16, &mut got16);
    assert_eq!(want16, got16, "{isa:?} utf16_to_utf16");

    let (mut want8, mut got8) = (Vec::new(), Vec::new());
    let want = (reference.utf16_to_latin1)(utf16, &mut want8);
    let got = (kernels.utf16_to_latin1)(utf16, &mut got8);
    assert_eq!((want, &want8), (got, &got8), "{isa:?} utf16_to_latin1");

    assert_eq!((reference.find_latin1)(latin1), (kernels.find_latin1)(latin1), "{isa:?} find_latin1");
    assert_eq!((reference.find_utf16)(utf16), (kernels.find_utf16)(utf16), "{isa:?} find_utf16");
    assert_eq!(
        (reference.skip_whitespace_latin1)(latin1),
        (kernels.skip_whitespace_latin1)(latin1),
        "{isa:?} skip_whitespace_latin1"
    );
    assert_eq!(
        (reference.skip_whitespace_utf16)(utf16),
        (kernels.skip_whitespace_utf16)(utf16),
        "{isa:?} skip_whitespace_utf16"
    );

    let (mut want8, mut got8) = (Vec::new(), Vec::new());
    let want = (reference.unescape_latin1)(latin1, &mut want8);
    let got = (kernels.unescape_latin1)(latin1, &mut got8);
    assert_eq!((want, &want8), (got, &got8), "{isa:?} unescape_latin1");

    let (mut want16, mut got16) = (Vec::new(), Vec::new());
    let want = (reference.unescape_utf16)(utf16, &mut want16);
    let got = (kernels.unescape_utf16)(utf16, &mut got16);
    assert_eq!((want, &want16), (got, &got16), "{isa:?} unescape_utf16");
}

fuzz_target!(|data: &[u8]| {
    let Some(reference) = Isa::Scalar.kernels() else { return };
    // Widen some bytes to interesting UTF-16 units (surrogates, wide
    // characters) so blocks mix widths: a byte pair is a unit, and the
    // first byte's top bits pick a range.
    let utf16: Vec<u16> = data
        .chunks_exact(2)
        .map(|pair| match pair[0] >> 5 {
            0 => 0xD800 | u16::from(pair[1]) << 2,
            1 => 0xDC00 | u16::from(pair[1]) << 2,
            2 => 0x2000 | u16::from(pair[1]),
            _ => u16::from(pair[1]),
        })
        .collect();
    for isa in Isa::ALL {
        if let Some(kernels) = isa.kernels() {
            compare(reference, kernels, data, &utf16);
        }
    }
});
