//! The register machine's instruction set.
//!
//! Operands name registers of the current frame (`Reg`), indices into the
//! code's constant pool (`name`, `index`: property-key atoms, strings,
//! numbers), inline-cache slots (`ic`) and absolute jump targets.

/// A register of the current frame. Register 0 holds `this`; the parameters
/// follow.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Reg(pub u16);

/// An index into the code's constant pool.
pub type ConstIndex = u32;

/// An absolute instruction index.
pub type Target = u32;

/// An index into the code's inline caches.
pub type IcIndex = u32;

/// The comparison of a fused compare-and-branch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CompareOp {
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
    /// `===`
    StrictEq,
    /// `!==`
    StrictNe,
    /// `==`
    Eq,
    /// `!=`
    Ne,
}

/// A numeric binary operator (what it does to two Numbers and to two
/// BigInts is `interpreter::operators`' part).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NumericOp {
    /// `+` once neither operand is a string.
    Add,
    /// `-`
    Sub,
    /// `*`
    Mul,
    /// `/`
    Div,
    /// `%`
    Rem,
    /// `**`
    Exp,
    /// `&`
    BitAnd,
    /// `|`
    BitOr,
    /// `^`
    BitXor,
    /// `<<`
    Shl,
    /// `>>`
    Sar,
    /// `>>>`
    Shr,
}

/// One instruction. Operands follow one naming scheme, described in the
/// module docs and on each variant.
#[derive(Clone, Copy, Debug, PartialEq)]
#[allow(
    missing_docs,
    reason = "operands (dst, src, lhs, rhs, obj, key, target…) are named uniformly; each variant documents its meaning"
)]
pub enum Instruction {
    /// `dst = undefined`
    LoadUndefined { dst: Reg },
    /// `dst = null`
    LoadNull { dst: Reg },
    /// `dst = value`
    LoadBool { dst: Reg, value: bool },
    /// `dst = <TDZ marker>`
    LoadHole { dst: Reg },
    /// `dst = value` for small integers.
    LoadInt { dst: Reg, value: i32 },
    /// `dst = constants[index]`
    LoadConst { dst: Reg, index: ConstIndex },
    /// `dst = src`
    Move { dst: Reg, src: Reg },

    /// Enters a scope whose captured bindings need a new environment.
    PushEnv { slots: u32 },
    /// Leaves the innermost environment.
    PopEnv,
    /// Replaces the innermost environment by a copy (a fresh per-iteration
    /// environment for `let` loop variables).
    CopyEnv,
    /// `dst = <current environment>`, to restore after an exception.
    SaveEnv { dst: Reg },
    /// Makes the environment in `src` current.
    RestoreEnv { src: Reg },
    /// Reads a captured binding `depth` environments out.
    GetEnv { dst: Reg, depth: u16, slot: u32 },
    /// Reads a captured binding, throwing a `ReferenceError` in its TDZ.
    GetEnvChecked { dst: Reg, depth: u16, slot: u32, name: ConstIndex },
    /// Reads an import binding of a module (§16.2.1.6.4
    /// `CreateImportBinding`): the slot holds either the imported binding's
    /// location (read through, `ReferenceError` in its TDZ) or a namespace
    /// object.
    GetImport { dst: Reg, depth: u16, slot: u32, name: ConstIndex },
    /// `dst = import.meta` of the running module.
    ImportMeta { dst: Reg },
    /// `dst = import(specifier, options)` (§13.3.10.1): a promise for the
    /// module's namespace; `options` is `Reg(u16::MAX)` when absent.
    ImportCall { dst: Reg, specifier: Reg, options: Reg },
    /// Writes a captured binding.
    SetEnv { src: Reg, depth: u16, slot: u32 },
    /// Writes a captured binding, throwing a `ReferenceError` in its TDZ.
    SetEnvChecked { src: Reg, depth: u16, slot: u32, name: ConstIndex },
    /// Throws a `ReferenceError` if `src` holds the TDZ marker.
    CheckTdz { src: Reg, name: ConstIndex },

    /// Reads a global binding (lexical declarations first, then the global
    /// object); `ReferenceError` if missing.
    GetGlobal { dst: Reg, name: ConstIndex, ic: IcIndex },
    /// `typeof name` for a global: `undefined` when missing.
    TypeofGlobal { dst: Reg, name: ConstIndex },
    /// HasBinding of the global environment (§9.1.1.4.1): whether a
    /// global lexical binding or a property of the global object named
    /// `name` exists, as a boolean in `dst`. Resolves a strict assignment's
    /// target before its right-hand side runs.
    HasGlobalBinding { dst: Reg, name: ConstIndex },
    /// Writes a global binding; in strict code a missing one is a
    /// `ReferenceError`.
    SetGlobal { src: Reg, name: ConstIndex, strict: bool, ic: u32 },
    /// Initialises a top-level `let`/`const`/`class` binding.
    InitGlobalLexical { src: Reg, name: ConstIndex },
    /// `CreateGlobalFunctionBinding`: defines the global `name` as the
    /// function `src` (deletable for eval code).
    InitGlobalFunction { src: Reg, name: ConstIndex, configurable: bool },
    /// `delete name` for an unqualified global name.
    DeleteGlobal { dst: Reg, name: ConstIndex },

