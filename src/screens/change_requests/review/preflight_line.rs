//! A line of the merge pre-flight, shared by its checks and the links a merge would break.

/// One line of the pre-flight, before it is wrapped to the box.
#[derive(Debug, Clone, PartialEq)]
pub enum PreflightLine {
    Title(String),
    Blank,
    /// A check that does not pass (⚠).
    Warning(String),
    /// A check that passes (✓).
    Passed(String),
    /// Plain information (the merge rules, why nothing can be merged).
    Note(String),
}

impl PreflightLine {
    /// The line as shown, with its ✓ or ⚠.
    pub fn text(&self) -> String {
        match self {
            PreflightLine::Title(text) | PreflightLine::Note(text) => text.clone(),
            PreflightLine::Blank => String::new(),
            PreflightLine::Warning(text) => format!("⚠ {text}"),
            PreflightLine::Passed(text) => format!("✓ {text}"),
        }
    }
}
