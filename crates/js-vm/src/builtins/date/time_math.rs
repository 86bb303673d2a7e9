//! Time value arithmetic (§21.4.1): days, years, months and the
//! `MakeTime`/`MakeDay`/`MakeDate`/`TimeClip` operations.
//!
//! Every function takes and returns `f64` time values as the spec does, so
//! NaN and infinities flow through without special cases at call sites;
//! the helpers that split a finite time value into fields work on `i64`
//! because the range of valid time values (±8.64e15 ms) fits exactly.

/// Milliseconds per day (`msPerDay`).
pub const MS_PER_DAY: f64 = 86_400_000.0;
/// Milliseconds per hour.
pub const MS_PER_HOUR: f64 = 3_600_000.0;
/// Milliseconds per minute.
pub const MS_PER_MINUTE: f64 = 60_000.0;
/// Milliseconds per second.
pub const MS_PER_SECOND: f64 = 1_000.0;
/// The largest magnitude of a valid time value (§21.4.1.1).
pub const MAX_TIME: f64 = 8.64e15;

/// [`Day(t)`](https://tc39.es/ecma262/#sec-day): days since the epoch.
#[cfg(test)]
fn day(t: f64) -> f64 {
    (t / MS_PER_DAY).floor()
}

/// [`TimeWithinDay(t)`](https://tc39.es/ecma262/#sec-timewithinday).
pub fn time_within_day(t: f64) -> f64 {
    t.rem_euclid(MS_PER_DAY)
}

/// `DayFromYear(y)`: the day number of January 1 of year `y` (the
/// closed form the tests check `make_day` against).
#[cfg(test)]
fn day_from_year(y: f64) -> f64 {
    365.0 * (y - 1970.0) + ((y - 1969.0) / 4.0).floor() - ((y - 1901.0) / 100.0).floor()
        + ((y - 1601.0) / 400.0).floor()
}

/// `DaysInYear(y)`.
pub fn days_in_year(y: i64) -> i64 {
    if is_leap_year(y) { 366 } else { 365 }
}

fn is_leap_year(y: i64) -> bool {
    y.rem_euclid(4) == 0 && (y.rem_euclid(100) != 0 || y.rem_euclid(400) == 0)
}

/// The calendar fields of a finite time value, in UTC.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fields {
    /// Full year (may be negative).
    pub year: i64,
    /// Month, 0–11.
    pub month: i64,
    /// Day of the month, 1–31.
    pub date: i64,
    /// Hours, 0–23.
    pub hour: i64,
    /// Minutes, 0–59.
    pub minute: i64,
    /// Seconds, 0–59.
    pub second: i64,
    /// Milliseconds, 0–999.
    pub ms: i64,
    /// Day of the week, 0 (Sunday)–6.
    pub week_day: i64,
}

/// Splits a finite time value into calendar fields. The year comes from the
/// civil-from-days algorithm (era of 400 years), which is exact for every
/// `i64` day count the time range can produce.
pub fn fields(t: f64) -> Fields {
    // Callers pass finite values; a non-finite one would saturate to an
    // extreme i64 and give nonsense fields, never a panic.
    let t = t as i64;
    let days = t.div_euclid(86_400_000);
    let in_day = t.rem_euclid(86_400_000);
    let (year, month, date) = civil_from_days(days);
    Fields {
        year,
        month: month - 1,
        date,
        hour: in_day / 3_600_000,
        minute: in_day / 60_000 % 60,
        second: in_day / 1000 % 60,
        ms: in_day % 1000,
        week_day: (days + 4).rem_euclid(7),
    }
}

/// (year, month 1–12, day 1–31) of a day count since 1970-01-01.
fn civil_from_days(days: i64) -> (i64, i64, i64) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

