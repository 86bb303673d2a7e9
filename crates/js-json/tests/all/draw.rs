//! A deterministic generator of JSON texts for the differential tests.

/// xorshift64: small, fast, reproducible.
pub struct Draw(pub u64);

impl Draw {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    /// A number as JSON text: integers, decimals, exponents, and doubles
    /// from random bits (so every magnitude `Number::toString` handles).
    pub fn number(&mut self) -> String {
        match self.below(5) {
            0 => format!("{}", self.next().cast_signed() >> self.below(64)),
            1 => format!("{}.{}", self.below(1000), self.below(1_000_000)),
            2 => format!("{}e{}", self.below(100), self.below(600).cast_signed() - 300),
            3 => {
                let number = f64::from_bits(self.next());
                if number.is_finite() { format!("{number:e}") } else { "0".to_string() }
            }
            _ => format!("-{}E+{}", self.below(10), self.below(30)),
        }
    }

    /// A JSON string literal with escapes, non-ASCII characters and lone
    /// surrogates (escaped).
    pub fn string(&mut self) -> String {
        const PIECES: [&str; 16] = [
            "a",
            "key",
            "\\\"",
            "\\\\",
            "\\n",
            "\\t",
            "\\u0001",
            "\\u001f",
            "é",
            "→",
            "中文",
            "\u{1F600}",
            "\\ud800",
            "\\udc00x",
            "\\/",
            " ",
        ];
        let len = self.below(6);
        let body: String = (0..len).map(|_| PIECES[self.below(16) as usize]).collect();
        format!("\"{body}\"")
    }

    /// A JSON value as text.
    pub fn value(&mut self, depth: u32) -> String {
        match self.below(if depth > 5 { 5 } else { 8 }) {
            0 => ["null", "true", "false"][self.below(3) as usize].to_string(),
            1 | 2 => self.number(),
            3 | 4 => self.string(),
            5 | 6 => {
                let members: Vec<String> = (0..self.below(5)).map(|_| self.value(depth + 1)).collect();
                format!("[{}]", members.join(","))
            }
            _ => {
                let members: Vec<String> = (0..self.below(5))
                    .map(|_| {
                        let key = match self.below(4) {
                            0 => format!("\"{}\"", self.below(20)),
                            1 => "\"__proto__\"".to_string(),
                            _ => self.string(),
                        };
                        format!("{key} : {}", self.value(depth + 1))
                    })
                    .collect();
                format!("{{ {} }}", members.join(",\n "))
            }
        }
    }
}
