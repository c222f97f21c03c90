//! `--jq EXPR`: a jq filter run in-process with jaq, on what `--json` would print.
//!
//! jaq's values are not `Send`, so filters run synchronously once the data is in hand.

use std::io::Write;

use jaq_core::load::{Arena, File, Loader};
use jaq_core::{data, unwrap_valr, Compiler, Ctx, Vars};
use jaq_json::Val;
use serde_json::Value;

use crate::error::{Error, Result};

mod guard;

/// A compiled filter.
pub struct Filter {
    filter: jaq_core::Filter<data::JustLut<Val>>,
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
        Ok(Filter { filter })
    }

    /// Runs the filter on `input` and writes each result: strings raw (like `jq -r`), other
    /// values as JSON (indented on a terminal).
    pub fn run(&self, input: &Value, pretty: bool, out: &mut impl Write) -> Result<()> {
        let text = input.to_string();
        let val = jaq_json::read::parse_single(text.as_bytes())
            .map_err(|e| Error::Io(format!("--jq: cannot read the input: {e}")))?;
        let ctx = Ctx::<data::JustLut<Val>>::new(&self.filter.lut, Vars::new([]));
        guard::guarded(|| self.write_all(ctx, val, pretty, out))
    }

    fn write_all(
        &self,
        ctx: Ctx<'_, data::JustLut<Val>>,
        val: Val,
        pretty: bool,
        out: &mut impl Write,
    ) -> Result<()> {
        for result in self.filter.id.run((ctx, val)).map(unwrap_valr) {
            let v = result.map_err(|e| Error::usage(format!("--jq: {e}")))?;
            match &v {
                Val::TStr(s) => {
                    out.write_all(s)?;
                    out.write_all(b"\n")?;
                }
                other => {
                    let compact = other.to_string();
                    if pretty {
                        match serde_json::from_str::<Value>(&compact) {
                            Ok(j) => super::write_json(out, &j, true)?,
                            Err(_) => writeln!(out, "{compact}")?,
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
    fn bad_filters_say_where() {
        let e = Filter::compile(".[] | ").err().unwrap();
        assert_eq!(e.exit_code(), 2);
        let e = Filter::compile("nosuchfn(1)").err().unwrap().to_string();
        assert!(e.contains("nosuchfn"), "{e}");
    }
}
