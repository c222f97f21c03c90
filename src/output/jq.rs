//! `--jq EXPR`: a jq filter run in-process with jaq, on what `--json` would print.
//!
//! jaq's values are not `Send`, so filters run synchronously once the data is in hand; a
//! watcher thread bounds each evaluation by `--timeout`, the stop signals and a memory budget
//! (see `bound`).
//!
//! A list meets a filter in one of two ways. A filter that starts with `.[] |` (or any filter
//! with `-o ndjson`) runs on each item as it arrives, in constant memory. Any other filter sees
//! the array of every item, as `--json | jq` would; the items are then held as jaq's values,
//! within a budget tied to the size of the answers, so a list of millions of tiny items is
//! refused with a clear error instead of taking gigabytes.

use std::io::Write;

use jaq_core::load::{Arena, File, Loader};
use jaq_core::{unwrap_valr, Compiler, Ctx, Vars};
use jaq_json::Val;
use serde_json::Value;

use crate::error::{Error, Result};
use crate::escape::{escape, escape_multiline};

mod bound;
mod error_line;
mod guard;

pub use bound::{resident, JQ_MEMORY, LOOK_EVERY};

/// Items nested deeper than this are refused before jaq reads them (its reader recurses).
const MAX_DEPTH: usize = 128;

/// jaq's values for a whole list may take at least this much memory…
const MIN_BUDGET: usize = 48 * 1024 * 1024;
/// …and otherwise this many times the JSON text of the items.
const BUDGET_PER_BYTE: usize = 6;

/// The part of `code` to run on each item when `code` is `.[]` or `.[] | REST` at the top
/// level, which gives the same results as running it on the whole array.
pub fn per_item_part(code: &str) -> Option<&str> {
    let rest = code.trim().strip_prefix(".[]")?;
    let rest = rest.strip_prefix('?').unwrap_or(rest).trim_start();
    if rest.is_empty() {
        return Some(".");
    }
    // `.[] |= f` is an update of the whole array, not a pipe.
    let body = rest.strip_prefix('|').filter(|b| !b.starts_with('='))?;
    let body = body.trim();
    (!body.is_empty()).then_some(body)
}

/// What a filter written for the whole list (`.[].id`, `.[] | .id`) is on one item (`.id`).
fn item_form(code: &str) -> Option<String> {
    if let Some(part) = per_item_part(code) {
        return Some(part.to_string());
    }
    let rest = code.trim().strip_prefix(".[]")?;
    let rest = rest.strip_prefix('?').unwrap_or(rest).trim_start();
    if rest.starts_with('.') {
        Some(rest.to_string())
    } else if rest.starts_with('[') {
        Some(format!(".{rest}"))
    } else {
        None
    }
}

/// How a list is filtered: item by item, or once on the array of them all.
pub enum ListFilter {
    /// The filter runs on each item as it arrives.
    PerItem(Filter),
    /// The filter runs once, on every item, held as jaq values within a budget.
    Whole {
        /// The filter.
        filter: Filter,
        /// The items so far.
        items: Vec<Val>,
        /// The estimated memory of `items`.
        cost: usize,
        /// The JSON text the items came from, in bytes.
        text: usize,
    },
}

impl ListFilter {
    /// Compiles `code` for a list; `per_item` asks for it to run on each item (`-o ndjson`).
    pub fn new(code: &str, per_item: bool) -> Result<Self> {
        if per_item {
            let hint = match item_form(code) {
                Some(form) => {
                    format!("with -o ndjson the filter runs on each item by itself: write '{form}'")
                }
                None => "with -o ndjson the filter runs on each item by itself, not on the list"
                    .to_string(),
            };
            let mut filter = Filter::compile(code)?;
            filter.hint = Some(hint);
            return Ok(ListFilter::PerItem(filter));
        }
        // The whole expression must be valid on its own first, so errors name what was typed.
        let whole = Filter::compile(code)?;
        match per_item_part(code) {
            Some(part) => Ok(ListFilter::PerItem(Filter::compile(part)?)),
            None => Ok(ListFilter::Whole {
                filter: whole,
                items: Vec::new(),
                cost: 0,
                text: 0,
            }),
        }
    }