    /// `dst = obj.name`
    GetNamed { dst: Reg, obj: Reg, name: ConstIndex, ic: IcIndex },
    /// `obj.name = src`
    SetNamed { obj: Reg, name: ConstIndex, src: Reg, ic: IcIndex, strict: bool },
    /// `dst = obj[key]`
    GetIndexed { dst: Reg, obj: Reg, key: Reg },
    /// `dst = obj[key]`, leaving `ToPropertyKey(key)` in `key` so the write
    /// of a compound assignment does not convert again.
    GetIndexedConvertKey { dst: Reg, obj: Reg, key: Reg },
    /// `obj[key] = src`
    SetIndexed { obj: Reg, key: Reg, src: Reg, strict: bool },
    /// `dst = GetSuperBase()`: the running method's home object's
    /// prototype, or null (taken when the super reference is made, before
    /// its key is converted).
    LoadSuperBase { dst: Reg },
    /// `dst = super[key]`: [[Get]] on `proto` (from `LoadSuperBase`) with
    /// `this` as the receiver.
    GetSuper { dst: Reg, proto: Reg, key: Reg },
    /// `super[key] = src`: [[Set]] on `proto` (from `LoadSuperBase`) with
    /// `this` as the receiver; a failed write throws in strict code.
    SetSuper { proto: Reg, key: Reg, src: Reg, strict: bool },
    /// `dst = delete obj[key]`
    Delete { dst: Reg, obj: Reg, key: Reg, strict: bool },
    /// CreateDataPropertyOrThrow(obj, key, src)
    DefineField { obj: Reg, key: Reg, src: Reg },
    /// CreateDataPropertyOrThrow(obj, name, src) for a static key, with a
    /// cached shape transition (object literals).
    DefineNamed { obj: Reg, name: ConstIndex, src: Reg, ic: IcIndex },
    /// An object-literal or class method (non-enumerable in classes).
    DefineMethod { obj: Reg, key: Reg, func: Reg, enumerable: bool },
    /// An accessor half.
    DefineAccessor { obj: Reg, key: Reg, func: Reg, setter: bool, enumerable: bool },
    /// `{...src}` into `dst`.
    CopyDataProperties { dst: Reg, src: Reg },
    /// Object rest in destructuring: copies `src`'s own enumerable
    /// properties into the new object `dst`, except the `count` keys held
    /// in registers from `excluded`.
    ObjectRest { dst: Reg, src: Reg, excluded: Reg, count: u16 },
    /// Sets the function's name from a property key (`SetFunctionName`).
    SetFunctionName { func: Reg, key: Reg, prefix: u8 },
    /// `__proto__: proto` in an object literal: sets the prototype when
    /// `proto` is an object or `null`.
    SetProtoLiteral { obj: Reg, proto: Reg },
    /// `dst = /pattern/flags` (a new RegExp object per evaluation).
    NewRegExp { dst: Reg, pattern: ConstIndex, flags: ConstIndex },
    /// `dst = {}`
    NewObject { dst: Reg },
    /// `dst = []`, with room reserved for `capacity` elements (an array
    /// literal's element count) so that its pushes do not regrow it.
    NewArray { dst: Reg, capacity: u16 },
    /// `dst = [c₀, …, cₙ₋₁]` for an array literal whose elements are all
    /// number, string, boolean or null literals: the elements are the
    /// `count` constants from `first` on, copied in one go.
    NewArrayOfConstants { dst: Reg, first: ConstIndex, count: u16 },
    /// Appends `src` to the array in `array`.
    ArrayPush { array: Reg, src: Reg },
    /// Appends a hole (an elision).
    ArrayPushHole { array: Reg },
    /// Appends every value `src` iterates to.
    ArraySpread { array: Reg, src: Reg },

