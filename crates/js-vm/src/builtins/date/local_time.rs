//! The local time zone (§21.4.1.25–28): offsets read from the system's
//! tzdata for the zone named by the `TZ` environment variable.
//!
//! TZif files (RFC 8536) are parsed here rather than through a crate: the
//! format is a header, a list of transition instants, and a table of
//! offsets, plus (version 2+) a POSIX TZ rule string for instants after the
//! last transition. `TZ` unset, empty or naming no readable zone means UTC,
//! so output never depends on the machine's `/etc/localtime`.

use std::sync::OnceLock;

/// One local time type: a UTC offset and its abbreviation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LocalType {
    /// Seconds east of UTC.
    pub offset: i64,
    /// Whether this is daylight saving time.
    pub is_dst: bool,
    /// The abbreviation, such as `EST`.
    pub abbreviation: String,
}

/// A POSIX TZ rule day: when in a year a DST switch happens.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum RuleDay {
    /// `Jn`: day 1–365, February 29 never counted.
    Julian1(i64),
    /// `n`: day 0–365, leap days counted.
    Julian0(i64),
    /// `Mm.w.d`: day `d` of week `w` (5 = last) of month `m`.
    MonthWeek(i64, i64, i64),
}

/// When a switch happens: the day and the local time (seconds after
/// midnight, possibly negative or past 24h).
type Switch = (RuleDay, i64);

/// A POSIX TZ rule such as `EST5EDT,M3.2.0,M11.1.0`.
#[derive(Clone, Debug, PartialEq, Eq)]
struct PosixRule {
    std: LocalType,
    /// The daylight type and its start and end, if the zone observes DST.
    dst: Option<(LocalType, Switch, Switch)>,
}

/// A time zone: transitions (UTC seconds, index into `types`) and the rule
/// for later instants.
#[derive(Clone, Debug, Default)]
pub struct TimeZone {
    transitions: Vec<(i64, usize)>,
    types: Vec<LocalType>,
    rule: Option<PosixRule>,
    /// The `TZ` name, used to pick long display names.
    pub name: String,
    /// Whether the zone was found (false: the UTC fallback for an unknown
    /// or empty `TZ`, which V8 names `GMT+00:00`).
    pub known: bool,
}

impl TimeZone {
    /// UTC, named as V8 names it when `TZ` is unset.
    pub fn utc() -> Self {
        Self { name: "UTC".to_owned(), known: true, ..Self::default() }
    }

    /// Parses a TZif file; `None` if it is malformed.
    pub fn from_tzif(name: &str, data: &[u8]) -> Option<Self> {
        let header = Header::read(data)?;
        let mut tz = if header.version >= 2 {
            // Skip the version 1 block, whose 32-bit times are superseded.
            let v2 = data.get(header.block_len(4)..)?;
            let header2 = Header::read(v2)?;
            let mut tz = header2.parse_block(v2, 8)?;
            let footer = v2.get(header2.block_len(8)..)?;
            let text = std::str::from_utf8(footer).ok()?;
            let rule_text = text.trim_matches('\n');
            if !rule_text.is_empty() {
                tz.rule = parse_posix(rule_text);
            }
            tz
        } else {
            header.parse_block(data, 4)?
        };
        name.clone_into(&mut tz.name);
        tz.known = true;
        Some(tz)
    }

    /// The local type in effect at `t` seconds since the epoch (UTC).
    pub fn type_at(&self, t: i64) -> LocalType {
        let idx = self.transitions.partition_point(|&(at, _)| at <= t);
        if idx == self.transitions.len()
            && let Some(rule) = &self.rule
        {
            return rule.type_at(t);
        }
        if idx == 0 {
            // RFC 8536: before the first transition, type 0 applies.
            return self.types.first().cloned().unwrap_or_else(utc_type);
        }
        let type_index = self.transitions[idx - 1].1;
        self.types.get(type_index).cloned().unwrap_or_else(utc_type)
    }

    /// The offset in milliseconds at the UTC instant `t_ms`.
    pub fn offset_ms_at_utc(&self, t_ms: f64) -> f64 {
        if !t_ms.is_finite() {
            return 0.0;
        }
        let seconds = (t_ms / 1000.0).floor() as i64;
        self.type_at(seconds).offset as f64 * 1000.0
    }

