//! `CreateDynamicFunction` (§20.2.1.1.1): the shared body of the Function,
//! GeneratorFunction, AsyncFunction and AsyncGeneratorFunction
//! constructors, which compile source text into a function of the
//! constructor's realm.

use std::rc::Rc;

use js_gc::Gc;

use crate::bytecode::Source;
use crate::interpreter::{CallInfo, prototype_from_constructor};
use crate::object::JsObject;
use crate::realm::Intrinsics;
use crate::value::Value;
use crate::vm::{JsResult, Vm};

/// Which kind of function a dynamic-function constructor makes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum DynamicFunctionKind {
    /// `Function`
    Normal,
    /// `GeneratorFunction`
    Generator,
    /// `AsyncFunction`
    Async,
    /// `AsyncGeneratorFunction`
    AsyncGenerator,
}

impl DynamicFunctionKind {
    /// The keyword that introduces such a function in source text.
    fn keyword(self) -> &'static str {
        match self {
            DynamicFunctionKind::Normal => "function",
            DynamicFunctionKind::Generator => "function*",
            DynamicFunctionKind::Async => "async function",
            DynamicFunctionKind::AsyncGenerator => "async function*",
        }
    }

    /// The `fallbackProto` intrinsic among `i`.
    fn fallback_prototype(self, i: &Intrinsics) -> Gc<JsObject> {
        match self {
            DynamicFunctionKind::Normal => i.function_prototype,
            DynamicFunctionKind::Generator => i.generator_function_prototype,
            DynamicFunctionKind::Async => i.async_function_prototype,
            DynamicFunctionKind::AsyncGenerator => i.async_generator_function_prototype,
        }
    }
}

/// `CreateDynamicFunction(constructor, newTarget, kind, args)`: the last
/// argument is the body, the others the parameters. The function closes
/// over the current realm's global environment (the constructor runs in its
/// own realm); its `[[Prototype]]` comes from `newTarget` (the constructor
/// itself for a call), falling back to `newTarget`'s realm's intrinsic.
pub(crate) fn create_dynamic_function(vm: &mut Vm, info: &CallInfo, kind: DynamicFunctionKind) -> JsResult<Value> {
    let new_target = info.new_target.unwrap_or(info.callee);
    let args = info.args(vm);
    let mut params = Vec::new();
    for &a in args.iter().take(args.len().saturating_sub(1)) {
        params.push(vm.rust_string(a)?);
    }
    let body = match args.last() {
        Some(&b) => vm.rust_string(b)?,
        None => String::new(),
    };
    let text = format!("({} anonymous({}\n) {{\n{body}\n}})", kind.keyword(), params.join(","));
    let source = Rc::new(Source::new("<anonymous>", text));
    crate::bytecode::inherit_referrer(vm, &source);
    let code = match crate::compiler::compile_script(vm, &source) {
        Ok(code) => code,
        Err(e) => return Err(vm.compile_error(&e)),
    };
    // The prototype is read after the source text parsed, as the spec
    // orders the steps (a `prototype` getter does not run for a
    // SyntaxError).
    let proto = prototype_from_constructor(vm, new_target, |i| kind.fallback_prototype(i))?;
    vm.keep_alive(Value::object(proto));
    let result = crate::interpreter::run_script(vm, code)?;
    let Some(function) = result.as_object().filter(|f| f.borrow(&vm.heap).is_callable()) else {
        return Err(vm.syntax_error("Function body did not produce a function"));
    };
    function.borrow_mut(&mut vm.heap).proto = Some(proto);
    Ok(result)
}
