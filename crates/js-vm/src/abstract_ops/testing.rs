//! Testing operations of §7.2 that look through proxies.

use crate::object::ObjectKind;
use crate::value::Value;
use crate::vm::{JsResult, Vm};

/// `IsArray` (§7.2.2): an Array exotic object, or a proxy whose target is
/// one (followed through proxy chains); a revoked proxy throws.
pub fn is_array(vm: &mut Vm, v: Value) -> JsResult<bool> {
    let Some(mut o) = v.as_object() else { return Ok(false) };
    loop {
        match &o.borrow(&vm.heap).kind {
            ObjectKind::Array { .. } => return Ok(true),
            ObjectKind::Proxy(p) => match p.target {
                Some(target) => o = target,
                None => {
                    return Err(vm.type_error("Cannot perform 'IsArray' on a proxy that has been revoked"));
                }
            },
            _ => return Ok(false),
        }
    }
}
