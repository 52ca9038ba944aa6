use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::style::Style;

use super::*;
use crate::theme::Theme;

/// A sign-up form: every kind of field and presence the form offers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Field {
    Name,
    Email,
    Code,
    Newsletter,
    Plan,
}

#[derive(Debug, Clone, Default, PartialEq)]
struct Values {
    name: String,
    email: String,
    code: String,
    newsletter: bool,
    plan: Option<String>,
}

impl FormFields for Field {
    type Values = Values;

    const ALL: &'static [Field] = &[
        Field::Name,
        Field::Email,
        Field::Code,
        Field::Newsletter,
        Field::Plan,
    ];

    fn spec(self) -> FieldSpec {
        match self {
            Field::Name => FieldSpec::text("Name", "name").checked(|text| {
                (text.chars().count() < 2).then(|| "needs at least 2 characters".to_string())
            }),
            Field::Email => FieldSpec::text("Email", "email")
                .presence(Presence::Optional)
                .compared(Compare::Trimmed)
                .checked(|text| (!text.contains('@')).then(|| "an address with @".to_string())),
            Field::Code => FieldSpec::text("Code", "code")
                .presence(Presence::OptionalWhileUnset)
                .checked(|text| (text.len() != 4).then(|| "4 characters".to_string())),
            Field::Newsletter => FieldSpec::toggle("Newsletter", "newsletter"),
            Field::Plan => FieldSpec::choice("Plan", "plan"),
        }
    }

    fn text(self, values: &Values) -> &str {
        match self {
            Field::Name => &values.name,
            Field::Email => &values.email,
            Field::Code => &values.code,
            Field::Newsletter | Field::Plan => "",
        }
    }

    fn set_text(self, values: &mut Values, text: String) {
        match self {
            Field::Name => values.name = text,
            Field::Email => values.email = text,
            Field::Code => values.code = text,
            Field::Newsletter | Field::Plan => {}
        }
    }

    fn picked_changed(self, original: &Values, values: &Values) -> bool {
        match self {
            Field::Newsletter => original.newsletter != values.newsletter,
            Field::Plan => original.plan != values.plan,
            Field::Name | Field::Email | Field::Code => false,
        }
    }

    /// The newsletter reads the same in a later run; the plan has no such text here.
    fn picked_text(self, values: &Values) -> Option<String> {
        (self == Field::Newsletter).then(|| if values.newsletter { "on" } else { "off" }.into())
    }

    fn set_picked_text(self, values: &mut Values, text: &str) -> bool {
        match (self, text) {
            (Field::Newsletter, "on" | "off") => {
                values.newsletter = text == "on";
                true
            }
            _ => false,
        }
    }
}

fn loaded() -> Form<Field> {
    Form::new(Values {
        name: "Ada".into(),
        email: "ada@example.com".into(),
        code: String::new(),
        newsletter: false,
        plan: Some("free".into()),
    })
}

const LOOK: FormStyle = FormStyle {
    marks: Marks::Cursor,
    label_width: 12,
    value: ValueFit::Cut { margin: 0 },
    messages: Messages::Below { indent: 14 },
    checks: ShowChecks::CountedOrTyping,
    server_prefix: Some("server: "),
    scroll: false,
};

/// The form's lines as text.
fn rows(form: &Form<Field>, look: &FormStyle) -> Vec<String> {
    let drawn = form.lines(look, 40, &Theme::default(), |field, _| {
        (form.text_of(field).to_string(), Style::default())
    });
    drawn.lines.iter().map(|line| line.to_string()).collect()
}

fn press(form: &mut Form<Field>, code: KeyCode) {
    form.edit_key(&KeyEvent::new(code, KeyModifiers::NONE));
}

fn type_text(form: &mut Form<Field>, text: &str) {
    for c in text.chars() {
        press(form, KeyCode::Char(c));
    }
}

#[test]
fn the_cursor_moves_and_stops_at_either_end() {
    let mut form = loaded();
    assert_eq!(form.selected_field(), Some(Field::Name));
    form.move_by(-1);
    assert_eq!(
        form.selected_field(),
        Some(Field::Name),
        "stops at the first"
    );
    form.move_by(1);
    assert_eq!(form.selected_field(), Some(Field::Email));
    form.move_by(2);
    assert_eq!(form.selected_field(), Some(Field::Newsletter));
    form.move_by(5);
    assert_eq!(
        form.selected_field(),
        Some(Field::Plan),
        "stops at the last"
    );
    form.first();
    assert_eq!(form.selected_field(), Some(Field::Name));
    form.last();
    assert_eq!(form.selected_field(), Some(Field::Plan));
    form.select(Field::Code);
    assert_eq!(form.selected_field(), Some(Field::Code));
}

