//! The floor plan of `src/`, checked: which module may import which, how long a command file
//! may grow, and that no two things share a name. CONTRIBUTING.md ("The floor plan") states
//! the rules; this test reads
//! the sources and lists every place that breaks one, with its file and line, so a crossing is
//! caught when it is written rather than when someone next reads the code.
//!
//! The sources are read with a small scanner rather than a full parser: comments, strings and
//! character literals are dropped, the rest is cut into identifiers and punctuation, and the
//! paths that start with `crate::`, `super::`, `self::` or the name of a child module are
//! resolved to the file that holds their longest module prefix. Code under `#[cfg(test)]` (and
//! files declared by such a `mod`) is left out: a test may reach wherever it needs to.

// A test: a failure to read the sources is itself the answer (the workspace lints deny
// unwrap and expect outside tests).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// Modules every layer may stand on: they import nothing but each other.
const FLOOR: &[&str] = &[
    "deadline",
    "encoding",
    "error",
    "escape",
    "files",
    "interrupt",
    "parse",
    "ratelimit",
    "registry",
    "secrets",
];

/// The layers that may import only the floor and themselves.
const FLOOR_LAYERS: &[&str] = &["http", "output"];

/// The one pair of top-level modules allowed to import each other: the clap tree names the
/// argument structs its commands define, and the handlers read the parsed tree.
const DISPATCH: (&str, &str) = ("cli", "commands");

/// The features: what the commands are made of. Each is given what it needs (a client, the
/// printer, settled values), never a command's whole context, so none imports these.
const FEATURES: &[&str] = &[
    "account",
    "bulk",
    "capture",
    "fixture",
    "fleet",
    "history",
    "inspect",
    "signature",
];

/// What no feature imports: the command line, the commands and what a handler is given.
const ABOVE_FEATURES: &[&str] = &["cli", "commands", "context"];

/// Longest file under `src/commands/`, in lines.
const MAX_COMMAND_FILE_LINES: usize = 400;

#[test]
fn the_floor_plan_holds() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let crate_ = Crate::read(&root);
    let mut violations = Vec::new();
    layers(&crate_, &mut violations);
    features(&crate_, &mut violations);
    module_cycles(&crate_, &mut violations);
    mutual_imports(&crate_, &mut violations);
    command_file_lengths(&crate_, &mut violations);
    format_choices(&crate_, &mut violations);
    shared_names(&crate_, &mut violations);
    if !violations.is_empty() {
        let mut report = format!("{} architecture violations:\n", violations.len());
        for v in &violations {
            let _ = writeln!(report, "  {v}");
        }
        panic!("{report}");
    }
}

/// `http/` and `output/` import only the floor; the floor imports only itself.
fn layers(c: &Crate, out: &mut Vec<String>) {
    for file in c.files.values().filter(|f| !f.test_only) {
        let Some(top) = file.module.first() else {
            continue;
        };
        let floor_only = FLOOR.contains(&top.as_str());
        if !floor_only && !FLOOR_LAYERS.contains(&top.as_str()) {
            continue;
        }
        for import in &file.imports {
            let to = &c.files[&import.target].module;
            let Some(to_top) = to.first() else {
                out.push(format!(
                    "{}:{}: {} reaches up to the crate root",
                    file.rel, import.line, top
                ));
                continue;
            };
            if to_top == top || FLOOR.contains(&to_top.as_str()) {
                continue;
            }
            let what = if floor_only {
                "the floor"
            } else {
                top.as_str()
            };
            out.push(format!(
                "{}:{}: {what} imports `{}` ({})",
                file.rel,
                import.line,
                to.join("::"),
                import.path
            ));
        }
    }
}

/// No feature imports the commands, the command line or the context.
fn features(c: &Crate, out: &mut Vec<String>) {
    for file in c.files.values().filter(|f| !f.test_only) {
        let Some(top) = file
            .module
            .first()
            .filter(|t| FEATURES.contains(&t.as_str()))
        else {
            continue;
        };
        for import in &file.imports {
            let to = &c.files[&import.target].module;
            if let Some(to_top) = to.first().filter(|t| ABOVE_FEATURES.contains(&t.as_str())) {
                out.push(format!(
                    "{}:{}: the feature `{top}` imports `{to_top}` ({}); give it what it needs instead",
                    file.rel, import.line, import.path
                ));
            }
        }
    }
}

