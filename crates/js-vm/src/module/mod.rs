//! ECMAScript modules (§16.2): module records and the module map, loading
//! through an embedder's [`ModuleLoader`], linking ([`link`]), evaluation
//! with top-level await ([`evaluate`]), namespace objects ([`namespace`])
//! and the host hooks `import()` and `import.meta` ([`dynamic`]).
//!
//! A module is identified by the key its loader resolved it to (for
//! [`FsLoader`], the canonical path), so a module evaluates once however it
//! is reached. Built-in `node:` modules are synthetic records whose
//! environment the host fills ([`builtin`]).
//!
//! Each module's environment exists from the moment its record is made,
//! with every binding in its TDZ: an importer's import binding can then
//! point at the exporter's slot even before the exporter is linked, which
//! is what cycles need.

pub mod builtin;
pub mod dynamic;
pub mod evaluate;
pub mod import_meta;
pub mod link;
mod loader;
pub mod namespace;
pub mod node_resolution;

use std::collections::HashMap;
use std::rc::Rc;

use js_gc::{Gc, Trace, Tracer};

pub use loader::{FsLoader, ModuleLoadError, ModuleLoader, SourceKind};

use crate::bytecode::{Code, ScriptOrModule, Source};
use crate::compiler::{ImportEntry, IndirectExport, ModuleRequest};
use crate::embedding::{Handle, JsError};
use crate::environment::DeclarativeEnvironment;
use crate::object::JsObject;
use crate::value::Value;
use crate::vm::{Exception, JsResult, Phase, Vm};

/// A module's index in the VM's module map.
pub type ModuleId = u32;

/// `[[Status]]` of a Cyclic Module Record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ModuleStatus {
    /// Loaded, not linked.
    New,
    /// Being linked (on the DFS stack).
    Linking,
    /// Linked: its environment is initialised.
    Linked,
    /// Being evaluated (on the DFS stack).
    Evaluating,
    /// Waiting for its own or its dependencies' top-level await.
    EvaluatingAsync,
    /// Done (successfully or with `[[EvaluationError]]`).
    Evaluated,
}

/// The code of a source text module.
pub struct ModuleCode {
    /// Run by `InitializeEnvironment`.
    pub init: Gc<Code>,
    /// Run by `ExecuteModule`.
    pub body: Gc<Code>,
}

/// A module record: a Source Text Module Record, or a synthetic one for a
/// built-in module (no code, already evaluated).
pub struct ModuleRecord {
    /// The key the loader resolved the module to.
    pub key: String,
    /// The module environment.
    pub env: Gc<DeclarativeEnvironment>,
    /// The code; `None` for a built-in module.
    pub code: Option<ModuleCode>,
    /// `[[RequestedModules]]`.
    pub requests: Vec<ModuleRequest>,
    /// The module each request was loaded as (`[[LoadedModules]]`).
    pub loaded: Vec<Option<ModuleId>>,
    /// `[[ImportEntries]]`.
    pub imports: Vec<ImportEntry>,
    /// `[[LocalExportEntries]]`: export name and binding slot.
    pub local_exports: Vec<(String, u32)>,
    /// `[[IndirectExportEntries]]`.
    pub indirect_exports: Vec<IndirectExport>,
    /// `[[StarExportEntries]]`.
    pub star_exports: Vec<usize>,
    /// `[[HasTLA]]`.
    pub has_tla: bool,
    /// `[[Status]]`.
    pub status: ModuleStatus,
    /// `[[EvaluationError]]`: the thrown value.
    pub evaluation_error: Option<Value>,
    /// `[[Namespace]]`, made on first request.
    pub namespace: Option<Gc<JsObject>>,
    /// The `import.meta` object, made on first use.
    pub meta: Option<Gc<JsObject>>,
    /// `[[DFSIndex]]`.
    pub dfs_index: usize,
    /// `[[DFSAncestorIndex]]`.
    pub dfs_ancestor_index: usize,
    /// `[[CycleRoot]]`.
    pub cycle_root: Option<ModuleId>,
    /// `[[AsyncEvaluation]]`: waiting in the async evaluation order.
    pub async_evaluation: bool,
    /// When `[[AsyncEvaluation]]` became true (the spec's ordering of
    /// modules whose dependencies finish together).
    pub async_order: u64,
    /// `[[PendingAsyncDependencies]]`.
    pub pending_async_dependencies: usize,
    /// `[[AsyncParentModules]]`.
    pub async_parents: Vec<ModuleId>,
    /// `[[TopLevelCapability]]`: the promise `Evaluate()` returned.
    pub top_level_capability: Option<Gc<JsObject>>,
    /// A CommonJS file imported by an ES module: the record's bindings
    /// are filled when it is evaluated (`host::commonjs::evaluate_import`).
    pub commonjs: bool,
}

