//! Builds the host's values from JSON text with an explicit stack of open
//! containers (no recursion), creating each array and object once, when it
//! closes, from its members in source order.

use super::lexer::Lexer;
use super::records::{Children, Record, Records};
use super::source::SourceUnit;
use crate::error::{JsonError, SyntaxError};
use crate::host::JsonHost;
use crate::limits::Limits;

/// A complete value and the index of its parse record (if kept).
type Parsed<V> = (V, Option<u32>);

/// An array or object whose members are being read.
enum Open<V> {
    Array {
        elements: Vec<V>,
        records: Vec<u32>,
    },
    Object {
        entries: Vec<(V, V)>,
        records: Vec<(V, u32)>,
        /// The key of the member being read.
        key: Option<V>,
    },
}

/// The parser state: the lexer, the host, the open containers and, when a
/// reviver will need them, the parse records.
pub(super) struct Builder<'s, 'h, U, H: JsonHost> {
    pub(super) lexer: Lexer<'s, U>,
    host: &'h mut H,
    limits: Limits,
    stack: Vec<Open<H::Value>>,
    /// Present when parse records are kept.
    pub(super) records: Option<Records<H::Value>>,
}

impl<'s, 'h, U: SourceUnit, H: JsonHost> Builder<'s, 'h, U, H> {
    pub(super) fn new(source: &'s [U], host: &'h mut H, limits: Limits, keep_records: bool) -> Self {
        Builder { lexer: Lexer::new(source), host, limits, stack: Vec::new(), records: keep_records.then(Records::new) }
    }

    fn syntax(&mut self, error: SyntaxError) -> H::Error {
        self.host.error(JsonError::Syntax(error))
    }

    /// Records a value, if records are kept.
    fn record(
        &mut self,
        value: &H::Value,
        source: Option<(usize, usize)>,
        children: Children<H::Value>,
    ) -> Option<u32> {
        let records = self.records.as_mut()?;
        Some(records.push(Record { value: value.clone(), source, children }))
    }

    /// Opens a container, checking the depth limit.
    fn open(&mut self, open: Open<H::Value>) -> Result<(), H::Error> {
        if self.stack.len() >= self.limits.max_depth {
            return Err(self.host.error(JsonError::TooDeep { limit: self.limits.max_depth }));
        }
        self.stack.push(open);
        Ok(())
    }

    /// Reads an object member's key and the colon after it.
    fn read_key(&mut self) -> Result<H::Value, H::Error> {
        self.lexer.skip_whitespace();
        if self.lexer.peek() != Some(u16::from(b'"')) {
            let error = self.lexer.unexpected_at(self.lexer.pos);
            return Err(self.syntax(error));
        }
        let key = match self.lexer.scan_string() {
            Ok(contents) => self.host.create_key(contents),
            Err(error) => return Err(self.syntax(error)),
        };
        self.lexer.skip_whitespace();
        if self.lexer.peek() != Some(u16::from(b':')) {
            let error = self.lexer.unexpected_at(self.lexer.pos);
            return Err(self.syntax(error));
        }
        self.lexer.pos += 1;
        Ok(key)
    }