    /// The UTC offset (ms) to subtract from a local time value `t_local`.
    /// A local time repeated by a backward transition resolves to the
    /// earlier instant, and one skipped by a forward transition is read
    /// with the offset from before it, as §21.4.1.26 (and V8) do.
    pub fn offset_ms_for_local(&self, t_local: f64) -> f64 {
        if !t_local.is_finite() {
            return 0.0;
        }
        let day = 86_400_000.0;
        let before = self.offset_ms_at_utc(t_local - day);
        let after = self.offset_ms_at_utc(t_local + day);
        if self.offset_ms_at_utc(t_local - before) == before {
            before
        } else if self.offset_ms_at_utc(t_local - after) == after {
            after
        } else {
            before
        }
    }
}

fn utc_type() -> LocalType {
    LocalType { offset: 0, is_dst: false, abbreviation: "UTC".to_owned() }
}

/// The counts in a TZif header.
struct Header {
    version: u8,
    isutcnt: usize,
    isstdcnt: usize,
    leapcnt: usize,
    timecnt: usize,
    typecnt: usize,
    charcnt: usize,
}

impl Header {
    fn read(data: &[u8]) -> Option<Self> {
        if data.get(..4)? != b"TZif" {
            return None;
        }
        let version = match *data.get(4)? {
            0 => 1,
            b'2' => 2,
            b'3' => 3,
            b'4' => 4,
            _ => return None,
        };
        let count = |i: usize| -> Option<usize> {
            let bytes = data.get(20 + 4 * i..24 + 4 * i)?;
            usize::try_from(u32::from_be_bytes(bytes.try_into().ok()?)).ok()
        };
        Some(Self {
            version,
            isutcnt: count(0)?,
            isstdcnt: count(1)?,
            leapcnt: count(2)?,
            timecnt: count(3)?,
            typecnt: count(4)?,
            charcnt: count(5)?,
        })
    }

    /// Bytes of header plus data block with `time_size`-byte times.
    fn block_len(&self, time_size: usize) -> usize {
        44 + self.timecnt * time_size
            + self.timecnt
            + self.typecnt * 6
            + self.charcnt
            + self.leapcnt * (time_size + 4)
            + self.isstdcnt
            + self.isutcnt
    }

    fn parse_block(&self, data: &[u8], time_size: usize) -> Option<TimeZone> {
        let mut pos: usize = 44;
        let mut take = |n: usize| -> Option<&[u8]> {
            let s = data.get(pos..pos.checked_add(n)?)?;
            pos += n;
            Some(s)
        };
        let times = take(self.timecnt * time_size)?;
        let indices = take(self.timecnt)?;
        let infos = take(self.typecnt * 6)?;
        let chars = take(self.charcnt)?;
        let mut transitions = Vec::with_capacity(self.timecnt);
        for (i, &index) in indices.iter().enumerate() {
            let raw = &times[i * time_size..(i + 1) * time_size];
            let at = if time_size == 8 {
                i64::from_be_bytes(raw.try_into().ok()?)
            } else {
                i64::from(i32::from_be_bytes(raw.try_into().ok()?))
            };
            if usize::from(index) >= self.typecnt {
                return None;
            }
            transitions.push((at, usize::from(index)));
        }
        let mut types = Vec::with_capacity(self.typecnt);
        for info in infos.chunks_exact(6) {
            let offset = i64::from(i32::from_be_bytes(info[..4].try_into().ok()?));
            let start = usize::from(info[5]);
            let tail = chars.get(start..).unwrap_or_default();
            let end = tail.iter().position(|&b| b == 0).unwrap_or(tail.len());
            let abbreviation = String::from_utf8_lossy(&tail[..end]).into_owned();
            types.push(LocalType { offset, is_dst: info[4] != 0, abbreviation });
        }
        Some(TimeZone { transitions, types, ..TimeZone::default() })
    }
}

impl PosixRule {
    fn type_at(&self, t: i64) -> LocalType {
        let Some((dst, start, end)) = &self.dst else { return self.std.clone() };
        // The year as seen in standard time; switches happen in
        // Northern-hemisphere months far from New Year, and southern rules
        // are handled by the inverted comparison below.
        let year = super::time_math::fields(((t + self.std.offset) * 1000) as f64).year;
        let start_utc = rule_instant(year, *start) - self.std.offset;
        let end_utc = rule_instant(year, *end) - dst.offset;
        let in_dst = if start_utc < end_utc { start_utc <= t && t < end_utc } else { !(end_utc <= t && t < start_utc) };
        if in_dst { dst.clone() } else { self.std.clone() }
    }
}

