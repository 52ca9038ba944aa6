//! The one clock of the demo data, so that the areas seeding their own demo records need
//! nothing else of the demo.

/// An ISO 8601 timestamp `days` days and `minutes` minutes after 2023-01-02 08:00 UTC; demo
/// data derives its dates from this so they stay stable between runs.
pub(crate) fn timestamp(days: u32, minutes: u32) -> String {
    const START: i64 = 1_672_646_400; // 2023-01-02T08:00:00Z
    let seconds = START + i64::from(days) * 86_400 + i64::from(minutes) * 60;
    chrono::DateTime::from_timestamp(seconds, 0)
        .unwrap_or_default()
        .format("%Y-%m-%dT%H:%M:%S%.3fZ")
        .to_string()
}
