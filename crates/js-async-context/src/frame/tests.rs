use std::num::NonZeroU32;

use js_gc::{Gc, Heap, HeapConfig};

use super::Frame;
use crate::variable::VariableId;

fn var(n: u32) -> VariableId {
    VariableId::new(NonZeroU32::new(n).unwrap())
}

fn heap() -> Heap {
    // SAFETY: this heap's cells are used only with it, and not after it is dropped.
    unsafe { Heap::with_config(HeapConfig { stress: false, ..HeapConfig::default() }) }
}

#[test]
fn with_adds_and_replaces_without_touching_the_old_frame() {
    let mut heap = heap();
    let a = Frame::new(&mut heap, var(2), 20_u64);
    let b = a.with(&mut heap, var(1), 10);
    let c = b.with(&mut heap, var(3), 30);
    let d = c.with(&mut heap, var(2), 21);
    assert_eq!(a.bindings(&heap), [(var(2), 20)]);
    assert_eq!(b.bindings(&heap), [(var(1), 10), (var(2), 20)]);
    assert_eq!(c.bindings(&heap), [(var(1), 10), (var(2), 20), (var(3), 30)]);
    assert_eq!(d.bindings(&heap), [(var(1), 10), (var(2), 21), (var(3), 30)]);
    assert_eq!(d.get(&heap, var(2)), Some(21));
    assert_eq!(c.get(&heap, var(2)), Some(20));
    assert_eq!(a.get(&heap, var(1)), None);
    assert_ne!(c, d);
    assert_eq!(c, c);
}

#[test]
fn without_removes_one_binding() {
    let mut heap = heap();
    let frame = Frame::new(&mut heap, var(1), 1_u64).with(&mut heap, var(2), 2);
    let only_two = frame.without(&mut heap, var(1)).unwrap();
    assert_eq!(only_two.bindings(&heap), [(var(2), 2)]);
    assert_eq!(only_two.without(&mut heap, var(7)), Some(only_two));
    assert_eq!(only_two.without(&mut heap, var(2)), None);
    assert_eq!(frame.len(&heap), 2);
}

#[test]
fn bind_starts_from_no_frame() {
    let mut heap = heap();
    let first = Frame::bind(None, &mut heap, var(4), 4_u64);
    let second = Frame::bind(Some(first), &mut heap, var(4), 5);
    assert_eq!(first.get(&heap, var(4)), Some(4));
    assert_eq!(second.get(&heap, var(4)), Some(5));
}

#[test]
fn large_frames_are_searched_too() {
    let mut heap = heap();
    let mut frame = Frame::new(&mut heap, var(40), 40_u64);
    for n in (1..40).rev() {
        frame = frame.with(&mut heap, var(n), u64::from(n));
    }
    for n in 1..=40 {
        assert_eq!(frame.get(&heap, var(n)), Some(u64::from(n)));
    }
    assert_eq!(frame.get(&heap, var(41)), None);
}

#[test]
fn frames_round_trip_through_gc_any() {
    let mut heap = heap();
    let frame = Frame::new(&mut heap, var(1), 1_u64);
    assert_eq!(Frame::<u64>::from_any(frame.as_any()), Some(frame));
    assert_eq!(Frame::<u32>::from_any(frame.as_any()), None);
    assert_eq!(frame.as_any().type_name(), "AsyncContextFrame");
}

#[test]
fn a_frame_keeps_its_values_alive_and_dies_when_unreachable() {
    let mut heap = heap();
    let store: Gc<u64> = heap.alloc(7);
    let kept = Frame::new(&mut heap, var(1), store);
    let garbage_store = heap.alloc(8_u64);
    let _garbage = Frame::new(&mut heap, var(1), garbage_store);
    let mut roots = vec![kept];
    // SAFETY: only `kept` and what it reaches are used afterwards.
    let report = unsafe { heap.collect(&mut roots) };
    assert_eq!(report.freed_objects, 2, "the unreachable frame and its store");
    assert_eq!(report.live_objects, 2);
    assert_eq!(*kept.get(&heap, var(1)).unwrap().borrow(&heap), 7);
}
