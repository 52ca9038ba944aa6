//! Shown when quire has no token and no `--demo`: the two ways in.

use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, Wrap};

use crate::screens::ScreenState;
use crate::screens::look::Look;
use crate::ui::hit::Canvas;
use crate::ui::keymap::Action;

#[derive(Debug, Default)]
pub struct Welcome;

impl ScreenState for Welcome {
    fn title(&self) -> String {
        "Welcome".to_string()
    }

    fn hints(&self) -> Vec<(Action, &'static str)> {
        vec![(Action::Quit, "quit"), (Action::Help, "keys")]
    }

    fn draw(&self, frame: &mut Canvas, area: Rect, look: &Look) {
        let theme = look.theme;
        let lines = vec![
            Line::from(Span::styled(
                "quire has no API token.",
                theme.style("title"),
            )),
            Line::from(""),
            Line::from("To use your documentation platform account, create a personal API token"),
            Line::from("in its settings and give it to quire in one of these ways:"),
            Line::from(""),
            Line::from(Span::styled("  quire auth login", theme.style("accent"))),
            Line::from(Span::styled(
                "  quire --token <TOKEN>",
                theme.style("accent"),
            )),
            Line::from(Span::styled(
                "  export GITBOOK_TOKEN=<TOKEN>",
                theme.style("accent"),
            )),
            Line::from(Span::styled(
                format!("  token = \"<TOKEN>\" in {}", look.config_path),
                theme.style("accent"),
            )),
            Line::from(""),
            Line::from("Another server: --api-url <URL> or GITBOOK_API_URL."),
            Line::from(""),
            Line::from("To look around first, start the built-in demo (no account needed):"),
            Line::from(""),
            Line::from(Span::styled("  quire --demo", theme.style("accent"))),
            Line::from(""),
            Line::from(Span::styled("Press q to quit.", theme.style("muted"))),
        ];
        let block = Block::default()
            .borders(Borders::ALL)
            .border_style(theme.style("border"))
            .title(" Getting started ");
        frame.render_widget(
            Paragraph::new(lines)
                .block(block)
                .wrap(Wrap { trim: false }),
            area,
        );
    }
}