/// No cycle between the top-level modules of `src/`: each edge is a file of one importing
/// another (test code aside), and only the `cli` <-> `commands` dispatch may go both ways (its
/// edge from `commands` back to `cli` is left out). Each cycle is named once, with the import
/// behind each of its steps.
fn module_cycles(c: &Crate, out: &mut Vec<String>) {
    // top -> (top it imports -> the first import that does it)
    let mut edges: BTreeMap<&str, BTreeMap<&str, (&File, &Import)>> = BTreeMap::new();
    for file in c.files.values().filter(|f| !f.test_only) {
        let Some(from) = file.module.first() else {
            continue;
        };
        for import in &file.imports {
            let Some(to) = c.files[&import.target].module.first() else {
                continue;
            };
            if from == to || (from.as_str(), to.as_str()) == (DISPATCH.1, DISPATCH.0) {
                continue;
            }
            edges
                .entry(from)
                .or_default()
                .entry(to)
                .or_insert((file, import));
        }
    }
    let mut named: BTreeSet<BTreeSet<&str>> = BTreeSet::new();
    for (&from, tos) in &edges {
        for &to in tos.keys() {
            // A path back from `to` to `from` closes a cycle.
            let Some(back) = path(&edges, to, from) else {
                continue;
            };
            let mut cycle = vec![from];
            cycle.extend(back);
            let members: BTreeSet<&str> = cycle.iter().copied().collect();
            if !named.insert(members) {
                continue;
            }
            let steps: Vec<String> = cycle
                .windows(2)
                .map(|w| {
                    let (file, import) = edges[w[0]][w[1]];
                    format!(
                        "{} -> {} ({}:{}, {})",
                        w[0], w[1], file.rel, import.line, import.path
                    )
                })
                .collect();
            out.push(format!(
                "the modules {} import each other in a cycle: {}",
                cycle[..cycle.len() - 1].join(", "),
                steps.join("; ")
            ));
        }
    }
}

/// A shortest path of modules from `from` to `to` (both included), if there is one.
fn path<'a>(
    edges: &BTreeMap<&'a str, BTreeMap<&'a str, (&File, &Import)>>,
    from: &'a str,
    to: &'a str,
) -> Option<Vec<&'a str>> {
    let mut came_from: BTreeMap<&str, &str> = BTreeMap::new();
    let mut queue = std::collections::VecDeque::from([from]);
    while let Some(at) = queue.pop_front() {
        if at == to {
            let mut path = vec![to];
            let mut step = to;
            while step != from {
                step = came_from[step];
                path.push(step);
            }
            path.reverse();
            return Some(path);
        }
        for &next in edges.get(at).into_iter().flat_map(|t| t.keys()) {
            if next != from && !came_from.contains_key(next) {
                came_from.insert(next, at);
                queue.push_back(next);
            }
        }
    }
    None
}

/// No two files import each other, the `cli` <-> `commands` dispatch aside. A module and the
/// file that declares it are one unit (the parent holds what its children share, and names
/// them to re-export or dispatch to them), so a child reaching its parent is no cycle.
fn mutual_imports(c: &Crate, out: &mut Vec<String>) {
    let mut seen = BTreeSet::new();
    for (a, file) in &c.files {
        for import in &file.imports {
            let b = &import.target;
            if a >= b || !seen.insert((a, b)) {
                continue;
            }
            let parent =
                |x: &Vec<String>, y: &Vec<String>| y.len() == x.len() + 1 && y.starts_with(x);
            if parent(a, b) || parent(b, a) {
                continue;
            }
            let Some(back) = c.files[b].imports.iter().find(|i| &i.target == a) else {
                continue;
            };
            let tops = (
                c.files[a].module.first().map(String::as_str),
                c.files[b].module.first().map(String::as_str),
            );
            if tops == (Some(DISPATCH.0), Some(DISPATCH.1))
                || tops == (Some(DISPATCH.1), Some(DISPATCH.0))
            {
                continue;
            }
            out.push(format!(
                "{}:{} and {}:{} import each other ({} / {})",
                file.rel, import.line, c.files[b].rel, back.line, import.path, back.path
            ));
        }
    }
}

