//! The CRUD contract: what every collection of the management API promises, run for each
//! collection from one table (command, path, noun, seed function). A collection's own module
//! keeps only what is its own (its fields, its table columns, its quirks).

use serde_json::{json, Value};
use tunnelctl_mock::{MockOptions, RecordedRequest};

use crate::common::seed::{ids, sorted, KINESIS};
use crate::common::{assert_management_headers, only_write, Env};

/// One collection as the CLI exposes it.
pub struct Collection {
    /// The command words before the verb (`["backends", "tunnel-group"]`).
    cmd: &'static [&'static str],
    /// The collection's API path.
    path: &'static str,
    /// Its key in the emulator's state.
    state: &'static str,
    /// The prefix of its ids.
    prefix: &'static str,
    /// What a terminal is told when the list is empty (`No {plural}.`).
    plural: &'static str,
    /// Seeds `n` items; their ids in creation order.
    seed: fn(&Env, usize) -> Vec<String>,
    /// How items are removed.
    remove: Remove,
    /// How its list looks.
    listing: Listing,
}

/// A collection's list off a terminal (TSV) and on one (a table).
struct Listing {
    /// The TSV fields of a stored item, in order.
    tsv: fn(&Value) -> Vec<String>,
    /// Headers the table shows.
    headers: &'static [&'static str],
    /// Text the table of the seeded items shows (a cell in its table form).
    shows: &'static [&'static str],
}

/// A string field of a stored item by JSON pointer; empty when it is absent.
fn text(item: &Value, pointer: &str) -> String {
    item.pointer(pointer)
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_string()
}

/// The values of `key` in each object of the list at `pointer`, joined by commas.
fn joined(item: &Value, pointer: &str, key: &str) -> String {
    let list = item.pointer(pointer).and_then(Value::as_array);
    list.into_iter()
        .flatten()
        .map(|v| text(v, &format!("/{key}")))
        .collect::<Vec<_>>()
        .join(",")
}

/// The command that removes items, several at a time.
struct Remove {
    verb: &'static str,
    /// What stderr says of each item removed (`{done} {id}`).
    done: &'static str,
    method: &'static str,
    /// What follows `{path}/{id}` in the request path.
    suffix: &'static str,
    /// The exact request body.
    body: &'static str,
    /// What stderr names when no id is given.
    no_id: &'static str,
    /// Flags that make a remove of several IDs send its requests one at a time, in order (a
    /// fleet command sends several at once: they may reach the server in any order).
    one_at_a_time: &'static [&'static str],
}

/// An update that changes one thing.
struct Update {
    args: &'static [&'static str],
    /// The body it sends (JSON).
    body: &'static str,
    /// The flags named when none is given.
    flags: &'static [&'static str],
}

const DELETE: Remove = Remove {
    verb: "delete",
    done: "",
    method: "DELETE",
    suffix: "",
    body: "",
    no_id: "IDS",
    one_at_a_time: &[],
};

const IP_POLICIES: Collection = Collection {
    cmd: &["ip-policies"],
    path: "/ip_policies",
    state: "ip_policies",
    prefix: "ipp_",
    plural: "IP policies",
    seed: Env::seed_ip_policies,
    remove: Remove {
        done: "Deleted IP policy",
        ..DELETE
    },
    listing: Listing {
        tsv: |p| {
            ["/id", "/description", "/metadata", "/created_at"]
                .map(|f| text(p, f))
                .to_vec()
        },
        headers: &["ID", "DESCRIPTION", "METADATA", "CREATED"],
        shows: &[],
    },
};

const IP_POLICY_UPDATE: Update = Update {
    args: &["--metadata", "m2"],
    body: r#"{"metadata": "m2"}"#,
    flags: &["--description", "--metadata"],
};

