//! `impl PromiseHost for Vm`: each spec operation the promise algorithms
//! need, over the object model.

use js_async_context::{ContextHost, ContextState};
use js_gc::{Gc, Heap};
use js_microtask::Job;
use js_promise::{PromiseError, PromiseHost, RejectionOperation, ResolvingFunction};

use super::{PromiseSlots, ResolvingData, as_promise, new_promise_with_proto, resolving_function_call};
use crate::abstract_ops::is_callable;
use crate::object::internal_methods::{call, get, ordinary_get_own_property};
use crate::object::{Accessor, JsObject, ObjectKind, PropertyKey};
use crate::subsystem_host::VmHost;
use crate::value::Value;
use crate::vm::{Exception, JsResult, Vm};

impl Vm {
    /// A completion as the promise algorithms take it: the thrown value, or
    /// `undefined` with [`Vm::terminating`] set for a termination (which no
    /// promise may swallow; the microtask loop re-raises it).
    pub(crate) fn thrown_value(&mut self, result: JsResult<Value>) -> Result<Value, Value> {
        match result {
            Ok(v) => Ok(v),
            Err(Exception::Throw(v)) => Err(v),
            Err(Exception::Terminated) => {
                self.jobs.terminating = true;
                Err(Value::UNDEFINED)
            }
        }
    }

    /// Whether `o` certainly has no `then` property, found without a
    /// lookup (see [`super::realm_state`]): an ordinary object or array
    /// inheriting from this realm's %Object.prototype% (whose own
    /// prototype is always null), with neither shape holding `then`.
    fn has_no_then(&mut self, o: Gc<JsObject>) -> bool {
        let object_prototype = self.realm.intrinsics.object_prototype;
        let object = o.borrow(&self.heap);
        if object.proto != Some(object_prototype)
            || !matches!(object.kind, ObjectKind::Ordinary | ObjectKind::Array { .. })
        {
            return false;
        }
        let (Some(shape), Some(prototype_shape)) = (object.shape(), object_prototype.borrow(&self.heap).shape()) else {
            return false;
        };
        if let Some((known, known_prototype)) = self.realm.promise.then_absent
            && Gc::ptr_eq(known, shape)
            && Gc::ptr_eq(known_prototype, prototype_shape)
        {
            return true;
        }
        let key = PropertyKey::String(self.names.then);
        let absent =
            shape.borrow(&self.heap).lookup(key).is_none() && prototype_shape.borrow(&self.heap).lookup(key).is_none();
        if absent {
            self.realm.promise.then_absent = Some((shape, prototype_shape));
        }
        absent
    }

    /// Whether `Invoke(p, "then", …)` on the native promise `p`, whose
    /// `constructor` the caller found to be %Promise%
    /// ([`PromiseHost::promise_constructor_is_intact`], which also checks
    /// that its prototype is this realm's %Promise.prototype%), would call
    /// %Promise.prototype.then% and its SpeciesConstructor give %Promise%,
    /// with no observable step on the way: `p` has no own properties, that
    /// prototype's own `then` is the intrinsic data property, and
    /// %Promise%'s `@@species` still has the intrinsic getter (which returns
    /// its receiver).
    pub(crate) fn promise_then_is_intact_given_constructor(&mut self, p: Gc<JsObject>) -> bool {
        if !p.borrow(&self.heap).shape().is_some_and(|s| Gc::ptr_eq(s, self.root_shape)) {
            return false;
        }
        let (prototype, constructor) =
            (self.realm.intrinsics.promise_prototype, self.realm.intrinsics.promise_constructor);
        let then_key = PropertyKey::String(self.names.then);
        let mut cache = self.realm.promise.then_slot;
        let then = own_slot(&self.heap, prototype, then_key, &mut cache, false);
        self.realm.promise.then_slot = cache;
        if then != Some(Value::object(self.realm.intrinsics.promise_then)) {
            return false;
        }
        let species_key = PropertyKey::Symbol(self.symbols.species);
        let mut cache = self.realm.promise.species_slot;
        let species = own_slot(&self.heap, constructor, species_key, &mut cache, true);
        self.realm.promise.species_slot = cache;
        species.and_then(Value::as_internal::<Accessor>).is_some_and(|accessor| {
            accessor.borrow(&self.heap).get == Value::object(self.realm.intrinsics.promise_species_getter)
        })
    }

    /// Re-raises a termination recorded by [`Vm::thrown_value`].
    pub(crate) fn take_termination(&mut self) -> JsResult<()> {
        if std::mem::take(&mut self.jobs.terminating) { Err(Exception::Terminated) } else { Ok(()) }
    }
}

/// What `object`'s own property `key` holds in its slot (an [`Accessor`]
/// cell when `accessor`), if the property is of that kind; `cache` keeps
/// the shape and slot it was found in, which answer while the object keeps
/// that shape (attribute changes and deletions leave a shape, so the kind
/// and slot are still right).
fn own_slot(
    heap: &js_gc::Heap,
    object: Gc<JsObject>,
    key: PropertyKey,
    cache: &mut Option<(Gc<crate::object::Shape>, u32)>,
    accessor: bool,
) -> Option<Value> {
    let o = object.borrow(heap);
    let shape = o.shape()?;
    if let Some((known, slot)) = *cache
        && Gc::ptr_eq(known, shape)
    {
        return Some(o.slot(slot));
    }
    let info = shape.borrow(heap).lookup(key)?;
    if info.attrs.is_accessor() != accessor {
        return None;
    }
    *cache = Some((shape, info.slot));
    Some(o.slot(info.slot))
}

