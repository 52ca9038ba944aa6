fn rss() -> String {
    let s = std::fs::read_to_string("/proc/self/status").unwrap();
    s.lines()
        .filter(|l| l.starts_with("VmRSS") || l.starts_with("VmHWM"))
        .collect::<Vec<_>>()
        .join(" ")
}
fn main() {
    println!("start {}", rss());
    let set = two_face::syntax::extra_newlines();
    println!(
        "syntax set loaded {} ({} syntaxes)",
        rss(),
        set.syntaxes().len()
    );
    let theme = syntect::highlighting::ThemeSet::load_defaults();
    println!("themes {}", rss());
    drop(theme);
    for lang in [
        "rust", "python", "ts", "js", "go", "sql", "sh", "json", "yaml", "toml",
    ] {
        let syntax = set.find_syntax_by_token(lang).unwrap();
        let th = &syntect::highlighting::ThemeSet::load_defaults().themes["base16-ocean.dark"];
        let mut h = syntect::easy::HighlightLines::new(syntax, th);
        let _ = h.highlight_line("let x = 1; // comment \"str\" 42\n", &set);
        println!("{lang} one line {}", rss());
    }
    if std::env::args().any(|a| a == "warm") {
        quire::ui::markdown::warm_common_grammars();
        println!("quire warm {}", rss());
    }
}
