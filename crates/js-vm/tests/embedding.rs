//! The embedder's API from outside the crate: handles keep values alive
//! through collections (also in gc-stress mode), host functions re-enter
//! the VM, and nothing leaks once handles are dropped.

use js_vm::{Handle, JsError, PropertyFlags, Uncaught, Vm, VmOptions};

fn stressed() -> Vm {
    let mut options = VmOptions::default();
    options.heap.stress = true;
    Vm::with_options(options)
}

/// The README's example, verbatim but for `?`.
#[test]
fn the_readme_example_runs() -> Result<(), JsError> {
    let mut vm = Vm::new();
    let double = Handle::function(&mut vm, "double", 1, |vm, _this, args| {
        let n = args.first().and_then(Handle::as_number).ok_or_else(|| JsError::type_error(vm, "not a number"))?;
        Ok(Handle::number(n * 2.0))
    });
    vm.global_object().define_property(&mut vm, "double", &double, PropertyFlags::METHOD)?;
    let result = vm.eval_script("main.js", "Promise.resolve(21).then(double)")?;
    vm.run_microtasks()?;
    assert_eq!(result.promise_outcome(&vm).and_then(Result::ok).and_then(|v| v.as_number()), Some(42.0));
    Ok(())
}

#[test]
fn values_held_in_handles_survive_a_collection_at_every_safepoint() {
    let mut vm = stressed();
    let kept: Vec<Handle> = (0..20)
        .map(|i| vm.eval_script("make.js", &format!("({{ i: {i}, s: 'v' + {i}, a: [{i}] }})")).expect("runs"))
        .collect();
    vm.eval_script("churn.js", "let t = []; for (let i = 0; i < 2000; i++) t.push({ i }); t = null;").expect("runs");
    let shown: Vec<String> = kept.iter().map(|h| h.get(&mut vm, "s").expect("a property").display(&mut vm)).collect();
    assert_eq!(shown.first().map(String::as_str), Some("v0"));
    assert_eq!(shown.last().map(String::as_str), Some("v19"));
}

#[test]
fn host_functions_reenter_the_vm_and_recurse() {
    let mut vm = stressed();
    // depth(n) calls back into JavaScript, which calls depth(n - 1).
    let depth = Handle::function(&mut vm, "depth", 1, |vm, _, args| {
        let n = args.first().and_then(Handle::as_number).unwrap_or(0.0);
        if n <= 0.0 {
            return Ok(Handle::string(vm, "bottom"));
        }
        let inner = vm.eval_script("inner.js", &format!("'(' + depth({}) + ')'", n - 1.0))?;
        vm.collect_garbage();
        Ok(inner)
    });
    vm.global_object().set(&mut vm, "depth", &depth).expect("set");
    let out = vm.eval_script("main.js", "depth(5)").expect("runs");
    assert_eq!(out.to_rust_string(&mut vm).ok().as_deref(), Some("(((((bottom)))))"));
}

#[test]
fn dropped_handles_are_reclaimed() {
    let mut vm = Vm::new();
    let base = vm.handle_count();
    for i in 0..10_000 {
        let object = vm.eval_script("loop.js", &format!("({{ i: {i} }})")).expect("runs");
        let i_value = object.get(&mut vm, "i").expect("a property");
        assert_eq!(i_value.as_number(), Some(f64::from(i)));
    }
    assert_eq!(vm.handle_count(), base);
    vm.collect_garbage();
    assert_eq!(vm.handle_count(), base);
}

#[test]
fn errors_thrown_by_scripts_are_reported_as_node_does() {
    let mut vm = Vm::new();
    let error = vm.eval_script("main.js", "null.x").expect_err("throws");
    let JsError::Throw(thrown) = &error else { panic!("a thrown TypeError") };
    let report = thrown.uncaught_report(&mut vm, Uncaught::Exception);
    assert!(report.contains("TypeError: Cannot read properties of null (reading 'x')"), "{report}");
    assert_eq!(error.to_string(), "uncaught JavaScript exception");
}
