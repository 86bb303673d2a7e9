//! Compiled patterns: a RegExp's flags as a bit set, and the program
//! `regress` compiles from a pattern, shared through a bounded per-realm
//! cache by every RegExp object with the same source and flags (every
//! evaluation of a literal in a loop, every `new RegExp(p)` of one
//! pattern), so a pattern is parsed once while it stays in use.

use std::collections::HashMap;
use std::hash::{BuildHasher, Hasher};
use std::rc::Rc;

use crate::string::JsStr;

/// A RegExp's flags (`[[OriginalFlags]]` parsed), one bit each.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct FlagSet(u8);

impl FlagSet {
    /// `d`: match indices.
    pub const HAS_INDICES: u8 = 1;
    /// `g`.
    pub const GLOBAL: u8 = 1 << 1;
    /// `i`.
    pub const IGNORE_CASE: u8 = 1 << 2;
    /// `m`.
    pub const MULTILINE: u8 = 1 << 3;
    /// `s`.
    pub const DOT_ALL: u8 = 1 << 4;
    /// `u`.
    pub const UNICODE: u8 = 1 << 5;
    /// `v`.
    pub const UNICODE_SETS: u8 = 1 << 6;
    /// `y`.
    pub const STICKY: u8 = 1 << 7;

    /// The bit of a flag letter, in the order `RegExp.prototype.flags`
    /// lists them.
    const LETTERS: [(u8, u8); 8] = [
        (b'd', Self::HAS_INDICES),
        (b'g', Self::GLOBAL),
        (b'i', Self::IGNORE_CASE),
        (b'm', Self::MULTILINE),
        (b's', Self::DOT_ALL),
        (b'u', Self::UNICODE),
        (b'v', Self::UNICODE_SETS),
        (b'y', Self::STICKY),
    ];

    /// Parses flag text as RegExpInitialize does: `None` for an unknown or
    /// repeated letter, or for `u` with `v`.
    pub fn parse(text: JsStr<'_>) -> Option<Self> {
        let mut bits = 0u8;
        for unit in text.units() {
            let bit = Self::LETTERS.iter().find(|&&(letter, _)| u16::from(letter) == unit)?.1;
            if bits & bit != 0 {
                return None;
            }
            bits |= bit;
        }
        let both = Self::UNICODE | Self::UNICODE_SETS;
        (bits & both != both).then_some(Self(bits))
    }

    /// The flags whose letters occur in `text`, whatever else it holds:
    /// what the protocols read from a `flags` string a user getter made.
    pub fn containing(text: JsStr<'_>) -> Self {
        let mut bits = 0u8;
        for unit in text.units() {
            if let Some(&(_, bit)) = Self::LETTERS.iter().find(|&&(letter, _)| u16::from(letter) == unit) {
                bits |= bit;
            }
        }
        Self(bits)
    }

    /// The flags in `bits` (a union of the constants).
    pub const fn from_bits(bits: u8) -> Self {
        Self(bits)
    }

    /// Whether every flag in `bits` is set.
    #[inline]
    pub fn has(self, bits: u8) -> bool {
        self.0 & bits == bits
    }

    /// `u` or `v`: the pattern and the subject are read as code points.
    #[inline]
    pub fn full_unicode(self) -> bool {
        self.0 & (Self::UNICODE | Self::UNICODE_SETS) != 0
    }

    /// The flags as `RegExp.prototype.flags` spells them.
    pub fn text(self) -> String {
        Self::LETTERS.iter().filter(|&&(_, bit)| self.has(bit)).map(|&(letter, _)| char::from(letter)).collect()
    }

    /// The flags `regress` compiles with (the others act in the caller).
    pub fn regress_flags(self) -> regress::Flags {
        regress::Flags {
            icase: self.has(Self::IGNORE_CASE),
            multiline: self.has(Self::MULTILINE),
            dot_all: self.has(Self::DOT_ALL),
            no_opt: false,
            unicode: self.has(Self::UNICODE),
            unicode_sets: self.has(Self::UNICODE_SETS),
        }
    }
}

/// `[[RegExpMatcher]]` with the flags it was made for. Immutable once
/// made, so any number of RegExp objects share it.
#[derive(Debug)]
pub struct Program {
    /// The compiled matcher.
    pub matcher: regress::Regex,
    /// The flags the program was compiled for.
    pub flags: FlagSet,
}

/// How many programs a realm keeps: enough for the patterns of a large
/// program's hot loops, few enough that finding the eldest to evict (a
/// scan, only when a new program is added to a full cache) stays cheap.
const CAPACITY: usize = 256;

struct Entry {
    units: Box<[u16]>,
    flags: FlagSet,
    program: Rc<Program>,
    /// When the entry was last used (the cache's use counter).
    last_use: u64,
}

/// A bounded map from (source code units, flags) to compiled programs; on
/// overflow the least recently used one goes. Entries hold no GC cells.
#[derive(Default)]
pub struct ProgramCache {
    /// Entries by the hash of their key (collisions share a bucket).
    buckets: HashMap<u64, Vec<Entry>, ahash::RandomState>,
    hasher: ahash::RandomState,
    len: usize,
    uses: u64,
}

