//! The output buffer: 8-bit until the first character that needs 16 bits,
//! then widened once.

use crate::escape::{self, Kernels, NeedsWide};
use crate::text::{JsStr, JsonText};

/// JSON text being built.
pub(super) struct Output {
    buffer: Buffer,
    /// Expected length of the whole text in code units, when known: the
    /// capacity the buffer starts with and the one it is widened to, so a
    /// large text is neither copied by repeated growth nor faulted in twice.
    expected_len: usize,
    kernels: &'static Kernels,
    numbers: ryu_js::Buffer,
}

enum Buffer {
    Narrow(Vec<u8>),
    Wide(Vec<u16>),
}

/// Buffers of at least this many bytes are backed by huge pages where the
/// system offers them (below it a huge page would be mostly unused).
const HUGE_BUFFER_BYTES: usize = 4 << 20;

/// Asks the kernel to back the 2 MiB-aligned part of a large buffer's
/// capacity with transparent huge pages (`MADV_HUGEPAGE`; honoured when
/// `/sys/kernel/mm/transparent_hugepage/enabled` is `madvise` or `always`).
///
/// A fresh buffer of several megabytes is faulted in a 4 KiB page at a
/// time as the text is written; for a 9 MB UTF-16 text (19 MB of output)
/// that took longer than writing the text itself. With 2 MiB pages the
/// same memory is faulted in about 500 times less often. The advice does
/// not change the memory's contents or who owns it; on other systems, or
/// when refused, nothing changes.
#[cfg(target_os = "linux")]
fn advise_huge_pages<T>(buffer: &mut Vec<T>) {
    const HUGE_PAGE: usize = 2 << 20;
    let bytes = buffer.capacity() * size_of::<T>();
    if bytes < HUGE_BUFFER_BYTES {
        return;
    }
    let base = buffer.as_mut_ptr().cast::<u8>();
    let start = base.addr().next_multiple_of(HUGE_PAGE);
    let end = (base.addr() + bytes) / HUGE_PAGE * HUGE_PAGE;
    if start < end {
        // SAFETY: `[start, end)` lies inside the buffer's allocation (its
        // capacity) and is page-aligned. `MADV_HUGEPAGE` only changes how
        // the kernel backs those pages when they are touched: contents,
        // validity and the allocator's ownership are unchanged, and no
        // memory outside the allocation is affected. Failure (a kernel
        // without transparent huge pages) is harmless and ignored.
        unsafe {
            libc::madvise(base.with_addr(start).cast(), end - start, libc::MADV_HUGEPAGE);
        }
    }
}

#[cfg(not(target_os = "linux"))]
fn advise_huge_pages<T>(_buffer: &mut Vec<T>) {}

impl Output {
    pub(super) fn new(expected_len: usize) -> Self {
        let mut bytes = Vec::with_capacity(expected_len);
        advise_huge_pages(&mut bytes);
        Output {
            buffer: Buffer::Narrow(bytes),
            expected_len,
            kernels: escape::active(),
            numbers: ryu_js::Buffer::new(),
        }
    }

    /// Turns the 8-bit buffer into a 16-bit one.
    #[cold]
    fn widen(&mut self) -> &mut Vec<u16> {
        if let Buffer::Narrow(bytes) = &self.buffer {
            let mut units = Vec::with_capacity((bytes.len() * 2 + 64).max(self.expected_len));
            advise_huge_pages(&mut units);
            units.extend(bytes.iter().map(|&b| u16::from(b)));
            self.buffer = Buffer::Wide(units);
        }
        match &mut self.buffer {
            Buffer::Wide(units) => units,
            Buffer::Narrow(_) => unreachable!("just widened"),
        }
    }

    /// Appends ASCII punctuation or digits.
    #[inline]
    pub(super) fn push_ascii(&mut self, ascii: &[u8]) {
        match &mut self.buffer {
            Buffer::Narrow(bytes) => bytes.extend_from_slice(ascii),
            Buffer::Wide(units) => units.extend(ascii.iter().map(|&b| u16::from(b))),
        }
    }

    /// Appends one ASCII character.
    #[inline]
    pub(super) fn push_byte(&mut self, byte: u8) {
        match &mut self.buffer {
            Buffer::Narrow(bytes) => bytes.push(byte),
            Buffer::Wide(units) => units.push(u16::from(byte)),
        }
    }

    /// Appends text as it is (raw JSON, a gap), widening if it needs to.
    pub(super) fn push_raw(&mut self, text: JsStr<'_>) {
        match (&mut self.buffer, text) {
            (Buffer::Narrow(bytes), JsStr::Latin1(source)) => bytes.extend_from_slice(source),
            (Buffer::Wide(units), JsStr::Latin1(source)) => units.extend(source.iter().map(|&b| u16::from(b))),
            (Buffer::Wide(units), JsStr::Utf16(source)) => units.extend_from_slice(source),
            (Buffer::Narrow(bytes), JsStr::Utf16(source)) => {
                if source.iter().all(|&u| u <= 0xFF) {
                    bytes.extend(source.iter().map(|&u| u as u8));
                } else {
                    self.widen().extend_from_slice(source);
                }
            }
        }
    }

    /// Appends `QuoteJSONString(text)`.
    #[inline]
    pub(super) fn push_quoted(&mut self, text: JsStr<'_>) {
        self.push_byte(b'"');
        match (&mut self.buffer, text) {
            (Buffer::Narrow(bytes), JsStr::Latin1(source)) => (self.kernels.latin1_to_latin1)(source, bytes),
            (Buffer::Wide(units), JsStr::Latin1(source)) => (self.kernels.latin1_to_utf16)(source, units),
            (Buffer::Wide(units), JsStr::Utf16(source)) => (self.kernels.utf16_to_utf16)(source, units),
            (Buffer::Narrow(bytes), JsStr::Utf16(source)) => {
                if let Err(NeedsWide { consumed }) = (self.kernels.utf16_to_latin1)(source, bytes) {
                    let kernels = self.kernels;
                    (kernels.utf16_to_utf16)(&source[consumed..], self.widen());
                }
            }
        }
        self.push_byte(b'"');
    }

    /// Appends a finite number as `Number::toString` prints it, or `null`.
    #[inline]
    pub(super) fn push_number(&mut self, value: f64) {
        if value.is_finite() {
            // `Number::toString(-0)` is "0"; ryu-js follows it.
            let text = self.numbers.format_finite(value);
            match &mut self.buffer {
                Buffer::Narrow(bytes) => bytes.extend_from_slice(text.as_bytes()),
                Buffer::Wide(units) => units.extend(text.bytes().map(u16::from)),
            }
        } else {
            self.push_ascii(b"null");
        }
    }

    /// A newline and `depth` copies of `gap`.
    pub(super) fn push_indent(&mut self, gap: JsStr<'_>, depth: usize) {
        self.push_byte(b'\n');
        for _ in 0..depth {
            self.push_raw(gap);
        }
    }

    /// The finished text.
    pub(super) fn finish(self) -> JsonText {
        match self.buffer {
            Buffer::Narrow(bytes) => JsonText::Latin1(bytes),
            Buffer::Wide(units) => JsonText::Utf16(units),
        }
    }
}