    /// Reads a primitive, or opens a container and returns `None`.
    fn read_value_start(&mut self) -> Result<Option<Parsed<H::Value>>, H::Error> {
        self.lexer.skip_whitespace();
        let start = self.lexer.pos;
        let value = match self.lexer.peek().and_then(|unit| u8::try_from(unit).ok()) {
            Some(b'{') => {
                self.lexer.pos += 1;
                self.lexer.skip_whitespace();
                if self.lexer.peek() == Some(u16::from(b'}')) {
                    self.lexer.pos += 1;
                    let object = self.host.create_object(Vec::new());
                    let record = self.record(&object, None, Children::Entries(Vec::new()));
                    return Ok(Some((object, record)));
                }
                let key = self.read_key()?;
                self.open(Open::Object { entries: Vec::new(), records: Vec::new(), key: Some(key) })?;
                return Ok(None);
            }
            Some(b'[') => {
                self.lexer.pos += 1;
                self.lexer.skip_whitespace();
                if self.lexer.peek() == Some(u16::from(b']')) {
                    self.lexer.pos += 1;
                    let array = self.host.create_array(Vec::new());
                    let record = self.record(&array, None, Children::Elements(Vec::new()));
                    return Ok(Some((array, record)));
                }
                self.open(Open::Array { elements: Vec::new(), records: Vec::new() })?;
                return Ok(None);
            }
            Some(b'"') => match self.lexer.scan_string() {
                Ok(contents) => self.host.create_string_narrowest(contents),
                Err(error) => return Err(self.syntax(error)),
            },
            Some(b'-' | b'0'..=b'9') => match self.lexer.scan_number() {
                Ok(number) => self.host.number(number),
                Err(error) => return Err(self.syntax(error)),
            },
            Some(letter @ (b't' | b'f' | b'n')) => {
                let (word, value): (&[u8], _) = match letter {
                    b't' => (b"true", Some(true)),
                    b'f' => (b"false", Some(false)),
                    _ => (b"null", None),
                };
                if let Err(error) = self.lexer.expect_literal(word) {
                    return Err(self.syntax(error));
                }
                match value {
                    Some(boolean) => self.host.boolean(boolean),
                    None => self.host.null(),
                }
            }
            _ => {
                let error = self.lexer.unexpected_at(start);
                return Err(self.syntax(error));
            }
        };
        let record = self.record(&value, Some((start, self.lexer.pos)), Children::None);
        Ok(Some((value, record)))
    }

    /// Creates the host value of a closed container.
    fn close(&mut self, open: Open<H::Value>) -> Parsed<H::Value> {
        match open {
            Open::Array { elements, records } => {
                let array = self.host.create_array(elements);
                let record = self.record(&array, None, Children::Elements(records));
                (array, record)
            }
            Open::Object { entries, records, .. } => {
                let object = self.host.create_object(entries);
                let record = self.record(&object, None, Children::Entries(records));
                (object, record)
            }
        }
    }

    /// Reads one JSON value (the whole text's value) and returns it with
    /// its record.
    pub(super) fn read_value(&mut self) -> Result<Parsed<H::Value>, H::Error> {
        loop {
            let Some((mut value, mut record)) = self.read_value_start()? else { continue };
            // A value is complete: hand it to its container, then close
            // every container that ends here.
            loop {
                let Some(open) = self.stack.last_mut() else { return Ok((value, record)) };
                let closer = match open {
                    Open::Array { elements, records } => {
                        elements.push(value);
                        records.extend(record);
                        b']'
                    }
                    Open::Object { entries, records, key } => {
                        let key = key.take().expect("a key was read before the value");
                        if let Some(record) = record {
                            records.push((key.clone(), record));
                        }
                        entries.push((key, value));
                        b'}'
                    }
                };
                self.lexer.skip_whitespace();
                match self.lexer.peek() {
                    Some(0x2C) => {
                        self.lexer.pos += 1;
                        if closer == b'}' {
                            let key = self.read_key()?;
                            if let Some(Open::Object { key: slot, .. }) = self.stack.last_mut() {
                                *slot = Some(key);
                            }
                        }
                        break;
                    }
                    Some(unit) if unit == u16::from(closer) => {
                        self.lexer.pos += 1;
                        let open = self.stack.pop().expect("a container is open");
                        (value, record) = self.close(open);
                    }
                    _ => {
                        let error = self.lexer.unexpected_at(self.lexer.pos);
                        return Err(self.syntax(error));
                    }
                }
            }
        }
    }

    /// Requires that only whitespace follows the value.
    pub(super) fn finish(&mut self) -> Result<(), H::Error> {
        self.lexer.skip_whitespace();
        if self.lexer.at_end() {
            Ok(())
        } else {
            let error =
                SyntaxError { kind: crate::error::SyntaxErrorKind::TrailingCharacters, position: self.lexer.pos };
            Err(self.syntax(error))
        }
    }

    /// The host, for the reviver walk.
    pub(super) fn host(&mut self) -> &mut H {
        self.host
    }
}
