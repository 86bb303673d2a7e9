//! Unit tests of job layouts.

use js_async_context::ContextState;
use js_async_context::Frame;
use js_gc::Heap;
use js_microtask::{JobFlags, JobKind};

use super::{
    ContinuationJob, JobError, PROMISE_REACTION_JOB, PROMISE_RESOLVE_THENABLE_JOB, SETTLED_REJECTED, is_promise_job,
};
use crate::reaction::{ContextKind, ContextSlot, Continuation};
use crate::test_value::Num;

const RESUME: JobKind = JobKind::new(7);

#[test]
fn promise_job_kinds_are_recognised() {
    assert!(is_promise_job(PROMISE_REACTION_JOB));
    assert!(is_promise_job(PROMISE_RESOLVE_THENABLE_JOB));
    assert!(!is_promise_job(RESUME));
    assert!(!is_promise_job(JobKind::new(0xFF03)));
}

#[test]
fn continuation_job_round_trips_outcome_and_payload() {
    let continuation = Continuation { job: RESUME, data: Num::Int(9) };
    let job = ContinuationJob::build(continuation, Num::Int(4), false, ContextSlot::none());
    assert_eq!(job.kind(), RESUME);
    assert_eq!(job.context_frame(), None);
    assert_eq!(ContinuationJob::read(&job), ContinuationJob { data: Num::Int(9), outcome: Ok(Num::Int(4)) });
    let job = ContinuationJob::build(continuation, Num::Int(5), true, ContextSlot::none());
    assert!(job.flags().contains(SETTLED_REJECTED));
    assert_eq!(ContinuationJob::read(&job).outcome, Err(Num::Int(5)));
}

#[test]
fn continuation_job_carries_the_frame_in_the_fourth_slot() {
    // SAFETY: this heap's cells are used only with it, and not after it is dropped.
    let mut heap = unsafe { Heap::new() };
    let mut state: ContextState<Num> = ContextState::new();
    let variable = state.create_variable().expect("a variable");
    let frame = Frame::new(&mut heap, variable, Num::Int(1));
    let slot = ContextSlot { value: Num::Cell(frame.as_any()), is_frame: true };
    let job = ContinuationJob::build(Continuation { job: RESUME, data: Num::Int(0) }, Num::Int(0), false, slot);
    assert!(job.flags().contains(JobFlags::CONTEXT_FRAME));
    assert_eq!(crate::context::job_frame(&job), Some(frame));
}

#[test]
fn continuation_job_carries_an_embedder_context_in_the_fourth_slot_without_the_flag() {
    let slot = ContextSlot::embedder(Num::Int(42));
    let job = ContinuationJob::build(Continuation { job: RESUME, data: Num::Int(0) }, Num::Int(5), true, slot);
    assert!(!job.flags().contains(JobFlags::CONTEXT_FRAME));
    assert!(job.flags().contains(SETTLED_REJECTED));
    assert_eq!(job.embedder_context(), Some(Num::Int(42)));
    assert_eq!(crate::context::job_frame(&job), None);
    assert_eq!(crate::context::job_context(&job), ContextKind::Embedder(Num::Int(42)));
    assert_eq!(ContinuationJob::read(&job).outcome, Err(Num::Int(5)));
}

#[test]
fn job_errors_name_the_kind() {
    let error = JobError::MalformedJob(PROMISE_REACTION_JOB, 2);
    assert!(error.to_string().contains("slot 2"));
    assert!(JobError::NotAPromiseJob(RESUME).to_string().contains("not a promise job"));
}
