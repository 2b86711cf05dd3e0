//! Knob tables: every knob of a family described once.
//!
//! A [`Knob`] holds what the UI's control, the validation, the real-config panel and the docs
//! need: the label, the real system's name (`max.poll.interval.ms`), a one-line hint, and a
//! [`Control`]: a number with its unit, range and step, a toggle, or a choice among the
//! variants of an enum (a [`Choice`]). A getter and a setter (plain `fn` pointers) reach the
//! field, so nothing else spells a knob's name, range or default: validation walks the table
//! ([`check_numbers`]), the browser draws a control per row, and the docs are generated from it.
//!
//! A knob's default is what the family's `Scenario::default()` holds (read through the
//! getter, so it is written once, in the `Default` impl). Where that differs from the real
//! system's own default (a lesson starts with 6 partitions, Kafka's broker with 1), the row
//! says so in `config_default`.

#[cfg(test)]
use super::preset::Preset;
use super::ScenarioError;

/// A knob of scenario type `S`.
pub struct Knob<S: 'static> {
    /// The field's path as serde spells it (`groups[].max_poll_records`), for errors and docs.
    pub field: &'static str,
    /// What a learner calls it.
    pub label: &'static str,
    /// The real system's name for it, or `None` for a knob only the playground has.
    pub config_name: Option<&'static str>,
    /// One line: what turning it does.
    pub hint: &'static str,
    /// The heading it is shown under; a lesson chooses which sections it shows.
    pub section: &'static str,
    pub control: Control<S>,
}

/// How a knob is set.
pub enum Control<S: 'static> {
    Number(NumberControl<S>),
    /// A whole number wider than a browser's numbers hold exactly (a 64-bit seed), typed as
    /// text.
    Whole {
        get: fn(&S) -> u64,
        set: fn(&mut S, u64),
    },
    Toggle {
        get: fn(&S) -> bool,
        set: fn(&mut S, bool),
    },
    /// One variant of an enum, named by its [`Choice::value`].
    Choice {
        options: fn() -> Vec<ChoiceOption>,
        get: fn(&S) -> &'static str,
        set: fn(&mut S, &str),
    },
}

/// A numeric knob.
pub struct NumberControl<S: 'static> {
    pub bounds: Bounds,
    /// The step of the slider and the number box (1 for counts, 1000 for long times).
    pub step: f64,
    /// Where the slider stops when the full range is too wide to aim with (the number box
    /// still accepts up to `bounds.max`).
    pub slider_max: Option<f64>,
    /// The real system's default, where it differs from the scenario's default.
    pub config_default: Option<f64>,
    /// A tighter upper bound that depends on other knobs (a hop at most the window's size),
    /// checked like the range and offered by the control as its maximum.
    pub max_for: Option<fn(&S) -> f64>,
    pub get: fn(&S) -> f64,
    pub set: fn(&mut S, f64),
}

/// The documented range of a number, with its unit.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Bounds {
    pub min: f64,
    pub max: f64,
    pub unit: &'static str,
}

impl Bounds {
    pub const fn new(min: f64, max: f64, unit: &'static str) -> Self {
        Self { min, max, unit }
    }

    /// `value` within the range, or an error naming `field`, the value and the range. NaN is
    /// outside every range.
    pub fn check(&self, field: &str, value: f64) -> Result<(), ScenarioError> {
        // `!(a <= v)` also rejects NaN, which a plain `v < a` would let through.
        if self.min <= value && value <= self.max {
            return Ok(());
        }
        Err(ScenarioError::new(
            field,
            format!(
                "{field} is {value}, outside its range {}..={} {}",
                self.min, self.max, self.unit
            ),
        ))
    }

    /// The nearest value inside the range (what a control does with a typed number).
    pub fn clamp(&self, value: f64) -> f64 {
        // Not `f64::clamp`: its panic message prints floats in their debug form, code every
        // browser bundle would download for a message no valid bounds can produce.
        value.max(self.min).min(self.max)
    }
}