/// Local seconds since the epoch (as if UTC) of a rule's switch in `year`.
fn rule_instant(year: i64, (day, time): (RuleDay, i64)) -> i64 {
    use super::time_math::{fields, make_day};
    let jan1 = make_day(year as f64, 0.0, 1.0) as i64;
    let leap = super::time_math::days_in_year(year) == 366;
    let day_number = match day {
        RuleDay::Julian1(n) => jan1 + n - 1 + i64::from(leap && n >= 60),
        RuleDay::Julian0(n) => jan1 + n,
        RuleDay::MonthWeek(m, w, d) => {
            let first = make_day(year as f64, (m - 1) as f64, 1.0) as i64;
            let first_wd = fields(first as f64 * 86_400_000.0).week_day;
            let mut day = first + (d - first_wd).rem_euclid(7) + (w - 1) * 7;
            let next_month = make_day(year as f64, m as f64, 1.0) as i64;
            while day >= next_month {
                day -= 7;
            }
            day
        }
    };
    day_number * 86_400 + time
}

/// Parses a POSIX TZ string (`std offset [dst [offset] [,start[/time],end[/time]]]`).
fn parse_posix(s: &str) -> Option<PosixRule> {
    let mut p = Cursor { s: s.as_bytes(), pos: 0 };
    let std_name = p.name()?;
    // POSIX offsets are west-positive; TZif ones are east-positive.
    let std_offset = -p.offset()?;
    let std = LocalType { offset: std_offset, is_dst: false, abbreviation: std_name };
    if p.at_end() {
        return Some(PosixRule { std, dst: None });
    }
    let dst_name = p.name()?;
    let dst_offset = if p.peek() == Some(b',') { std_offset + 3600 } else { -p.offset()? };
    let dst = LocalType { offset: dst_offset, is_dst: true, abbreviation: dst_name };
    // Without rules POSIX says "implementation-defined"; US rules are the
    // traditional default.
    let (start, end) = if p.eat(b',') {
        let start = p.rule()?;
        if !p.eat(b',') {
            return None;
        }
        (start, p.rule()?)
    } else {
        ((RuleDay::MonthWeek(3, 2, 0), 7200), (RuleDay::MonthWeek(11, 1, 0), 7200))
    };
    Some(PosixRule { std, dst: Some((dst, start, end)) })
}

struct Cursor<'a> {
    s: &'a [u8],
    pos: usize,
}

impl Cursor<'_> {
    fn peek(&self) -> Option<u8> {
        self.s.get(self.pos).copied()
    }

    fn at_end(&self) -> bool {
        self.pos >= self.s.len()
    }

    fn eat(&mut self, c: u8) -> bool {
        if self.peek() == Some(c) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    fn name(&mut self) -> Option<String> {
        let start = self.pos;
        if self.eat(b'<') {
            while self.peek()? != b'>' {
                self.pos += 1;
            }
            let name = String::from_utf8_lossy(&self.s[start + 1..self.pos]).into_owned();
            self.pos += 1;
            return Some(name);
        }
        while self.peek().is_some_and(|c| c.is_ascii_alphabetic()) {
            self.pos += 1;
        }
        (self.pos - start >= 3).then(|| String::from_utf8_lossy(&self.s[start..self.pos]).into_owned())
    }

    fn number(&mut self) -> Option<i64> {
        let start = self.pos;
        let mut n: i64 = 0;
        while let Some(c) = self.peek().filter(u8::is_ascii_digit) {
            n = n.checked_mul(10)?.checked_add(i64::from(c - b'0'))?;
            self.pos += 1;
        }
        (self.pos > start).then_some(n)
    }

    /// `[+-]hh[:mm[:ss]]` in seconds.
    fn offset(&mut self) -> Option<i64> {
        let sign = if self.eat(b'-') {
            -1
        } else {
            self.eat(b'+');
            1
        };
        let mut seconds = self.number()? * 3600;
        if self.eat(b':') {
            seconds += self.number()? * 60;
            if self.eat(b':') {
                seconds += self.number()?;
            }
        }
        Some(sign * seconds)
    }

    fn rule(&mut self) -> Option<(RuleDay, i64)> {
        let day = if self.eat(b'M') {
            let m = self.number()?;
            self.eat(b'.').then_some(())?;
            let w = self.number()?;
            self.eat(b'.').then_some(())?;
            let d = self.number()?;
            if !(1..=12).contains(&m) || !(1..=5).contains(&w) || d > 6 {
                return None;
            }
            RuleDay::MonthWeek(m, w, d)
        } else if self.eat(b'J') {
            RuleDay::Julian1(self.number()?.clamp(1, 365))
        } else {
            RuleDay::Julian0(self.number()?.min(365))
        };
        let time = if self.eat(b'/') { self.offset()? } else { 7200 };
        Some((day, time))
    }
}