    /// `dst = <closure of functions[index]>`
    Closure { dst: Reg, index: u32 },
    /// `dst = callee.call(this, ...args[0..argc])`, the arguments in
    /// consecutive registers.
    Call { dst: Reg, callee: Reg, this: Reg, args: Reg, argc: u16 },
    /// A call whose arguments are the elements of the array in `args`.
    CallSpread { dst: Reg, callee: Reg, this: Reg, args: Reg },
    /// `dst = new callee(...args[0..argc])`
    New { dst: Reg, callee: Reg, args: Reg, argc: u16 },
    /// `new` with the arguments in an array.
    NewSpread { dst: Reg, callee: Reg, args: Reg },
    /// A direct `eval(...)` call candidate; `scope` indexes the code's
    /// eval scope tables.
    CallEval { dst: Reg, callee: Reg, args: Reg, argc: u16, scope: u32 },
    /// Returns `src`.
    Return { src: Reg },
    /// Throws `src`.
    Throw { src: Reg },
    /// Throws a `TypeError` for an assignment to a constant.
    ThrowConstAssign { name: ConstIndex },
    /// Throws a `ReferenceError` whose message is the string constant
    /// `message` (references that cannot be used, found at run time).
    ThrowReferenceError { message: ConstIndex },

    /// `dst = lhs + rhs`
    Add { dst: Reg, lhs: Reg, rhs: Reg },
    /// `dst = lhs - rhs`
    Sub { dst: Reg, lhs: Reg, rhs: Reg },
    /// `dst = lhs * rhs`
    Mul { dst: Reg, lhs: Reg, rhs: Reg },
    /// `dst = lhs / rhs`
    Div { dst: Reg, lhs: Reg, rhs: Reg },
    /// `dst = lhs % rhs`
    Rem { dst: Reg, lhs: Reg, rhs: Reg },
    /// `dst = lhs ** rhs`
    Exp { dst: Reg, lhs: Reg, rhs: Reg },
    /// `dst = lhs & rhs`
    BitAnd { dst: Reg, lhs: Reg, rhs: Reg },
    /// `dst = lhs | rhs`
    BitOr { dst: Reg, lhs: Reg, rhs: Reg },
    /// `dst = lhs ^ rhs`
    BitXor { dst: Reg, lhs: Reg, rhs: Reg },
    /// `dst = lhs << rhs`
    Shl { dst: Reg, lhs: Reg, rhs: Reg },
    /// `dst = lhs >> rhs`
    Sar { dst: Reg, lhs: Reg, rhs: Reg },
    /// `dst = lhs >>> rhs`
    Shr { dst: Reg, lhs: Reg, rhs: Reg },
    /// `dst = lhs + value`, the right operand an int32 literal.
    AddInt { dst: Reg, lhs: Reg, value: i32 },
    /// `dst = lhs - value`, the right operand an int32 literal.
    SubInt { dst: Reg, lhs: Reg, value: i32 },
    /// `dst = lhs & value`, the right operand an int32 literal.
    BitAndInt { dst: Reg, lhs: Reg, value: i32 },
    /// `dst = lhs >> value`, the right operand an int32 literal.
    SarInt { dst: Reg, lhs: Reg, value: i32 },
    /// `dst = lhs op value` for the other numeric operators with an int32
    /// literal on the right (`*`, `%`, `|`, `^`, `<<` and `>>>`: one
    /// instruction, so their operator is read at run time).
    NumericInt { op: NumericOp, dst: Reg, lhs: Reg, value: i32 },
    /// `dst = lhs == rhs`
    Eq { dst: Reg, lhs: Reg, rhs: Reg },
    /// `dst = lhs != rhs`
    Ne { dst: Reg, lhs: Reg, rhs: Reg },
    /// `dst = lhs === rhs`
    StrictEq { dst: Reg, lhs: Reg, rhs: Reg },
    /// `dst = lhs !== rhs`
    StrictNe { dst: Reg, lhs: Reg, rhs: Reg },
    /// `dst = lhs < rhs`
    Lt { dst: Reg, lhs: Reg, rhs: Reg },
    /// `dst = lhs <= rhs`
    Le { dst: Reg, lhs: Reg, rhs: Reg },
    /// `dst = lhs > rhs`
    Gt { dst: Reg, lhs: Reg, rhs: Reg },
    /// `dst = lhs >= rhs`
    Ge { dst: Reg, lhs: Reg, rhs: Reg },
    /// `dst = lhs instanceof rhs`
    InstanceOf { dst: Reg, lhs: Reg, rhs: Reg },
    /// `dst = lhs in rhs`
    In { dst: Reg, lhs: Reg, rhs: Reg },
    /// `dst = -src`
    Neg { dst: Reg, src: Reg },
    /// `dst = +src` (`ToNumber`)
    ToNumber { dst: Reg, src: Reg },
    /// `dst = ToNumeric(src)`, for postfix updates.
    ToNumeric { dst: Reg, src: Reg },
    /// `dst = !src`
    Not { dst: Reg, src: Reg },
    /// `dst = ~src`
    BitNot { dst: Reg, src: Reg },
    /// `dst = typeof src`
    TypeOf { dst: Reg, src: Reg },
    /// `dst = src + 1` on a numeric.
    Inc { dst: Reg, src: Reg },
    /// `dst = src - 1` on a numeric.
    Dec { dst: Reg, src: Reg },
    /// `dst = ToString(src)`, for template literals.
    ToString { dst: Reg, src: Reg },
    /// `dst = ToPropertyKey(src)`, for computed keys evaluated early.
    ToPropertyKey { dst: Reg, src: Reg },