#[test]
fn hidden_fields_are_skipped_and_a_cursor_past_them_is_brought_back() {
    let mut form = loaded();
    form.last();
    form.show(vec![Field::Name, Field::Email]);
    assert_eq!(form.selected_field(), None, "the cursor stays on its row");
    form.clamp_cursor();
    assert_eq!(form.selected_field(), Some(Field::Email));
    form.select(Field::Plan);
    assert_eq!(form.selected_field(), Some(Field::Email), "a hidden field");
}

#[test]
fn typing_keeps_the_text_on_enter_and_puts_it_back_on_esc() {
    let mut form = loaded();
    form.start_editing();
    type_text(&mut form, "!");
    assert_eq!(form.text_of(Field::Name), "Ada!", "the line being typed");
    assert_eq!(form.values.name, "Ada");
    assert!(form.is_dirty(), "typing counts as unsaved");
    press(&mut form, KeyCode::Esc);
    assert_eq!(form.editing, None);
    assert_eq!(form.values.name, "Ada");
    assert!(!form.is_dirty());
    form.start_editing();
    form.paste("\u{1b}x");
    press(&mut form, KeyCode::Enter);
    assert_eq!(form.values.name, "Adax");
    form.select(Field::Newsletter);
    form.start_editing();
    assert_eq!(form.editing, None, "a toggle is not typed into");
}

#[test]
fn a_bad_value_shows_its_message_on_its_field_until_fixed() {
    let mut form = loaded();
    form.select(Field::Email);
    form.start_editing();
    press(&mut form, KeyCode::Home);
    for _ in 0..4 {
        press(&mut form, KeyCode::Delete);
    }
    assert_eq!(form.text_of(Field::Email), "example.com");
    assert_eq!(
        form.error(Field::Email).as_deref(),
        Some("an address with @")
    );
    let lines = rows(&form, &LOOK);
    let at = lines
        .iter()
        .position(|line| line.starts_with("› Email"))
        .unwrap();
    assert_eq!(lines[at + 1].trim(), "✗ an address with @", "{lines:#?}");
    assert_eq!(lines.len(), Field::ALL.len() + 1, "one message: {lines:#?}");
    press(&mut form, KeyCode::Enter);
    assert_eq!(
        form.first_error(),
        Some((Field::Email, "an address with @".to_string()))
    );
    form.start_editing();
    type_text(&mut form, "@");
    press(&mut form, KeyCode::Enter);
    assert_eq!(form.error(Field::Email), None);
    assert_eq!(form.first_error(), None);
    assert_eq!(
        rows(&form, &LOOK).len(),
        Field::ALL.len(),
        "no message left"
    );
}

#[test]
fn presence_decides_when_an_empty_field_is_checked() {
    let mut form = loaded();
    form.values.name.clear();
    assert!(form.error(Field::Name).is_some(), "checked, empty included");
    form.values.email = "  ".into();
    assert_eq!(form.error(Field::Email), None, "optional: blank is fine");
    assert_eq!(
        form.error(Field::Code),
        None,
        "empty, and empty when loaded"
    );
    form.values.code = "12".into();
    assert!(form.error(Field::Code).is_some());
    form.load(Values {
        code: "1234".into(),
        ..Values::default()
    });
    form.values.code.clear();
    assert!(
        form.error(Field::Code).is_some(),
        "once it had a value, empty is checked"
    );
}

#[test]
fn unchanged_fields_do_not_block_a_save_unless_the_form_creates() {
    let mut form = Form::<Field>::new(Values::default());
    assert!(form.error(Field::Name).is_some());
    assert_eq!(form.first_error(), None, "the loaded value is the server's");
    form.creating = true;
    assert_eq!(
        form.first_error().map(|(field, _)| field),
        Some(Field::Name)
    );
}

