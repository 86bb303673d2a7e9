//! Several realms in one VM (what test262's `$262.createRealm()` uses):
//! every function runs in the realm it was made in, and the caller's realm
//! comes back when it returns, throws or suspends. Node 20 only has realms
//! through `vm.createContext`, so the node-differential programs can't
//! check this.

mod support;

use js_vm::{PropertyFlags, RealmId, Vm, VmOptions};

/// A VM whose first realm sees a second realm's global object as `other`.
fn two_realms(stress: bool) -> (Vm, support::Capture) {
    let mut options = VmOptions::default();
    options.heap.stress = stress;
    let mut vm = Vm::with_options(options);
    let capture = support::Capture::default();
    vm.set_console(Box::new(capture.clone()));
    let other = vm.create_realm();
    assert_ne!(other, RealmId::MAIN);
    let other_global = vm.realm_global(other).expect("the new realm has a global object");
    let global = vm.global_object();
    global.define_property(&mut vm, "other", &other_global, PropertyFlags::METHOD).expect("defined");
    (vm, capture)
}

const PROGRAM: &str = r#"
const log = (...v) => console.log(v.join(" "));
// Objects and errors come from the realm of the function that makes them.
const makeArray = other.Function("return [];");
log("array", Object.getPrototypeOf(makeArray()) === other.Array.prototype);
try { other.eval("(class {})")(); } catch (e) { log("class call", e instanceof other.TypeError); }
try { other.Array.prototype.map.call([], 1); } catch (e) { log("builtin", e instanceof other.TypeError); }
log("back", Object.getPrototypeOf([]) === Array.prototype);
// Generators resume in their own realm.
const gen = other.eval("(function* () { yield []; yield []; })")();
log("yield", Object.getPrototypeOf(gen.next().value) === other.Array.prototype,
  Object.getPrototypeOf([]) === Array.prototype,
  Object.getPrototypeOf(gen.next().value) === other.Array.prototype);
// A sloppy function's `this` for undefined is its own realm's global.
log("this", other.Function("return this;")() === other);
// GetPrototypeFromConstructor falls back to the newTarget's realm.
const newTarget = new other.Function();
newTarget.prototype = null;
log("proto", Object.getPrototypeOf(Reflect.construct(Boolean, [], newTarget)) === other.Boolean.prototype);
// ArraySpeciesCreate: another realm's %Array% makes an array of this realm.
const foreign = other.eval("[1, 2]");
log("species", Object.getPrototypeOf(Array.prototype.map.call(foreign, (x) => x)) === Array.prototype);
// Async functions resume in their realm after an await.
other.eval("(async function () { await 0; return []; })")().then((a) => {
  log("await", Object.getPrototypeOf(a) === other.Array.prototype, Object.getPrototypeOf([]) === Array.prototype);
});
"#;

const EXPECTED: &str = "array true\nclass call true\nbuiltin true\nback true\nyield true true true\nthis true\n\
proto true\nspecies true\nawait true true\n";

#[test]
fn functions_run_in_their_own_realm() {
    let (mut vm, capture) = two_realms(false);
    vm.eval_script("realms.js", PROGRAM).expect("the program runs");
    assert!(matches!(vm.run_event_loop(), Ok(None)), "the event loop ends normally");
    assert_eq!(capture.text(), EXPECTED);
    assert_eq!(vm.current_realm(), RealmId::MAIN);
}

#[test]
fn functions_run_in_their_own_realm_under_gc_stress() {
    let (mut vm, capture) = two_realms(true);
    vm.eval_script("realms.js", PROGRAM).expect("the program runs");
    assert!(matches!(vm.run_event_loop(), Ok(None)), "the event loop ends normally");
    assert_eq!(capture.text(), EXPECTED);
}

#[test]
fn scripts_run_in_the_realm_asked_for() {
    let (mut vm, _) = two_realms(false);
    let other = RealmId::from_index(1);
    vm.eval_script_in_realm(other, "a.js", "var marker = 'other';").expect("runs");
    let seen = vm.eval_script("b.js", "typeof marker + ' ' + other.marker").expect("runs");
    assert_eq!(seen.to_rust_string(&mut vm).expect("a string"), "undefined other");
    // A throw inside the other realm leaves the first realm current.
    assert!(vm.eval_script_in_realm(other, "c.js", "throw new Error('x')").is_err());
    assert_eq!(vm.current_realm(), RealmId::MAIN);
    assert!(vm.eval_script_in_realm(RealmId::from_index(7), "d.js", "1").is_err());
}