impl ModuleRecord {
    /// Whether this is a Cyclic Module Record (source text), as opposed
    /// to a built-in module.
    pub fn is_cyclic(&self) -> bool {
        self.code.is_some()
    }
}

// SAFETY: environment, code, error, namespace, meta and capability are
// all the pointers.
unsafe impl Trace for ModuleRecord {
    fn trace(&self, tracer: &mut Tracer) {
        self.env.trace(tracer);
        if let Some(code) = &self.code {
            code.init.trace(tracer);
            code.body.trace(tracer);
        }
        self.evaluation_error.trace(tracer);
        self.namespace.trace(tracer);
        self.meta.trace(tracer);
        self.top_level_capability.trace(tracer);
    }
}

/// The module map and the loader.
pub(crate) struct ModuleRegistry {
    pub(crate) records: Vec<ModuleRecord>,
    by_key: HashMap<String, ModuleId>,
    pub(crate) loader: Box<dyn ModuleLoader>,
    /// The next `[[AsyncEvaluation]]` order number.
    pub(crate) async_counter: u64,
}

impl Default for ModuleRegistry {
    fn default() -> Self {
        Self { records: Vec::new(), by_key: HashMap::new(), loader: Box::new(FsLoader::default()), async_counter: 0 }
    }
}

// SAFETY: every record is reported.
unsafe impl Trace for ModuleRegistry {
    fn trace(&self, tracer: &mut Tracer) {
        for record in &self.records {
            record.trace(tracer);
        }
    }
}

impl Vm {
    /// The module record `id`.
    pub(crate) fn module(&self, id: ModuleId) -> &ModuleRecord {
        &self.modules.records[id as usize]
    }

    /// The module record `id`, mutably.
    pub(crate) fn module_mut(&mut self, id: ModuleId) -> &mut ModuleRecord {
        &mut self.modules.records[id as usize]
    }

    /// Replaces how module specifiers are resolved and module text is
    /// read (the default is [`FsLoader`]).
    pub fn set_module_loader(&mut self, loader: Box<dyn ModuleLoader>) {
        self.modules.loader = loader;
    }

    /// Loads the module `specifier` (resolved with no referrer) and its
    /// dependencies, links and evaluates it. Returns the promise of its
    /// evaluation (rejected when the module throws). Load errors (a module
    /// not found, a syntax error in any module of the graph) and link
    /// errors are returned with [`Phase::Resolution`], or
    /// [`Phase::Parse`] for a syntax error in the module itself.
    pub fn import_module(&mut self, specifier: &str) -> Result<Handle, (Phase, JsError)> {
        let request = ModuleRequest { specifier: specifier.to_owned(), module_type: None };
        let evaluated = match self.load_module_graph(&request, None) {
            Ok(id) => self.link_and_evaluate(id),
            Err((entry, e)) => Err((load_phase(entry), e)),
        };
        self.embedder_result(evaluated)
    }

    /// Like [`Vm::import_module`] for module source text given here, known
    /// under `key` (its file name: relative imports resolve against it).
    pub fn eval_module(&mut self, key: &str, text: &str) -> Result<Handle, (Phase, JsError)> {
        let evaluated = self.eval_module_text(key, text);
        self.embedder_result(evaluated)
    }

    /// The result of a module's evaluation, for the embedder.
    fn embedder_result(&mut self, result: Result<Value, (Phase, Exception)>) -> Result<Handle, (Phase, JsError)> {
        match result {
            Ok(promise) => Ok(self.handle(promise)),
            Err((phase, e)) => Err((phase, self.js_error(e))),
        }
    }

    fn eval_module_text(&mut self, key: &str, text: &str) -> Result<Value, (Phase, Exception)> {
        // The loader's own key for it, so that imports of this module find
        // this record.
        let key = self.modules.loader.resolve(key, None).unwrap_or_else(|_| key.to_owned());
        let key = key.as_str();
        let id = match self.modules.by_key.get(key) {
            Some(&id) => id,
            None => self.create_source_module(key, text).map_err(|e| (Phase::Parse, e))?,
        };
        self.load_dependencies(id).map_err(|(_, e)| (Phase::Resolution, e))?;
        self.link_and_evaluate(id)
    }