/// One option of a choice knob: the value as the real system (or the scenario's JSON) spells
/// it, and the words on the control.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChoiceOption {
    pub value: &'static str,
    pub label: &'static str,
}

/// An enum a choice knob picks from. Each variant is listed once, with its value and label.
pub trait Choice: Copy + PartialEq + Sized + 'static {
    /// Every variant, in the order a control lists them, with its value and label.
    const ALL: &'static [(Self, &'static str, &'static str)];

    /// The variant's value, as the real system spells it.
    fn value(self) -> &'static str {
        Self::ALL
            .iter()
            .find(|(variant, _, _)| *variant == self)
            .map_or("", |(_, value, _)| value)
    }

    /// The variant's words on a control.
    fn label(self) -> &'static str {
        Self::ALL
            .iter()
            .find(|(variant, _, _)| *variant == self)
            .map_or("", |(_, _, label)| label)
    }

    /// The variant whose value is `value`.
    fn parse(value: &str) -> Option<Self> {
        Self::ALL
            .iter()
            .find(|(_, v, _)| *v == value)
            .map(|(variant, _, _)| *variant)
    }
}

/// A number knob whose real system has no default of its own to show (or whose default is the
/// scenario's), and whose range does not depend on other knobs.
pub const fn number<S>(
    bounds: Bounds,
    step: f64,
    slider_max: Option<f64>,
    get: fn(&S) -> f64,
    set: fn(&mut S, f64),
) -> Control<S> {
    real_number(bounds, step, slider_max, None, get, set)
}

/// A number knob whose real system defaults to `config_default`, shown beside the scenario's.
pub const fn real_number<S>(
    bounds: Bounds,
    step: f64,
    slider_max: Option<f64>,
    config_default: Option<f64>,
    get: fn(&S) -> f64,
    set: fn(&mut S, f64),
) -> Control<S> {
    Control::Number(NumberControl {
        bounds,
        step,
        slider_max,
        config_default,
        max_for: None,
        get,
        set,
    })
}

/// An instant within the longest run (`0..=run_ms`), set a second at a time, its slider
/// stopping at `slider_max_ms`: when a crash, an outage or a bootstrap happens. One timed after
/// the run's end simply never comes, so the run's length does not narrow it.
pub const fn instant<S>(
    run_ms: f64,
    slider_max_ms: f64,
    get: fn(&S) -> f64,
    set: fn(&mut S, f64),
) -> Control<S> {
    number(
        Bounds::new(0.0, run_ms, "ms"),
        1000.0,
        Some(slider_max_ms),
        get,
        set,
    )
}

/// How much a run may hold: at most `records` records (or writes) in all, so its rate and its
/// length limit each other. A family's rate knob stops at [`RunBudget::max_rate_per_s`] of the
/// length and its length knob at [`RunBudget::max_duration_ms`] of the rate, so every scenario
/// the controls reach is one a run can hold.
pub struct RunBudget {
    /// The most records a run may hold.
    pub records: u64,
    /// The rate knob's own upper bound.
    pub max_per_s: u64,
    /// The length knob's own range.
    pub min_ms: u64,
    pub max_ms: u64,
}

impl RunBudget {
    /// The highest rate per second a run of `duration_ms` may have (at least 1).
    pub fn max_rate_per_s(&self, duration_ms: u64) -> u32 {
        (self.records * 1000 / duration_ms.max(1)).clamp(1, self.max_per_s) as u32
    }

    /// The longest run at `per_second` (a rate of 0 is read as 1).
    pub fn max_duration_ms(&self, per_second: u32) -> u64 {
        (self.records * 1000 / u64::from(per_second.max(1))).clamp(self.min_ms, self.max_ms)
    }
}

/// A choice knob's options, from its enum (a plain `fn` for [`Control::Choice`]).
pub fn options<C: Choice>() -> Vec<ChoiceOption> {
    C::ALL
        .iter()
        .map(|&(_, value, label)| ChoiceOption { value, label })
        .collect()
}

