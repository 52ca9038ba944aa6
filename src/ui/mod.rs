//! Drawing helpers shared by screens. Widgets here know no screen.

pub mod markdown;
pub mod sanitize;
pub mod theme;
