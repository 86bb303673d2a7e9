//! Realms (§9.3): the intrinsics and the global object. Nothing here is
//! process-wide, so one VM can hold several realms.

mod names;

use js_gc::{Gc, Heap, Trace, Tracer};

pub use names::{CommonAtoms, WellKnownSymbols};

use crate::object::{JsObject, ObjectKind, Shape};
use crate::string::JsString;
use crate::value::Value;

macro_rules! intrinsics {
    ($($(#[$doc:meta])* $name:ident,)*) => {
        /// The well-known intrinsic objects (§6.1.7.4) of one realm.
        pub struct Intrinsics {
            $($(#[$doc])* pub $name: Gc<JsObject>,)*
        }

        impl Intrinsics {
            fn all(&self) -> impl Iterator<Item = Gc<JsObject>> + '_ {
                [$(self.$name,)*].into_iter()
            }

            /// Every intrinsic set to `object`, a placeholder until the
            /// prototypes and builtins are made.
            fn filled_with(object: Gc<JsObject>) -> Self {
                Self { $($name: object,)* }
            }

        }
    };
}

intrinsics! {
    /// `%Object.prototype%`
    object_prototype,
    /// `%Function.prototype%`
    function_prototype,
    /// `%Array.prototype%`
    array_prototype,
    /// `%String.prototype%`
    string_prototype,
    /// `%Number.prototype%`
    number_prototype,
    /// `%Boolean.prototype%`
    boolean_prototype,
    /// `%Symbol.prototype%`
    symbol_prototype,
    /// `%BigInt.prototype%`
    bigint_prototype,
    /// `%Error.prototype%`
    error_prototype,
    /// `%EvalError.prototype%`
    eval_error_prototype,
    /// `%RangeError.prototype%`
    range_error_prototype,
    /// `%ReferenceError.prototype%`
    reference_error_prototype,
    /// `%SyntaxError.prototype%`
    syntax_error_prototype,
    /// `%TypeError.prototype%`
    type_error_prototype,
    /// `%URIError.prototype%`
    uri_error_prototype,
    /// `%AggregateError.prototype%`
    aggregate_error_prototype,
    /// `%Iterator.prototype%`
    iterator_prototype,
    /// `%ArrayIteratorPrototype%`
    array_iterator_prototype,
    /// `%StringIteratorPrototype%`
    string_iterator_prototype,
    /// `%Object%`
    object_constructor,
    /// `%Function%`
    function_constructor,
    /// `%Function.prototype%[@@hasInstance]`
    function_has_instance,
    /// `%Array%`
    array_constructor,
    /// `%ThrowTypeError%`
    throw_type_error,
    /// `%Array.prototype.values%`
    array_values,
    /// `%ArrayIteratorPrototype%.next`
    array_iterator_next,
    /// `%GeneratorFunction.prototype%`
    generator_function_prototype,
    /// `%GeneratorPrototype%`
    generator_prototype,
    /// `%eval%`
    eval,
    /// `%RegExp.prototype%`
    regexp_prototype,
    /// `%RegExp%`
    regexp_constructor,
    /// `%RegExp.prototype.exec%`
    regexp_exec,
    /// `%RegExpStringIteratorPrototype%`
    regexp_string_iterator_prototype,
    /// `%Map.prototype%`
    map_prototype,
    /// `%Set.prototype%`
    set_prototype,
    /// `%MapIteratorPrototype%`
    map_iterator_prototype,
    /// `%SetIteratorPrototype%`
    set_iterator_prototype,
    /// `%WeakMap.prototype%`
    weak_map_prototype,
    /// `%WeakSet.prototype%`
    weak_set_prototype,
    /// `%Promise.prototype%`
    promise_prototype,
    /// `%Promise%`
    promise_constructor,
    /// `%Promise.resolve%`
    promise_resolve,
    /// `%Promise.prototype.then%`
    promise_then,
    /// The getter of `%Promise%[@@species]`
    promise_species_getter,
    /// `%AsyncFunction.prototype%`
    async_function_prototype,
    /// `%AsyncIteratorPrototype%`
    async_iterator_prototype,
    /// `%AsyncFromSyncIteratorPrototype%`
    async_from_sync_iterator_prototype,
    /// `%AsyncGeneratorFunction.prototype%`
    async_generator_function_prototype,
    /// `%AsyncGeneratorPrototype%`
    async_generator_prototype,
    /// `%WeakRef.prototype%`
    weak_ref_prototype,
    /// `%Date.prototype%` (an ordinary object, not a Date)
    date_prototype,
    /// `%FinalizationRegistry.prototype%`
    finalization_registry_prototype,
    /// `%Iterator%`
    iterator_constructor,
    /// `%IteratorHelperPrototype%`
    iterator_helper_prototype,
    /// `%WrapForValidIteratorPrototype%`
    wrap_for_valid_iterator_prototype,
    /// `%ArrayBuffer.prototype%`
    array_buffer_prototype,
    /// `%ArrayBuffer%`
    array_buffer_constructor,
    /// `%SharedArrayBuffer.prototype%`
    shared_array_buffer_prototype,
    /// `%SharedArrayBuffer%`
    shared_array_buffer_constructor,
    /// `%TypedArray.prototype%`
    typed_array_prototype,
    /// `%TypedArray%`
    typed_array_constructor,
    /// `%Int8Array%`
    int8_array,
    /// `%Uint8Array%`
    uint8_array,
    /// `%Uint8ClampedArray%`
    uint8_clamped_array,
    /// `%Int16Array%`
    int16_array,
    /// `%Uint16Array%`
    uint16_array,
    /// `%Int32Array%`
    int32_array,
    /// `%Uint32Array%`
    uint32_array,
    /// `%Float16Array%`
    float16_array,
    /// `%Float32Array%`
    float32_array,
    /// `%Float64Array%`
    float64_array,
    /// `%BigInt64Array%`
    big_int64_array,
    /// `%BigUint64Array%`
    big_uint64_array,
    /// `%DataView.prototype%`
    data_view_prototype,
    /// `%Int8Array.prototype%`
    int8_array_prototype,
    /// `%Uint8Array.prototype%`
    uint8_array_prototype,
    /// `%Uint8ClampedArray.prototype%`
    uint8_clamped_array_prototype,
    /// `%Int16Array.prototype%`
    int16_array_prototype,
    /// `%Uint16Array.prototype%`
    uint16_array_prototype,
    /// `%Int32Array.prototype%`
    int32_array_prototype,
    /// `%Uint32Array.prototype%`
    uint32_array_prototype,
    /// `%Float16Array.prototype%`
    float16_array_prototype,
    /// `%Float32Array.prototype%`
    float32_array_prototype,
    /// `%Float64Array.prototype%`
    float64_array_prototype,
    /// `%BigInt64Array.prototype%`
    big_int64_array_prototype,
    /// `%BigUint64Array.prototype%`
    big_uint64_array_prototype,
    /// `%SuppressedError.prototype%`
    suppressed_error_prototype,
    /// `%DisposableStack.prototype%`
    disposable_stack_prototype,
    /// `%AsyncDisposableStack.prototype%`
    async_disposable_stack_prototype,
}

/// Which realm of the VM something belongs to: a small number, so every
/// function object can carry its `[[Realm]]` and a call can tell whether
/// it crosses realms with one comparison. The VM's first realm is
/// [`RealmId::MAIN`]; [`Vm::create_realm`](crate::Vm::create_realm) numbers
/// the others in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct RealmId(pub(crate) u32);

impl RealmId {
    /// The realm a VM starts with.
    pub const MAIN: RealmId = RealmId(0);

    /// The realm's position among the VM's realms.
    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// The realm at position `index` (as [`RealmId::index`] gave it); a
    /// position no realm has names no realm, which the VM's realm lookups
    /// report as missing.
    pub fn from_index(index: usize) -> RealmId {
        RealmId(u32::try_from(index).unwrap_or(u32::MAX))
    }
}

/// A global `let`/`const`/`class` binding.
#[derive(Clone, Copy, Debug)]
pub struct GlobalLexical {
    /// The value ([`Value::HOLE`] before initialisation).
    pub value: Value,
    /// Whether assignment is allowed.
    pub mutable: bool,
}

/// A realm: intrinsics, the global object and the global declarative
/// record.
pub struct Realm {
    /// `[[GlobalObject]]`.
    pub global: Gc<JsObject>,
    /// The global environment's declarative record, by atom, in declaration
    /// order. Bindings are never removed, so an index names the same binding
    /// for the realm's lifetime and the length only grows: the global
    /// inline caches keep both.
    pub global_lexicals: indexmap::IndexMap<Gc<JsString>, GlobalLexical, ahash::RandomState>,
    /// `[[Intrinsics]]`.
    pub intrinsics: Intrinsics,
    /// `%RegExp%`'s legacy static slots (`RegExp.$1`, `RegExp.lastMatch`, …).
    pub legacy_regexp: crate::builtins::regexp::legacy::LegacyRegExpStatics,
    /// RegExp's compiled-program cache and fast-path state.
    pub regexp: crate::builtins::regexp::RegExpRealmState,
    /// Where %Promise.prototype%'s `constructor` was last found.
    pub promise: crate::promise::PromiseRealmState,
}

impl Realm {
    /// Creates the realm's objects with their prototype links; builtins fill
    /// in the properties.
    pub(crate) fn new(heap: &mut Heap, root: Gc<Shape>, id: RealmId) -> Self {
        let object_prototype = heap.alloc(JsObject::new(root, None, ObjectKind::Ordinary));
        // Constructors and function intrinsics are made by the builtins;
        // until then their slots hold %Object.prototype%.
        let mut intrinsics = Intrinsics::filled_with(object_prototype);
        Self::create_prototypes(heap, root, id, &mut intrinsics);
        let global = heap.alloc(JsObject::new(root, Some(object_prototype), ObjectKind::Ordinary));
        let empty = heap.alloc(JsString::from_rust_str(""));
        Self {
            global,
            global_lexicals: indexmap::IndexMap::default(),
            legacy_regexp: crate::builtins::regexp::legacy::LegacyRegExpStatics::new(empty),
            regexp: crate::builtins::regexp::RegExpRealmState::default(),
            promise: crate::promise::PromiseRealmState::default(),
            intrinsics,
        }
    }

    /// The prototype objects of `intr` (all but `%Object.prototype%`), each
    /// of its kind, linked to their parents. The binary-data prototypes are
    /// made by their builtins.
    fn create_prototypes(heap: &mut Heap, root: Gc<Shape>, id: RealmId, intr: &mut Intrinsics) {
        let obj = |heap: &mut Heap, proto: Option<Gc<JsObject>>, kind: ObjectKind| {
            heap.alloc(JsObject::new(root, proto, kind))
        };
        let p = Some(intr.object_prototype);
        intr.function_prototype = obj(heap, p, ObjectKind::Function(crate::builtins::function::empty_function(id)));
        intr.array_prototype = obj(heap, p, ObjectKind::Array { length: 0, length_writable: true });
        intr.string_prototype = {
            let empty = heap.alloc(JsString::from_rust_str(""));
            obj(heap, p, ObjectKind::String(empty))
        };
        intr.number_prototype = obj(heap, p, ObjectKind::Number(0.0));
        intr.boolean_prototype = obj(heap, p, ObjectKind::Boolean(false));
        intr.symbol_prototype = obj(heap, p, ObjectKind::Ordinary);
        intr.bigint_prototype = obj(heap, p, ObjectKind::Ordinary);
        intr.error_prototype = obj(heap, p, ObjectKind::Ordinary);
        let e = Some(intr.error_prototype);
        intr.eval_error_prototype = obj(heap, e, ObjectKind::Ordinary);
        intr.range_error_prototype = obj(heap, e, ObjectKind::Ordinary);
        intr.reference_error_prototype = obj(heap, e, ObjectKind::Ordinary);
        intr.syntax_error_prototype = obj(heap, e, ObjectKind::Ordinary);
        intr.type_error_prototype = obj(heap, e, ObjectKind::Ordinary);
        intr.uri_error_prototype = obj(heap, e, ObjectKind::Ordinary);
        intr.aggregate_error_prototype = obj(heap, e, ObjectKind::Ordinary);
        intr.iterator_prototype = obj(heap, p, ObjectKind::Ordinary);
        let i = Some(intr.iterator_prototype);
        intr.array_iterator_prototype = obj(heap, i, ObjectKind::Ordinary);
        intr.string_iterator_prototype = obj(heap, i, ObjectKind::Ordinary);
        intr.generator_prototype = obj(heap, i, ObjectKind::Ordinary);
        intr.regexp_prototype = obj(heap, p, ObjectKind::Ordinary);
        intr.regexp_string_iterator_prototype = obj(heap, i, ObjectKind::Ordinary);
        intr.generator_function_prototype = obj(heap, Some(intr.function_prototype), ObjectKind::Ordinary);
        intr.map_prototype = obj(heap, p, ObjectKind::Ordinary);
        intr.set_prototype = obj(heap, p, ObjectKind::Ordinary);
        intr.map_iterator_prototype = obj(heap, i, ObjectKind::Ordinary);
        intr.set_iterator_prototype = obj(heap, i, ObjectKind::Ordinary);
        intr.weak_map_prototype = obj(heap, p, ObjectKind::Ordinary);
        intr.weak_set_prototype = obj(heap, p, ObjectKind::Ordinary);
        intr.promise_prototype = obj(heap, p, ObjectKind::Ordinary);
        intr.async_function_prototype = obj(heap, Some(intr.function_prototype), ObjectKind::Ordinary);
        intr.async_iterator_prototype = obj(heap, p, ObjectKind::Ordinary);
        intr.async_from_sync_iterator_prototype = obj(heap, Some(intr.async_iterator_prototype), ObjectKind::Ordinary);
        intr.async_generator_function_prototype = obj(heap, Some(intr.function_prototype), ObjectKind::Ordinary);
        intr.async_generator_prototype = obj(heap, Some(intr.async_iterator_prototype), ObjectKind::Ordinary);
        intr.weak_ref_prototype = obj(heap, p, ObjectKind::Ordinary);
        intr.date_prototype = obj(heap, p, ObjectKind::Ordinary);
        intr.finalization_registry_prototype = obj(heap, p, ObjectKind::Ordinary);
        intr.iterator_helper_prototype = obj(heap, i, ObjectKind::Ordinary);
        intr.wrap_for_valid_iterator_prototype = obj(heap, i, ObjectKind::Ordinary);
        intr.suppressed_error_prototype = obj(heap, e, ObjectKind::Ordinary);
        intr.disposable_stack_prototype = obj(heap, p, ObjectKind::Ordinary);
        intr.async_disposable_stack_prototype = obj(heap, p, ObjectKind::Ordinary);
    }
}

// SAFETY: the global object, global lexical bindings, intrinsics and the
// legacy RegExp statics.
unsafe impl Trace for Realm {
    fn trace(&self, tracer: &mut Tracer) {
        self.global.trace(tracer);
        for (name, binding) in &self.global_lexicals {
            name.trace(tracer);
            binding.value.trace(tracer);
        }
        for object in self.intrinsics.all() {
            object.trace(tracer);
        }
        self.legacy_regexp.trace(tracer);
        self.regexp.trace(tracer);
        self.promise.trace(tracer);
    }
}