const BACKENDS: Collection = Collection {
    cmd: &["backends", "tunnel-group"],
    path: "/backends/tunnel_group",
    state: "backends",
    prefix: "bkdtg_",
    plural: "tunnel-group backends",
    seed: |env, n| {
        let bodies: Vec<Value> = (0..n)
            .map(|i| json!({"description": format!("b{i}"), "labels": {"n": i.to_string()}}))
            .collect();
        env.seed_backends(Value::Array(bodies))
    },
    remove: Remove {
        done: "Deleted tunnel-group backend",
        ..DELETE
    },
    listing: Listing {
        tsv: |b| {
            let labels = b["labels"].as_object().into_iter().flatten();
            let labels: Vec<String> = labels
                .map(|(k, v)| format!("{k}={}", v.as_str().unwrap_or("")))
                .collect();
            vec![
                text(b, "/id"),
                text(b, "/description"),
                labels.join(","),
                joined(b, "/tunnels", "id"),
                text(b, "/metadata"),
                text(b, "/created_at"),
            ]
        },
        headers: &["ID", "DESCRIPTION", "LABELS", "TUNNELS", "CREATED"],
        shows: &["n=0"],
    },
};

const BACKEND_UPDATE: Update = Update {
    args: &["--label", "a=b"],
    body: r#"{"labels": {"a": "b"}}"#,
    flags: &["--description", "--metadata", "--label"],
};

const EVENT_DESTINATIONS: Collection = Collection {
    cmd: &["event-destinations"],
    path: "/event_destinations",
    state: "event_destinations",
    prefix: "ed_",
    plural: "event destinations",
    seed: Env::seed_destinations,
    remove: Remove {
        done: "Deleted event destination",
        ..DELETE
    },
    listing: Listing {
        // The seeds are Kinesis streams written to with a role.
        tsv: |d| {
            vec![
                text(d, "/id"),
                text(d, "/description"),
                text(d, "/format"),
                format!("kinesis {}", text(d, "/target/kinesis/stream_arn")),
                format!("role {}", text(d, "/target/kinesis/auth/role/role_arn")),
                text(d, "/metadata"),
                text(d, "/created_at"),
            ]
        },
        headers: &[
            "ID",
            "DESCRIPTION",
            "FORMAT",
            "TARGET",
            "AUTH",
            "METADATA",
            "CREATED",
        ],
        shows: &[KINESIS],
    },
};

const EVENT_DESTINATION_UPDATE: Update = Update {
    args: &["--description", "x"],
    body: r#"{"description": "x"}"#,
    flags: &["--description", "--target-json"],
};

const EVENT_SUBSCRIPTIONS: Collection = Collection {
    cmd: &["event-subscriptions"],
    path: "/event_subscriptions",
    state: "event_subscriptions",
    prefix: "esb_",
    plural: "event subscriptions",
    seed: |env, n| {
        let dest = env.seed_destinations(1);
        let bodies: Vec<Value> = (0..n)
            .map(|i| json!({"description": format!("sub {i}"), "metadata": format!("m{i}"),
                            "sources": [{"type": "a.v0"}, {"type": "b.v0"}], "destination_ids": dest}))
            .collect();
        env.seed_subscriptions(Value::Array(bodies))
    },
    remove: Remove {
        done: "Deleted event subscription",
        ..DELETE
    },
    listing: Listing {
        tsv: |s| {
            vec![
                text(s, "/id"),
                text(s, "/description"),
                joined(s, "/sources", "type"),
                joined(s, "/destinations", "id"),
                text(s, "/metadata"),
                text(s, "/created_at"),
            ]
        },
        headers: &[
            "ID",
            "DESCRIPTION",
            "SOURCES",
            "DESTINATIONS",
            "METADATA",
            "CREATED",
        ],
        // Types in a table are separated by a space too.
        shows: &["a.v0, b.v0"],
    },
};

const EVENT_SUBSCRIPTION_UPDATE: Update = Update {
    args: &["--description", "x"],
    body: r#"{"description": "x"}"#,
    flags: &[
        "--description",
        "--metadata",
        "--source",
        "--destination-id",
    ],
};