/// Sets `field` to the variant named `value`; an unknown value leaves it as it was (a control
/// only offers known values, and a scenario's JSON is checked by serde).
pub fn set_choice<C: Choice>(field: &mut C, value: &str) {
    if let Some(variant) = C::parse(value) {
        *field = variant;
    }
}

impl<S> Knob<S> {
    /// The numeric control, if this is a number knob.
    pub fn number(&self) -> Option<&NumberControl<S>> {
        match &self.control {
            Control::Number(number) => Some(number),
            _ => None,
        }
    }

    /// The knob's value in `scenario`, as the real system would print it (`500`, `true`,
    /// `cooperative-sticky`).
    pub fn display_value(&self, scenario: &S) -> String {
        match &self.control {
            Control::Number(number) => format_number((number.get)(scenario)),
            Control::Whole { get, .. } => get(scenario).to_string(),
            Control::Toggle { get, .. } => get(scenario).to_string(),
            Control::Choice { get, .. } => get(scenario).to_string(),
        }
    }
}

impl<S> NumberControl<S> {
    /// The range in `scenario`: the documented one, narrowed by `max_for` when another knob
    /// limits this one.
    pub fn bounds_in(&self, scenario: &S) -> Bounds {
        match self.max_for {
            Some(max_for) => Bounds {
                max: self.bounds.max.min(max_for(scenario)),
                ..self.bounds
            },
            None => self.bounds,
        }
    }
}

/// Checks every number knob of `knobs` in `scenario` against its range (narrowed by the
/// other knobs where the row says so).
pub fn check_numbers<S>(knobs: &[Knob<S>], scenario: &S) -> Result<(), ScenarioError> {
    for knob in knobs {
        if let Some(number) = knob.number() {
            number
                .bounds_in(scenario)
                .check(knob.field, (number.get)(scenario))?;
        }
    }
    Ok(())
}

/// The knob at `field`; `None` for a field no table lists.
/// The fields of `scenario`'s JSON (nested one level deep, spelled `outer.inner`) that no
/// knob of the table sets: what a family's test expects to be empty, so a field added to a
/// scenario without a knob cannot reach links and the knob reference unseen.
pub fn fields_without_knob<S: serde::Serialize>(knobs: &[Knob<S>], scenario: &S) -> Vec<String> {
    let json = serde_json::to_value(scenario).expect("scenarios are plain data");
    let mut fields = Vec::new();
    for (name, value) in json.as_object().into_iter().flatten() {
        match value.as_object() {
            Some(inner) => fields.extend(inner.keys().map(|k| format!("{name}.{k}"))),
            None => fields.push(name.clone()),
        }
    }
    fields.retain(|field| find(knobs, field).is_none());
    fields
}

pub fn find<'a, S>(knobs: &'a [Knob<S>], field: &str) -> Option<&'a Knob<S>> {
    knobs.iter().find(|k| k.field == field)
}

/// `500` for 500.0, `0.25` for 0.25: whole numbers without a decimal point.
pub fn format_number(value: f64) -> String {
    if value.fract() == 0.0 && value.abs() < 1e15 {
        format!("{}", value as i64)
    } else {
        format!("{value}")
    }
}

