//! `Date.parse` (§21.4.3.2): the Date Time String Format (§21.4.1.32) and
//! the legacy forms engines accept.
//!
//! The grammar follows V8's date parser, because programs depend on what
//! Node accepts: a strict ISO pass first, and whatever it does not consume
//! is read by a permissive tokenizer (month names, `M/D/Y`, `hh:mm:ss`,
//! `AM`/`PM`, `GMT+hhmm`, US zone abbreviations, parenthesised comments).
//! The result is a set of fields; [`parse`] turns them into a time value.

use super::local_time::TimeZone;
use super::time_math::{MAX_TIME, make_date, make_day, make_time, time_clip};
use crate::string::is_white_space_or_line_terminator;

/// Parsed fields before conversion to a time value.
#[derive(Debug, Default)]
struct Parsed {
    year: i64,
    month: i64,
    day: i64,
    hour: i64,
    minute: i64,
    second: i64,
    ms: i64,
    /// Seconds east of UTC; `None` means local time.
    offset: Option<i64>,
}

/// Parses `text` as `Date.parse` does; NaN when it is not a date.
pub fn parse(text: &[u16], zone: &TimeZone) -> f64 {
    let Some(p) = parse_fields(text) else { return f64::NAN };
    let day = make_day(p.year as f64, p.month as f64, p.day as f64);
    let time = make_time(p.hour as f64, p.minute as f64, p.second as f64, p.ms as f64);
    let date = make_date(day, time);
    // Ten days of slack let a local or offset time just past the limits
    // land inside them once converted.
    let limit = MAX_TIME + 864e6;
    if !(-limit..=limit).contains(&date) {
        return f64::NAN;
    }
    let utc = match p.offset {
        Some(offset) => date - offset as f64 * 1000.0,
        None => date - zone.offset_ms_for_local(date),
    };
    time_clip(utc)
}

const NONE: i64 = i64::MIN;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum KeywordKind {
    MonthName,
    AmPm,
    TimeZoneName,
    TimeSeparator,
    Invalid,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Token {
    /// A run of digits: value (saturated) and length.
    Number(i64, usize),
    Symbol(u16),
    /// A word: kind, value, length.
    Keyword(KeywordKind, i64, usize),
    WhiteSpace,
    Unknown,
    End,
}

impl Token {
    fn is_fixed_number(self, len: usize) -> bool {
        matches!(self, Self::Number(_, l) if l == len)
    }
    fn number(self) -> i64 {
        if let Self::Number(n, _) = self { n } else { 0 }
    }
    fn is_symbol(self, c: u8) -> bool {
        self == Self::Symbol(u16::from(c))
    }
    fn sign(self) -> Option<i64> {
        match self {
            Self::Symbol(c) if c == u16::from(b'+') => Some(1),
            Self::Symbol(c) if c == u16::from(b'-') => Some(-1),
            _ => None,
        }
    }
    fn is_keyword_z(self) -> bool {
        self == Self::Keyword(KeywordKind::TimeZoneName, 0, 1)
    }
}

/// Words are matched on their first three letters; longer words match
/// only month names ("January"), as in V8.
const KEYWORDS: &[(&str, KeywordKind, i64)] = &[
    ("jan", KeywordKind::MonthName, 1),
    ("feb", KeywordKind::MonthName, 2),
    ("mar", KeywordKind::MonthName, 3),
    ("apr", KeywordKind::MonthName, 4),
    ("may", KeywordKind::MonthName, 5),
    ("jun", KeywordKind::MonthName, 6),
    ("jul", KeywordKind::MonthName, 7),
    ("aug", KeywordKind::MonthName, 8),
    ("sep", KeywordKind::MonthName, 9),
    ("oct", KeywordKind::MonthName, 10),
    ("nov", KeywordKind::MonthName, 11),
    ("dec", KeywordKind::MonthName, 12),
    ("am", KeywordKind::AmPm, 0),
    ("pm", KeywordKind::AmPm, 12),
    ("ut", KeywordKind::TimeZoneName, 0),
    ("utc", KeywordKind::TimeZoneName, 0),
    ("z", KeywordKind::TimeZoneName, 0),
    ("gmt", KeywordKind::TimeZoneName, 0),
    ("cdt", KeywordKind::TimeZoneName, -5),
    ("cst", KeywordKind::TimeZoneName, -6),
    ("edt", KeywordKind::TimeZoneName, -4),
    ("est", KeywordKind::TimeZoneName, -5),
    ("mdt", KeywordKind::TimeZoneName, -6),
    ("mst", KeywordKind::TimeZoneName, -7),
    ("pdt", KeywordKind::TimeZoneName, -7),
    ("pst", KeywordKind::TimeZoneName, -8),
    ("t", KeywordKind::TimeSeparator, 0),
];

struct Tokenizer<'a> {
    s: &'a [u16],
    pos: usize,
    next: Token,
}