const SESSIONS: Collection = Collection {
    cmd: &["sessions"],
    path: "/tunnel_sessions",
    state: "tunnel_sessions",
    prefix: "ts_",
    plural: "tunnel sessions",
    // Every other one with metadata (JSON, printed as it is) and a credential of its own.
    seed: |env, n| {
        let items: Vec<Value> = (0..n)
            .map(|i| match i % 2 {
                0 => json!({"region": "eu", "os": "linux", "agent_version": "3.19.1",
                            "metadata": format!("{{\"host\":\"web-{i}\"}}"),
                            "credential_id": "cr_2abcdefghijklmnopqrstuvwxyz"}),
                _ => json!({"region": "ap", "os": "darwin", "agent_version": "3.18.4"}),
            })
            .collect();
        env.seed_sessions(items)
    },
    remove: Remove {
        verb: "stop",
        done: "Stopped",
        method: "POST",
        suffix: "/stop",
        body: "{}",
        no_id: "",
        one_at_a_time: &["--parallel", "1"],
    },
    listing: Listing {
        tsv: |s| {
            [
                "/id",
                "/region",
                "/os",
                "/agent_version",
                "/ip",
                "/started_at",
                "/credential/id",
                "/metadata",
            ]
            .map(|f| text(s, f))
            .to_vec()
        },
        headers: &["ID", "REGION", "OS", "AGENT VERSION", "IP", "STARTED"],
        shows: &[],
    },
};

/// Every check, run for every collection: `cargo test --test cli crud_contract::sessions`.
/// A collection that can be updated names its update (`update: X`); one whose `create` with no
/// flag sends `{}` is marked `create_empty`. The checks of what a collection does not offer
/// are not generated at all, rather than generated to pass without checking anything.
macro_rules! contract {
    ($($name:ident => $coll:ident { $(update: $update:ident)? $(, $create:ident)? }),* $(,)?) => {$(
        mod $name {
            use super::$coll as C;
            #[test] fn list_follows_every_page_and_limit_stops() { super::list_follows_every_page_and_limit_stops(&C) }
            #[test] fn a_limit_over_a_page_fetches_two() { super::a_limit_over_a_page_fetches_two(&C) }
            #[test] fn wrong_list_flags_send_nothing() { super::wrong_list_flags_send_nothing(&C) }
            #[test] fn empty_list() { super::empty_list(&C) }
            #[test] fn tsv_off_a_terminal_and_a_table_on_one() { super::tsv_off_a_terminal_and_a_table_on_one(&C) }
            #[test] fn unknown_fields_reach_json_output_unchanged() {
                super::unknown_fields_reach_json_output_unchanged(&C, contract!(@has $($create)?), contract!(@update $($update)?))
            }
            #[test] fn jq_filters_in_process() { super::jq_filters_in_process(&C) }
            #[test] fn get_prints_the_item_as_returned() { super::get_prints_the_item_as_returned(&C) }
            #[test] fn get_missing_exits_4() { super::get_missing_exits_4(&C) }
            #[test] fn ids_stay_one_segment() { super::ids_stay_one_segment(&C) }
            #[test] fn remove_reports_each() { super::remove_reports_each(&C) }
            #[test] fn remove_with_some_missing_is_a_partial_failure() { super::remove_with_some_missing_is_a_partial_failure(&C) }
            #[test] fn remove_all_missing_exits_4() { super::remove_all_missing_exits_4(&C) }
            #[test] fn remove_without_yes_off_a_terminal_sends_nothing() { super::remove_without_yes_off_a_terminal_sends_nothing(&C) }
            $(contract!(@create $create);)?
            $(
                #[test] fn update_refusals_send_nothing() { super::update_refusals_send_nothing(&C, &super::$update) }
                #[test] fn update_missing_exits_4() { super::update_missing_exits_4(&C, &super::$update) }
            )?
        }
    )*};
    (@create create_empty) => {
        #[test] fn create_without_flags_sends_an_empty_object() { super::create_without_flags_sends_an_empty_object(&C) }
    };
    (@has) => { false };
    (@has create_empty) => { true };
    (@update) => { None };
    (@update $update:ident) => { Some(&super::$update) };
}

contract! {
    ip_policies => IP_POLICIES { update: IP_POLICY_UPDATE, create_empty },
    backends => BACKENDS { update: BACKEND_UPDATE, create_empty },
    event_destinations => EVENT_DESTINATIONS { update: EVENT_DESTINATION_UPDATE },
    event_subscriptions => EVENT_SUBSCRIPTIONS { update: EVENT_SUBSCRIPTION_UPDATE, create_empty },
    sessions => SESSIONS {},
}