/// Reads the zone named by `TZ`: unset means UTC, and a name that is
/// empty, unsafe as a path, or not a readable TZif file means UTC under
/// V8's `GMT+00:00` name.
fn load_from_env() -> TimeZone {
    let Ok(name) = std::env::var("TZ") else { return TimeZone::utc() };
    let name = name.strip_prefix(':').unwrap_or(&name);
    let unknown = TimeZone { name: name.to_owned(), known: false, ..TimeZone::default() };
    if name.is_empty() || name.contains("..") {
        return unknown;
    }
    let path = if name.starts_with('/') { name.to_owned() } else { format!("/usr/share/zoneinfo/{name}") };
    if let Ok(data) = std::fs::read(&path)
        && let Some(tz) = TimeZone::from_tzif(name, &data)
    {
        return tz;
    }
    // A bare POSIX rule such as `EST5EDT,M3.2.0,M11.1.0` without a file.
    parse_posix(name).map_or(unknown, |rule| TimeZone {
        rule: Some(rule),
        name: name.to_owned(),
        known: true,
        ..TimeZone::default()
    })
}

/// The process's local time zone, read from `TZ` on first use (as V8 reads
/// it once at startup).
pub fn local_zone() -> &'static TimeZone {
    static ZONE: OnceLock<TimeZone> = OnceLock::new();
    ZONE.get_or_init(load_from_env)
}