#[test]
fn only_changed_fields_are_output() {
    let mut form = loaded();
    assert_eq!(form.changed_fields(), Vec::<Field>::new());
    assert!(!form.is_dirty());
    form.values.newsletter = true;
    form.values.email = " ada@example.com  ".into();
    form.values.name = "Ada L".into();
    assert_eq!(
        form.changed_fields(),
        vec![Field::Name, Field::Newsletter],
        "the email differs only by spaces, compared trimmed"
    );
    form.values.name = "Ada".into();
    form.values.plan = Some("pro".into());
    assert_eq!(
        form.changed_fields(),
        vec![Field::Newsletter, Field::Plan],
        "a field changed and changed back is absent"
    );
    form.values.plan = Some("free".into());
    form.values.newsletter = false;
    assert_eq!(form.changed_fields(), Vec::<Field>::new());
    assert!(!form.is_dirty());
}

#[test]
fn changed_fields_are_marked() {
    let mut form = loaded();
    form.values.plan = None;
    let lines = rows(&form, &LOOK);
    assert!(lines[4].starts_with("  Plan*"), "{lines:#?}");
    assert!(lines[0].starts_with("› Name "), "{lines:#?}");
}

#[test]
fn a_server_error_goes_on_the_field_it_names() {
    let mut form = loaded();
    let message = "Invalid \"email\": already taken";
    let field = form.place_server_error(message, Naming::Quoted);
    assert_eq!(field, Some(Field::Email));
    assert_eq!(
        form.server_error,
        Some((Some(Field::Email), message.to_string()))
    );
    form.select(Field::Email);
    assert_eq!(
        form.selected_field(),
        Some(Field::Email),
        "the cursor can go there"
    );
    let lines = rows(&form, &LOOK);
    assert_eq!(
        lines[2].trim(),
        format!("✗ server: {message}"),
        "{lines:#?}"
    );
    form.edited(Field::Name);
    assert!(form.server_error.is_some(), "another field changed");
    form.edited(Field::Email);
    assert_eq!(form.server_error, None, "its field changed");
}

#[test]
fn a_server_error_naming_no_field_is_for_the_whole_form() {
    let mut form = loaded();
    let message = "Invalid \"nickname\": too long";
    assert_eq!(form.place_server_error(message, Naming::Quoted), None);
    assert_eq!(form.server_error, Some((None, message.to_string())));
    assert_eq!(
        rows(&form, &LOOK).len(),
        Field::ALL.len(),
        "no field shows it: the view does"
    );
    form.edited(Field::Name);
    assert!(form.server_error.is_some(), "kept unless edits clear it");
    form.edits_clear_form_error = true;
    form.edited(Field::Name);
    assert_eq!(form.server_error, None);
}

#[test]
fn how_a_message_names_a_field() {
    let form = loaded();
    let named = |message: &str, naming| form.named_field(message, naming);
    assert_eq!(
        named("\"email\" is taken", Naming::Quoted),
        Some(Field::Email)
    );
    assert_eq!(named("\"email.domain\" is bad", Naming::Quoted), None);
    assert_eq!(
        named("\"email.domain\" is bad", Naming::QuotedOrQuotedPath),
        Some(Field::Email)
    );
    assert_eq!(
        named("email.domain is bad", Naming::QuotedOrQuotedPath),
        None
    );
    assert_eq!(
        named("email.domain is bad", Naming::QuotedOrPath),
        Some(Field::Email)
    );
}

#[test]
fn a_long_value_is_cut_and_its_end_stays_in_view_while_typing() {
    let mut form = loaded();
    form.values.name = "x".repeat(60);
    let lines = rows(&form, &LOOK);
    assert_eq!(lines[0].chars().count(), 40, "{lines:#?}");
    assert!(lines[0].ends_with('…'), "{lines:#?}");
    form.start_editing();
    type_text(&mut form, "END");
    let drawn = form.lines(&LOOK, 40, &Theme::default(), |field, _| {
        (form.text_of(field).to_string(), Style::default())
    });
    let first = drawn.lines[0].to_string();
    assert!(first.ends_with("END"), "{first}");
    assert_eq!(drawn.cursor, Some((first.chars().count() as u16, 0)));
}