impl<'a> Tokenizer<'a> {
    fn new(s: &'a [u16]) -> Self {
        let mut t = Self { s, pos: 0, next: Token::End };
        t.next = t.scan();
        t
    }

    fn peek(&self) -> Token {
        self.next
    }

    fn next(&mut self) -> Token {
        let token = self.next;
        self.next = self.scan();
        token
    }

    fn skip_symbol(&mut self, c: u8) -> bool {
        if self.next.is_symbol(c) {
            self.next();
            true
        } else {
            false
        }
    }

    fn ch(&self) -> u16 {
        self.s.get(self.pos).copied().unwrap_or(0)
    }

    fn scan(&mut self) -> Token {
        let start = self.pos;
        let Some(&c) = self.s.get(self.pos) else { return Token::End };
        if (u16::from(b'0')..=u16::from(b'9')).contains(&c) {
            let mut n: i64 = 0;
            while let Some(&d) = self.s.get(self.pos).filter(|d| (u16::from(b'0')..=u16::from(b'9')).contains(d)) {
                // Saturate like V8 so absurdly long digit runs stay invalid
                // rather than overflowing.
                if n < i64::from(i32::MAX) / 10 - 1 {
                    n = n * 10 + i64::from(d - u16::from(b'0'));
                }
                self.pos += 1;
            }
            return Token::Number(n, self.pos - start);
        }
        if [b':', b'-', b'+', b'.', b')'].iter().any(|&s| c == u16::from(s)) {
            self.pos += 1;
            return Token::Symbol(c);
        }
        if c >= u16::from(b'A') && !is_white_space_or_line_terminator(c) {
            let mut prefix = [0u16; 3];
            let mut len = 0;
            while let Some(&w) =
                self.s.get(self.pos).filter(|&&w| w >= u16::from(b'A') && !is_white_space_or_line_terminator(w))
            {
                if len < 3 {
                    prefix[len] = w | 0x20;
                }
                len += 1;
                self.pos += 1;
            }
            for &(word, kind, value) in KEYWORDS {
                let mut kw = [0u16; 3];
                for (slot, b) in kw.iter_mut().zip(word.bytes()) {
                    *slot = u16::from(b);
                }
                if kw == prefix && (len <= 3 || kind == KeywordKind::MonthName) {
                    return Token::Keyword(kind, value, len);
                }
            }
            return Token::Keyword(KeywordKind::Invalid, 0, len);
        }
        if is_white_space_or_line_terminator(c) {
            self.pos += 1;
            return Token::WhiteSpace;
        }
        if c == u16::from(b'(') {
            let mut balance = 0;
            loop {
                let ch = self.ch();
                if ch == u16::from(b')') {
                    balance -= 1;
                } else if ch == u16::from(b'(') {
                    balance += 1;
                }
                self.pos += 1;
                if balance <= 0 || self.pos >= self.s.len() {
                    break;
                }
            }
            return Token::Unknown;
        }
        self.pos += 1;
        Token::Unknown
    }
}

#[derive(Default)]
struct DayComposer {
    comp: Vec<i64>,
    named_month: Option<i64>,
    iso: bool,
}

impl DayComposer {
    fn add(&mut self, n: i64) -> bool {
        if self.comp.len() < 3 {
            self.comp.push(n);
            true
        } else {
            false
        }
    }

    fn write(&self, out: &mut Parsed) -> bool {
        if self.comp.is_empty() {
            return false;
        }
        let mut c = self.comp.clone();
        c.resize(3, 1);
        let is_day = |n: i64| (1..=31).contains(&n);
        let (mut year, month, day) = match self.named_month {
            None if self.iso || !is_day(c[0]) => (c[0], c[1], c[2]),
            None => (c[2], c[0], c[1]),
            // With a named month the full comp list always has three slots
            // here (V8 pads before choosing), so "Jan 2" reads year 1.
            Some(m) if !is_day(c[0]) => (c[0], m, c[1]),
            Some(m) => (c[1], m, c[0]),
        };
        if !self.iso {
            if (0..=49).contains(&year) {
                year += 2000;
            } else if (50..=99).contains(&year) {
                year += 1900;
            }
        }
        if !(1..=12).contains(&month) || !is_day(day) {
            return false;
        }
        out.year = year;
        out.month = month - 1;
        out.day = day;
        true
    }
}

