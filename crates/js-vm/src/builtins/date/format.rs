//! Date to string conversions: the spec's `toISOString` and
//! `toUTCString` forms and V8's `toString` family (§21.4.4.41), plus
//! simple en-US `toLocale*String` forms.
//!
//! All functions take a finite time value; callers handle NaN ("Invalid
//! Date" or a RangeError).

use super::local_time::{TimeZone, long_name};
use super::time_math::{Fields, fields};

const DAY_NAMES: [&str; 7] = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
const MONTH_NAMES: [&str; 12] = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

fn day_name(f: &Fields) -> &'static str {
    DAY_NAMES[usize::try_from(f.week_day).unwrap_or(0) % 7]
}

fn month_name(f: &Fields) -> &'static str {
    MONTH_NAMES[usize::try_from(f.month).unwrap_or(0) % 12]
}

/// A year as `toString` prints it: at least four digits, `-` before
/// negative ones.
fn year_text(year: i64) -> String {
    if year < 0 { format!("-{:04}", -year) } else { format!("{year:04}") }
}

/// The local fields of `t` and the local type in effect.
fn local(t: f64, zone: &TimeZone) -> (Fields, super::local_time::LocalType) {
    let seconds = (t / 1000.0).floor() as i64;
    let ty = zone.type_at(seconds);
    (fields(t + ty.offset as f64 * 1000.0), ty)
}

/// `toISOString`: `YYYY-MM-DDTHH:mm:ss.sssZ`, with `±YYYYYY` outside
/// years 0–9999.
pub fn iso_string(t: f64) -> String {
    let f = fields(t);
    let year = if (0..=9999).contains(&f.year) {
        format!("{:04}", f.year)
    } else if f.year < 0 {
        format!("-{:06}", -f.year)
    } else {
        format!("+{:06}", f.year)
    };
    format!("{year}-{:02}-{:02}T{:02}:{:02}:{:02}.{:03}Z", f.month + 1, f.date, f.hour, f.minute, f.second, f.ms)
}

/// `toUTCString`: `Tue, 02 Jan 2024 10:00:00 GMT`.
pub fn utc_string(t: f64) -> String {
    let f = fields(t);
    format!(
        "{}, {:02} {} {} {:02}:{:02}:{:02} GMT",
        day_name(&f),
        f.date,
        month_name(&f),
        year_text(f.year),
        f.hour,
        f.minute,
        f.second
    )
}

fn date_part(f: &Fields) -> String {
    format!("{} {} {:02} {}", day_name(f), month_name(f), f.date, year_text(f.year))
}

fn time_part(f: &Fields, zone: &TimeZone, ty: &super::local_time::LocalType) -> String {
    let minutes = ty.offset.div_euclid(60);
    let sign = if minutes < 0 { '-' } else { '+' };
    let abs = minutes.abs();
    format!(
        "{:02}:{:02}:{:02} GMT{sign}{:02}{:02} ({})",
        f.hour,
        f.minute,
        f.second,
        abs / 60,
        abs % 60,
        long_name(zone, ty)
    )
}

/// `toString`: `Tue Jan 02 2024 10:00:00 GMT+0000 (Coordinated Universal Time)`.
pub fn to_string(t: f64, zone: &TimeZone) -> String {
    let (f, ty) = local(t, zone);
    format!("{} {}", date_part(&f), time_part(&f, zone, &ty))
}

/// `toDateString`: `Tue Jan 02 2024`.
pub fn date_string(t: f64, zone: &TimeZone) -> String {
    date_part(&local(t, zone).0)
}

/// `toTimeString`: `10:00:00 GMT+0000 (Coordinated Universal Time)`.
pub fn time_string(t: f64, zone: &TimeZone) -> String {
    let (f, ty) = local(t, zone);
    time_part(&f, zone, &ty)
}

/// en-US date: `1/2/2024`; years before 1 are shown as era years (1 BC is
/// year 0), as ICU's Gregorian calendar prints them.
fn locale_date(f: &Fields) -> String {
    let year = if f.year <= 0 { 1 - f.year } else { f.year };
    format!("{}/{}/{}", f.month + 1, f.date, year)
}

/// en-US time: `1:05:07 PM`.
fn locale_time(f: &Fields) -> String {
    let hour12 = if f.hour % 12 == 0 { 12 } else { f.hour % 12 };
    let meridiem = if f.hour < 12 { "AM" } else { "PM" };
    format!("{hour12}:{:02}:{:02} {meridiem}", f.minute, f.second)
}

/// `toLocaleString` in en-US form: `1/2/2024, 10:00:00 AM`.
pub fn locale_string(t: f64, zone: &TimeZone) -> String {
    let f = local(t, zone).0;
    format!("{}, {}", locale_date(&f), locale_time(&f))
}

/// `toLocaleDateString` in en-US form.
pub fn locale_date_string(t: f64, zone: &TimeZone) -> String {
    locale_date(&local(t, zone).0)
}

/// `toLocaleTimeString` in en-US form.
pub fn locale_time_string(t: f64, zone: &TimeZone) -> String {
    locale_time(&local(t, zone).0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iso_and_utc_forms() {
        assert_eq!(iso_string(0.0), "1970-01-01T00:00:00.000Z");
        assert_eq!(iso_string(8.64e15), "+275760-09-13T00:00:00.000Z");
        assert_eq!(iso_string(-8.64e15), "-271821-04-20T00:00:00.000Z");
        assert_eq!(iso_string(-62_198_755_200_000.0), "-000001-01-01T00:00:00.000Z");
        assert_eq!(utc_string(1_704_189_600_000.0), "Tue, 02 Jan 2024 10:00:00 GMT");
        assert_eq!(utc_string(-62_198_755_200_000.0), "Fri, 01 Jan -0001 00:00:00 GMT");
    }

    #[test]
    fn local_forms_in_utc() {
        let utc = TimeZone::utc();
        let t = 1_704_189_600_000.0;
        assert_eq!(to_string(t, &utc), "Tue Jan 02 2024 10:00:00 GMT+0000 (Coordinated Universal Time)");
        assert_eq!(date_string(t, &utc), "Tue Jan 02 2024");
        assert_eq!(time_string(t, &utc), "10:00:00 GMT+0000 (Coordinated Universal Time)");
        assert_eq!(locale_string(t + 3_907_000.0, &utc), "1/2/2024, 11:05:07 AM");
        assert_eq!(locale_time_string(t - 10.0 * 3_600_000.0 + 300_000.0, &utc), "12:05:00 AM");
        assert_eq!(locale_date_string(-62_198_755_200_000.0, &utc), "1/1/2");
    }
}