    /// Takes one item (its JSON text): filtered and written at once, or kept for the end.
    pub fn push(&mut self, item: &str, tty: bool, out: &mut impl Write) -> Result<()> {
        match self {
            ListFilter::PerItem(filter) => filter.run_text(item.as_bytes(), tty, out),
            ListFilter::Whole {
                items, cost, text, ..
            } => {
                let val = read_item(item.as_bytes())?;
                *cost += estimate(&val);
                *text += item.len();
                let budget = MIN_BUDGET.max(BUDGET_PER_BYTE * *text);
                if *cost > budget {
                    return Err(Error::Io(format!(
                        "--jq: the list is too large to filter as one array in memory ({} items so far, over {} MB as values); \
                         filter each item instead (start the filter with '.[] |', or use -o ndjson), or narrow the list with --limit",
                        items.len() + 1,
                        budget / 1_000_000
                    )));
                }
                items.push(val);
                Ok(())
            }
        }
    }

    /// Runs a whole-array filter on every item taken; nothing more for a per-item filter.
    pub fn finish(self, tty: bool, out: &mut impl Write) -> Result<()> {
        match self {
            ListFilter::PerItem(_) => Ok(()),
            ListFilter::Whole { filter, items, .. } => {
                filter.run_val(Val::Arr(jaq_json::Rc::new(items)), tty, out)
            }
        }
    }
}

/// Reads one item's JSON text as a jaq value, refusing nesting deeper than [`MAX_DEPTH`].
fn read_item(text: &[u8]) -> Result<Val> {
    if depth(text) > MAX_DEPTH {
        return Err(Error::BadResponse(format!(
            "--jq: a list item is nested more than {MAX_DEPTH} levels deep"
        )));
    }
    jaq_json::read::parse_single(text)
        .map_err(|e| Error::BadResponse(format!("--jq: cannot read a list item: {e}")))
}