fn command_file_lengths(c: &Crate, out: &mut Vec<String>) {
    for file in c.files.values() {
        if file.module.first().map(String::as_str) == Some("commands")
            && file.lines > MAX_COMMAND_FILE_LINES
        {
            out.push(format!(
                "{}:{}: {} lines, over the {MAX_COMMAND_FILE_LINES} a command file may hold",
                file.rel, file.lines, file.lines
            ));
        }
    }
}

/// Commands do not branch on the output format: the printer decides. A command that reads
/// `Format::…`, `printer.format`, `printer.jq` or `is_json()` is choosing a rendering.
fn format_choices(c: &Crate, out: &mut Vec<String>) {
    for file in c.files.values() {
        if file.module.first().map(String::as_str) != Some("commands") {
            continue;
        }
        for (what, line) in &file.format_reads {
            out.push(format!(
                "{}:{line}: a command branches on the output format ({what}); let the printer decide",
                file.rel
            ));
        }
    }
}

/// No two types, and no two modules, share a name. The one exception is a command beside
/// what it drives: a module under `commands/` may share its name with one module outside it
/// (`commands/sessions` beside `api/sessions`, `commands/api` beside `api`, a verb's file
/// `commands/local/requests/diff.rs` beside the feature's `fixture/diff.rs`): both hold the one
/// thing, seen from the command line and from inside.
fn shared_names(c: &Crate, out: &mut Vec<String>) {
    let mut types: BTreeMap<&str, Vec<(&File, usize)>> = BTreeMap::new();
    let mut modules: BTreeMap<&str, Vec<&File>> = BTreeMap::new();
    for file in c.files.values().filter(|f| !f.test_only) {
        for (name, line) in &file.types {
            types.entry(name).or_default().push((file, *line));
        }
        if let Some(last) = file.module.last() {
            modules.entry(last).or_default().push(file);
        }
    }
    for (name, places) in types.iter().filter(|(_, p)| p.len() > 1) {
        let at: Vec<String> = places
            .iter()
            .map(|(f, line)| format!("{}:{line}", f.rel))
            .collect();
        out.push(format!(
            "type `{name}` is defined {} times: {}",
            at.len(),
            at.join(", ")
        ));
    }
    for (name, files) in modules.iter().filter(|(_, f)| f.len() > 1) {
        let commands = files
            .iter()
            .filter(|f| f.module.first().map(String::as_str) == Some("commands"))
            .count();
        if files.len() == 2 && commands == 1 {
            continue;
        }
        let at: Vec<&str> = files.iter().map(|f| f.rel.as_str()).collect();
        out.push(format!(
            "module `{name}` is {} modules: {}",
            at.len(),
            at.join(", ")
        ));
    }
}

/// The files of the crate, keyed by their module path.
struct Crate {
    files: BTreeMap<Vec<String>, File>,
}

struct File {
    /// The path under the repository root, as a reader would type it.
    rel: String,
    module: Vec<String>,
    lines: usize,
    /// Declared under `#[cfg(test)]` by its parent.
    test_only: bool,
    imports: Vec<Import>,
    /// Structs, enums, unions, traits and type aliases outside test code, with their line.
    types: Vec<(String, usize)>,
    /// Reads of the output format outside test code, with their line.
    format_reads: Vec<(String, usize)>,
}

struct Import {
    target: Vec<String>,
    line: usize,
    /// The path as written, resolved to the crate root.
    path: String,
}