    /// Unconditional jump.
    Jump { target: Target },
    /// Jumps when `cond` is truthy.
    JumpIfTrue { cond: Reg, target: Target },
    /// Jumps when `cond` is falsy.
    JumpIfFalse { cond: Reg, target: Target },
    /// Jumps unless `lhs op rhs` (a loop or `if` test fused with its
    /// branch).
    JumpUnless { op: CompareOp, lhs: Reg, rhs: Reg, target: Target },
    /// `JumpUnless` with an int32 literal as the right operand.
    JumpUnlessInt { op: CompareOp, lhs: Reg, value: i32, target: Target },
    /// Jumps when `src` is `null` or `undefined`.
    JumpIfNullish { src: Reg, target: Target },
    /// Jumps when `src` is neither `null` nor `undefined`.
    JumpIfNotNullish { src: Reg, target: Target },
    /// Jumps when `src` is not `undefined`.
    JumpIfNotUndefined { src: Reg, target: Target },
    /// Jumps when the integer completion kind in `src` equals `value`
    /// (the dispatch at the end of a `finally` block).
    JumpIfInt { src: Reg, value: i32, target: Target },

    /// `dst = GetIterator(src, sync)` as an internal iterator record.
    GetIterator { dst: Reg, src: Reg },
    /// Steps the iterator in `iter`: `dst = value`, or jumps to `done` when
    /// it is exhausted.
    IteratorNext { dst: Reg, iter: Reg, done: Target },
    /// `IteratorClose` on early exit from a loop or destructuring.
    IteratorClose { iter: Reg },
    /// `IteratorClose` for a throw completion: calls `return` if there is
    /// one and ignores what it does (the pending exception wins).
    IteratorCloseOnThrow { iter: Reg },
    /// `dst = GetIterator(src, async)` as an internal iterator record.
    GetAsyncIterator { dst: Reg, src: Reg },
    /// A step of a `for await` loop over an async iterator record (see
    /// [`AsyncIterationOp`]).
    AsyncIteration(AsyncIterationOp),
    /// Throws a TypeError unless `src` is an object (the awaited result of
    /// an async iterator's `return`).
    ThrowIfNotObject { src: Reg },
    /// A step of a block's `using` declarations (see [`DisposeOp`]).
    Dispose(DisposeOp),
    /// Starts a `for-in` enumeration of `obj`.
    ForInStart { dst: Reg, obj: Reg },
    /// `dst = next key`, or jumps to `done`.
    ForInNext { dst: Reg, iter: Reg, done: Target },

