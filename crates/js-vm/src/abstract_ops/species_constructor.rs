//! `SpeciesConstructor(O, defaultConstructor)` (§7.3.22): the constructor
//! a builtin uses to make a derived object of `O`'s kind, so that
//! subclasses (and objects that only pretend to be one) pick it.

use js_gc::Gc;

use crate::interpreter::is_constructor;
use crate::object::internal_methods::get;
use crate::object::{JsObject, PropertyKey};
use crate::value::Value;
use crate::vm::{JsResult, Vm};

/// `O.constructor[@@species]` when it is a constructor, `default` when
/// `constructor` is undefined or the species is undefined or null; a
/// TypeError when `constructor` is not an object or the species is not a
/// constructor.
pub fn species_constructor(vm: &mut Vm, o: Gc<JsObject>, default: Gc<JsObject>) -> JsResult<Gc<JsObject>> {
    let key = PropertyKey::String(vm.names.constructor);
    let c = get(vm, o, key, Value::object(o))?;
    if c.is_undefined() {
        return Ok(default);
    }
    let Some(c) = c.as_object() else {
        return Err(vm.type_error("object.constructor is not an object"));
    };
    let species = PropertyKey::Symbol(vm.symbols.species);
    let s = get(vm, c, species, Value::object(c))?;
    if s.is_nullish() {
        return Ok(default);
    }
    match s.as_object() {
        Some(s) if is_constructor(vm, s) => Ok(s),
        _ => Err(vm.type_error("object.constructor[Symbol.species] is not a constructor")),
    }
}
