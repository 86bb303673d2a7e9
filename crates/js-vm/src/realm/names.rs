//! Atoms and symbols the engine itself needs, made once per VM.

use js_gc::{Gc, Heap, Trace, Tracer};

use crate::string::{AtomTable, JsString};
use crate::symbol::Symbol;

macro_rules! common_atoms {
    ($($name:ident = $text:literal,)*) => {
        /// Property names the engine uses internally, interned once.
        pub struct CommonAtoms {
            $(#[doc = concat!("`", $text, "`")] pub $name: Gc<JsString>,)*
        }

        impl CommonAtoms {
            pub(crate) fn new(heap: &mut Heap, atoms: &mut AtomTable) -> Self {
                Self { $($name: atoms.intern_str(heap, $text),)* }
            }
        }

        // SAFETY: every atom is reported.
        unsafe impl Trace for CommonAtoms {
            fn trace(&self, tracer: &mut Tracer) {
                $(self.$name.trace(tracer);)*
            }
        }
    };
}

common_atoms! {
    arguments = "arguments",
    callee = "callee",
    caller = "caller",
    cause = "cause",
    configurable = "configurable",
    constructor = "constructor",
    done = "done",
    empty = "",
    enumerable = "enumerable",
    errors = "errors",
    exec = "exec",
    flags = "flags",
    get = "get",
    groups = "groups",
    index = "index",
    indices = "indices",
    input = "input",
    last_index = "lastIndex",
    length = "length",
    message = "message",
    name = "name",
    next = "next",
    prototype = "prototype",
    return_ = "return",
    set = "set",
    source = "source",
    stack = "stack",
    then = "then",
    throw = "throw",
    to_json = "toJSON",
    to_string = "toString",
    value = "value",
    value_of = "valueOf",
    writable = "writable",
}

macro_rules! well_known_symbols {
    ($($name:ident = $text:literal,)*) => {
        /// The well-known symbols (§6.1.5.1), shared by every realm.
        pub struct WellKnownSymbols {
            $(#[doc = concat!("`", $text, "`")] pub $name: Gc<Symbol>,)*
        }

        impl WellKnownSymbols {
            pub(crate) fn new(heap: &mut Heap, atoms: &mut AtomTable) -> Self {
                let _ = atoms;
                Self {
                    $($name: {
                        let description = heap.alloc(JsString::from_rust_str($text));
                        heap.alloc(Symbol { description: Some(description), registered: false, private: false })
                    },)*
                }
            }

            /// Every well-known symbol with its property name on `Symbol`.
            pub fn all(&self) -> impl Iterator<Item = (&'static str, Gc<Symbol>)> + '_ {
                [$((&$text["Symbol.".len()..], self.$name),)*].into_iter()
            }
        }

        // SAFETY: every symbol is reported.
        unsafe impl Trace for WellKnownSymbols {
            fn trace(&self, tracer: &mut Tracer) {
                $(self.$name.trace(tracer);)*
            }
        }
    };
}

well_known_symbols! {
    async_dispose = "Symbol.asyncDispose",
    async_iterator = "Symbol.asyncIterator",
    dispose = "Symbol.dispose",
    has_instance = "Symbol.hasInstance",
    is_concat_spreadable = "Symbol.isConcatSpreadable",
    iterator = "Symbol.iterator",
    match_ = "Symbol.match",
    match_all = "Symbol.matchAll",
    replace = "Symbol.replace",
    search = "Symbol.search",
    species = "Symbol.species",
    split = "Symbol.split",
    to_primitive = "Symbol.toPrimitive",
    to_string_tag = "Symbol.toStringTag",
    unscopables = "Symbol.unscopables",
}