    /// `dst = <the running function>`
    LoadCallee { dst: Reg },
    /// `dst = new.target`
    LoadNewTarget { dst: Reg },
    /// `dst = <arguments object>`, mapped to the parameters (through the
    /// code's `mapped_parameters`) in sloppy functions with simple
    /// parameter lists.
    CreateArguments { dst: Reg, mapped: bool },
    /// `dst = [...arguments.slice(from)]`
    CreateRestArray { dst: Reg, from: u16 },
    /// Creates a class: `dst` is the constructor made from
    /// `functions[index]`, `proto_dst` its prototype; `heritage` the
    /// `extends` value or a register holding the hole marker.
    CreateClass { dst: Reg, proto_dst: Reg, index: u32, heritage: Reg },
    /// Attaches the instance field initialiser `fields` to the class
    /// constructor `ctor`.
    SetClassFields { ctor: Reg, fields: Reg },
    /// `dst = <computed key number index of the class's instance fields>`
    /// (inside the field initialiser; the keys were evaluated when the
    /// class was defined).
    LoadFieldKey { dst: Reg, index: u32 },
    /// Sets a method's `[[HomeObject]]`.
    SetHomeObject { func: Reg, home: Reg },
    /// `super(...args)` in a derived constructor.
    SuperCall { dst: Reg, args: Reg, argc: u16 },
    /// `super(...array)`.
    SuperCallSpread { dst: Reg, args: Reg },
    /// `super(...)` where the constructor `func` is read from the
    /// environment (a derived constructor whose arrows share its `this`,
    /// or one of those arrows): `dst = Construct(func.[[Prototype]], args,
    /// new.target)`, without binding `this`.
    SuperConstruct { dst: Reg, func: Reg, args: Reg, argc: u16 },
    /// `SuperConstruct` with the arguments in an array.
    SuperConstructSpread { dst: Reg, func: Reg, args: Reg },
    /// BindThisValue: `this = src`, a `ReferenceError` when `this` (just
    /// reloaded from the environment) is already initialised.
    BindThis { src: Reg },
    /// InitializeInstanceElements(`obj`, `func`): the field initialisers of
    /// the constructor `func` after `super()` returned `obj`.
    InitializeInstanceElements { obj: Reg, func: Reg },
    /// Throws a `ReferenceError` unless `this` is initialised (derived
    /// constructors).
    CheckThis { dst: Reg },
    /// Ends a generator function's call: its parameters are bound, so the
    /// frame is saved into a new generator object, which the call returns.
    GeneratorStart,
    /// Begins an async function's call: makes its promise and the state
    /// object an `await` saves the frame into.
    AsyncStart,
    /// `await value`: suspends the async function until `value` settles
    /// and returns its promise to the caller. On resumption `value` holds
    /// the outcome and `mode` says how it came: 0 fulfilled, 1 rejected.
    Await { value: Reg, mode: Reg },
    /// Suspends the generator, yielding `value` (an iterator result object
    /// itself when `raw`, for `yield*`). On resumption `value` holds the
    /// sent value and `mode` how it was sent: 0 `next`, 1 `throw`,
    /// 2 `return`.
    Yield { value: Reg, mode: Reg, raw: bool },
    /// `yield` in an async generator (AsyncGeneratorYield): settles the
    /// oldest request with `{ value, done: false }`; continues at once with
    /// the next queued request, or suspends. On resumption `value` and
    /// `mode` (0 `next`, 1 `throw`, 2 `return`) describe the request.
    AsyncYield { value: Reg, mode: Reg },
    /// One step of `yield*` in an async generator: calls the inner async
    /// iterator's `next`, `throw` or `return` (by `mode`) with `value`,
    /// leaving the (unawaited) result in `result`. A missing `return` sets
    /// `mode` to 3, a missing `throw` to 4.
    AsyncDelegateStep { result: Reg, iter: Reg, value: Reg, mode: Reg },
    /// Throws the TypeError of a `yield*` whose inner iterator has no
    /// `throw` method.
    ThrowMissingThrowMethod,
    /// One step of `yield*`: calls the inner iterator's `next`, `throw` or
    /// `return` (by `mode`) with `value`, leaving the inner result object
    /// in `result`. A `return` the inner iterator cannot take sets `mode`
    /// to 3; a missing `throw` closes the iterator and throws.
    YieldDelegateStep { result: Reg, iter: Reg, value: Reg, mode: Reg },
    /// `dst = <a new Private Name described as "#name">`.
    NewPrivateName { dst: Reg, description: ConstIndex },
    /// `dst = obj.#key` (PrivateGet).
    GetPrivate { dst: Reg, obj: Reg, key: Reg },
    /// `obj.#key = src` (PrivateSet).
    SetPrivate { obj: Reg, key: Reg, src: Reg },
    /// Adds a private field (`method` false) or method to `obj`;
    /// TypeError if it is already there.
    DefinePrivate { obj: Reg, key: Reg, src: Reg, method: bool },
    /// Adds a private accessor (either function may be `undefined`).
    DefinePrivateAccessor { obj: Reg, key: Reg, getter: Reg, setter: Reg },
    /// `dst = #key in obj`.
    HasPrivate { dst: Reg, obj: Reg, key: Reg },
    /// Inside `with (obj)`: if `obj` has the property `name` (not blocked
    /// by `@@unscopables`), `dst = obj.name` (and `this_dst = obj` unless
    /// it is `Reg(u16::MAX)`), then jump to `found`.
    WithGet { dst: Reg, obj: Reg, name: ConstIndex, this_dst: Reg, found: Target },
    /// Inside `with (obj)`: if `obj` has `name`, `obj.name = src` and jump
    /// to `found`.
    WithSet { obj: Reg, name: ConstIndex, src: Reg, found: Target },
    /// Inside `with (obj)`, resolving a reference once for a
    /// read-modify-write: if `obj` has `name`, `dst = obj` and jump to
    /// `found`.
    WithResolve { dst: Reg, obj: Reg, name: ConstIndex, found: Target },
    /// Reads `name` from `base`, the object a `WithResolve` found.
    WithRefGet { dst: Reg, base: Reg, name: ConstIndex },
    /// Writes `src` to `name` of `base`, the object a `WithResolve` found.
    WithRefSet { base: Reg, name: ConstIndex, src: Reg },
    /// Inside `with (obj)`: if `obj` has `name`, `dst = delete obj.name`
    /// (sloppy: `delete` of an identifier is only allowed there) and jump
    /// to `found`.
    WithDelete { dst: Reg, obj: Reg, name: ConstIndex, found: Target },
    /// `dst = ToObject(src)` (the `with` object).
    ToObject { dst: Reg, src: Reg },
    /// Does nothing (`debugger`).
    Nop,
}

