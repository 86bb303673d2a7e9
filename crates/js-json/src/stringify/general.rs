//! The general path: `SerializeJSONProperty`, `SerializeJSONObject` and
//! `SerializeJSONArray` exactly as ECMA-262 orders their observable steps,
//! with an explicit stack of open containers instead of recursion.
//!
//! Each member is resolved first (`Get`, `toJSON`, the replacer function,
//! unwrapping boxed primitives: every step that can run user code) and only
//! then written, so a member whose value turns out to be `undefined` never
//! leaves a key behind.

use super::cycles::CycleStack;
use super::output::Output;
use super::{Replacer, key_value};
use crate::error::JsonError;
use crate::host::{JsonHost, Kind, ObjectClass, PropertyKey};
use crate::limits::Limits;
use crate::text::{JsStr, JsonText};

/// The members still to serialize of an open container.
enum Members<V> {
    /// Indices `0..len` of an array.
    Array(u64),
    /// The keys of an object: `EnumerableOwnProperties` or the replacer's
    /// `PropertyList`.
    Object(Vec<V>),
}

/// An open array or object (`stack` entry of the spec).
struct Frame<V> {
    object: V,
    members: Members<V>,
    next: usize,
    wrote_member: bool,
}

/// What `SerializeJSONProperty` made of a value after its user-observable
/// steps.
enum Resolved<V> {
    /// The result is `undefined`: omitted from objects, `null` in arrays.
    Undefined,
    /// A primitive (or raw JSON) to write; no more user code runs for it.
    Primitive(V),
    /// An object to serialize with `SerializeJSONObject`/`SerializeJSONArray`.
    Open {
        /// The object.
        object: V,
        /// `IsArray(object)`.
        array: bool,
    },
}

/// Steps 2–4 and the type dispatch of
/// [`SerializeJSONProperty`](https://tc39.es/ecma262/#sec-serializejsonproperty)
/// for `value`, already read from `holder[key]`.
fn resolve<H: JsonHost>(
    host: &mut H,
    replacer: &Replacer<H::Value>,
    holder: &H::Value,
    key: &PropertyKey<H::Value>,
    mut value: H::Value,
) -> Result<Resolved<H::Value>, H::Error> {
    // 2. toJSON, for objects and BigInts.
    if matches!(host.kind(&value), Kind::Object | Kind::Callable | Kind::BigInt)
        && let Some(to_json) = host.to_json_function(&value)?
    {
        let key = key_value(host, key);
        value = host.call(&to_json, &value, &[key])?;
    }
    // 3. The replacer function.
    if let Replacer::Function(function) = replacer {
        let key = key_value(host, key);
        value = host.call(function, holder, &[key, value])?;
    }
    // 4. Boxed primitives and raw JSON.
    if host.kind(&value) == Kind::Object {
        match host.object_class(&value) {
            ObjectClass::Ordinary => {}
            ObjectClass::RawJson => return Ok(Resolved::Primitive(value)),
            ObjectClass::Number => {
                let number = host.to_number(&value)?;
                value = host.number(number);
            }
            ObjectClass::String => value = host.to_string(&value)?,
            ObjectClass::Boolean(boolean) => value = host.boolean(boolean),
            ObjectClass::BigInt => return Err(host.error(JsonError::BigInt)),
        }
    }
    Ok(match host.kind(&value) {
        Kind::Null | Kind::Boolean(_) | Kind::Number(_) | Kind::String => Resolved::Primitive(value),
        Kind::BigInt => return Err(host.error(JsonError::BigInt)),
        Kind::Object => {
            let array = host.is_array(&value)?;
            Resolved::Open { object: value, array }
        }
        Kind::Undefined | Kind::Symbol | Kind::Callable => Resolved::Undefined,
    })
}

/// Writes a resolved primitive or raw JSON value.
fn write_primitive<H: JsonHost>(host: &H, value: &H::Value, out: &mut Output) {
    match host.kind(value) {
        Kind::Null => out.push_ascii(b"null"),
        Kind::Boolean(true) => out.push_ascii(b"true"),
        Kind::Boolean(false) => out.push_ascii(b"false"),
        Kind::Number(number) => out.push_number(number),
        Kind::String => out.push_quoted(host.string(value)),
        // Only raw JSON objects are resolved as primitives besides the above.
        _ => out.push_raw(host.raw_json_text(value)),
    }
}

/// The serializer's state: the `SerializeJSON` state record of the spec plus
/// the output.
struct Serializer<'r, 'g, H: JsonHost> {
    replacer: &'r Replacer<H::Value>,
    gap: JsStr<'g>,
    limits: Limits,
    stack: Vec<Frame<H::Value>>,
    cycles: CycleStack,
    out: Output,
}

