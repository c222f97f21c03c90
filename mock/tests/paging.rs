//! Paging: newest first, `limit`, `before_id`, absolute `next_page_uri` across pages.

// Tests may unwrap: a failure there is the test failing (the workspace lints deny it elsewhere).
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::collections::HashSet;

use common::*;
use serde_json::{json, Value};
use tunnelctl_mock::MockOptions;

#[test]
fn follows_next_page_uri_across_three_pages() {
    let mock = start();
    let seeded = mock.seed(json!({"ip_policy_count": 250}));
    let mut expected: Vec<String> = seeded["ip_policies"]
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(|v| v.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default();
    expected.reverse();

    let mut seen = Vec::new();
    let mut target = "/ip_policies?limit=100".to_string();
    let mut pages = 0;
    loop {
        let page = get(&mock, &target).json();
        pages += 1;
        assert_eq!(page["uri"], format!("{}/ip_policies", mock.url()));
        for p in page["ip_policies"].as_array().into_iter().flatten() {
            seen.push(str_of(&p["id"]));
        }
        match &page["next_page_uri"] {
            Value::String(next) => {
                let last = seen.last().cloned().unwrap_or_default();
                assert_eq!(
                    next,
                    &format!("{}/ip_policies?before_id={last}&limit=100", mock.url())
                );
                target = target_of(&mock, next);
            }
            _ => break,
        }
    }
    assert_eq!(pages, 3);
    assert_eq!(seen, expected, "newest first, every item once");
    assert_eq!(seen.iter().collect::<HashSet<_>>().len(), 250);
    let first = get(&mock, "/ip_policies?limit=1").json();
    assert_eq!(first["ip_policies"][0]["description"], "policy 250");
}

#[test]
fn default_page_size_and_exact_fit() {
    let mock = start_with(MockOptions {
        page_size: 4,
        ..MockOptions::default()
    });
    mock.seed(json!({"session_count": 8}));
    let p1 = get(&mock, "/tunnel_sessions").json();
    assert_eq!(p1["tunnel_sessions"].as_array().map(Vec::len), Some(4));
    let next = str_of(&p1["next_page_uri"]);
    assert!(next.ends_with("&limit=4"), "{next}");
    let p2 = get(&mock, &target_of(&mock, &next)).json();
    assert_eq!(p2["tunnel_sessions"].as_array().map(Vec::len), Some(4));
    assert_eq!(p2["next_page_uri"], Value::Null, "no empty last page");
    mock.configure(json!({"page_size": 100}));
    assert_eq!(
        get(&mock, "/tunnel_sessions").json()["tunnel_sessions"]
            .as_array()
            .map(Vec::len),
        Some(8)
    );
}

#[test]
fn before_id_and_limit_validation() {
    let mock = start();
    let seeded = mock.seed(json!({"ip_policy_count": 5}));
    let third = str_of(&seeded["ip_policies"][2]);
    let page = get(&mock, &format!("/ip_policies?before_id={third}")).json();
    let ids = field_strs(&page["ip_policies"], "id");
    assert_eq!(
        ids,
        [
            seeded["ip_policies"][1].as_str().unwrap_or_default(),
            seeded["ip_policies"][0].as_str().unwrap_or_default()
        ]
    );
    for bad in ["0", "101", "-1", "ten", ""] {
        let body = assert_error(&get(&mock, &format!("/ip_policies?limit={bad}")), 400);
        assert_eq!(body["details"]["field"], "limit");
    }
    assert_eq!(get(&mock, "/ip_policies?limit=100").status, 200);
}

#[test]
fn next_page_base_points_elsewhere() {
    let mock = start_with(MockOptions {
        next_page_base: Some("http://evil.example:9".into()),
        ..MockOptions::default()
    });
    mock.seed(json!({"ip_policy_count": 3}));
    let page = get(&mock, "/ip_policies?limit=2").json();
    let next = page["next_page_uri"].as_str().unwrap_or_default();
    assert!(
        next.starts_with("http://evil.example:9/ip_policies?before_id="),
        "{next}"
    );
    assert_eq!(page["uri"], format!("{}/ip_policies", mock.url()));
}

#[test]
fn ten_thousand_items_page_through_in_hundreds() {
    let mock = start();
    mock.seed(json!({"ip_policy_count": 10000}));
    let mut target = "/ip_policies?limit=100".to_string();
    let (mut count, mut pages) = (0, 0);
    loop {
        let page = get(&mock, &target).json();
        count += page["ip_policies"].as_array().map_or(0, Vec::len);
        pages += 1;
        match page["next_page_uri"].as_str() {
            Some(next) => target = target_of(&mock, next),
            None => break,
        }
    }
    assert_eq!(count, 10000);
    assert_eq!(pages, 100);
}