/// The instructions of `for await` loops, dispatched in
/// `interpreter::ops::iteration` (each iteration awaits, so a second
/// dispatch is nothing beside it).
#[derive(Clone, Copy, Debug, PartialEq)]
#[allow(missing_docs, reason = "operands are named as in Instruction; each variant documents its meaning")]
pub enum AsyncIterationOp {
    /// `dst = Call(iter.[[NextMethod]], iter.[[Iterator]])`, to be awaited.
    Next { dst: Reg, iter: Reg },
    /// Takes the awaited `result` of an async iterator's `next`: jumps to
    /// `done` when it is done, else `dst = result.value` (TypeError for a
    /// non-object).
    Step { dst: Reg, result: Reg, iter: Reg, done: Target },
    /// Starts AsyncIteratorClose: `dst = Call(return, iterator)`, or jumps
    /// to `skip` when there is no `return`. When `quiet` (a throw
    /// completion), errors also jump to `skip`.
    Return { dst: Reg, iter: Reg, skip: Target, quiet: bool },
}

impl AsyncIterationOp {
    /// The highest register the operation names (see
    /// [`Instruction::max_register`]).
    fn max_register(&self) -> Option<u16> {
        match *self {
            Self::Next { dst, iter } | Self::Return { dst, iter, .. } => highest(&[dst, iter]),
            Self::Step { dst, result, iter, .. } => highest(&[dst, result, iter]),
        }
    }
}

/// The instructions of explicit resource management (`using` and
/// `await using` blocks), dispatched in their own module
/// (`interpreter::ops::dispose`).
#[derive(Clone, Copy, Debug, PartialEq)]
#[allow(missing_docs, reason = "operands are named as in Instruction; each variant documents its meaning")]
pub enum DisposeOp {
    /// `dst = NewDisposeCapability()`: the resources of a block with
    /// `using` declarations.
    NewCapability { dst: Reg },
    /// `AddDisposableResource(cap, value, hint)` for a `using` declaration
    /// (an `await using` one when `asynchronous`).
    Add { cap: Reg, value: Reg, asynchronous: bool },
    /// Starts `DisposeResources` on `cap`: with a throw completion of the
    /// value in `error`, or a normal one when `error` is `Reg(u16::MAX)`.
    Begin { cap: Reg, error: Reg },
    /// Disposes resources of `cap` until one needs an `Await`: then `dst`
    /// is the value to await (an `Await` and an `Awaited` follow);
    /// when none is left, jumps to `done`.
    Step { cap: Reg, dst: Reg, done: Target },
    /// Takes the outcome of a disposal's `Await`: `mode` 1 is a rejection
    /// with `value`.
    Awaited { cap: Reg, value: Reg, mode: Reg },
    /// Ends `DisposeResources`: throws the completion it carried when that
    /// is a throw.
    End { cap: Reg },
}

impl DisposeOp {
    /// The highest register the operation names (see
    /// [`Instruction::max_register`]).
    fn max_register(&self) -> Option<u16> {
        match *self {
            Self::NewCapability { dst } => highest(&[dst]),
            Self::Add { cap, value, .. } => highest(&[cap, value]),
            Self::Begin { cap, error } => highest(&[cap, error]),
            Self::Step { cap, dst, .. } => highest(&[cap, dst]),
            Self::Awaited { cap, value, mode } => highest(&[cap, value, mode]),
            Self::End { cap } => highest(&[cap]),
        }
    }
}

// The dispatch loop indexes instructions by pc: a 16-byte instruction is
// one shift, and growth past it costs cache lines in every loop body.
const _: () = assert!(size_of::<Instruction>() == 16);