#[derive(Default)]
struct TimeComposer {
    comp: Vec<i64>,
    hour_offset: Option<i64>,
}

impl TimeComposer {
    fn is_empty(&self) -> bool {
        self.comp.is_empty()
    }
    fn add(&mut self, n: i64) -> bool {
        if self.comp.len() < 4 {
            self.comp.push(n);
            true
        } else {
            false
        }
    }
    fn add_final(&mut self, n: i64) -> bool {
        if !self.add(n) {
            return false;
        }
        self.comp.resize(4, 0);
        true
    }
    fn is_expecting(&self, n: i64) -> bool {
        match self.comp.len() {
            1 | 2 => (0..60).contains(&n),
            3 => (0..1000).contains(&n),
            _ => false,
        }
    }
    fn write(&self, out: &mut Parsed) -> bool {
        let mut c = self.comp.clone();
        c.resize(4, 0);
        let (mut hour, minute, second, ms) = (c[0], c[1], c[2], c[3]);
        if let Some(offset) = self.hour_offset {
            if !(0..=12).contains(&hour) {
                return false;
            }
            hour = hour % 12 + offset;
        }
        let valid = (0..24).contains(&hour)
            && (0..60).contains(&minute)
            && (0..60).contains(&second)
            && (0..1000).contains(&ms);
        // 24:00:00.000 is the end of the day.
        let end_of_day = hour == 24 && minute == 0 && second == 0 && ms == 0;
        if !(valid || end_of_day) {
            return false;
        }
        (out.hour, out.minute, out.second, out.ms) = (hour, minute, second, ms);
        true
    }
}

struct ZoneComposer {
    sign: i64,
    hour: i64,
    minute: i64,
}

impl Default for ZoneComposer {
    fn default() -> Self {
        Self { sign: NONE, hour: NONE, minute: NONE }
    }
}

impl ZoneComposer {
    fn set(&mut self, hours: i64) {
        self.sign = if hours < 0 { -1 } else { 1 };
        self.hour = hours.abs();
        self.minute = 0;
    }
    fn is_expecting(&self, n: i64) -> bool {
        self.hour != NONE && self.minute == NONE && (0..60).contains(&n)
    }
    fn is_utc(&self) -> bool {
        self.hour == 0 && self.minute == 0
    }
    fn is_empty(&self) -> bool {
        self.hour == NONE
    }
    fn write(&self, out: &mut Parsed) {
        out.offset = (self.sign != NONE).then(|| {
            let hour = if self.hour == NONE { 0 } else { self.hour };
            let minute = if self.minute == NONE { 0 } else { self.minute };
            self.sign * (hour * 3600 + minute * 60)
        });
    }
}

/// V8's reading of fractional seconds: the first three digits, scaled.
fn read_milliseconds(token: Token) -> i64 {
    let Token::Number(n, len) = token else { return 0 };
    match len {
        1 => n * 100,
        2 => n * 10,
        3 => n,
        _ => {
            // Only the digits that fit were accumulated; scale by those.
            let digits = len.min(9);
            let mut factor = 1;
            for _ in 3..digits {
                factor *= 10;
            }
            n / factor
        }
    }
}

/// Outcome of the ISO pass.
enum Iso {
    /// A complete Date Time String Format string.
    Done,
    /// Not ISO from this token on: continue with the legacy parser.
    Continue(Token),
    /// Malformed ISO: the whole string is invalid.
    Invalid,
}