/// How deeply arrays and objects nest in this JSON text (strings skipped).
fn depth(text: &[u8]) -> usize {
    let (mut depth, mut max, mut in_string, mut escaped) = (0usize, 0usize, false, false);
    for &b in text {
        if in_string {
            match b {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match b {
            b'"' => in_string = true,
            b'[' | b'{' => {
                depth += 1;
                max = max.max(depth);
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    max
}

/// About how many bytes a jaq value takes: its allocations, roughly as the allocator sees them.
fn estimate(v: &Val) -> usize {
    const VAL: usize = std::mem::size_of::<Val>();
    match v {
        Val::Null | Val::Bool(_) | Val::Num(_) => 0,
        Val::TStr(b) | Val::BStr(b) => 48 + b.len(),
        Val::Arr(a) => 48 + a.capacity() * VAL + a.iter().map(estimate).sum::<usize>(),
        Val::Obj(o) => {
            let slots = o.capacity().max(1);
            // The map's entries (hash, key, value) and its index table, in one shared box.
            64 + slots * (2 * VAL + 8)
                + slots.next_power_of_two().max(4) * 9
                + o.iter()
                    .map(|(k, v)| estimate(k) + estimate(v))
                    .sum::<usize>()
        }
    }
}

/// A compiled filter.
pub struct Filter {
    filter: jaq_core::Filter<guard::Bounded>,
    /// The expression as typed, for error messages.
    code: String,
    /// What to add to a runtime error: how the filter sees its input.
    hint: Option<String>,
}

fn position(code: &str, at: &str) -> usize {
    // jaq reports a position as a slice of the program text.
    let offset = (at.as_ptr() as usize).saturating_sub(code.as_ptr() as usize);
    code.get(..offset.min(code.len()))
        .map_or(0, |s| s.chars().count())
        + 1
}

impl Filter {
    /// Parses and compiles `code`; a bad expression is a usage error with its position.
    pub fn compile(code: &str) -> Result<Self> {
        let filter = Self::compile_filter(code)?;
        Ok(Filter {
            filter,
            code: code.to_string(),
            hint: None,
        })
    }

    fn compile_filter(code: &str) -> Result<jaq_core::Filter<guard::Bounded>> {
        let defs = jaq_core::defs()
            .chain(jaq_std::defs())
            .chain(jaq_json::defs());
        let funs = jaq_core::funs()
            .chain(jaq_std::funs())
            .chain(jaq_json::funs());
        let loader = Loader::new(defs);
        let arena = Arena::default();
        let program = File { code, path: () };
        let modules = loader.load(&arena, program).map_err(|errs| {
            let msgs: Vec<String> = errs
                .into_iter()
                .flat_map(|(_, e)| match e {
                    jaq_core::load::Error::Io(v) => {
                        v.into_iter().map(|(_, m)| m).collect::<Vec<_>>()
                    }
                    jaq_core::load::Error::Lex(v) => v
                        .into_iter()
                        .map(|(exp, at)| {
                            format!("expected {} at column {}", exp.as_str(), position(code, at))
                        })
                        .collect(),
                    jaq_core::load::Error::Parse(v) => v
                        .into_iter()
                        .map(|(exp, at)| {
                            let found = if at.is_empty() {
                                "end of input".to_string()
                            } else {
                                format!("'{}'", at.chars().take(10).collect::<String>())
                            };
                            format!(
                                "expected {} but found {found} at column {}",
                                exp.as_str(),
                                position(code, at)
                            )
                        })
                        .collect(),
                })
                .collect();
            Error::usage(format!("--jq: cannot parse '{code}': {}", msgs.join("; ")))
        })?;
        let filter = Compiler::default()
            .with_funs(funs)
            .compile(modules)
            .map_err(|errs| {
                let msgs: Vec<String> = errs
                    .into_iter()
                    .flat_map(|(_, v)| v)
                    .map(|(name, undef)| {
                        format!(
                            "undefined {} '{name}' at column {}",
                            undef.as_str(),
                            position(code, name)
                        )
                    })
                    .collect();
                Error::usage(format!(
                    "--jq: cannot compile '{code}': {}",
                    msgs.join("; ")
                ))
            })?;
        Ok(filter)
    }

    /// Runs the filter on `input` and writes each result: strings raw (like `jq -r`), other
    /// values as JSON (indented on a terminal).
    pub fn run(&self, input: &Value, tty: bool, out: &mut impl Write) -> Result<()> {
        self.run_text(input.to_string().as_bytes(), tty, out)
    }

    /// Runs the filter on the JSON text `input`, read straight into jaq's values (no second
    /// copy of the data as serde values). On a terminal, strings are printed with control
    /// characters escaped and JSON is terminal-safe; in a pipe, output is exact.
    pub fn run_text(&self, input: &[u8], tty: bool, out: &mut impl Write) -> Result<()> {
        let val = read_item(input)?;
        self.run_val(val, tty, out)
    }

    /// Is the filter true of the JSON text `input`, as `jq -e` decides: at least one result,
    /// and none of them `false` or `null`. (Expectations of fixtures are such filters.)
    pub fn holds(&self, input: &[u8]) -> Result<bool> {
        self.holds_unless(input, None)
    }

    /// [`Filter::holds`] on a worker thread its caller may give up on: once `stop` is set,
    /// the evaluation parks the thread at its next step rather than run on.
    pub fn holds_unless(
        &self,
        input: &[u8],
        stop: Option<&std::sync::atomic::AtomicBool>,
    ) -> Result<bool> {
        let val = read_item(input)?;
        let ctx = Ctx::<guard::Bounded>::new(guard::Watch(&self.filter.lut, stop), Vars::new([]));
        guard::guarded(|| {
            let mut any = false;
            for result in self.filter.id.run((ctx, val)).map(unwrap_valr) {
                let v = result.map_err(|e| {
                    Error::usage(error_line::runtime_error(&self.code, &e.to_string()))
                })?;
                if matches!(v, Val::Null | Val::Bool(false)) {
                    return Ok(false);
                }
                any = true;
            }
            Ok(any)
        })
    }

    /// Runs the filter on a jaq value and writes each result (see [`Filter::run_text`]).
    pub fn run_val(&self, val: Val, tty: bool, out: &mut impl Write) -> Result<()> {
        bound::during(|stop| {
            let ctx =
                Ctx::<guard::Bounded>::new(guard::Watch(&self.filter.lut, stop), Vars::new([]));
            guard::guarded(|| self.write_all(ctx, val, tty, out))
        })
    }

    fn write_all(
        &self,
        ctx: Ctx<'_, guard::Bounded>,
        val: Val,
        tty: bool,
        out: &mut impl Write,
    ) -> Result<()> {
        for result in self.filter.id.run((ctx, val)).map(unwrap_valr) {
            let v = result.map_err(|e| {
                let mut line = error_line::runtime_error(&self.code, &e.to_string());
                if let Some(hint) = &self.hint {
                    line.push_str(&format!(" ({hint})"));
                }
                Error::usage(line)
            })?;
            match &v {
                Val::TStr(s) if tty => {
                    out.write_all(escape_multiline(&String::from_utf8_lossy(s)).as_bytes())?;
                    out.write_all(b"\n")?;
                }
                Val::TStr(s) => {
                    out.write_all(s)?;
                    out.write_all(b"\n")?;
                }
                other => {
                    let compact = other.to_string();
                    if tty {
                        match serde_json::from_str::<Value>(&compact) {
                            Ok(j) => super::write_json(out, &j, true)?,
                            Err(_) => writeln!(out, "{}", escape(&compact))?,
                        }
                    } else {
                        writeln!(out, "{compact}")?;
                    }
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn run(code: &str, input: Value) -> String {
        let mut out = Vec::new();
        Filter::compile(code)
            .unwrap()
            .run(&input, false, &mut out)
            .unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn strings_print_raw() {
        assert_eq!(
            run(".[] | .id", json!([{"id": "a"}, {"id": "b"}])),
            "a\nb\n"
        );
        assert_eq!(run("map(.n) | add", json!([{"n": 1}, {"n": 2}])), "3\n");
        assert_eq!(run("{x: .[0]}", json!([1])), "{\"x\":1}\n");
    }

    #[test]
    fn a_whole_list_filter_has_an_item_form() {
        assert_eq!(item_form(".[].id").as_deref(), Some(".id"));
        assert_eq!(item_form(".[] | .a.b").as_deref(), Some(".a.b"));
        assert_eq!(item_form(".[][0]").as_deref(), Some(".[0]"));
        assert_eq!(item_form(".[]").as_deref(), Some("."));
        assert_eq!(item_form("map(.id)"), None);
    }

    #[test]
    fn filters_that_start_with_each_item_run_per_item() {
        assert_eq!(per_item_part(".[]"), Some("."));
        assert_eq!(per_item_part(" .[] | .id "), Some(".id"));
        assert_eq!(
            per_item_part(".[]? | select(.a) | .b, .c"),
            Some("select(.a) | .b, .c")
        );
        assert_eq!(per_item_part(".[] |= 1"), None);
        assert_eq!(per_item_part(".[] as $x | $x"), None);
        assert_eq!(per_item_part(".[0]"), None);
        assert_eq!(per_item_part("length"), None);
        assert_eq!(per_item_part(".[] // 1"), None);
    }

    #[test]
    fn nesting_is_measured_outside_strings() {
        assert_eq!(depth(br#"{"a":[1,{"b":"[[[{"}]}"#), 3);
        assert_eq!(depth(br#""\"[""#), 0);
    }

    #[test]
    fn runtime_errors_are_one_short_line() {
        let list: Vec<Value> = (0..3000)
            .map(|i| json!({"id": format!("ipp_{i}"), "description": "office network"}))
            .collect();
        let mut out = Vec::new();
        let e = Filter::compile(".id")
            .unwrap()
            .run(&Value::Array(list), false, &mut out)
            .unwrap_err();
        let line = e.to_string();
        assert_eq!(e.exit_code(), 2);
        assert!(line.len() < 300 && !line.contains('\n'), "{line}");
        assert!(line.starts_with("--jq '.id': cannot index array"), "{line}");
        assert!(line.contains("3000 items"), "{line}");
    }

    #[test]
    fn deep_recursion_that_ends_runs_on_a_thread_with_a_small_stack() {
        // A Windows main thread has 1 MiB: the evaluation gets a stack of its own there.
        let small = std::thread::Builder::new().stack_size(1024 * 1024);
        let ran = small
            .spawn(|| {
                run(
                    "def f: if . > 0 then . - 1 | f else . end; 5000 | f",
                    json!(null),
                )
            })
            .unwrap()
            .join()
            .unwrap();
        assert_eq!(ran, "0\n");
    }

    #[test]
    fn a_filter_holds_when_every_result_is_truthy() {
        let holds = |code: &str| {
            Filter::compile(code)
                .unwrap()
                .holds(br#"{"a":1,"b":[]}"#)
                .unwrap()
        };
        assert!(holds(".a == 1"));
        assert!(holds(".b"));
        assert!(!holds(".a == 2"));
        assert!(!holds(".missing"));
        assert!(!holds("empty"));
        assert!(!holds("true, false"));
    }

    #[test]
    fn bad_filters_say_where() {
        let e = Filter::compile(".[] | ").err().unwrap();
        assert_eq!(e.exit_code(), 2);
        let e = Filter::compile("nosuchfn(1)").err().unwrap().to_string();
        assert!(e.contains("nosuchfn"), "{e}");
    }
}
