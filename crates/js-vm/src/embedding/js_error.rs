//! [`JsError`]: how a call into the VM failed, as the embedder sees it.

use std::fmt;

use crate::embedding::Handle;
use crate::vm::{Exception, Vm};

/// Why a call into the VM did not complete normally.
#[derive(Debug, Clone)]
pub enum JsError {
    /// A JavaScript exception escaped: the thrown value.
    Throw(Handle),
    /// Execution stopped for a reason scripts cannot catch: the embedder's
    /// interrupt ([`Vm::interrupt_handle`]), a step or heap limit, or
    /// `process.exit()`; [`Vm::termination_reason`] says which.
    Terminated,
}

impl JsError {
    /// A new `TypeError` with `message`, for a host function to throw.
    pub fn type_error(vm: &mut Vm, message: &str) -> Self {
        let exception = vm.type_error(message);
        vm.js_error(exception)
    }

    /// A new `RangeError` with `message`, for a host function to throw.
    pub fn range_error(vm: &mut Vm, message: &str) -> Self {
        let exception = vm.range_error(message);
        vm.js_error(exception)
    }

    /// The thrown value, if this is an exception.
    pub fn thrown(&self) -> Option<&Handle> {
        match self {
            Self::Throw(value) => Some(value),
            Self::Terminated => None,
        }
    }
}

impl fmt::Display for JsError {
    /// A fixed description: the thrown value needs its VM to be shown
    /// ([`Handle::display`], [`Handle::uncaught_report`]).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Throw(_) => f.write_str("uncaught JavaScript exception"),
            Self::Terminated => f.write_str("JavaScript execution terminated"),
        }
    }
}

impl std::error::Error for JsError {}

impl Vm {
    /// The embedder's view of an exception: its thrown value rooted.
    pub(crate) fn js_error(&self, exception: Exception) -> JsError {
        match exception {
            Exception::Throw(value) => JsError::Throw(self.handle(value)),
            Exception::Terminated => JsError::Terminated,
        }
    }

    /// The exception an embedder's error throws into a script.
    pub(crate) fn exception_of(&mut self, error: &JsError) -> Exception {
        match error {
            JsError::Throw(value) => match self.handle_value(value) {
                Some(value) => Exception::Throw(value),
                None => self.foreign_handle_error(),
            },
            JsError::Terminated => Exception::Terminated,
        }
    }

    /// The `TypeError` for a handle another VM made.
    pub(crate) fn foreign_handle_error(&mut self) -> Exception {
        self.type_error("a handle made by another VM was passed to this one")
    }
}
