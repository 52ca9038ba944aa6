//! Drawing helpers shared by screens. Widgets here know no screen.

pub mod address_popup;

pub mod code_colours;
pub mod composer;
pub mod confirm;
pub mod diff;
pub mod document;
pub mod emoji_picker;
pub mod form;
pub mod hit;
pub mod hyperlink;
pub mod input;
pub mod keymap;
pub mod layout;
pub mod list;
pub mod look;
pub mod markdown;
pub mod page_tree;

pub mod notice;
pub mod one_line;

pub mod picker;
pub mod prompt;
pub mod reader;
pub mod sanitize;
pub mod segments;
pub mod status;
pub mod table;
pub mod text;
pub mod theme;
pub mod time;
pub mod titled;
pub mod tree;
