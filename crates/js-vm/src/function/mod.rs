//! Function objects' internal slots: closures over compiled code, native
//! functions and bound functions.

use js_gc::{Gc, Trace, Tracer};

use crate::bytecode::Code;
use crate::environment::DeclarativeEnvironment;
use crate::interpreter::CallInfo;
use crate::object::{JsObject, ObjectKind};
use crate::realm::RealmId;
use crate::value::Value;
use crate::vm::{JsResult, Vm};

/// A native function's body.
pub type NativeFn = fn(&mut Vm, &CallInfo) -> JsResult<Value>;

/// The `[[Call]]`/`[[Construct]]` behaviour of a function object.
pub enum Function {
    /// An ECMAScript function object.
    Closure(Closure),
    /// A built-in function.
    Native(NativeFunction),
    /// A bound function exotic object.
    Bound(BoundFunction),
}

/// An ECMAScript function object's slots.
pub struct Closure {
    /// `[[ECMAScriptCode]]`.
    pub code: Gc<Code>,
    /// `[[Environment]]`.
    pub env: Option<Gc<DeclarativeEnvironment>>,
    /// The lexical `this` of an arrow function (captured when created).
    pub this_value: Value,
    /// The lexical `new.target` of an arrow function.
    pub new_target: Value,
    /// `[[HomeObject]]` of a method, for `super`.
    pub home_object: Option<Gc<JsObject>>,
    /// Class field initialiser function run on construction.
    pub fields: Option<Gc<JsObject>>,
}

/// A built-in function's slots.
pub struct NativeFunction {
    /// The behaviour for `[[Call]]`, and for `[[Construct]]` when
    /// `constructor` is set (the body sees `new_target`).
    pub call: NativeFn,
    /// Whether the function is a constructor.
    pub constructor: bool,
    /// A value the body can read (for functions made at run time, such as
    /// promise resolvers).
    pub data: Value,
    /// `[[Realm]]`: the realm whose intrinsics the body uses (the one
    /// current when the function was made).
    pub realm: RealmId,
}

/// A bound function's slots.
pub struct BoundFunction {
    /// `[[BoundTargetFunction]]`.
    pub target: Gc<JsObject>,
    /// `[[BoundThis]]`.
    pub this: Value,
    /// `[[BoundArguments]]`.
    pub args: Box<[Value]>,
}

impl Function {
    /// Whether `[[Construct]]` exists.
    pub fn is_constructor(&self, heap: &js_gc::Heap) -> bool {
        match self {
            Function::Closure(c) => {
                matches!(
                    c.code.borrow(heap).kind,
                    crate::bytecode::CodeKind::Normal | crate::bytecode::CodeKind::ClassConstructor { .. }
                )
            }
            Function::Native(n) => n.constructor,
            Function::Bound(b) => b.target.borrow(heap).is_constructor(heap),
        }
    }
}

/// `GetFunctionRealm` (§7.3.24): the realm of a function object, through
/// bound functions to their targets and proxies to theirs (a `TypeError`
/// for a revoked proxy); the current realm for anything else.
pub fn get_function_realm(vm: &mut Vm, mut f: Gc<JsObject>) -> JsResult<RealmId> {
    loop {
        let next = match &f.borrow(&vm.heap).kind {
            // A closure's `[[Realm]]` is kept in its code (see `Code::realm`).
            ObjectKind::Function(Function::Closure(c)) => return Ok(c.code.borrow(&vm.heap).realm),
            ObjectKind::Function(Function::Native(n)) => return Ok(n.realm),
            ObjectKind::Function(Function::Bound(b)) => b.target,
            ObjectKind::Proxy(p) => match p.target {
                Some(target) => target,
                None => {
                    return Err(vm.type_error("Cannot perform 'GetFunctionRealm' on a proxy that has been revoked"));
                }
            },
            _ => return Ok(vm.realm_id),
        };
        f = next;
    }
}

// SAFETY: every Gc and Value slot is reported.
unsafe impl Trace for Function {
    fn trace(&self, tracer: &mut Tracer) {
        match self {
            Function::Closure(c) => {
                c.code.trace(tracer);
                c.env.trace(tracer);
                c.this_value.trace(tracer);
                c.new_target.trace(tracer);
                c.home_object.trace(tracer);
                c.fields.trace(tracer);
            }
            Function::Native(n) => n.data.trace(tracer),
            Function::Bound(b) => {
                b.target.trace(tracer);
                b.this.trace(tracer);
                b.args.trace(tracer);
            }
        }
    }
}
