//! The fast path for plain data: iterative, reads only through the host's
//! `&self` methods (so no user code can run), and gives up — returning
//! `None` — on anything those reads cannot serialize exactly: `toJSON`,
//! getters, proxies, boxed primitives, raw JSON, functions, BigInts, a
//! cycle or excess depth. The general path then starts over; nothing
//! observable happened in between.

use super::cycles::CycleStack;
use super::output::Output;
use crate::host::{JsonHost, Kind, Plain};
use crate::limits::Limits;
use crate::text::{JsStr, JsonText};

/// An open array or object.
struct Frame<V> {
    object: V,
    len: usize,
    next: usize,
    array: bool,
    wrote_member: bool,
}

/// What to do with one value.
enum Step {
    /// Omitted from objects, `null` in arrays.
    Skip,
    /// A primitive to write.
    Primitive,
    /// A container to open.
    Open(Plain),
}

fn classify<H: JsonHost>(host: &H, value: &H::Value) -> Option<Step> {
    Some(match host.kind(value) {
        Kind::Undefined | Kind::Symbol => Step::Skip,
        Kind::Null | Kind::Boolean(_) | Kind::Number(_) | Kind::String => Step::Primitive,
        Kind::Object => Step::Open(host.plain(value)?),
        Kind::BigInt | Kind::Callable => return None,
    })
}

fn write_primitive<H: JsonHost>(host: &H, value: &H::Value, out: &mut Output) {
    match host.kind(value) {
        Kind::Null => out.push_ascii(b"null"),
        Kind::Boolean(true) => out.push_ascii(b"true"),
        Kind::Boolean(false) => out.push_ascii(b"false"),
        Kind::Number(number) => out.push_number(number),
        Kind::String => out.push_quoted(host.string(value)),
        _ => unreachable!("classify said primitive"),
    }
}

/// The fast path met something only the general path serializes exactly.
pub(super) struct GiveUp;

/// How many entries [`expected_len`] reads before it gives up: enough for
/// documents of few, large strings, where knowing the size pays; cheap to
/// waste on documents of many small values.
const ESTIMATE_BUDGET: usize = 4_096;

/// The length of the text without escapes, if the value has at most
/// [`ESTIMATE_BUDGET`] entries: each string's length plus quotes, keys,
/// punctuation and indentation, and a bound for each number.
fn expected_len<H: JsonHost>(host: &H, value: &H::Value, gap: JsStr<'_>) -> Option<usize> {
    let mut len = 0;
    let mut budget = ESTIMATE_BUDGET;
    let mut stack: Vec<(H::Value, usize, usize)> = Vec::new();
    let visit = |value: &H::Value, depth: usize, stack: &mut Vec<(H::Value, usize, usize)>| -> Option<usize> {
        let per_member = 1 + gap.len() * depth + 1;
        Some(
            per_member
                + match host.kind(value) {
                    Kind::String => host.string(value).len() + 2,
                    Kind::Number(_) => 24,
                    Kind::Object => {
                        let count = match host.plain(value)? {
                            Plain::Array(count) | Plain::Object(count) => count,
                        };
                        stack.push((value.clone(), count, 0));
                        2 + gap.len() * depth + 1
                    }
                    _ => 5,
                },
        )
    };
    len += visit(value, 0, &mut stack)?;
    while let Some((object, count, next)) = stack.last_mut() {
        if *next == *count {
            stack.pop();
            continue;
        }
        budget = budget.checked_sub(1)?;
        let (key, element) = host.plain_entry(object, *next);
        *next += 1;
        if let Some(key) = key {
            len += host.string(&key).len() + 4;
        }
        let depth = stack.len();
        len += visit(&element, depth, &mut stack)?;
    }
    // Slack for escapes, so the buffer is not doubled for the last few
    // percent of the text (a doubled 20 MB buffer is 40 MB of address space
    // that the allocator maps afresh, and page faults in, on every call).
    Some(len + len / 8 + 64)
}

/// Members between two [`JsonHost::interrupt_requested`] polls: rare enough
/// to cost nothing measurable, often enough to stop within microseconds.
const INTERRUPT_POLL_INTERVAL: u32 = 4096;

/// Serializes `value` (`Ok(None)` where the result is `undefined`), or
/// gives up to hand over to the general path.
pub(super) fn serialize<H: JsonHost>(
    host: &H,
    value: &H::Value,
    gap: JsStr<'_>,
    limits: Limits,
) -> Result<Option<JsonText>, GiveUp> {
    let mut out = Output::new(expected_len(host, value, gap).unwrap_or(256));
    let mut stack: Vec<Frame<H::Value>> = Vec::new();
    let mut cycles = CycleStack::new();
    let open = |object: H::Value,
                plain: Plain,
                out: &mut Output,
                stack: &mut Vec<Frame<H::Value>>,
                cycles: &mut CycleStack| {
        if cycles.depth() >= limits.max_depth || !cycles.enter(host.identity(&object)) {
            return false;
        }
        let (len, array) = match plain {
            Plain::Array(len) => (len, true),
            Plain::Object(len) => (len, false),
        };
        out.push_byte(if array { b'[' } else { b'{' });
        stack.push(Frame { object, len, next: 0, array, wrote_member: false });
        true
    };

    match classify(host, value).ok_or(GiveUp)? {
        Step::Skip => return Ok(None),
        Step::Primitive => {
            write_primitive(host, value, &mut out);
            return Ok(Some(out.finish()));
        }
        Step::Open(plain) => {
            if !open(value.clone(), plain, &mut out, &mut stack, &mut cycles) {
                return Err(GiveUp);
            }
        }
    }

    // Members written since the host was last asked whether to stop.
    let mut since_poll = 0u32;
    while let Some(frame) = stack.last_mut() {
        since_poll += 1;
        if since_poll == INTERRUPT_POLL_INTERVAL {
            since_poll = 0;
            if host.interrupt_requested() {
                // The general path reports the host's own error.
                return Err(GiveUp);
            }
        }
        if frame.next == frame.len {
            let array = frame.array;
            let wrote = frame.wrote_member;
            stack.pop();
            cycles.leave();
            if wrote && !gap.is_empty() {
                out.push_indent(gap, stack.len());
            }
            out.push_byte(if array { b']' } else { b'}' });
            continue;
        }
        let index = frame.next;
        frame.next += 1;
        let (key, element) = host.plain_entry(&frame.object, index);
        let step = classify(host, &element).ok_or(GiveUp)?;
        if frame.array {
            if frame.wrote_member {
                out.push_byte(b',');
            }
        } else {
            if matches!(step, Step::Skip) {
                continue;
            }
            if frame.wrote_member {
                out.push_byte(b',');
            }
        }
        frame.wrote_member = true;
        let depth = stack.len();
        if !gap.is_empty() {
            out.push_indent(gap, depth);
        }
        if let Some(key) = &key {
            out.push_quoted(host.string(key));
            out.push_byte(b':');
            if !gap.is_empty() {
                out.push_byte(b' ');
            }
        }
        match step {
            Step::Skip => out.push_ascii(b"null"),
            Step::Primitive => write_primitive(host, &element, &mut out),
            Step::Open(plain) => {
                if !open(element, plain, &mut out, &mut stack, &mut cycles) {
                    return Err(GiveUp);
                }
            }
        }
    }
    Ok(Some(out.finish()))
}