#[test]
fn inline_messages_and_a_whole_value_with_the_cursor_where_it_is_typed() {
    let look = FormStyle {
        marks: Marks::Changed,
        label_width: 8,
        value: ValueFit::Whole,
        messages: Messages::Inline,
        checks: ShowChecks::Always,
        server_prefix: None,
        scroll: false,
    };
    let mut form = Form::<Field>::new(Values::default());
    let lines = rows(&form, &look);
    assert_eq!(lines[0], "  Name       ✗ needs at least 2 characters");
    form.place_server_error("\"email\" is taken", Naming::Quoted);
    assert!(!rows(&form, &look)[1].contains('✗'), "left to the view");
    form.start_editing();
    type_text(&mut form, "Bob");
    press(&mut form, KeyCode::Left);
    let drawn = form.lines(&look, 40, &Theme::default(), |field, _| {
        (form.text_of(field).to_string(), Style::default())
    });
    assert_eq!(drawn.cursor, Some((2 + 8 + 1 + 2, 0)));
    press(&mut form, KeyCode::Enter);
    assert!(rows(&form, &look)[0].starts_with("• Name     Bob"));
}

fn screen(form: &Form<Field>, look: &FormStyle, height: u16) -> Vec<String> {
    let backend = ratatui::backend::TestBackend::new(40, height);
    let mut terminal = ratatui::Terminal::new(backend).expect("terminal");
    terminal
        .draw(|frame| {
            draw(
                form,
                frame,
                frame.area(),
                &Theme::default(),
                look,
                |field, _| (form.text_of(field).to_string(), Style::default()),
            )
        })
        .expect("draw");
    let buffer = terminal.backend().buffer().clone();
    (0..height)
        .map(|y| {
            (0..40)
                .map(|x| buffer[(x, y)].symbol().to_string())
                .collect::<String>()
        })
        .collect()
}

#[test]
fn drawing_scrolls_to_the_selected_field_only_when_asked() {
    let mut form = loaded();
    form.last();
    let still = screen(&form, &LOOK, 3);
    assert!(still[0].starts_with("  Name"), "{still:#?}");
    let scrolling = FormStyle {
        scroll: true,
        ..LOOK
    };
    let scrolled = screen(&form, &scrolling, 3);
    assert!(scrolled[2].starts_with("› Plan"), "{scrolled:#?}");
    form.first();
    assert!(screen(&form, &scrolling, 3)[0].starts_with("› Name"));
}

#[test]
fn a_draft_holds_what_changed_and_puts_it_back_over_fresh_values() {
    let mut form = loaded();
    assert_eq!(form.draft_text(), None, "nothing changed");
    form.values.name = "Ada\\Lovelace\nof London".into();
    form.values.newsletter = true;
    form.values.plan = Some("pro".into());
    form.select(Field::Code);
    form.start_editing();
    type_text(&mut form, "12");
    let draft = form.draft_text().expect("a draft");
    assert_eq!(
        draft, "name: Ada\\\\Lovelace\\nof London\ncode: 12\nnewsletter: on\n",
        "one escaped line per field, the line being typed included; a plan has no text"
    );

    let mut fresh = loaded();
    fresh.select(Field::Email);
    fresh.start_editing();
    let restored = fresh.restore_draft(&draft);
    assert_eq!(restored, [Field::Name, Field::Code, Field::Newsletter]);
    assert_eq!(
        fresh.editing, None,
        "typing stops: its line is in the draft"
    );
    assert_eq!(fresh.values.name, "Ada\\Lovelace\nof London");
    assert_eq!(fresh.values.code, "12");
    assert!(fresh.values.newsletter);
    assert_eq!(fresh.values.plan, Some("free".into()), "not in the draft");
    assert_eq!(
        fresh.changed_fields(),
        [Field::Name, Field::Code, Field::Newsletter]
    );
    assert_eq!(fresh.draft_text().as_deref(), Some(draft.as_str()));
}

#[test]
fn a_draft_line_naming_no_field_or_an_unreadable_value_is_ignored() {
    let mut form = loaded();
    let restored = form.restore_draft(
        "nickname: Countess\nno separator here\nnewsletter: maybe\nemail: ada@lovelace.example\n",
    );
    assert_eq!(restored, [Field::Email]);
    assert_eq!(form.values.email, "ada@lovelace.example");
    assert!(!form.values.newsletter);
    assert_eq!(form.changed_fields(), [Field::Email]);
    assert_eq!(form.restore_draft(""), Vec::<Field>::new());
}

#[test]
fn a_field_typed_back_to_its_loaded_value_leaves_no_draft() {
    let mut form = loaded();
    form.start_editing();
    type_text(&mut form, "!");
    assert!(form.draft_text().is_some(), "the line being typed counts");
    press(&mut form, KeyCode::Backspace);
    assert_eq!(form.draft_text(), None);
    form.values.newsletter = true;
    form.values.newsletter = false;
    assert_eq!(form.draft_text(), None);
}