impl Crate {
    fn read(src: &Path) -> Crate {
        let mut paths = Vec::new();
        walk(src, &mut paths);
        let mut scanned = BTreeMap::new();
        for path in paths {
            let rel = path.strip_prefix(src).expect("walked under src");
            let Some(module) = module_of(rel) else {
                continue;
            };
            let text = std::fs::read_to_string(&path).expect("a source file is UTF-8");
            let tokens = tokenize(&text);
            scanned.insert(module, (format!("src/{}", rel.display()), text, tokens));
        }
        let known: BTreeSet<Vec<String>> = scanned.keys().cloned().collect();
        let mut files = BTreeMap::new();
        let mut test_children = BTreeSet::new();
        for (module, (rel, text, tokens)) in &scanned {
            let scan = Scan::run(module, tokens, &known);
            for child in scan.test_children {
                let mut m = module.clone();
                m.push(child);
                test_children.insert(m);
            }
            files.insert(
                module.clone(),
                File {
                    rel: rel.clone(),
                    module: module.clone(),
                    lines: text.lines().count(),
                    test_only: false,
                    imports: scan.imports,
                    types: scan.types,
                    format_reads: scan.format_reads,
                },
            );
        }
        // A file declared by a test-only `mod`, and everything below it, is test code.
        for (module, file) in files.iter_mut() {
            if test_children.iter().any(|t| module.starts_with(t)) {
                file.test_only = true;
                file.imports.clear();
                file.types.clear();
                file.format_reads.clear();
            }
        }
        Crate { files }
    }
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .expect("src is readable")
        .map(|e| e.expect("a directory entry").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            walk(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// `lib.rs` is the root, `a/mod.rs` and `a.rs` are `a`; `main.rs` is another crate.
fn module_of(rel: &Path) -> Option<Vec<String>> {
    let mut parts: Vec<String> = rel
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    let last = parts.pop()?;
    match last.as_str() {
        "main.rs" if parts.is_empty() => return None,
        "lib.rs" if parts.is_empty() => {}
        "mod.rs" => {}
        other => parts.push(other.strip_suffix(".rs")?.to_string()),
    }
    Some(parts)
}

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Ident(String),
    /// `::`
    Path,
    Punct(char),
}

/// Identifiers and punctuation with their line; comments, strings, chars and numbers dropped.
fn tokenize(text: &str) -> Vec<(Tok, usize)> {
    let s: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let (mut i, mut line) = (0, 1);
    let at = |i: usize| s.get(i).copied().unwrap_or('\0');
    while i < s.len() {
        let c = s[i];
        if c == '\n' {
            line += 1;
            i += 1;
        } else if c.is_whitespace() {
            i += 1;
        } else if c == '/' && at(i + 1) == '/' {
            while i < s.len() && s[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && at(i + 1) == '*' {
            let mut depth = 0;
            loop {
                if i >= s.len() {
                    break;
                }
                if s[i] == '/' && at(i + 1) == '*' {
                    depth += 1;
                    i += 2;
                } else if s[i] == '*' && at(i + 1) == '/' {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    if s[i] == '\n' {
                        line += 1;
                    }
                    i += 1;
                }
            }
        } else if c == '"' || ((c == 'b' || c == 'c') && at(i + 1) == '"') {
            i += if c == '"' { 1 } else { 2 };
            while i < s.len() && s[i] != '"' {
                if s[i] == '\\' {
                    i += 1;
                }
                if at(i) == '\n' {
                    line += 1;
                }
                i += 1;
            }
            i += 1;
        } else if raw_string_start(&s, i).is_some() {
            let (hashes, body) = raw_string_start(&s, i).expect("checked");
            i = body;
            loop {
                if i >= s.len() {
                    break;
                }
                if s[i] == '"' && (1..=hashes).all(|k| at(i + k) == '#') {
                    i += 1 + hashes;
                    break;
                }
                if s[i] == '\n' {
                    line += 1;
                }
                i += 1;
            }
        } else if c == '\'' {
            // A char literal ('a', '\n', '\u{1F600}') or a lifetime ('a).
            if at(i + 1) == '\\' {
                i += 2;
                while i < s.len() && s[i] != '\'' {
                    i += 1;
                }
                i += 1;
            } else if at(i + 2) == '\'' {
                i += 3;
            } else {
                i += 1;
                while i < s.len() && (s[i].is_alphanumeric() || s[i] == '_') {
                    i += 1;
                }
            }
        } else if c.is_alphabetic() || c == '_' {
            let start = i;
            while i < s.len() && (s[i].is_alphanumeric() || s[i] == '_') {
                i += 1;
            }
            let word: String = s[start..i].iter().collect();
            let word = word.strip_prefix("r#").map(str::to_string).unwrap_or(word);
            out.push((Tok::Ident(word), line));
        } else if c.is_ascii_digit() {
            while i < s.len() && (s[i].is_alphanumeric() || s[i] == '_' || s[i] == '.') {
                if s[i] == '.' && !at(i + 1).is_ascii_digit() {
                    break;
                }
                i += 1;
            }
        } else if c == ':' && at(i + 1) == ':' {
            out.push((Tok::Path, line));
            i += 2;
        } else {
            out.push((Tok::Punct(c), line));
            i += 1;
        }
    }
    out
}

/// `r"…"`, `r#"…"#`, `br"…"`: the number of hashes and where the body starts.
fn raw_string_start(s: &[char], i: usize) -> Option<(usize, usize)> {
    let mut j = i;
    if s.get(j) == Some(&'b') || s.get(j) == Some(&'c') {
        j += 1;
    }
    if s.get(j) != Some(&'r') {
        return None;
    }
    if i > 0 && (s[i - 1].is_alphanumeric() || s[i - 1] == '_') {
        return None;
    }
    j += 1;
    let mut hashes = 0;
    while s.get(j) == Some(&'#') {
        hashes += 1;
        j += 1;
    }
    (s.get(j) == Some(&'"')).then_some((hashes, j + 1))
}

/// What one file names: its imports, its types, its test-only child modules.
struct Scan {
    imports: Vec<Import>,
    types: Vec<(String, usize)>,
    format_reads: Vec<(String, usize)>,
    test_children: Vec<String>,
}

impl Scan {
    fn run(module: &[String], toks: &[(Tok, usize)], known: &BTreeSet<Vec<String>>) -> Scan {
        let mut scan = Scan {
            imports: Vec::new(),
            types: Vec::new(),
            format_reads: Vec::new(),
            test_children: Vec::new(),
        };
        let ident = |i: usize| match toks.get(i) {
            Some((Tok::Ident(w), _)) => Some(w.as_str()),
            _ => None,
        };
        let is = |i: usize, t: Tok| toks.get(i).map(|(k, _)| k) == Some(&t);
        // Children of this file's module: their names start relative paths.
        let children: BTreeSet<&str> = known
            .iter()
            .filter(|m| m.len() == module.len() + 1 && m.starts_with(module))
            .map(|m| m[module.len()].as_str())
            .collect();
        // Inline modules we are inside: (brace depth at their opening, name).
        let mut inline: Vec<(usize, String)> = Vec::new();
        let mut depth = 0usize;
        let mut i = 0;
        while i < toks.len() {
            // `#[cfg(test)]` and the item it guards.
            if is(i, Tok::Punct('#'))
                && is(i + 1, Tok::Punct('['))
                && ident(i + 2) == Some("cfg")
                && is(i + 3, Tok::Punct('('))
                && ident(i + 4) == Some("test")
                && is(i + 5, Tok::Punct(')'))
                && is(i + 6, Tok::Punct(']'))
            {
                i = skip_item(toks, i + 7, &mut scan.test_children);
                continue;
            }
            let field = is(i.wrapping_sub(1), Tok::Punct('.'))
                && ident(i.wrapping_sub(2)) == Some("printer");
            match ident(i) {
                Some("Format") if is(i + 1, Tok::Path) => {
                    scan.format_reads.push(("Format::…".into(), toks[i].1))
                }
                Some("is_json") if is(i.wrapping_sub(1), Tok::Punct('.')) => {
                    scan.format_reads.push(("is_json()".into(), toks[i].1))
                }
                Some(w @ ("format" | "jq")) if field => {
                    scan.format_reads.push((format!("printer.{w}"), toks[i].1))
                }
                _ => {}
            }
            match &toks[i].0 {
                Tok::Punct('{') => depth += 1,
                Tok::Punct('}') => {
                    depth = depth.saturating_sub(1);
                    if inline.last().is_some_and(|(d, _)| *d == depth) {
                        inline.pop();
                    }
                }
                Tok::Ident(w) if w == "mod" => {
                    if let (Some(name), true) = (ident(i + 1), is(i + 2, Tok::Punct('{'))) {
                        inline.push((depth, name.to_string()));
                    }
                }
                Tok::Ident(w)
                    if matches!(w.as_str(), "struct" | "enum" | "union" | "trait" | "type")
                        && !is(i.wrapping_sub(1), Tok::Path) =>
                {
                    // `impl Trait for X`, `dyn Trait` and `type Output = …` inside an
                    // impl are not definitions of a name of ours: only items at the
                    // top of a module count.
                    let in_impl_or_fn = depth > inline.len();
                    if let (Some(name), false) = (ident(i + 1), in_impl_or_fn) {
                        scan.types.push((name.to_string(), toks[i].1));
                    }
                }
                _ => {}
            }
            let starts_path = !is(i.wrapping_sub(1), Tok::Path) && is(i + 1, Tok::Path);
            let head = ident(i).filter(|_| starts_path);
            let base: Option<Vec<String>> = match head {
                Some("crate") => Some(Vec::new()),
                Some("self") | Some("super") | Some(_) => {
                    let mut here: Vec<String> = module.to_vec();
                    here.extend(inline.iter().map(|(_, n)| n.clone()));
                    match head {
                        Some("self") => Some(here),
                        Some("super") => {
                            let mut j = i;
                            let mut up = here;
                            while ident(j) == Some("super") && is(j + 1, Tok::Path) {
                                up.pop();
                                j += 2;
                            }
                            // Continue from the last `super`.
                            i = j - 2;
                            Some(up)
                        }
                        Some(name) if inline.is_empty() && children.contains(name) => {
                            Some(module.to_vec())
                        }
                        _ => None,
                    }
                }
                None => None,
            };
            if let Some(base) = base {
                let line = toks[i].1;
                let mut paths = Vec::new();
                // After `crate::`, `self::` or the last `super::`; a child's name is the
                // path's first segment.
                let first = if matches!(head, Some("crate" | "self" | "super")) {
                    i + 2
                } else {
                    i
                };
                let end = use_tree(toks, first, base, &mut paths);
                // `crate::output::Format::Json` names the format too.
                for (j, (_, line)) in toks.iter().enumerate().take(end).skip(i) {
                    if ident(j) == Some("Format") && is(j + 1, Tok::Path) {
                        scan.format_reads.push(("Format::…".into(), *line));
                    }
                }
                for path in paths {
                    if let Some(target) = resolve(&path, known) {
                        if target != module {
                            scan.imports.push(Import {
                                target,
                                line,
                                path: format!("crate::{}", path.join("::")),
                            });
                        }
                    }
                }
                i = end.max(i + 1);
                continue;
            }
            i += 1;
        }
        scan
    }
}

/// Reads a path or use tree starting at `i` below `base`; pushes every full path. Returns
/// the index after it.
fn use_tree(
    toks: &[(Tok, usize)],
    mut i: usize,
    base: Vec<String>,
    out: &mut Vec<Vec<String>>,
) -> usize {
    let mut path = base;
    loop {
        match toks.get(i).map(|(t, _)| t) {
            Some(Tok::Ident(w)) if w != "as" => {
                if w != "self" {
                    path.push(w.clone());
                }
                i += 1;
                if toks.get(i).map(|(t, _)| t) == Some(&Tok::Path) {
                    i += 1;
                    continue;
                }
                out.push(path);
                return i;
            }
            Some(Tok::Punct('{')) => {
                i += 1;
                loop {
                    match toks.get(i).map(|(t, _)| t) {
                        Some(Tok::Punct('}')) | None => return i + 1,
                        Some(Tok::Punct(',')) => i += 1,
                        Some(Tok::Ident(w)) if w == "as" => i += 2,
                        _ => i = use_tree(toks, i, path.clone(), out),
                    }
                }
            }
            Some(Tok::Punct('*')) => {
                out.push(path);
                return i + 1;
            }
            _ => {
                out.push(path);
                return i;
            }
        }
    }
}

/// The file that holds the longest module prefix of `path`.
fn resolve(path: &[String], known: &BTreeSet<Vec<String>>) -> Option<Vec<String>> {
    (0..=path.len())
        .rev()
        .map(|n| path[..n].to_vec())
        .find(|p| known.contains(p))
}

/// Skips the item after `#[cfg(test)]` (more attributes, then up to its `;` or its block),
/// noting `mod name;` so its file is known to be test code.
fn skip_item(toks: &[(Tok, usize)], mut i: usize, test_children: &mut Vec<String>) -> usize {
    let mut depth = 0usize;
    let mut words: Vec<String> = Vec::new();
    while i < toks.len() {
        match &toks[i].0 {
            Tok::Punct('{') | Tok::Punct('[') | Tok::Punct('(') => depth += 1,
            Tok::Punct('}') | Tok::Punct(']') | Tok::Punct(')') => {
                depth = depth.saturating_sub(1);
                if depth == 0 && toks[i].0 == Tok::Punct('}') {
                    return i + 1;
                }
            }
            Tok::Punct(';') if depth == 0 => {
                if let [.., m, name] = words.as_slice() {
                    if m == "mod" {
                        test_children.push(name.clone());
                    }
                }
                return i + 1;
            }
            Tok::Ident(w) if depth == 0 => words.push(w.clone()),
            _ => {}
        }
        i += 1;
    }
    i
}
