//! Memory stays bounded by the answer, not by how many items it holds: one page of about
//! 15 MiB made of over a million tiny items, in every output mode, peaks at no more than
//! 32 MB plus ten times the page (measured from the child's own rusage).

use crate::common::hostile::{Hostile, Reply};
use crate::common::rusage::measure;
use crate::common::Env;
use tunnelctl::registry::env as var;

/// Just under the 16 MiB bound of a management answer.
const PAGE_BYTES: usize = 15 * 1024 * 1024;

/// `{"ip_policies":[{"id":"a"},…],"uri":…,"next_page_uri":null}` of about [`PAGE_BYTES`].
fn huge_page() -> String {
    let item = "{\"id\":\"a\"}";
    let count = (PAGE_BYTES - 100) / (item.len() + 1);
    let mut body = String::with_capacity(PAGE_BYTES);
    body.push_str("{\"ip_policies\":[");
    for i in 0..count {
        if i > 0 {
            body.push(',');
        }
        body.push_str(item);
    }
    body.push_str("],\"uri\":\"/ip_policies\",\"next_page_uri\":null}");
    body
}

#[test]
fn a_page_of_a_million_tiny_items_costs_memory_by_its_size_in_every_mode() {
    let body = huge_page();
    let items = body.matches("{\"id\"").count();
    let server = Hostile::start(move |_| Reply::ok(body.clone()));
    let env = Env::new();
    let bound = 32 * 1024 * 1024 + 10 * PAGE_BYTES as u64;
    let modes: [(&[&str], bool, &str); 8] = [
        (&[], false, "tsv"),
        (&[], true, "table"),
        (&["--json"], false, "json"),
        (&["--json"], true, "json on a terminal"),
        (&["-o", "ndjson"], false, "ndjson"),
        (&["--jq", ".[] | .id"], false, "jq per item"),
        (
            &["-o", "ndjson", "--jq", ".id"],
            true,
            "jq per item on a terminal",
        ),
        (&["--jq", "length"], false, "jq on the whole array"),
    ];
    for (flags, tty, name) in modes {
        let mut cmd = env.std_cmd_at(&server.url());
        cmd.args(["ip-policies", "list"]).args(flags);
        if tty {
            cmd.env(var::FORCE_TTY, "1").env("COLUMNS", "100");
        }
        let run = measure(cmd);
        let (code, peak, took, printed) = (run.code, run.peak, run.took, run.stdout);
        // A whole-array filter over a million values is refused, in bounded memory.
        let expected = if name == "jq on the whole array" {
            1
        } else {
            0
        };
        assert_eq!(code, expected, "{name}");
        eprintln!("{name}: peak {} MB in {took:?}", peak / 1_000_000);
        assert!(
            peak <= bound,
            "{name}: peak RSS {} MB over the bound of {} MB",
            peak / 1_000_000,
            bound / 1_000_000
        );
        // How long it took is reported, not bounded: debug builds on a loaded machine vary
        // too much; the release figures are in bench/.
        let text = String::from_utf8_lossy(&printed);
        match name {
            "tsv" => assert_eq!(text.lines().count(), items, "{name}"),
            "table" => assert_eq!(
                text.lines().count(),
                items + 1,
                "{name}: a header and a line per item"
            ),
            "jq per item" | "jq per item on a terminal" => {
                assert_eq!(text.lines().count(), items, "{name}");
                assert!(text.lines().all(|l| l == "a"), "{name}");
            }
            "jq on the whole array" => assert_eq!(text, ""),
            "ndjson" => assert_eq!(text.lines().count(), items, "{name}"),
            _ => assert!(text.contains("\"id\""), "{name}"),
        }
    }
}
