//! Rust functions scripts can call: [`Handle::function`].
//!
//! The closure lives in a holder object (kind
//! [`ObjectKind::HostFunctionBody`]) kept in the function object's data
//! slot, so it is freed with the function. Its arguments reach it as
//! handles: they stay valid whatever the closure runs.

use std::rc::Rc;

use crate::builtins::native_function_with_data;
use crate::embedding::{Handle, JsError};
use crate::interpreter::CallInfo;
use crate::object::ObjectKind;
use crate::value::Value;
use crate::vm::{JsResult, Vm};

/// The body of a host function: called with the VM, `this` and the
/// arguments; returns the result or the error to throw.
pub(crate) type HostFunctionBody = dyn Fn(&mut Vm, &Handle, &[Handle]) -> Result<Handle, JsError>;

impl Handle {
    /// A function object named `name` with `length` whose calls run `body`
    /// (a plain function, not a constructor: `new` on it throws).
    ///
    /// The closure may keep handles; they are roots for as long as the
    /// function object lives, so a closure holding a handle to its own
    /// function keeps both alive until the VM is dropped.
    ///
    /// ```
    /// use js_vm::{Handle, JsError, Vm};
    ///
    /// let mut vm = Vm::new();
    /// let twice = Handle::function(&mut vm, "twice", 1, |vm, _this, args| {
    ///     let n = args.first().and_then(Handle::as_number).ok_or_else(|| JsError::type_error(vm, "not a number"))?;
    ///     Ok(Handle::number(n * 2.0))
    /// });
    /// vm.global_object().set(&mut vm, "twice", &twice).unwrap();
    /// let four = vm.eval_script("main.js", "twice(2)").unwrap();
    /// assert_eq!(four.as_number(), Some(4.0));
    /// let thrown = vm.eval_script("main.js", "twice('x')").unwrap_err();
    /// assert_eq!(thrown.thrown().unwrap().display(&mut vm).lines().next(), Some("TypeError: not a number"));
    /// ```
    pub fn function(
        vm: &mut Vm,
        name: &str,
        length: u32,
        body: impl Fn(&mut Vm, &Self, &[Self]) -> Result<Self, JsError> + 'static,
    ) -> Self {
        let body: Rc<HostFunctionBody> = Rc::new(body);
        let holder = vm.new_object_of_kind(None, ObjectKind::HostFunctionBody(body));
        let function = native_function_with_data(vm, name, length, call_host_function, Value::object(holder));
        vm.handle(Value::object(function))
    }
}

impl Handle {
    /// A host function like [`Handle::function`] that also has
    /// `[[IsHTMLDDA]]` (ECMA-262 Annex B.3.6, the `document.all` quirk):
    /// `typeof` on it gives `"undefined"`, ToBoolean gives `false`, and it
    /// is `==` to `null` and `undefined` (but not `===`). Calling it runs
    /// `body`; test262's `$262.IsHTMLDDA` returns null for no arguments or
    /// `""`.
    ///
    /// ```
    /// use js_vm::{Handle, Vm};
    ///
    /// let mut vm = Vm::new();
    /// let dda = Handle::html_dda_function(&mut vm, "all", 0, |_, _, _| Ok(Handle::null()));
    /// vm.global_object().set(&mut vm, "all", &dda).unwrap();
    /// let seen = vm.eval_script("main.js", "[typeof all, !all, all == null, all === undefined, all()].join()").unwrap();
    /// assert_eq!(seen.to_rust_string(&mut vm).unwrap(), "undefined,true,true,false,");
    /// ```
    pub fn html_dda_function(
        vm: &mut Vm,
        name: &str,
        length: u32,
        body: impl Fn(&mut Vm, &Self, &[Self]) -> Result<Self, JsError> + 'static,
    ) -> Self {
        let function = Self::function(vm, name, length, body);
        if let Some(o) = vm.handle_value(&function).and_then(Value::as_object) {
            o.borrow_mut(&mut vm.heap).is_html_dda = true;
            vm.html_dda_exists = true;
        }
        function
    }
}