fn parse_iso(
    scanner: &mut Tokenizer<'_>,
    day: &mut DayComposer,
    time: &mut TimeComposer,
    tz: &mut ZoneComposer,
) -> Iso {
    if let Some(sign) = scanner.peek().sign() {
        let sign_token = scanner.next();
        if !scanner.peek().is_fixed_number(6) {
            return Iso::Continue(sign_token);
        }
        let year = scanner.next().number();
        // -000000 is not a valid expanded year (§21.4.1.32.2).
        if sign < 0 && year == 0 {
            return Iso::Invalid;
        }
        day.add(sign * year);
    } else if scanner.peek().is_fixed_number(4) {
        day.add(scanner.next().number());
    } else {
        return Iso::Continue(scanner.next());
    }
    if scanner.skip_symbol(b'-') {
        let p = scanner.peek();
        if !p.is_fixed_number(2) || !(1..=12).contains(&p.number()) {
            return Iso::Continue(scanner.next());
        }
        day.add(scanner.next().number());
        if scanner.skip_symbol(b'-') {
            let p = scanner.peek();
            if !p.is_fixed_number(2) || !(1..=31).contains(&p.number()) {
                return Iso::Continue(scanner.next());
            }
            day.add(scanner.next().number());
        }
    }
    if matches!(scanner.peek(), Token::Keyword(KeywordKind::TimeSeparator, ..)) {
        scanner.next();
        let p = scanner.peek();
        if !p.is_fixed_number(2) || !(0..=24).contains(&p.number()) {
            return Iso::Invalid;
        }
        let hour_is_24 = p.number() == 24;
        time.add(scanner.next().number());
        if !scanner.skip_symbol(b':') {
            return Iso::Invalid;
        }
        let p = scanner.peek();
        if !p.is_fixed_number(2) || !(0..60).contains(&p.number()) || (hour_is_24 && p.number() > 0) {
            return Iso::Invalid;
        }
        time.add(scanner.next().number());
        if scanner.skip_symbol(b':') {
            let p = scanner.peek();
            if !p.is_fixed_number(2) || !(0..60).contains(&p.number()) || (hour_is_24 && p.number() > 0) {
                return Iso::Invalid;
            }
            time.add(scanner.next().number());
            if scanner.skip_symbol(b'.') {
                let p = scanner.peek();
                if !matches!(p, Token::Number(..)) || (hour_is_24 && p.number() > 0) {
                    return Iso::Invalid;
                }
                time.add(read_milliseconds(scanner.next()));
            }
        }
        if scanner.peek().is_keyword_z() {
            scanner.next();
            tz.set(0);
        } else if let Some(sign) = scanner.peek().sign() {
            scanner.next();
            tz.sign = sign;
            if scanner.peek().is_fixed_number(4) {
                let hm = scanner.next().number();
                let (h, m) = (hm / 100, hm % 100);
                if !(0..24).contains(&h) || !(0..60).contains(&m) {
                    return Iso::Invalid;
                }
                (tz.hour, tz.minute) = (h, m);
            } else {
                let p = scanner.peek();
                if !p.is_fixed_number(2) || !(0..24).contains(&p.number()) {
                    return Iso::Invalid;
                }
                tz.hour = scanner.next().number();
                if !scanner.skip_symbol(b':') {
                    return Iso::Invalid;
                }
                let p = scanner.peek();
                if !p.is_fixed_number(2) || !(0..60).contains(&p.number()) {
                    return Iso::Invalid;
                }
                tz.minute = scanner.next().number();
            }
        }
        if scanner.peek() != Token::End {
            return Iso::Invalid;
        }
    } else if scanner.peek() != Token::End {
        return Iso::Continue(scanner.next());
    }
    // Date-only forms are UTC; date-time forms without an offset are local.
    if tz.is_empty() && time.is_empty() {
        tz.set(0);
    }
    day.iso = true;
    Iso::Done
}