/// The knob reference of one table as Markdown: one row per knob with its real name, range,
/// unit, default and hint; `defaults` is the scenario whose values are the defaults.
pub fn markdown_table<S>(knobs: &[Knob<S>], defaults: &S) -> String {
    let mut out = String::from(
        "| knob | real name | range | default | section | what it does |\n| --- | --- | --- | --- | --- | --- |\n",
    );
    for knob in knobs {
        let real = knob
            .config_name
            .map_or("—".to_string(), |n| format!("`{n}`"));
        let range = match &knob.control {
            Control::Number(n) => format!(
                "{}–{} {}",
                format_number(n.bounds.min),
                format_number(n.bounds.max),
                n.bounds.unit
            ),
            Control::Whole { .. } => "any whole number".to_string(),
            Control::Toggle { .. } => "true / false".to_string(),
            Control::Choice { options, .. } => options()
                .iter()
                .map(|o| format!("`{}`", o.value))
                .collect::<Vec<_>>()
                .join(", "),
        };
        let default = match &knob.control {
            Control::Number(n) => match n.config_default {
                Some(real) => format!(
                    "{} (the real system: {})",
                    knob.display_value(defaults),
                    format_number(real)
                ),
                None => knob.display_value(defaults),
            },
            _ => knob.display_value(defaults),
        };
        out.push_str(&format!(
            "| {} (`{}`) | {real} | {range} | {default} | {} | {} |\n",
            knob.label,
            knob.field,
            knob.section,
            knob.hint.replace('|', "\\|")
        ));
    }
    out
}

/// The knobs of `sections` that have a real name, as `name = value` lines under a comment
/// per section: the real-config panel of a family whose settings live in several systems.
pub fn settings_text<S>(knobs: &[Knob<S>], scenario: &S, sections: &[&str]) -> String {
    let mut lines = Vec::new();
    for section in sections {
        let rows: Vec<String> = knobs
            .iter()
            .filter(|k| k.section == *section)
            .filter_map(|k| {
                Some(format!(
                    "{} = {}",
                    k.config_name?,
                    k.display_value(scenario)
                ))
            })
            .collect();
        if !rows.is_empty() {
            lines.push(format!("# {section}"));
            lines.extend(rows);
        }
    }
    lines.join("\n")
}

/// The number knob at `field`, for a test that turns it; a field no number knob has fails
/// the test by name.
#[cfg(test)]
pub fn number_knob<'a, S>(knobs: &'a [Knob<S>], field: &str) -> &'a NumberControl<S> {
    find(knobs, field)
        .and_then(Knob::number)
        .unwrap_or_else(|| panic!("no number knob {field}"))
}

/// The checks every family's knob table must pass, called in one line from the family's own
/// test so that a failure names the family: the default and every preset lie inside every
/// range, the fields of the scenario without a knob are exactly `without_knob` (each for a
/// reason the family's test gives), no field has two knobs, and every option of a choice knob
/// is what the scenario's JSON spells at the knob's field.
#[cfg(test)]
pub fn check_table<S: Default + serde::Serialize>(
    knobs: &[Knob<S>],
    presets: &[Preset<S>],
    without_knob: &[&str],
) {
    check_presets_in_range(knobs, presets);
    check_fields_without_knob(knobs, &S::default(), without_knob);
    check_fields_named_once(knobs.iter().map(|knob| knob.field));
    check_choices_spell_the_json(knobs);
}

/// The default scenario and every preset pass the table's ranges: a preset that a change of
/// range left outside would fail only when a learner opened it.
#[cfg(test)]
pub fn check_presets_in_range<S: Default>(knobs: &[Knob<S>], presets: &[Preset<S>]) {
    if let Err(error) = check_numbers(knobs, &S::default()) {
        panic!("the default scenario: {error}");
    }
    for preset in presets {
        if let Err(error) = check_numbers(knobs, &(preset.build)()) {
            panic!("the preset {}: {error}", preset.slug);
        }
    }
}

/// The fields of `scenario` without a knob are exactly `expected`, so a field added without
/// one cannot reach links and the knob reference unseen (and a list that outlives its reason
/// fails too).
#[cfg(test)]
pub fn check_fields_without_knob<S: serde::Serialize>(
    knobs: &[Knob<S>],
    scenario: &S,
    expected: &[&str],
) {
    assert_eq!(
        fields_without_knob(knobs, scenario),
        expected,
        "the fields without a knob"
    );
}

/// No field is named by two knobs ([`find`] would only ever reach the first).
#[cfg(test)]
pub fn check_fields_named_once<'a>(fields: impl IntoIterator<Item = &'a str>) {
    let mut seen = Vec::new();
    for field in fields {
        assert!(!seen.contains(&field), "two knobs for {field}");
        seen.push(field);
    }
}