impl Collection {
    /// `cmd verb args...`
    fn args<'a>(&self, verb: &'a str, rest: &[&'a str]) -> Vec<&'a str> {
        let mut args: Vec<&str> = self.cmd.to_vec();
        args.push(verb);
        args.extend_from_slice(rest);
        args
    }

    /// Runs `cmd verb rest...` against the emulator.
    fn run(&self, env: &Env, verb: &str, rest: &[&str]) -> crate::common::Out {
        env.run(&self.args(verb, rest))
    }

    /// The same, the output said to be a terminal.
    fn run_tty(&self, env: &Env, verb: &str, rest: &[&str]) -> crate::common::Out {
        env.run_tty(&self.args(verb, rest))
    }

    fn item(&self, id: &str) -> String {
        format!("{}/{id}", self.path)
    }

    fn stored(&self, env: &Env) -> Vec<Value> {
        env.stored_all(self.state)
    }

    /// Asserts a plain request to the collection or an item of it (no query, no body).
    #[track_caller]
    fn assert_get(&self, req: &RecordedRequest, path: &str) {
        assert_eq!(
            (req.method.as_str(), req.path.as_str()),
            ("GET", path),
            "{req:?}"
        );
        assert!(req.body.is_empty(), "{req:?}");
        assert_management_headers(req);
    }

    /// Asserts the request that removes the item `id`.
    #[track_caller]
    fn assert_remove(&self, req: &RecordedRequest, id: &str) {
        let r = &self.remove;
        assert_eq!(req.method, r.method, "{req:?}");
        assert_eq!(req.path, format!("{}{}", self.item(id), r.suffix));
        assert_eq!(req.query, None);
        assert_eq!(String::from_utf8_lossy(&req.body), r.body, "the exact body");
        assert_management_headers(req);
    }

    /// Asserts that stderr reports the removal of `id`.
    #[track_caller]
    fn assert_removed(&self, stderr: &str, id: &str) {
        let said = format!("{} {id}", self.remove.done);
        assert!(stderr.contains(&said), "{said}: {stderr}");
    }
}

fn page_size(n: usize) -> Env {
    Env::with(MockOptions {
        page_size: n,
        ..Default::default()
    })
}

fn list_follows_every_page_and_limit_stops(c: &Collection) {
    let env = page_size(2);
    let seeded = (c.seed)(&env, 5);
    let out = c.run(&env, "list", &["--json"]);
    out.ok();
    assert_eq!(out.stderr, "");
    let items = out.json();
    assert_eq!(
        items,
        Value::Array(c.stored(&env)),
        "all, newest first, as returned"
    );
    let printed = ids(&items);
    assert_eq!(printed.len(), 5);
    assert_eq!(sorted(printed), sorted(seeded), "each item once");
    let reqs = env.requests();
    assert_eq!(reqs.len(), 3, "three pages of 2: {reqs:?}");
    for r in &reqs {
        c.assert_get(r, c.path);
    }
    assert_eq!(reqs[0].query, None);
    for r in &reqs[1..] {
        let q = r.query.as_deref().unwrap_or("");
        assert!(q.contains(&format!("before_id={}", c.prefix)), "{q}");
    }

    let out = c.run(&env, "list", &["-o", "ndjson"]);
    out.ok();
    let lines = out.ndjson();
    assert_eq!(lines, c.stored(&env), "one item per line, as returned");

    env.mock.clear_requests();
    let out = c.run(&env, "list", &["--limit", "1", "--json"]);
    out.ok();
    assert_eq!(out.json(), json!([c.stored(&env)[0]]), "the newest");
    let reqs = env.requests();
    assert_eq!(reqs.len(), 1);
    assert_eq!(reqs[0].query.as_deref(), Some("limit=1"));

    env.mock.clear_requests();
    let out = c.run(&env, "list", &["--limit", "3", "-o", "ndjson"]);
    out.ok();
    assert_eq!(out.stdout.lines().count(), 3);
    let reqs = env.requests();
    assert_eq!(reqs.len(), 1, "one page of 3 asked with limit=3: {reqs:?}");
    assert_eq!(reqs[0].query.as_deref(), Some("limit=3"));
}

fn a_limit_over_a_page_fetches_two(c: &Collection) {
    let env = Env::new();
    (c.seed)(&env, 250);
    let out = c.run(&env, "list", &["--limit", "150", "-o", "ndjson"]);
    out.ok();
    assert_eq!(out.stdout.lines().count(), 150);
    assert_eq!(env.requests().len(), 2, "150 items need two pages of 100");
}

fn wrong_list_flags_send_nothing(c: &Collection) {
    let env = Env::new();
    (c.seed)(&env, 1);
    let mut cases: Vec<(Vec<&str>, &str)> = ["0", "-1", "-3", "ten", "many", ""]
        .into_iter()
        .map(|bad| (vec!["--limit", bad], "--limit"))
        .collect();
    cases.extend([
        (vec!["--limit"], "--limit"),
        (vec!["-o", "yaml"], "--output"),
        (vec!["-o", "csv"], "--output"),
        (vec!["--jq", ".[] |"], "--jq"),
        (vec!["--jq", "{"], "--jq"),
        (vec!["--timeout", "0"], "--timeout"),
        (vec!["--timeout", "soon"], "--timeout"),
        (vec!["--timeout=-1"], "--timeout"),
        (vec!["--json", "-o", "table"], "--json"),
    ]);
    for (flags, flag) in cases {
        let out = c.run(&env, "list", &flags);
        out.code(2);
        assert!(out.stderr.contains(flag), "{flags:?}: {}", out.stderr);
        assert_eq!(out.stdout, "", "{flags:?}");
    }
    assert!(env.requests().is_empty(), "{:?}", env.requests());
}

fn empty_list(c: &Collection) {
    let env = Env::new();
    let out = c.run(&env, "list", &["--json"]);
    out.ok();
    assert_eq!(out.stdout.trim(), "[]");
    let said = format!("No {}.\n", c.plural);
    for flags in [&[][..], &["-o", "ndjson"]] {
        let out = c.run(&env, "list", flags);
        out.ok();
        assert_eq!(out.stdout, "", "{flags:?}");
        assert!(!out.stderr.contains(&said), "not in a pipe: {}", out.stderr);
    }
    let out = c.run_tty(&env, "list", &[]);
    out.ok();
    assert_eq!(out.stdout, "");
    assert!(out.stderr.contains(&said), "{said}: {}", out.stderr);
    assert_eq!(env.requests().len(), 4);
}

/// Off a terminal a list is TSV: no header, one line per item with its full values (RFC 3339
/// times), newest first; on one it is a table with a header over its columns, every ID whole
/// and times as ages.
fn tsv_off_a_terminal_and_a_table_on_one(c: &Collection) {
    let env = Env::new();
    let seeded = (c.seed)(&env, 2);
    let out = c.run(&env, "list", &[]);
    out.ok();
    let expected: Vec<String> = c
        .stored(&env)
        .iter()
        .map(|item| (c.listing.tsv)(item).join("\t"))
        .collect();
    let lines: Vec<&str> = out.stdout.lines().collect();
    assert_eq!(lines, expected, "no header, full values, newest first");

    let table = env.run_terminal(200, &c.args("list", &[]));
    table.ok();
    let mut lines = table.stdout.lines();
    let header = lines.next().unwrap_or("");
    for col in c.listing.headers {
        assert!(header.contains(col), "{col}: {header}");
    }
    assert_eq!(lines.count(), 2, "a row per item: {}", table.stdout);
    assert!(!table.stdout.contains('\t'), "{}", table.stdout);
    for id in &seeded {
        table.prints(id);
    }
    for shown in c.listing.shows {
        table.prints(shown);
    }
    table.shows_age();
}

fn unknown_fields_reach_json_output_unchanged(
    c: &Collection,
    create_empty: bool,
    update: Option<&Update>,
) {
    let env = Env::with(MockOptions {
        extra_fields: true,
        ..Default::default()
    });
    let seeded = (c.seed)(&env, 2);
    let extra = json!({"added": "later", "n": [1, 2]});
    let one = c.run(&env, "get", &[&seeded[0], "--json"]);
    one.ok();
    assert_eq!(one.json()["x_future_field"], extra);
    let all = c.run(&env, "list", &["--json"]);
    all.ok();
    let items = all.json();
    assert_eq!(items.as_array().unwrap().len(), 2);
    for item in items.as_array().unwrap() {
        assert_eq!(item["x_future_field"], extra);
    }
    if create_empty {
        let created = c.run(&env, "create", &["--json"]);
        created.ok();
        assert_eq!(created.json()["x_future_field"], extra);
    }
    if let Some(u) = update {
        let mut args = vec![seeded[1].as_str(), "--json"];
        args.extend_from_slice(u.args);
        let updated = c.run(&env, "update", &args);
        updated.ok();
        assert_eq!(updated.json()["x_future_field"], extra);
    }
}

fn jq_filters_in_process(c: &Collection) {
    let env = Env::new();
    let seeded = (c.seed)(&env, 3);
    let out = c.run(&env, "list", &["--jq", ".[] | .id"]);
    out.ok();
    let printed: Vec<String> = out.stdout.lines().map(str::to_string).collect();
    assert_eq!(
        sorted(printed),
        sorted(seeded.clone()),
        "raw strings, one per line"
    );
    let out = c.run(&env, "get", &[&seeded[0], "--jq", ".id"]);
    out.ok();
    assert_eq!(out.stdout, format!("{}\n", seeded[0]));
    let out = c.run(&env, "get", &[&seeded[0], "--jq", "{"]);
    out.code(2);
    out.says("--jq");
}

fn get_prints_the_item_as_returned(c: &Collection) {
    let env = Env::new();
    let seeded = (c.seed)(&env, 2);
    let out = c.run(&env, "get", &[&seeded[0], "--json"]);
    out.ok();
    let reqs = env.requests();
    assert_eq!(reqs.len(), 1);
    c.assert_get(&reqs[0], &c.item(&seeded[0]));
    assert_eq!(reqs[0].query, None);
    assert_eq!(Some(out.json()), env.stored(c.state, &seeded[0]));
}

fn get_missing_exits_4(c: &Collection) {
    let env = Env::new();
    let missing = format!("{}nothere", c.prefix);
    let said = format!("GET {}", c.item(&missing));
    c.run(&env, "get", &[&missing]).not_found(&said);
    assert_eq!(env.requests().len(), 1);
}

fn ids_stay_one_segment(c: &Collection) {
    let env = Env::new();
    let out = c.run(&env, "get", &["../../ip_policies"]);
    out.code(4);
    let reqs = env.requests();
    assert_eq!(reqs.len(), 1);
    assert_eq!(reqs[0].path, c.item("..%2F..%2Fip_policies"));
    for args in [
        c.args("get", &[]),
        c.args("get", &[".."]),
        c.args("get", &["."]),
        c.args(c.remove.verb, &["..", "--yes"]),
    ] {
        let out = env.run(&args);
        out.code(2);
        assert_ne!(out.stderr, "", "{args:?}");
    }
    assert_eq!(
        env.requests().len(),
        1,
        "'..' and '.' are refused before sending"
    );
}

fn create_without_flags_sends_an_empty_object(c: &Collection) {
    let env = Env::new();
    let out = c.run(&env, "create", &["--json"]);
    out.ok();
    let req = only_write(&env);
    assert_eq!((req.method.as_str(), req.path.as_str()), ("POST", c.path));
    assert_eq!(req.query, None);
    assert_management_headers(&req);
    assert_eq!(req.body_json(), Some(json!({})));
    let printed = out.json();
    assert!(printed["id"].as_str().unwrap().starts_with(c.prefix));
    assert_eq!(c.stored(&env), [printed], "printed as created");
}

fn update_refusals_send_nothing(c: &Collection, u: &Update) {
    let env = Env::new();
    let seeded = (c.seed)(&env, 2);
    let out = c.run(&env, "update", &[&seeded[0]]);
    out.code(2);
    for flag in u.flags {
        assert!(
            out.stderr.contains(flag),
            "nothing to change names {flag}: {}",
            out.stderr
        );
    }
    let mut two = vec![seeded[0].as_str(), &seeded[1]];
    two.extend_from_slice(u.args);
    c.run(&env, "update", &two).code(2);
    assert!(env.requests().is_empty(), "{:?}", env.requests());
}

fn update_missing_exits_4(c: &Collection, u: &Update) {
    let env = Env::new();
    let missing = format!("{}nothere", c.prefix);
    let mut args = vec![missing.as_str()];
    args.extend_from_slice(u.args);
    let said = format!("PATCH {}", c.item(&missing));
    c.run(&env, "update", &args).not_found(&said);
    let req = only_write(&env);
    assert_eq!(
        (req.method.as_str(), req.path.clone()),
        ("PATCH", c.item(&missing))
    );
    assert_eq!(req.query, None);
    assert_management_headers(&req);
    let body: Value = serde_json::from_str(u.body).unwrap();
    assert_eq!(req.body_json(), Some(body));
}

fn remove_reports_each(c: &Collection) {
    let env = Env::new();
    let seeded = (c.seed)(&env, 4);
    let verb = c.remove.verb;

    let out = c.run(&env, verb, &[&seeded[0], "--yes"]);
    out.ok();
    assert_eq!(out.stdout, "", "nothing on stdout");
    c.assert_removed(&out.stderr, &seeded[0]);
    c.assert_remove(&only_write(&env), &seeded[0]);
    assert_eq!(env.stored(c.state, &seeded[0]), None);

    env.mock.clear_requests();
    let out = c.run(&env, verb, &[&seeded[1], &seeded[2], "--yes"]);
    out.ok();
    assert_eq!(out.stdout, "", "nothing on stdout");
    let writes = env.writes();
    assert_eq!(writes.len(), 2);
    for (req, id) in writes.iter().zip(&seeded[1..3]) {
        c.assert_removed(&out.stderr, id);
        c.assert_remove(req, id);
    }
    assert_eq!(ids(&Value::Array(c.stored(&env))), [seeded[3].clone()]);

    let out = c.run(&env, verb, &[&seeded[3], "--yes", "--quiet"]);
    out.ok();
    assert_eq!(out.stdout, "");
    assert_eq!(out.stderr, "", "--quiet");
    assert_eq!(c.stored(&env), Vec::<Value>::new());
}

fn remove_with_some_missing_is_a_partial_failure(c: &Collection) {
    let env = Env::new();
    let seeded = (c.seed)(&env, 2);
    let missing = format!("{}missing", c.prefix);
    let mut args = vec![seeded[0].as_str(), &missing, &seeded[1], "--yes"];
    args.extend_from_slice(c.remove.one_at_a_time);
    let out = c.run(&env, c.remove.verb, &args);
    out.code(5);
    for id in &seeded {
        c.assert_removed(&out.stderr, id);
    }
    let failure = out
        .stderr
        .lines()
        .find(|l| l.contains(&missing))
        .unwrap_or_else(|| panic!("the failure is reported: {}", out.stderr));
    assert!(failure.contains("404"), "{failure}");
    let writes = env.writes();
    assert_eq!(writes.len(), 3, "every request is sent, in order");
    for (req, id) in writes.iter().zip([&seeded[0], &missing, &seeded[1]]) {
        c.assert_remove(req, id);
    }
    assert_eq!(c.stored(&env), Vec::<Value>::new());
}

fn remove_all_missing_exits_4(c: &Collection) {
    let env = Env::new();
    let [n1, n2, n3] = ["nope1", "nope2", "nope3"].map(|n| format!("{}{n}", c.prefix));
    let out = c.run(&env, c.remove.verb, &[&n1, "--yes"]);
    out.code(4);
    out.says("404");
    let said = format!("{} {}{}", c.remove.method, c.item(&n1), c.remove.suffix);
    assert!(out.stderr.contains(&said), "{said}: {}", out.stderr);
    let out = c.run(&env, c.remove.verb, &[&n2, &n3, "--yes"]);
    out.code(4);
    for id in [&n2, &n3] {
        assert!(out.stderr.contains(id.as_str()), "{id}: {}", out.stderr);
    }
    assert_eq!(env.writes().len(), 3);
}

fn remove_without_yes_off_a_terminal_sends_nothing(c: &Collection) {
    let env = Env::new();
    let seeded = (c.seed)(&env, 2);
    for given in [&seeded[..1], &seeded[..]] {
        let args: Vec<&str> = given.iter().map(String::as_str).collect();
        let out = c.run(&env, c.remove.verb, &args);
        out.code(2);
        out.says("--yes");
        assert_eq!(out.stdout, "");
    }
    let out = c.run(&env, c.remove.verb, &["--yes"]);
    out.code(2);
    assert_ne!(out.stderr, "", "an id is required");
    // An id is required.
    out.says(c.remove.no_id);
    assert!(env.requests().is_empty(), "{:?}", env.requests());
    assert_eq!(c.stored(&env).len(), 2);
}
