//! [`InternalizeJSONProperty`](https://tc39.es/ecma262/#sec-internalizejsonproperty)
//! with the source-text access of ES2025's `JSON.parse` (`context.source`),
//! walking the revived tree with an explicit stack.
//!
//! Each value is visited after its members (post-order); a member for which
//! the reviver returns `undefined` is deleted, any other result replaces it
//! with `CreateDataProperty`. `context.source` is given for a primitive
//! only while the holder still has the value that was parsed there
//! (`SameValue` with the parse record).

use ahash::AHashMap;

use super::records::{Children, Records};
use crate::error::JsonError;
use crate::host::{JsonHost, Kind, PropertyKey, key_string};
use crate::limits::Limits;
use crate::text::JsStr;

/// Object entries with more members than this are looked up in a map.
const LINEAR_ENTRIES: usize = 16;

/// The parse records of an object's members, found by key.
struct EntryIndex<'r, V> {
    entries: &'r [(V, u32)],
    /// For large objects: key code units → record of the last member with
    /// that key.
    map: Option<AHashMap<Vec<u16>, u32>>,
}

fn units(text: JsStr<'_>) -> Vec<u16> {
    match text {
        JsStr::Latin1(bytes) => bytes.iter().map(|&b| u16::from(b)).collect(),
        JsStr::Utf16(units) => units.to_vec(),
    }
}

impl<'r, V> EntryIndex<'r, V> {
    fn new<H: JsonHost<Value = V>>(host: &H, entries: &'r [(V, u32)]) -> Self {
        let map = (entries.len() > LINEAR_ENTRIES)
            .then(|| entries.iter().map(|(key, record)| (units(host.string(key)), *record)).collect());
        EntryIndex { entries, map }
    }

    /// The record of the last member named `key`.
    fn find<H: JsonHost<Value = V>>(&self, host: &H, key: &V) -> Option<u32> {
        let key = host.string(key);
        match &self.map {
            Some(map) => map.get(&units(key)).copied(),
            None => self.entries.iter().rev().find(|(name, _)| host.string(name).same_units(key)).map(|(_, r)| *r),
        }
    }
}

/// The members of a value still to revive.
enum Members<'r, V> {
    /// A primitive.
    None,
    Array {
        len: u64,
        next: u64,
        elements: &'r [u32],
    },
    Object {
        keys: Vec<V>,
        next: usize,
        entries: EntryIndex<'r, V>,
    },
}

/// A member to revive: its holder, its name and its parse record.
type Member<V> = (V, PropertyKey<V>, Option<u32>);

/// A value being revived: `holder[name]`.
struct Frame<'r, V> {
    holder: V,
    name: PropertyKey<V>,
    value: V,
    source: Option<(usize, usize)>,
    members: Members<'r, V>,
}

/// The reviver walk.
struct Walk<'r, 's, H: JsonHost> {
    reviver: &'r H::Value,
    records: Option<&'r Records<H::Value>>,
    source: JsStr<'s>,
    limits: Limits,
    stack: Vec<Frame<'r, H::Value>>,
}

impl<H: JsonHost> Walk<'_, '_, H> {
    /// Steps 1–2 of `InternalizeJSONProperty` for `holder[name]`: reads the
    /// value and lists its members.
    fn enter(
        &mut self,
        host: &mut H,
        holder: H::Value,
        name: PropertyKey<H::Value>,
        record: Option<u32>,
    ) -> Result<(), H::Error> {
        let value = host.get(&holder, &name)?;
        let record = record
            .and_then(|index| self.records.map(|records| records.get(index)))
            .filter(|record| host.same_value(&record.value, &value));
        let members = if matches!(host.kind(&value), Kind::Object | Kind::Callable) {
            if host.is_array(&value)? {
                let elements = match record.map(|record| &record.children) {
                    Some(Children::Elements(elements)) => elements.as_slice(),
                    _ => &[],
                };
                Members::Array { len: host.length_of_array_like(&value)?, next: 0, elements }
            } else {
                let entries = match record.map(|record| &record.children) {
                    Some(Children::Entries(entries)) => entries.as_slice(),
                    _ => &[],
                };
                let keys = host.enumerable_own_keys(&value)?;
                Members::Object { keys, next: 0, entries: EntryIndex::new(host, entries) }
            }
        } else {
            Members::None
        };
        let source = match members {
            Members::None => record.and_then(|record| record.source),
            _ => None,
        };
        if self.stack.len() >= self.limits.max_depth {
            return Err(host.error(JsonError::TooDeep { limit: self.limits.max_depth }));
        }
        self.stack.push(Frame { holder, name, value, source, members });
        Ok(())
    }

    /// The next member of the innermost value: its holder, name and record.
    fn next_member(&mut self, host: &H) -> Option<Member<H::Value>> {
        let frame = self.stack.last_mut()?;
        let (name, record) = match &mut frame.members {
            Members::None => return None,
            Members::Array { len, next, elements } => {
                if *next == *len {
                    return None;
                }
                let index = *next;
                *next += 1;
                let record = usize::try_from(index).ok().and_then(|index| elements.get(index)).copied();
                (PropertyKey::Index(index), record)
            }
            Members::Object { keys, next, entries } => {
                let key = keys.get(*next)?.clone();
                *next += 1;
                let record = entries.find(host, &key);
                (PropertyKey::String(key), record)
            }
        };
        Some((frame.value.clone(), name, record))
    }

    /// Calls the reviver for a value whose members are done (step 3) and
    /// stores the result in its holder, or returns it for the root.
    fn leave(&mut self, host: &mut H) -> Result<Option<H::Value>, H::Error> {
        let frame = self.stack.pop().expect("a value is open");
        let context = match frame.source {
            Some((start, end)) => {
                let key = host.create_string(JsStr::Latin1(b"source"));
                let text = host.create_string(self.source.slice(start, end));
                host.create_object(vec![(key, text)])
            }
            None => host.create_object(Vec::new()),
        };
        let name = key_string(host, &frame.name);
        let result = host.call(self.reviver, &frame.holder, &[name, frame.value, context])?;
        if self.stack.is_empty() {
            return Ok(Some(result));
        }
        if host.kind(&result) == Kind::Undefined {
            host.delete_property(&frame.holder, &frame.name)?;
        } else {
            host.create_data_property(&frame.holder, &frame.name, result)?;
        }
        Ok(None)
    }
}

/// Revives `root[""]` (the parse result under its wrapper) with `reviver`.
pub(super) fn internalize<H: JsonHost>(
    host: &mut H,
    root: H::Value,
    reviver: &H::Value,
    records: Option<&Records<H::Value>>,
    root_record: Option<u32>,
    source: JsStr<'_>,
    limits: Limits,
) -> Result<H::Value, H::Error> {
    let mut walk = Walk::<H> { reviver, records, source, limits, stack: Vec::new() };
    let empty = host.create_string(JsStr::Latin1(b""));
    walk.enter(host, root, PropertyKey::String(empty), root_record)?;
    loop {
        match walk.next_member(host) {
            Some((holder, name, record)) => walk.enter(host, holder, name, record)?,
            None => {
                if let Some(result) = walk.leave(host)? {
                    return Ok(result);
                }
            }
        }
    }
}