fn parse_fields(text: &[u16]) -> Option<Parsed> {
    let mut scanner = Tokenizer::new(text);
    let mut day = DayComposer::default();
    let mut time = TimeComposer::default();
    let mut tz = ZoneComposer::default();
    let mut token = match parse_iso(&mut scanner, &mut day, &mut time, &mut tz) {
        Iso::Done => Token::End,
        Iso::Continue(token) => token,
        Iso::Invalid => return None,
    };
    let mut has_read_number = !day.comp.is_empty();
    while token != Token::End {
        match token {
            Token::Number(n, _) => {
                has_read_number = true;
                if scanner.skip_symbol(b':') {
                    if scanner.skip_symbol(b':') {
                        if !time.is_empty() {
                            return None;
                        }
                        time.add(n);
                        time.add(0);
                    } else {
                        if !time.add(n) {
                            return None;
                        }
                        if scanner.peek().is_symbol(b'.') {
                            scanner.next();
                        }
                    }
                } else if scanner.skip_symbol(b'.') && time.is_expecting(n) {
                    time.add(n);
                    if !matches!(scanner.peek(), Token::Number(..)) {
                        return None;
                    }
                    let ms = read_milliseconds(scanner.next());
                    time.add_final(ms);
                } else if tz.is_expecting(n) {
                    tz.minute = n;
                } else if time.is_expecting(n) {
                    time.add_final(n);
                    // A finished time must be followed by a space, the end,
                    // "Z" or a sign.
                    let p = scanner.peek();
                    if !matches!(p, Token::End | Token::WhiteSpace) && !p.is_keyword_z() && p.sign().is_none() {
                        return None;
                    }
                } else {
                    // A '.' after a number that is not a time was consumed
                    // above (as V8 does), so "1.2.2024" reads as a date.
                    if !day.add(n) {
                        return None;
                    }
                    scanner.skip_symbol(b'-');
                }
            }
            Token::Keyword(kind, value, _) => {
                if kind == KeywordKind::AmPm && !time.is_empty() {
                    time.hour_offset = Some(value);
                } else if kind == KeywordKind::MonthName {
                    day.named_month = Some(value);
                    scanner.skip_symbol(b'-');
                } else if kind == KeywordKind::TimeZoneName && has_read_number {
                    tz.set(value);
                } else {
                    // Words are only allowed before the first number, and
                    // must be separated from it.
                    if has_read_number || matches!(scanner.peek(), Token::Number(..)) {
                        return None;
                    }
                }
            }
            Token::Symbol(_) if token.sign().is_some() && (tz.is_utc() || !time.is_empty()) => {
                tz.sign = token.sign().unwrap_or(1);
                let (mut n, mut length) = (0, 0);
                if let Token::Number(value, len) = scanner.peek() {
                    scanner.next();
                    (n, length) = (value, len);
                }
                has_read_number = true;
                if scanner.peek().is_symbol(b':') {
                    tz.hour = n;
                    tz.minute = NONE;
                } else if length == 1 || length == 2 {
                    (tz.hour, tz.minute) = (n, 0);
                } else if length == 3 || length == 4 {
                    (tz.hour, tz.minute) = (n / 100, n % 100);
                } else {
                    return None;
                }
            }
            Token::Symbol(c) if (token.sign().is_some() || c == u16::from(b')')) && has_read_number => return None,
            _ => {}
        }
        token = scanner.next();
    }
    let mut out = Parsed::default();
    if !(day.write(&mut out) && time.write(&mut out)) {
        return None;
    }
    tz.write(&mut out);
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(s: &str) -> f64 {
        let units: Vec<u16> = s.encode_utf16().collect();
        parse(&units, &TimeZone::utc())
    }

    #[test]
    fn iso_forms() {
        assert_eq!(p("2020"), 1_577_836_800_000.0);
        assert_eq!(p("2020-01"), 1_577_836_800_000.0);
        assert_eq!(p("2020-01-01T00:00Z"), 1_577_836_800_000.0);
        assert_eq!(p("+002020-01-01"), 1_577_836_800_000.0);
        assert_eq!(p("2024-01-02T10:00:00.123456Z"), 1_704_189_600_123.0);
        assert_eq!(p("2024-01-02T10:00:00+05:30"), 1_704_169_800_000.0);
        assert_eq!(p("2024-01-02T24:00:00Z"), 1_704_240_000_000.0);
        assert_eq!(p("-271821-04-20T00:00:00.000Z"), -8.64e15);
        assert_eq!(p("+275760-09-13T00:00:00.000Z"), 8.64e15);
        assert!(p("+275760-09-13T00:00:00.001Z").is_nan());
        assert!(p("-000000-01-01T00:00:00Z").is_nan());
        assert!(p("2024-01-02T24:01:00Z").is_nan());
        assert!(p("2000-01-01TZ").is_nan());
        assert!(p("2024-13-01").is_nan());
    }

    #[test]
    fn legacy_forms() {
        assert_eq!(p("Tue Jan 02 2024 10:00:00 GMT+0000 (Coordinated Universal Time)"), 1_704_189_600_000.0);
        assert_eq!(p("Tue, 02 Jan 2024 10:00:00 GMT"), 1_704_189_600_000.0);
        assert_eq!(p("Thu, 01 Jan 1970 00:00:00 GMT+0100"), -3_600_000.0);
        assert_eq!(p("2 Jan 2024 10:00 EST"), 1_704_207_600_000.0);
        assert_eq!(p("12/31/1999 23:59:59 PST"), 946_713_599_000.0);
        assert_eq!(p("January 2, 2024 10:00:00 PM"), 1_704_232_800_000.0);
        assert_eq!(p("1/1/49"), p("2049-01-01T00:00"));
        assert_eq!(p("Jan 2"), p("2001-01-02T00:00"));
        assert!(p("foo").is_nan());
        assert!(p("").is_nan());
        assert!(p("Mon, 32 Jan 2024").is_nan());
        assert!(p("T10:00").is_nan());
        assert!(p("2024-01-02 10:00 foo").is_nan());
    }
}