/// The long name V8 (through ICU) prints in `toString`, for the common
/// zones; anything else is shown as `GMT±hh:mm`, as V8 does for zones ICU
/// has no name for.
pub fn long_name(zone: &TimeZone, local: &LocalType) -> String {
    let by_abbreviation = match local.abbreviation.as_str() {
        "UTC" if zone.known => Some("Coordinated Universal Time"),
        "GMT" if zone.known => Some("Greenwich Mean Time"),
        "BST" => Some("British Summer Time"),
        "IST" if zone.name.contains("Dublin") => Some("Irish Standard Time"),
        "IST" if zone.name.contains("Kolkata") || zone.name.contains("Calcutta") => Some("India Standard Time"),
        "IST" if zone.name.contains("Jerusalem") || zone.name.contains("Tel_Aviv") => Some("Israel Standard Time"),
        "IDT" => Some("Israel Daylight Time"),
        "EST" => Some("Eastern Standard Time"),
        "EDT" => Some("Eastern Daylight Time"),
        "CST" if zone.name.contains("Shanghai") || zone.name.contains("PRC") || zone.name.contains("Chongqing") => {
            Some("China Standard Time")
        }
        "CST" => Some("Central Standard Time"),
        "CDT" => Some("Central Daylight Time"),
        "MST" => Some("Mountain Standard Time"),
        "MDT" => Some("Mountain Daylight Time"),
        "PST" => Some("Pacific Standard Time"),
        "PDT" => Some("Pacific Daylight Time"),
        "AKST" => Some("Alaska Standard Time"),
        "AKDT" => Some("Alaska Daylight Time"),
        "HST" => Some("Hawaii-Aleutian Standard Time"),
        "HDT" => Some("Hawaii-Aleutian Daylight Time"),
        "CET" => Some("Central European Standard Time"),
        "CEST" => Some("Central European Summer Time"),
        "EET" => Some("Eastern European Standard Time"),
        "EEST" => Some("Eastern European Summer Time"),
        "WET" => Some("Western European Standard Time"),
        "WEST" => Some("Western European Summer Time"),
        "MSK" => Some("Moscow Standard Time"),
        "JST" => Some("Japan Standard Time"),
        "KST" => Some("Korean Standard Time"),
        "HKT" => Some("Hong Kong Standard Time"),
        "AEST" => Some("Australian Eastern Standard Time"),
        "AEDT" => Some("Australian Eastern Daylight Time"),
        "ACST" => Some("Australian Central Standard Time"),
        "ACDT" => Some("Australian Central Daylight Time"),
        "AWST" => Some("Australian Western Standard Time"),
        "NZST" => Some("New Zealand Standard Time"),
        "NZDT" => Some("New Zealand Daylight Time"),
        _ => None,
    };
    if let Some(name) = by_abbreviation {
        return name.to_owned();
    }
    let offset_minutes = local.offset.div_euclid(60);
    let sign = if offset_minutes < 0 { '-' } else { '+' };
    let abs = offset_minutes.abs();
    format!("GMT{sign}{:02}:{:02}", abs / 60, abs % 60)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn posix_new_york_rule() {
        let rule = parse_posix("EST5EDT,M3.2.0,M11.1.0").unwrap();
        // 2024-07-01T12:00Z is in EDT; 2024-01-01T12:00Z is in EST.
        assert_eq!(rule.type_at(1_719_835_200).offset, -4 * 3600);
        assert_eq!(rule.type_at(1_704_110_400).offset, -5 * 3600);
        // DST began 2024-03-10T07:00Z.
        assert_eq!(rule.type_at(1_710_054_000).abbreviation, "EDT");
        assert_eq!(rule.type_at(1_710_053_999).abbreviation, "EST");
    }

    #[test]
    fn posix_southern_and_bracketed() {
        let rule = parse_posix("AEST-10AEDT,M10.1.0,M4.1.0/3").unwrap();
        assert_eq!(rule.type_at(1_704_110_400).offset, 11 * 3600); // January: summer
        assert_eq!(rule.type_at(1_719_835_200).offset, 10 * 3600); // July: winter
        let fixed = parse_posix("<+0530>-5:30").unwrap();
        assert_eq!(fixed.type_at(0).offset, 5 * 3600 + 1800);
        assert!(parse_posix("").is_none());
    }

    #[test]
    fn tzif_round_trip() {
        // A hand-made version 1 file: one transition at t=1000 from type 0
        // (+1h "AAA") to type 1 (+2h "BBB").
        let mut data = b"TZif".to_vec();
        data.extend([0u8; 16]);
        for count in [0u32, 0, 0, 1, 2, 8] {
            data.extend(count.to_be_bytes());
        }
        data.extend(1000i32.to_be_bytes());
        data.push(1);
        data.extend(3600i32.to_be_bytes());
        data.extend([0, 0]);
        data.extend(7200i32.to_be_bytes());
        data.extend([1, 4]);
        data.extend(b"AAA\0BBB\0");
        let tz = TimeZone::from_tzif("Test/Zone", &data).unwrap();
        assert_eq!(tz.type_at(999).abbreviation, "AAA");
        assert_eq!(tz.type_at(1000).offset, 7200);
        assert!(TimeZone::from_tzif("x", b"TZif").is_none());
        assert!(TimeZone::from_tzif("x", &data[..50]).is_none());
    }

    #[test]
    fn local_resolution_in_gaps_and_overlaps() {
        let tz = TimeZone { rule: parse_posix("EST5EDT,M3.2.0,M11.1.0"), known: true, ..TimeZone::default() };
        // 2024-03-10T02:30 local does not exist: read with EST.
        let gap = 1_710_037_800_000.0; // 2024-03-10T02:30Z as a local value
        assert_eq!(tz.offset_ms_for_local(gap), -5.0 * 3_600_000.0);
        // 2024-11-03T01:30 local happens twice: the first (EDT) wins.
        let overlap = 1_730_597_400_000.0;
        assert_eq!(tz.offset_ms_for_local(overlap), -4.0 * 3_600_000.0);
    }

    #[test]
    fn system_new_york_if_present() {
        if let Ok(data) = std::fs::read("/usr/share/zoneinfo/America/New_York") {
            let tz = TimeZone::from_tzif("America/New_York", &data).unwrap();
            assert_eq!(tz.offset_ms_at_utc(1_704_189_600_000.0), -5.0 * 3_600_000.0);
            // Far beyond the table: the footer rule answers.
            assert_eq!(tz.type_at(4_102_444_800 + 180 * 86_400).abbreviation, "EDT");
        }
    }
}
