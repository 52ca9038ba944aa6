//! Drawing helpers shared by screens. Widgets here know no screen.

pub mod chrome;
pub mod input;
pub mod list;
pub mod markdown;
pub mod reader;
pub mod sanitize;
pub mod status;
pub mod text;
pub mod theme;
pub mod tree;
