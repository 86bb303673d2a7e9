//! Tuning and debugging switches of a heap.

use std::sync::OnceLock;

/// The environment variable that turns on gc-stress mode for every heap
/// created with [`HeapConfig::default`]: set to anything but `0` or empty.
/// `cargo xtask ci` runs the test suites a second time with it set.
pub const GC_STRESS_ENV: &str = "JS_GC_STRESS";

/// How a [`Heap`](crate::Heap) decides when to collect, and its debugging
/// modes.
#[derive(Debug, Clone, PartialEq)]
pub struct HeapConfig {
    /// A collection is due once the bytes allocated since the last one reach
    /// the live bytes it left times this factor (1.0 lets the heap double).
    pub growth_factor: f64,
    /// ... or this many bytes, whichever is larger, so small heaps are not
    /// collected constantly.
    pub min_collection_threshold: u64,
    /// gc-stress mode: [`should_collect`](crate::Heap::should_collect) is
    /// true whenever anything was allocated since the last collection, so
    /// every safepoint where any allocation threshold could make a
    /// collection due collects; freed cells are poisoned and quarantined for
    /// one collection before reuse.
    pub stress: bool,
    /// Overwrite the value bytes of freed cells with a poison pattern. On by
    /// default in debug builds and in stress mode.
    pub poison: bool,
}

impl HeapConfig {
    /// Whether [`GC_STRESS_ENV`] asks for gc-stress mode (read once per process).
    pub fn stress_from_env() -> bool {
        static STRESS: OnceLock<bool> = OnceLock::new();
        *STRESS.get_or_init(|| std::env::var_os(GC_STRESS_ENV).is_some_and(|v| !v.is_empty() && v != "0"))
    }
}

impl Default for HeapConfig {
    /// Growth factor 1.0, a 4 MiB minimum, stress mode from [`GC_STRESS_ENV`].
    fn default() -> Self {
        let stress = Self::stress_from_env();
        Self { growth_factor: 1.0, min_collection_threshold: 4 << 20, stress, poison: stress || cfg!(debug_assertions) }
    }
}