impl<H: JsonHost> Serializer<'_, '_, H> {
    /// Steps 1–5 of `SerializeJSONObject`/`SerializeJSONArray` up to the
    /// first member: the cycle check, the depth limit, the member list.
    fn open(&mut self, host: &mut H, object: H::Value, array: bool) -> Result<(), H::Error> {
        if !self.cycles.enter(host.identity(&object)) {
            return Err(host.error(JsonError::Cycle));
        }
        if self.stack.len() >= self.limits.max_depth {
            return Err(host.error(JsonError::TooDeep { limit: self.limits.max_depth }));
        }
        let members = if array {
            Members::Array(host.length_of_array_like(&object)?)
        } else if let Replacer::List(keys) = self.replacer {
            Members::Object(keys.clone())
        } else {
            Members::Object(host.enumerable_own_keys(&object)?)
        };
        self.out.push_byte(if array { b'[' } else { b'{' });
        self.stack.push(Frame { object, members, next: 0, wrote_member: false });
        Ok(())
    }

    /// Writes the separator and indentation before a member.
    fn begin_member(&mut self) {
        let depth = self.stack.len();
        let frame = self.stack.last_mut().expect("a container is open");
        if frame.wrote_member {
            self.out.push_byte(b',');
        }
        frame.wrote_member = true;
        if !self.gap.is_empty() {
            self.out.push_indent(self.gap, depth);
        }
    }

    /// Closes the innermost container.
    fn close(&mut self) {
        let frame = self.stack.pop().expect("a container is open");
        self.cycles.leave();
        if frame.wrote_member && !self.gap.is_empty() {
            self.out.push_indent(self.gap, self.stack.len());
        }
        self.out.push_byte(if matches!(frame.members, Members::Array(_)) { b']' } else { b'}' });
    }

    /// The next member of the innermost container, or `None` when it is
    /// complete.
    fn next_key(&mut self) -> Option<(H::Value, PropertyKey<H::Value>)> {
        let frame = self.stack.last_mut()?;
        let index = frame.next;
        let key = match &frame.members {
            Members::Array(len) => (u64::try_from(index).ok()? < *len).then_some(PropertyKey::Index(index as u64)),
            Members::Object(keys) => keys.get(index).cloned().map(PropertyKey::String),
        }?;
        frame.next += 1;
        Some((frame.object.clone(), key))
    }

    /// Serializes the members of every open container until none is left.
    fn run(&mut self, host: &mut H) -> Result<(), H::Error> {
        while let Some(frame) = self.stack.last() {
            host.check_interrupt()?;
            let array = matches!(frame.members, Members::Array(_));
            let Some((holder, key)) = self.next_key() else {
                self.close();
                continue;
            };
            let value = host.get(&holder, &key)?;
            let resolved = resolve(host, self.replacer, &holder, &key, value)?;
            if matches!(resolved, Resolved::Undefined) && !array {
                continue;
            }
            self.begin_member();
            if let PropertyKey::String(name) = &key {
                self.out.push_quoted(host.string(name));
                self.out.push_byte(b':');
                if !self.gap.is_empty() {
                    self.out.push_byte(b' ');
                }
            }
            match resolved {
                Resolved::Undefined => self.out.push_ascii(b"null"),
                Resolved::Primitive(value) => write_primitive(host, &value, &mut self.out),
                Resolved::Open { object, array } => self.open(host, object, array)?,
            }
        }
        Ok(())
    }
}

/// Serializes `value` by the spec's algorithm.
pub(super) fn serialize<H: JsonHost>(
    host: &mut H,
    value: &H::Value,
    replacer: &Replacer<H::Value>,
    gap: JsStr<'_>,
    limits: Limits,
) -> Result<Option<JsonText>, H::Error> {
    let empty = host.create_string(JsStr::Latin1(b""));
    // The wrapper `{"": value}` is observable only as the replacer's `this`.
    let wrapper = match replacer {
        Replacer::Function(_) => host.create_object(vec![(empty.clone(), value.clone())]),
        _ => host.undefined(),
    };
    let mut serializer =
        Serializer { replacer, gap, limits, stack: Vec::new(), cycles: CycleStack::new(), out: Output::new(256) };
    match resolve(host, replacer, &wrapper, &PropertyKey::String(empty), value.clone())? {
        Resolved::Undefined => return Ok(None),
        Resolved::Primitive(value) => write_primitive(host, &value, &mut serializer.out),
        Resolved::Open { object, array } => {
            serializer.open(host, object, array)?;
            serializer.run(host)?;
        }
    }
    Ok(Some(serializer.out.finish()))
}