    fn link_and_evaluate(&mut self, id: ModuleId) -> Result<Value, (Phase, Exception)> {
        link::link(self, id).map_err(|e| (Phase::Resolution, e))?;
        evaluate::evaluate(self, id).map(Value::object).map_err(|e| (Phase::Runtime, e))
    }

    /// Finds or loads the module `specifier` names from `referrer`, and
    /// everything it depends on (`LoadRequestedModules`). The flag of an
    /// error says whether it concerns the requested module itself.
    pub(crate) fn load_module_graph(
        &mut self,
        request: &ModuleRequest,
        referrer: Option<&ScriptOrModule>,
    ) -> Result<ModuleId, (bool, Exception)> {
        let referrer_key = referrer.map(|r| match r {
            ScriptOrModule::Script(name) => name.clone(),
            ScriptOrModule::Module(id) => self.module(*id).key.clone(),
        });
        let id = self.load_one_tracking(request, referrer_key.as_deref()).map(|(_, id)| id)?;
        self.load_dependencies(id)?;
        Ok(id)
    }

    /// Loads what module `id` requests, transitively.
    fn load_dependencies(&mut self, id: ModuleId) -> Result<(), (bool, Exception)> {
        let mut work = vec![id];
        while let Some(current) = work.pop() {
            let requests = self.module(current).requests.clone();
            for (i, request) in requests.iter().enumerate() {
                if self.module(current).loaded[i].is_some() {
                    continue;
                }
                let key = self.module(current).key.clone();
                let (fresh, loaded) = match self.load_one_tracking(request, Some(&key)) {
                    Ok(v) => v,
                    Err((_, e)) => return Err((false, e)),
                };
                self.module_mut(current).loaded[i] = Some(loaded);
                if fresh {
                    work.push(loaded);
                }
            }
        }
        Ok(())
    }

    /// Resolves and, if it is not in the map yet, reads and compiles one
    /// module. Returns whether it was new.
    fn load_one_tracking(
        &mut self,
        request: &ModuleRequest,
        referrer: Option<&str>,
    ) -> Result<(bool, ModuleId), (bool, Exception)> {
        let specifier = request.specifier.as_str();
        let json = match request.module_type.as_deref() {
            None => false,
            Some("json") => true,
            Some(other) => {
                let message = format!("Import attribute type \"{other}\" is not supported");
                return Err((false, self.type_error(&message)));
            }
        };
        if let Some(name) = builtin::builtin_name(specifier).filter(|_| !json) {
            let key = format!("node:{name}");
            if let Some(&id) = self.modules.by_key.get(&key) {
                return Ok((false, id));
            }
            let id = builtin::create(self, name);
            return Ok((false, id));
        }
        let key = match self.modules.loader.resolve(specifier, referrer) {
            Ok(key) => key,
            Err(e) => return Err((false, self.module_load_error(&e))),
        };
        // An `imports` target may name a built-in.
        if let Some(name) = key.strip_prefix("node:").and_then(builtin::builtin_name) {
            let id = match self.modules.by_key.get(&key) {
                Some(&id) => id,
                None => builtin::create(self, name),
            };
            return Ok((false, id));
        }
        // A JSON module is a different module from the same file loaded as
        // JavaScript.
        let map_key = if json { format!("json:{key}") } else { key.clone() };
        if let Some(&id) = self.modules.by_key.get(&map_key) {
            return Ok((false, id));
        }
        let kind = match self.modules.loader.kind(&key) {
            Ok(kind) => kind,
            Err(e) => return Err((false, self.module_load_error(&e))),
        };
        if !json && kind == SourceKind::Json {
            let url = self.modules.loader.url(&key);
            let error = ModuleLoadError {
                message: format!("Module \"{url}\" needs an import attribute of type \"json\""),
                code: Some("ERR_IMPORT_ASSERTION_TYPE_MISSING".to_owned()),
            };
            return Err((false, self.module_load_error(&error)));
        }
        if !json && kind == SourceKind::CommonJs {
            return Ok((false, crate::host::commonjs::esm_record(self, &key)));
        }
        let text = match self.modules.loader.load(&key) {
            Ok(text) => text,
            Err(e) => return Err((false, self.module_load_error(&e))),
        };
        if json {
            // ParseJSONModule: a synthetic module whose default export is
            // the parsed value.
            let value = crate::builtins::json::parse_text(self, &text).map_err(|e| (false, e))?;
            let id = self.add_synthetic_module(&map_key, &[("default", value)]);
            return Ok((false, id));
        }
        let id = self.create_source_module(&key, &text).map_err(|e| (true, e))?;
        Ok((true, id))
    }