/// Every option a choice knob offers, once set, is what its getter reads and what the
/// scenario's JSON holds at the knob's field (a `groups[]` step is the element's own JSON), so
/// a share link and the control speak of the same value.
#[cfg(test)]
pub fn check_choices_spell_the_json<S: Default + serde::Serialize>(knobs: &[Knob<S>]) {
    for knob in knobs {
        let Control::Choice { options, get, set } = &knob.control else {
            continue;
        };
        for option in options() {
            let mut scenario = S::default();
            set(&mut scenario, option.value);
            assert_eq!(get(&scenario), option.value, "{} reads back", knob.field);
            let json = serde_json::to_value(&scenario).expect("scenarios are plain data");
            let at_field = knob
                .field
                .split('.')
                .filter(|step| !step.ends_with("[]"))
                .try_fold(&json, |json, step| json.get(step));
            assert_eq!(
                at_field,
                Some(&serde_json::Value::from(option.value)),
                "{} set to {}",
                knob.field,
                option.value
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Clone, Copy, Debug, PartialEq)]
    enum Colour {
        Red,
        Blue,
    }

    impl Choice for Colour {
        const ALL: &'static [(Self, &'static str, &'static str)] = &[
            (Colour::Red, "red", "Red"),
            (Colour::Blue, "blue", "Blue, darker"),
        ];
    }

    #[derive(Default)]
    struct Toy {
        size: u32,
        colour: Option<Colour>,
    }

    const TOY_KNOBS: &[Knob<Toy>] = &[Knob {
        field: "size",
        label: "Size",
        config_name: Some("toy.size"),
        hint: "How big.",
        section: "Toy",
        control: Control::Number(NumberControl {
            bounds: Bounds::new(1.0, 10.0, "units"),
            step: 1.0,
            slider_max: None,
            config_default: None,
            max_for: None,
            get: |t| f64::from(t.size),
            set: |t, v| t.size = v as u32,
        }),
    }];

    #[test]
    fn a_value_outside_its_range_names_the_field_and_the_range() {
        let toy = Toy::default();
        let error = check_numbers(TOY_KNOBS, &toy).unwrap_err();
        assert_eq!(error.field, "size");
        assert_eq!(error.message, "size is 0, outside its range 1..=10 units");
        let fine = Toy {
            size: 10,
            colour: None,
        };
        assert!(check_numbers(TOY_KNOBS, &fine).is_ok());
    }

    #[test]
    fn nan_is_outside_every_range_and_clamps_to_the_minimum() {
        let bounds = Bounds::new(1.0, 10.0, "units");
        assert!(bounds.check("x", f64::NAN).is_err());
        assert_eq!(bounds.clamp(f64::NAN), 1.0);
        assert_eq!(bounds.clamp(99.0), 10.0);
    }

    #[test]
    fn a_choice_lists_its_variants_once_and_parses_their_values() {
        assert_eq!(Colour::Blue.value(), "blue");
        assert_eq!(Colour::Blue.label(), "Blue, darker");
        assert_eq!(Colour::parse("red"), Some(Colour::Red));
        assert_eq!(Colour::parse("green"), None);
        let mut toy = Toy {
            size: 1,
            colour: Some(Colour::Red),
        };
        let mut colour = toy.colour.unwrap();
        set_choice(&mut colour, "blue");
        set_choice(&mut colour, "green");
        toy.colour = Some(colour);
        assert_eq!(toy.colour, Some(Colour::Blue));
        assert_eq!(options::<Colour>().len(), 2);
    }

    #[test]
    fn settings_list_the_real_names_of_the_sections_asked_for() {
        let toy = Toy {
            size: 3,
            colour: None,
        };
        assert_eq!(
            settings_text(TOY_KNOBS, &toy, &["Toy"]),
            "# Toy\ntoy.size = 3"
        );
        assert_eq!(settings_text(TOY_KNOBS, &toy, &["Other"]), "");
    }

    #[test]
    fn a_budget_trades_the_rate_against_the_length() {
        let budget = RunBudget {
            records: 1_000,
            max_per_s: 50,
            min_ms: 2_000,
            max_ms: 60_000,
        };
        // 1000 records over 100 s: 10 a second; over 1 s the rate's own bound, 50.
        assert_eq!(budget.max_rate_per_s(100_000), 10);
        assert_eq!(budget.max_rate_per_s(1_000), 50);
        assert_eq!(budget.max_rate_per_s(0), 50);
        // At 100 a second, 10 s; at 1 (or 0), the length's own bound; at 1000, its floor.
        assert_eq!(budget.max_duration_ms(100), 10_000);
        assert_eq!(budget.max_duration_ms(0), 60_000);
        assert_eq!(budget.max_duration_ms(1_000), 2_000);
    }

    #[test]
    fn values_display_as_the_real_system_prints_them() {
        let toy = Toy {
            size: 7,
            colour: None,
        };
        assert_eq!(TOY_KNOBS[0].display_value(&toy), "7");
        assert_eq!(format_number(0.25), "0.25");
    }

    /// A gauge whose table [`check_table`] is tried on: a number in range and a colour.
    #[derive(serde::Serialize)]
    struct Gauge {
        size: u32,
        colour: Colour,
    }

    impl Default for Gauge {
        fn default() -> Self {
            Self {
                size: 5,
                colour: Colour::Red,
            }
        }
    }

    impl serde::Serialize for Colour {
        fn serialize<Z: serde::Serializer>(&self, serializer: Z) -> Result<Z::Ok, Z::Error> {
            serializer.serialize_str(self.value())
        }
    }

    const GAUGE_SIZE: Knob<Gauge> = Knob {
        field: "size",
        label: "Size",
        config_name: None,
        hint: "How big.",
        section: "Gauge",
        control: number(
            Bounds::new(1.0, 10.0, "units"),
            1.0,
            None,
            |g| f64::from(g.size),
            |g, v| g.size = v as u32,
        ),
    };

    const fn gauge_colour(set: fn(&mut Gauge, &str)) -> Knob<Gauge> {
        Knob {
            field: "colour",
            label: "Colour",
            config_name: None,
            hint: "Which.",
            section: "Gauge",
            control: Control::Choice {
                options: options::<Colour>,
                get: |g| g.colour.value(),
                set,
            },
        }
    }

    #[test]
    fn a_table_that_holds_together_passes_the_checks() {
        check_table(
            &[
                GAUGE_SIZE,
                gauge_colour(|g, v| set_choice(&mut g.colour, v)),
            ],
            &[],
            &[],
        );
    }

    #[test]
    #[should_panic(expected = "the preset tiny: size is 0")]
    fn a_preset_outside_a_range_fails_the_checks() {
        let tiny = Preset {
            slug: "tiny",
            lesson: "toy",
            title: "Tiny",
            description: "Too small.",
            build: || Gauge {
                size: 0,
                ..Gauge::default()
            },
        };
        check_table(
            &[
                GAUGE_SIZE,
                gauge_colour(|g, v| set_choice(&mut g.colour, v)),
            ],
            &[tiny],
            &[],
        );
    }

    #[test]
    #[should_panic(expected = "the fields without a knob")]
    fn a_field_without_a_knob_fails_the_checks() {
        check_table(&[GAUGE_SIZE], &[], &[]);
    }

    #[test]
    #[should_panic(expected = "two knobs for size")]
    fn a_field_with_two_knobs_fails_the_checks() {
        check_fields_named_once(["size", "colour", "size"]);
    }

    #[test]
    #[should_panic(expected = "colour reads back")]
    fn a_choice_whose_setter_misses_its_field_fails_the_checks() {
        check_table(&[GAUGE_SIZE, gauge_colour(|_, _| {})], &[], &[]);
    }
}