/// The native body shared by every host function: hands the call to the
/// closure in the function's holder.
fn call_host_function(vm: &mut Vm, info: &CallInfo) -> JsResult<Value> {
    let holder = info.data(vm).as_object();
    let body = match holder.map(|h| &h.borrow(&vm.heap).kind) {
        Some(ObjectKind::HostFunctionBody(body)) => Rc::clone(body),
        _ => return Err(vm.type_error("not a host function")),
    };
    let this = vm.handle(info.this);
    let args: Vec<Handle> = (0..info.argc).map(|i| vm.handle(info.arg(vm, i))).collect();
    match body(vm, &this, &args) {
        Ok(result) => vm.handle_value(&result).ok_or_else(|| vm.foreign_handle_error()),
        Err(JsError::Terminated) => {
            if vm.termination_reason().is_none() {
                vm.set_termination_reason(crate::TerminationReason::Interrupted);
            }
            Err(crate::vm::Exception::Terminated)
        }
        Err(error) => Err(vm.exception_of(&error)),
    }
}

#[cfg(test)]
mod tests {
    use crate::{Handle, JsError, Vm};

    #[test]
    fn arguments_and_this_arrive_as_handles_that_survive_collections() {
        let mut vm = Vm::new();
        let keep = Handle::function(&mut vm, "keep", 2, |vm, this, args| {
            vm.eval_script("churn.js", "for (let i = 0; i < 1000; i++) ({ i }); 0")?;
            vm.collect_garbage();
            let first = args[0].get(vm, "name")?.to_rust_string(vm)?;
            let own = this.get(vm, "tag")?.to_rust_string(vm)?;
            Ok(Handle::string(vm, &format!("{first}/{own}/{}", args.len())))
        });
        vm.global_object().set(&mut vm, "keep", &keep).expect("set");
        let out = vm.eval_script("main.js", "({ tag: 't', keep }).keep({ name: 'n' + 1 }, 2, 3)").expect("runs");
        assert_eq!(out.to_rust_string(&mut vm).ok().as_deref(), Some("n1/t/3"));
    }

    #[test]
    fn a_host_function_throws_what_it_returns_as_an_error() {
        let mut vm = Vm::new();
        let fail = Handle::function(&mut vm, "fail", 0, |vm, _, _| Err(JsError::range_error(vm, "too far")));
        vm.global_object().set(&mut vm, "fail", &fail).expect("set");
        let caught = vm.eval_script("main.js", "try { fail() } catch (e) { `${e.name}: ${e.message}` }").expect("runs");
        assert_eq!(caught.to_rust_string(&mut vm).ok().as_deref(), Some("RangeError: too far"));
        let constructed = vm.eval_script("main.js", "try { new fail() } catch (e) { e.name }").expect("runs");
        assert_eq!(constructed.to_rust_string(&mut vm).ok().as_deref(), Some("TypeError"));
    }

    #[test]
    fn returning_terminated_stops_the_script_uncatchably() {
        let mut vm = Vm::new();
        let stop = Handle::function(&mut vm, "stop", 0, |_, _, _| Err(JsError::Terminated));
        vm.global_object().set(&mut vm, "stop", &stop).expect("set");
        let result = vm.eval_script("main.js", "try { stop() } catch { 'caught' }");
        assert!(matches!(result, Err(JsError::Terminated)));
    }

    #[test]
    fn the_closure_is_freed_with_its_function() {
        let mut vm = Vm::new();
        let base = vm.handle_count();
        let captured = vm.eval_script("a.js", "({ big: 'x'.repeat(10) })").expect("runs");
        let f = Handle::function(&mut vm, "f", 0, move |_, _, _| Ok(captured.clone()));
        assert_eq!(vm.handle_count(), base + 2);
        drop(f);
        vm.collect_garbage();
        // The function died, its closure with it, and the handle it held.
        vm.collect_garbage();
        assert_eq!(vm.handle_count(), base);
    }
}