/// Days from 1970-01-01 to the first of month `m` (1–12) of year `y`.
fn days_from_civil(y: i64, m: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y.rem_euclid(400);
    let mp = if m > 2 { m - 3 } else { m + 9 };
    let doy = (153 * mp + 2) / 5;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// [`MakeTime`](https://tc39.es/ecma262/#sec-maketime).
pub fn make_time(hour: f64, min: f64, sec: f64, ms: f64) -> f64 {
    if !(hour.is_finite() && min.is_finite() && sec.is_finite() && ms.is_finite()) {
        return f64::NAN;
    }
    let (h, m, s, milli) = (hour.trunc(), min.trunc(), sec.trunc(), ms.trunc());
    h * MS_PER_HOUR + m * MS_PER_MINUTE + s * MS_PER_SECOND + milli
}

/// [`MakeDay`](https://tc39.es/ecma262/#sec-makeday).
pub fn make_day(year: f64, month: f64, date: f64) -> f64 {
    if !(year.is_finite() && month.is_finite() && date.is_finite()) {
        return f64::NAN;
    }
    let (y, m, dt) = (year.trunc(), month.trunc(), date.trunc());
    let ym = y + (m / 12.0).floor();
    // Beyond ±400,000 years no valid time value can result; bailing out
    // here also keeps the integer arithmetic below from overflowing.
    if ym.abs() > 400_000.0 {
        return f64::NAN;
    }
    let mn = m.rem_euclid(12.0);
    // ym and mn are integral and in range, so the conversions are exact.
    let days = days_from_civil(ym as i64, mn as i64 + 1);
    days as f64 + dt - 1.0
}

/// [`MakeDate`](https://tc39.es/ecma262/#sec-makedate).
pub fn make_date(day: f64, time: f64) -> f64 {
    if !(day.is_finite() && time.is_finite()) {
        return f64::NAN;
    }
    let tv = day * MS_PER_DAY + time;
    if tv.is_finite() { tv } else { f64::NAN }
}

/// [`TimeClip`](https://tc39.es/ecma262/#sec-timeclip); `+ 0.0` turns -0
/// into +0.
pub fn time_clip(time: f64) -> f64 {
    if !time.is_finite() || time.abs() > MAX_TIME {
        return f64::NAN;
    }
    time.trunc() + 0.0
}

/// [`MakeFullYear`](https://tc39.es/ecma262/#sec-makefullyear): two-digit
/// years mean 19xx.
pub fn make_full_year(year: f64) -> f64 {
    if year.is_nan() {
        return f64::NAN;
    }
    let truncated = year.trunc();
    if (0.0..=99.0).contains(&truncated) { 1900.0 + truncated } else { truncated }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn epoch_fields() {
        let f = fields(0.0);
        assert_eq!((f.year, f.month, f.date, f.week_day), (1970, 0, 1, 4));
    }

    #[test]
    fn fields_round_trip_make_day() {
        for &(y, m, d) in
            &[(2024, 1, 29), (2000, 1, 29), (1900, 1, 28), (-1, 11, 31), (275_760, 8, 13), (-271_821, 3, 20)]
        {
            let t = make_date(make_day(y as f64, m as f64, d as f64), 0.0);
            let f = fields(t);
            assert_eq!((f.year, f.month, f.date), (y, m, d));
        }
    }

    #[test]
    fn make_day_matches_day_from_year() {
        for y in [-400, -1, 0, 1, 1600, 1969, 1970, 2000, 2100] {
            assert_eq!(make_day(f64::from(y), 0.0, 1.0), day_from_year(f64::from(y)));
        }
        assert_eq!(days_in_year(2000), 366);
        assert_eq!(days_in_year(1900), 365);
    }

    #[test]
    fn month_overflow_and_negative_months() {
        assert_eq!(make_day(2020.0, 12.0, 1.0), make_day(2021.0, 0.0, 1.0));
        assert_eq!(make_day(2020.0, -1.0, 1.0), make_day(2019.0, 11.0, 1.0));
        assert!(make_day(f64::INFINITY, 0.0, 1.0).is_nan());
        assert!(make_day(1e20, 0.0, 1.0).is_nan());
    }

    #[test]
    fn time_clip_edges() {
        assert_eq!(time_clip(8.64e15), 8.64e15);
        assert!(time_clip(8.64e15 + 1.0).is_nan());
        assert!(time_clip(-0.0).is_sign_positive());
        assert_eq!(time_clip(1.9), 1.0);
        assert_eq!(time_within_day(-1.0), MS_PER_DAY - 1.0);
        assert_eq!(day(-1.0), -1.0);
    }

    #[test]
    fn make_time_truncates() {
        assert_eq!(make_time(1.5, 0.0, 0.0, 0.9), MS_PER_HOUR);
        assert!(make_time(f64::NAN, 0.0, 0.0, 0.0).is_nan());
        assert_eq!(make_full_year(99.0), 1999.0);
        assert_eq!(make_full_year(100.0), 100.0);
    }
}
