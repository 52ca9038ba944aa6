//! Markdown to styled terminal lines.