    /// An `Error` (a `TypeError` for the codes Node throws as one) for a
    /// failed resolution or read, with Node's `code`.
    fn module_load_error(&mut self, error: &ModuleLoadError) -> Exception {
        use crate::builtins::error::ErrorKind;
        match &error.code {
            Some(code) => {
                let type_error = node_resolution::errors::is_type_error_code(code);
                let kind = if type_error { ErrorKind::Type } else { ErrorKind::Error };
                crate::host::commonjs::coded_error(self, kind, &error.message, code, None)
            }
            None => self.throw_error(ErrorKind::Error, &error.message),
        }
    }

    /// Compiles module text and adds its record to the map under `key`.
    fn create_source_module(&mut self, key: &str, text: &str) -> JsResult<ModuleId> {
        // Stack traces name the module by its URL, as Node's do.
        let url = self.modules.loader.url(key);
        let source = Rc::new(Source::new(url, text));
        let id = self.modules.records.len() as ModuleId;
        source.referrer.replace(Some(ScriptOrModule::Module(id)));
        let compiled = match crate::compiler::compile_module(self, &source) {
            Ok(c) => c,
            Err(err) => return Err(self.module_compile_error(&err, key, &source)),
        };
        let env = self
            .heap
            .alloc(DeclarativeEnvironment { outer: None, slots: vec![Value::HOLE; compiled.env_slots as usize] });
        let requests = compiled.requests;
        self.modules.records.push(ModuleRecord {
            key: key.to_owned(),
            env,
            code: Some(ModuleCode { init: compiled.init, body: compiled.body }),
            loaded: vec![None; requests.len()],
            requests,
            imports: compiled.imports,
            local_exports: compiled.local_exports,
            indirect_exports: compiled.indirect_exports,
            star_exports: compiled.star_exports,
            has_tla: compiled.has_tla,
            status: ModuleStatus::New,
            evaluation_error: None,
            namespace: None,
            meta: None,
            dfs_index: 0,
            dfs_ancestor_index: 0,
            cycle_root: None,
            async_evaluation: false,
            async_order: 0,
            pending_async_dependencies: 0,
            async_parents: Vec::new(),
            top_level_capability: None,
            commonjs: false,
        });
        self.modules.by_key.insert(key.to_owned(), id);
        Ok(id)
    }

    /// Adds a synthetic module record (a built-in module).
    pub(crate) fn add_synthetic_module(&mut self, key: &str, exports: &[(&str, Value)]) -> ModuleId {
        let slots: Vec<Value> = exports.iter().map(|(_, v)| *v).collect();
        let env = self.heap.alloc(DeclarativeEnvironment { outer: None, slots });
        let id = self.modules.records.len() as ModuleId;
        self.modules.records.push(ModuleRecord {
            key: key.to_owned(),
            env,
            code: None,
            requests: Vec::new(),
            loaded: Vec::new(),
            imports: Vec::new(),
            local_exports: exports.iter().enumerate().map(|(i, (name, _))| ((*name).to_owned(), i as u32)).collect(),
            indirect_exports: Vec::new(),
            star_exports: Vec::new(),
            has_tla: false,
            status: ModuleStatus::Evaluated,
            evaluation_error: None,
            namespace: None,
            meta: None,
            dfs_index: 0,
            dfs_ancestor_index: 0,
            cycle_root: Some(id),
            async_evaluation: false,
            async_order: 0,
            pending_async_dependencies: 0,
            async_parents: Vec::new(),
            top_level_capability: None,
            commonjs: false,
        });
        self.modules.by_key.insert(key.to_owned(), id);
        id
    }

    /// A module's compile error: made at its position in the module's
    /// text when the parser gave one (an uncaught one is reported with the
    /// file, line and caret, as Node's loader does), otherwise naming the
    /// file in the message.
    fn module_compile_error(
        &mut self,
        err: &crate::compiler::CompileError,
        key: &str,
        source: &Rc<Source>,
    ) -> Exception {
        match err {
            crate::compiler::CompileError::Syntax { message, at: None } => {
                self.syntax_error(&format!("{message} (in {key})"))
            }
            _ => self.compile_error_in(err, source),
        }
    }
}

/// The phase a load error belongs to: the entry module's own syntax
/// errors are parse errors, the rest resolution errors.
fn load_phase(entry: bool) -> Phase {
    if entry { Phase::Parse } else { Phase::Resolution }
}