impl ProgramCache {
    fn hash(&self, source: JsStr<'_>, flags: FlagSet) -> u64 {
        let mut h = self.hasher.build_hasher();
        h.write_u8(flags.0);
        h.write_usize(source.len());
        match source {
            JsStr::Latin1(bytes) => bytes.iter().for_each(|&b| h.write_u16(u16::from(b))),
            JsStr::Utf16(units) => units.iter().for_each(|&u| h.write_u16(u)),
        }
        h.finish()
    }

    /// The program compiled for `source` with `flags`, if it is cached.
    pub fn get(&mut self, source: JsStr<'_>, flags: FlagSet) -> Option<Rc<Program>> {
        let hash = self.hash(source, flags);
        self.uses += 1;
        let uses = self.uses;
        let entry = self.buckets.get_mut(&hash)?.iter_mut().find(|e| {
            e.flags == flags && e.units.len() == source.len() && e.units.iter().copied().eq(source.units())
        })?;
        entry.last_use = uses;
        Some(Rc::clone(&entry.program))
    }

    /// Caches `program` for `source` (whose code units are `units`),
    /// evicting the least recently used entry when full.
    pub fn insert(&mut self, source: JsStr<'_>, program: Rc<Program>) {
        if self.len >= CAPACITY {
            self.evict_eldest();
        }
        let hash = self.hash(source, program.flags);
        self.uses += 1;
        let entry = Entry { units: source.units().collect(), flags: program.flags, program, last_use: self.uses };
        self.buckets.entry(hash).or_default().push(entry);
        self.len += 1;
    }

    fn evict_eldest(&mut self) {
        let eldest = self
            .buckets
            .iter()
            .flat_map(|(&hash, bucket)| bucket.iter().enumerate().map(move |(i, e)| (e.last_use, hash, i)))
            .min();
        if let Some((_, hash, i)) = eldest
            && let Some(bucket) = self.buckets.get_mut(&hash)
        {
            bucket.swap_remove(i);
            if bucket.is_empty() {
                self.buckets.remove(&hash);
            }
            self.len -= 1;
        }
    }

    /// How many programs are cached.
    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.len
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn program(pattern: &str, flags: FlagSet) -> Rc<Program> {
        let matcher = regress::Regex::with_flags(pattern, flags.regress_flags()).expect("a valid pattern");
        Rc::new(Program { matcher, flags })
    }

    #[test]
    fn flags_parse_in_any_order_and_reject_repeats_and_u_with_v() {
        let parse = |s: &str| FlagSet::parse(JsStr::Latin1(s.as_bytes()));
        assert_eq!(parse("ygd").map(FlagSet::text).as_deref(), Some("dgy"));
        assert_eq!(parse("").map(FlagSet::text).as_deref(), Some(""));
        assert!(parse("gg").is_none());
        assert!(parse("uv").is_none());
        assert!(parse("x").is_none());
        assert!(parse("dgimsuy").is_some_and(|f| f.full_unicode() && f.has(FlagSet::STICKY)));
    }

    #[test]
    fn the_cache_finds_equal_sources_across_representations_and_tells_flags_apart() {
        let mut cache = ProgramCache::default();
        let latin1 = JsStr::Latin1(b"a+b");
        let wide: Vec<u16> = "a+b".encode_utf16().collect();
        let p = program("a+b", FlagSet::default());
        cache.insert(latin1, Rc::clone(&p));
        let hit = cache.get(JsStr::Utf16(&wide), FlagSet::default());
        assert!(hit.is_some_and(|h| Rc::ptr_eq(&h, &p)));
        let global = FlagSet::parse(JsStr::Latin1(b"g")).unwrap_or_default();
        assert!(cache.get(latin1, global).is_none());
        assert!(cache.get(JsStr::Latin1(b"a+c"), FlagSet::default()).is_none());
    }

    #[test]
    fn a_full_cache_evicts_the_least_recently_used_program() {
        let mut cache = ProgramCache::default();
        let sources: Vec<String> = (0..=CAPACITY).map(|i| format!("p{i}")).collect();
        for source in &sources[..CAPACITY] {
            cache.insert(JsStr::Latin1(source.as_bytes()), program(source, FlagSet::default()));
        }
        // Touch the first, so the second is now the eldest.
        assert!(cache.get(JsStr::Latin1(sources[0].as_bytes()), FlagSet::default()).is_some());
        cache.insert(JsStr::Latin1(sources[CAPACITY].as_bytes()), program(&sources[CAPACITY], FlagSet::default()));
        assert_eq!(cache.len(), CAPACITY);
        assert!(cache.get(JsStr::Latin1(sources[0].as_bytes()), FlagSet::default()).is_some());
        assert!(cache.get(JsStr::Latin1(sources[1].as_bytes()), FlagSet::default()).is_none());
        assert!(cache.get(JsStr::Latin1(sources[CAPACITY].as_bytes()), FlagSet::default()).is_some());
    }
}
