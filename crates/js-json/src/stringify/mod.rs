//! `JSON.stringify` ([ECMA-262 §25.5.2](https://tc39.es/ecma262/#sec-json.stringify)),
//! with `JSON.rawJSON` objects.
//!
//! Two iterative serializers share one [`output::Output`]:
//! * [`fast`] serves plain data (no replacer; no `toJSON`, getters, proxies,
//!   boxed primitives or BigInts reachable) using only the host's `&self`
//!   reads, so it cannot run user code; on anything else it gives up and the
//!   whole value is serialized again by
//! * [`general`], the spec's `SerializeJSONProperty` with an explicit stack.
//!
//! Neither recurses on the native stack; nesting is bounded by
//! [`Limits::max_depth`].

mod cycles;
mod fast;
mod general;
mod output;

#[cfg(test)]
mod tests;

pub(crate) use crate::host::key_string as key_value;
use crate::host::{JsonHost, Kind, ObjectClass, PropertyKey};
use crate::limits::Limits;
use crate::text::JsonText;

/// `JSON.stringify(value, replacer, space)`.
///
/// Returns `None` where the spec returns `undefined` (for example for a
/// function or a symbol). `replacer` and `space` are the call's arguments
/// (pass `undefined` when absent).
///
/// # Errors
///
/// The host's exceptions: those thrown by user code it runs (getters,
/// `toJSON`, the replacer, proxy traps), and those it makes from
/// [`crate::JsonError`]: a cycle or a BigInt (TypeError), nesting deeper
/// than `limits.max_depth` (RangeError).
pub fn stringify<H: JsonHost>(
    host: &mut H,
    value: &H::Value,
    replacer: &H::Value,
    space: &H::Value,
    limits: Limits,
) -> Result<Option<JsonText>, H::Error> {
    let replacer = Replacer::from_argument(host, replacer)?;
    let gap = gap_from_space(host, space)?;
    if matches!(replacer, Replacer::None)
        && let Ok(result) = fast::serialize(host, value, gap.as_js_str(), limits)
    {
        return Ok(result);
    }
    general::serialize(host, value, &replacer, gap.as_js_str(), limits)
}

/// The replacer argument, prepared (steps 4–5 of `JSON.stringify`).
enum Replacer<V> {
    None,
    Function(V),
    /// The `PropertyList`: string values without duplicates.
    List(Vec<V>),
}

impl<V: Clone> Replacer<V> {
    fn from_argument<H: JsonHost<Value = V>>(host: &mut H, replacer: &V) -> Result<Self, H::Error> {
        match host.kind(replacer) {
            Kind::Callable => return Ok(Replacer::Function(replacer.clone())),
            Kind::Object if host.is_array(replacer)? => {}
            _ => return Ok(Replacer::None),
        }
        let len = host.length_of_array_like(replacer)?;
        let mut list: Vec<V> = Vec::new();
        for index in 0..len {
            let element = host.get(replacer, &PropertyKey::Index(index))?;
            let item = match host.kind(&element) {
                Kind::String => element,
                Kind::Number(_) => host.to_string(&element)?,
                Kind::Object if matches!(host.object_class(&element), ObjectClass::String | ObjectClass::Number) => {
                    host.to_string(&element)?
                }
                _ => continue,
            };
            let duplicate = list.iter().any(|known| host.string(known).same_units(host.string(&item)));
            if !duplicate {
                list.push(item);
            }
        }
        Ok(Replacer::List(list))
    }
}

/// The `gap` string from the space argument (steps 6–10).
fn gap_from_space<H: JsonHost>(host: &mut H, space: &H::Value) -> Result<JsonText, H::Error> {
    let mut space = space.clone();
    if host.kind(&space) == Kind::Object {
        match host.object_class(&space) {
            ObjectClass::Number => {
                let number = host.to_number(&space)?;
                space = host.number(number);
            }
            ObjectClass::String => space = host.to_string(&space)?,
            _ => {}
        }
    }
    Ok(match host.kind(&space) {
        Kind::Number(number) => {
            // min(10, ToIntegerOrInfinity(number)); NaN counts as 0.
            let count = if number.is_nan() { 0.0 } else { number.trunc().clamp(0.0, 10.0) };
            // Clamped to 0..=10 above.
            #[allow(clippy::cast_sign_loss)]
            let count = count as usize;
            JsonText::Latin1(vec![b' '; count])
        }
        Kind::String => {
            let text = host.string(&space);
            text.slice(0, text.len().min(10)).to_owned_text()
        }
        _ => JsonText::Latin1(Vec::new()),
    })
}