impl ContextHost<Value> for VmHost<'_> {
    fn context_state(&mut self) -> &mut ContextState<Value> {
        &mut self.jobs.async_context
    }
}

impl PromiseHost for VmHost<'_> {
    type Value = Value;
    type Promise = Gc<JsObject>;

    fn heap(&mut self) -> &mut Heap {
        &mut self.heap
    }

    fn promise_state(&mut self, promise: Gc<JsObject>) -> &mut PromiseSlots {
        match &mut promise.borrow_mut(&mut self.heap).kind {
            ObjectKind::Promise(state) => state,
            // The algorithms only receive promises from `as_promise` and
            // `new_promise`.
            _ => unreachable!("promise_state called on an object that is not a promise"),
        }
    }

    fn promise_value(&self, promise: Gc<JsObject>) -> Value {
        Value::object(promise)
    }

    fn as_promise(&self, value: Value) -> Option<Gc<JsObject>> {
        as_promise(self, value)
    }

    fn is_object(&self, value: Value) -> bool {
        value.is_object()
    }

    fn is_callable(&self, value: Value) -> bool {
        is_callable(self, value)
    }

    fn new_promise(&mut self) -> Gc<JsObject> {
        let proto = self.realm.intrinsics.promise_prototype;
        let promise = new_promise_with_proto(self, proto);
        // The await spec path holds this promise across `get_then`.
        self.keep_alive(Value::object(promise));
        promise
    }

    fn get_then(&mut self, value: Value) -> Result<Value, Value> {
        let Some(o) = value.as_object() else { return Ok(Value::UNDEFINED) };
        if self.has_no_then(o) {
            return Ok(Value::UNDEFINED);
        }
        let key = PropertyKey::String(self.names.then);
        let result = get(self, o, key, value);
        self.thrown_value(result)
    }

    fn promise_constructor_is_intact(&mut self, promise: Gc<JsObject>) -> bool {
        let constructor = Value::object(self.realm.intrinsics.promise_constructor);
        let proto = self.realm.intrinsics.promise_prototype;
        let object = promise.borrow(&self.heap);
        if object.proto != Some(proto) {
            return false;
        }
        // No own properties: the prototype's slot is the whole answer.
        let bare = object.shape().is_some_and(|s| Gc::ptr_eq(s, self.root_shape));
        if bare && let Some((shape, slot)) = self.realm.promise.constructor_slot {
            let prototype = proto.borrow(&self.heap);
            if prototype.shape().is_some_and(|s| Gc::ptr_eq(s, shape)) {
                return prototype.slot(slot) == constructor;
            }
        }
        let key = PropertyKey::String(self.names.constructor);
        // A promise and %Promise.prototype% are not proxies: no user code runs.
        if !bare && ordinary_get_own_property(self, promise, key).is_some() {
            return false;
        }
        let prototype = proto.borrow(&self.heap);
        let found = prototype.shape().and_then(|shape| Some((shape, shape.borrow(&self.heap).lookup(key)?)));
        match found {
            Some((shape, info)) if !info.attrs.is_accessor() => {
                let intact = prototype.slot(info.slot) == constructor;
                self.realm.promise.constructor_slot = Some((shape, info.slot));
                intact
            }
            _ => ordinary_get_own_property(self, proto, key)
                .is_some_and(|d| !d.is_accessor() && d.value == Some(constructor)),
        }
    }

    fn get_constructor(&mut self, value: Value) -> Result<Value, Value> {
        let Some(o) = value.as_object() else { return Ok(Value::UNDEFINED) };
        let key = PropertyKey::String(self.names.constructor);
        let result = get(self, o, key, value);
        self.thrown_value(result)
    }

    fn intrinsic_promise_constructor(&self) -> Value {
        Value::object(self.realm.intrinsics.promise_constructor)
    }

    fn call(&mut self, function: Value, this: Value, args: &[Value]) -> Result<Value, Value> {
        let result = call(self, function, this, args);
        self.thrown_value(result)
    }

    fn create_resolving_function(&mut self, function: ResolvingFunction<Gc<JsObject>>) -> Value {
        let data = self.heap.alloc(ResolvingData(function));
        let f = crate::builtins::native_function_with_data(
            self,
            "",
            1,
            resolving_function_call,
            Value::internal(data.as_any()),
        );
        Value::object(f)
    }

    fn type_error(&mut self, error: PromiseError) -> Value {
        let message = match error {
            PromiseError::SelfResolution => "Chaining cycle detected for promise #<Promise>".to_owned(),
            other => other.to_string(),
        };
        match Vm::type_error(self, &message) {
            Exception::Throw(v) => v,
            Exception::Terminated => Value::UNDEFINED,
        }
    }

    fn enqueue_job(&mut self, job: Job<Value>) {
        self.jobs.microtasks.enqueue(job);
    }

    fn promise_rejection_tracker(&mut self, promise: Gc<JsObject>, operation: RejectionOperation) {
        self.jobs.rejections.push((promise, operation));
    }
}