impl Instruction {
    /// The highest register the instruction names (`None` if it names
    /// none; `Reg(u16::MAX)`, which some operands use for "absent", is
    /// not a register). An exhaustive match, so a new variant must say its
    /// registers: `build_code` sizes frames by it, which is what lets the
    /// interpreter read registers without bounds checks (see
    /// `Code::register_count`).
    pub fn max_register(&self) -> Option<u16> {
        match *self {
            Self::LoadUndefined { dst, .. }
            | Self::LoadNull { dst, .. }
            | Self::LoadBool { dst, .. }
            | Self::LoadHole { dst, .. }
            | Self::LoadInt { dst, .. }
            | Self::LoadConst { dst, .. }
            | Self::SaveEnv { dst, .. }
            | Self::GetEnv { dst, .. }
            | Self::GetEnvChecked { dst, .. }
            | Self::GetImport { dst, .. }
            | Self::ImportMeta { dst, .. }
            | Self::GetGlobal { dst, .. }
            | Self::TypeofGlobal { dst, .. }
            | Self::HasGlobalBinding { dst, .. }
            | Self::DeleteGlobal { dst, .. }
            | Self::LoadSuperBase { dst, .. }
            | Self::NewRegExp { dst, .. }
            | Self::NewObject { dst, .. }
            | Self::NewArray { dst, .. }
            | Self::NewArrayOfConstants { dst, .. }
            | Self::Closure { dst, .. }
            | Self::LoadCallee { dst, .. }
            | Self::LoadNewTarget { dst, .. }
            | Self::CreateArguments { dst, .. }
            | Self::CreateRestArray { dst, .. }
            | Self::LoadFieldKey { dst, .. }
            | Self::CheckThis { dst, .. }
            | Self::NewPrivateName { dst, .. } => highest(&[dst]),
            Self::Move { dst, src, .. }
            | Self::CopyDataProperties { dst, src, .. }
            | Self::Neg { dst, src, .. }
            | Self::ToNumber { dst, src, .. }
            | Self::ToNumeric { dst, src, .. }
            | Self::Not { dst, src, .. }
            | Self::BitNot { dst, src, .. }
            | Self::TypeOf { dst, src, .. }
            | Self::Inc { dst, src, .. }
            | Self::Dec { dst, src, .. }
            | Self::ToString { dst, src, .. }
            | Self::ToPropertyKey { dst, src, .. }
            | Self::GetIterator { dst, src, .. }
            | Self::GetAsyncIterator { dst, src, .. }
            | Self::AddInt { dst, lhs: src, .. }
            | Self::SubInt { dst, lhs: src, .. }
            | Self::BitAndInt { dst, lhs: src, .. }
            | Self::SarInt { dst, lhs: src, .. }
            | Self::NumericInt { dst, lhs: src, .. }
            | Self::ToObject { dst, src, .. } => highest(&[dst, src]),
            Self::RestoreEnv { src, .. }
            | Self::SetEnv { src, .. }
            | Self::SetEnvChecked { src, .. }
            | Self::CheckTdz { src, .. }
            | Self::SetGlobal { src, .. }
            | Self::InitGlobalLexical { src, .. }
            | Self::InitGlobalFunction { src, .. }
            | Self::Return { src, .. }
            | Self::Throw { src, .. }
            | Self::JumpIfNullish { src, .. }
            | Self::JumpIfNotNullish { src, .. }
            | Self::JumpIfNotUndefined { src, .. }
            | Self::JumpIfInt { src, .. }
            | Self::ThrowIfNotObject { src, .. }
            | Self::BindThis { src, .. } => highest(&[src]),
            Self::ImportCall { dst, specifier, options, .. } => highest(&[dst, specifier, options]),
            Self::GetNamed { dst, obj, .. }
            | Self::ForInStart { dst, obj, .. }
            | Self::WithResolve { dst, obj, .. }
            | Self::WithDelete { dst, obj, .. } => highest(&[dst, obj]),
            Self::SetNamed { obj, src, .. } | Self::DefineNamed { obj, src, .. } | Self::WithSet { obj, src, .. } => {
                highest(&[obj, src])
            }
            Self::GetIndexed { dst, obj, key, .. }
            | Self::GetIndexedConvertKey { dst, obj, key, .. }
            | Self::Delete { dst, obj, key, .. }
            | Self::GetPrivate { dst, obj, key, .. }
            | Self::HasPrivate { dst, obj, key, .. } => highest(&[dst, obj, key]),
            Self::SetIndexed { obj, key, src, .. }
            | Self::DefineField { obj, key, src, .. }
            | Self::SetPrivate { obj, key, src, .. }
            | Self::DefinePrivate { obj, key, src, .. } => highest(&[obj, key, src]),
            Self::GetSuper { dst, proto, key, .. } => highest(&[dst, proto, key]),
            Self::SetSuper { proto, key, src, .. } => highest(&[proto, key, src]),
            Self::DefineMethod { obj, key, func, .. } | Self::DefineAccessor { obj, key, func, .. } => {
                highest(&[obj, key, func])
            }
            Self::ObjectRest { dst, src, excluded, .. } => highest(&[dst, src, excluded]),
            Self::SetFunctionName { func, key, .. } => highest(&[func, key]),
            Self::SetProtoLiteral { obj, proto, .. } => highest(&[obj, proto]),
            Self::ArrayPush { array, src, .. } | Self::ArraySpread { array, src, .. } => highest(&[array, src]),
            Self::ArrayPushHole { array, .. } => highest(&[array]),
            Self::Call { dst, callee, this, args, .. } | Self::CallSpread { dst, callee, this, args, .. } => {
                highest(&[dst, callee, this, args])
            }
            Self::New { dst, callee, args, .. }
            | Self::NewSpread { dst, callee, args, .. }
            | Self::CallEval { dst, callee, args, .. } => highest(&[dst, callee, args]),
            Self::Add { dst, lhs, rhs, .. }
            | Self::Sub { dst, lhs, rhs, .. }
            | Self::Mul { dst, lhs, rhs, .. }
            | Self::Div { dst, lhs, rhs, .. }
            | Self::Rem { dst, lhs, rhs, .. }
            | Self::Exp { dst, lhs, rhs, .. }
            | Self::BitAnd { dst, lhs, rhs, .. }
            | Self::BitOr { dst, lhs, rhs, .. }
            | Self::BitXor { dst, lhs, rhs, .. }
            | Self::Shl { dst, lhs, rhs, .. }
            | Self::Sar { dst, lhs, rhs, .. }
            | Self::Shr { dst, lhs, rhs, .. }
            | Self::Eq { dst, lhs, rhs, .. }
            | Self::Ne { dst, lhs, rhs, .. }
            | Self::StrictEq { dst, lhs, rhs, .. }
            | Self::StrictNe { dst, lhs, rhs, .. }
            | Self::Lt { dst, lhs, rhs, .. }
            | Self::Le { dst, lhs, rhs, .. }
            | Self::Gt { dst, lhs, rhs, .. }
            | Self::Ge { dst, lhs, rhs, .. }
            | Self::InstanceOf { dst, lhs, rhs, .. }
            | Self::In { dst, lhs, rhs, .. } => highest(&[dst, lhs, rhs]),
            Self::JumpIfTrue { cond, .. } | Self::JumpIfFalse { cond, .. } => highest(&[cond]),
            Self::JumpUnless { lhs, rhs, .. } => highest(&[lhs, rhs]),
            Self::JumpUnlessInt { lhs, .. } => highest(&[lhs]),
            Self::IteratorNext { dst, iter, .. } | Self::ForInNext { dst, iter, .. } => highest(&[dst, iter]),
            Self::IteratorClose { iter, .. } | Self::IteratorCloseOnThrow { iter, .. } => highest(&[iter]),
            Self::AsyncIteration(op) => op.max_register(),
            Self::Dispose(op) => op.max_register(),
            Self::CreateClass { dst, proto_dst, heritage, .. } => highest(&[dst, proto_dst, heritage]),
            Self::SetClassFields { ctor, fields, .. } => highest(&[ctor, fields]),
            Self::SetHomeObject { func, home, .. } => highest(&[func, home]),
            Self::SuperCall { dst, args, .. } | Self::SuperCallSpread { dst, args, .. } => highest(&[dst, args]),
            Self::SuperConstruct { dst, func, args, .. } | Self::SuperConstructSpread { dst, func, args, .. } => {
                highest(&[dst, func, args])
            }
            Self::InitializeInstanceElements { obj, func, .. } => highest(&[obj, func]),
            Self::Await { value, mode, .. }
            | Self::Yield { value, mode, .. }
            | Self::AsyncYield { value, mode, .. } => highest(&[value, mode]),
            Self::AsyncDelegateStep { result, iter, value, mode, .. }
            | Self::YieldDelegateStep { result, iter, value, mode, .. } => highest(&[result, iter, value, mode]),
            Self::DefinePrivateAccessor { obj, key, getter, setter, .. } => highest(&[obj, key, getter, setter]),
            Self::WithGet { dst, obj, this_dst, .. } => highest(&[dst, obj, this_dst]),
            Self::WithRefGet { dst, base, .. } => highest(&[dst, base]),
            Self::WithRefSet { base, src, .. } => highest(&[base, src]),
            Self::PushEnv { .. }
            | Self::PopEnv
            | Self::CopyEnv
            | Self::ThrowConstAssign { .. }
            | Self::ThrowReferenceError { .. }
            | Self::Jump { .. }
            | Self::GeneratorStart
            | Self::AsyncStart
            | Self::ThrowMissingThrowMethod
            | Self::Nop => None,
        }
    }
}

/// The highest of `regs`, leaving out the "absent" operand `Reg(u16::MAX)`.
fn highest(regs: &[Reg]) -> Option<u16> {
    regs.iter().map(|r| r.0).filter(|&r| r != u16::MAX).max()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn max_register_is_the_highest_operand_register() {
        let call = Instruction::Call { dst: Reg(2), callee: Reg(7), this: Reg(0), args: Reg(5), argc: 3 };
        assert_eq!(call.max_register(), Some(7));
        assert_eq!(Instruction::Jump { target: 4 }.max_register(), None);
        assert_eq!(Instruction::LoadInt { dst: Reg(9), value: 1 }.max_register(), Some(9));
    }

    #[test]
    fn the_absent_operand_is_not_a_register() {
        let read = Instruction::WithGet { dst: Reg(3), obj: Reg(1), name: 0, this_dst: Reg(u16::MAX), found: 0 };
        assert_eq!(read.max_register(), Some(3));
    }
}
