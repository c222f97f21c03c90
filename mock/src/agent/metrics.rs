//! A tunnel's `metrics`: `conns` (connections: count, open gauge, rates, duration
//! percentiles) and `http` (requests: count, rates, duration percentiles), computed the way
//! the agent's metrics library does, so the numbers move like the real ones.
//!
//! Rates are exponentially weighted moving averages over 1, 5 and 15 minutes, ticked every
//! 5 seconds (the first tick sets the rate to events / 5 s); percentiles interpolate over the
//! last 1,028 durations; every duration is in nanoseconds.

use std::collections::VecDeque;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use serde_json::{json, Map, Value};

use super::encode::{go_float_g, number, xml_elem};
use crate::sync::lock;

const TICK: Duration = Duration::from_secs(5);
const SAMPLE_SIZE: usize = 1028;
const PERCENTILES: [f64; 4] = [0.5, 0.9, 0.95, 0.99];

/// One moving average.
#[derive(Debug, Clone)]
struct Ewma {
    alpha: f64,
    rate: f64,
    initialized: bool,
}

impl Ewma {
    fn new(minutes: f64) -> Self {
        Ewma {
            alpha: 1.0 - (-5.0 / 60.0 / minutes).exp(),
            rate: 0.0,
            initialized: false,
        }
    }

    /// Applies one tick with `events` counted since the previous one, then `idle` empty ticks.
    fn tick(&mut self, events: u64, idle: u32) {
        #[allow(clippy::cast_precision_loss)]
        let instant = events as f64 / TICK.as_secs_f64();
        if self.initialized {
            self.rate += self.alpha * (instant - self.rate);
        } else {
            self.rate = instant;
            self.initialized = true;
        }
        if idle > 0 {
            self.rate *= (1.0 - self.alpha).powi(i32::try_from(idle).unwrap_or(i32::MAX));
        }
    }
}

/// Counts, rates and duration percentiles of one kind of event.
#[derive(Debug, Clone)]
struct Timer {
    count: u64,
    uncounted: u64,
    last_tick: Instant,
    rates: [Ewma; 3],
    sample: VecDeque<u64>,
}

impl Timer {
    fn new(now: Instant) -> Self {
        Timer {
            count: 0,
            uncounted: 0,
            last_tick: now,
            rates: [Ewma::new(1.0), Ewma::new(5.0), Ewma::new(15.0)],
            sample: VecDeque::new(),
        }
    }

    /// Runs the ticks that are due by `now` (computed lazily: nothing runs in between).
    fn catch_up(&mut self, now: Instant) {
        let elapsed = now.saturating_duration_since(self.last_tick);
        let ticks = elapsed.as_nanos() / TICK.as_nanos();
        if ticks == 0 {
            return;
        }
        let idle = u32::try_from(ticks - 1).unwrap_or(u32::MAX);
        for r in &mut self.rates {
            r.tick(self.uncounted, idle);
        }
        self.uncounted = 0;
        self.last_tick += TICK * u32::try_from(ticks).unwrap_or(u32::MAX);
    }

    fn update(&mut self, now: Instant, duration: Duration) {
        self.catch_up(now);
        self.count += 1;
        self.uncounted += 1;
        if self.sample.len() == SAMPLE_SIZE {
            self.sample.pop_front();
        }
        self.sample
            .push_back(u64::try_from(duration.as_nanos()).unwrap_or(u64::MAX));
    }

    fn percentiles(&self) -> [f64; 4] {
        let mut values: Vec<u64> = self.sample.iter().copied().collect();
        values.sort_unstable();
        let mut out = [0.0; 4];
        let size = values.len();
        if size == 0 {
            return out;
        }
        #[allow(clippy::cast_precision_loss)]
        let at = |i: usize| values[i] as f64;
        for (slot, p) in out.iter_mut().zip(PERCENTILES) {
            #[allow(clippy::cast_precision_loss)]
            let pos = p * (size + 1) as f64;
            *slot = if pos < 1.0 {
                at(0)
            } else if pos >= size as f64 {
                at(size - 1)
            } else {
                #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
                let lower_index = pos as usize - 1;
                let lower = at(lower_index);
                let upper = at(lower_index + 1);
                lower + (pos - pos.floor()) * (upper - lower)
            };
        }
        out
    }
}

#[derive(Debug)]
struct Counters {
    conns: Timer,
    open: u64,
    http: Timer,
}

/// The metrics of one tunnel leg; shared between its listener task and the API.
#[derive(Debug)]
pub struct Metrics {
    inner: Mutex<Counters>,
}

/// A copy of the numbers at one moment.
#[derive(Debug, Clone)]
pub struct Snapshot {
    conns_count: u64,
    gauge: u64,
    conns_rates: [f64; 3],
    conns_p: [f64; 4],
    http_count: u64,
    http_rates: [f64; 3],
    http_p: [f64; 4],
}

impl Default for Metrics {
    fn default() -> Self {
        let now = Instant::now();
        Metrics {
            inner: Mutex::new(Counters {
                conns: Timer::new(now),
                open: 0,
                http: Timer::new(now),
            }),
        }
    }
}

impl Metrics {
    /// A visitor connection was accepted.
    pub fn conn_opened(&self) {
        lock(&self.inner).open += 1;
    }

    /// A visitor connection ended after `duration`.
    pub fn conn_closed(&self, duration: Duration) {
        let mut m = lock(&self.inner);
        m.open = m.open.saturating_sub(1);
        m.conns.update(Instant::now(), duration);
    }

    /// An HTTP exchange completed after `duration`.
    pub fn request_done(&self, duration: Duration) {
        lock(&self.inner).http.update(Instant::now(), duration);
    }

    /// The current numbers.
    pub fn snapshot(&self) -> Snapshot {
        let now = Instant::now();
        let mut m = lock(&self.inner);
        m.conns.catch_up(now);
        m.http.catch_up(now);
        let rates = |t: &Timer| [t.rates[0].rate, t.rates[1].rate, t.rates[2].rate];
        Snapshot {
            // The agent counts a connection when it ends, as its timer records durations.
            conns_count: m.conns.count,
            gauge: m.open,
            conns_rates: rates(&m.conns),
            conns_p: m.conns.percentiles(),
            http_count: m.http.count,
            http_rates: rates(&m.http),
            http_p: m.http.percentiles(),
        }
    }
}

impl Snapshot {
    /// The `metrics` object.
    pub fn to_json(&self) -> Value {
        let mut conns = window_json(self.conns_count, &self.conns_rates, &self.conns_p);
        // The gauge of open connections stands second, as the agent writes it.
        conns.shift_insert(1, "gauge".into(), json!(self.gauge));
        let http = window_json(self.http_count, &self.http_rates, &self.http_p);
        json!({"conns": conns, "http": http})
    }

    /// The `<Metrics>` element.
    pub fn push_xml(&self, out: &mut String) {
        out.push_str("<Metrics><Conns>");
        xml_elem(out, "Count", &self.conns_count.to_string());
        xml_elem(out, "Gauge", &self.gauge.to_string());
        push_rates_xml(out, &self.conns_rates, &self.conns_p);
        out.push_str("</Conns><HTTP>");
        xml_elem(out, "Count", &self.http_count.to_string());
        push_rates_xml(out, &self.http_rates, &self.http_p);
        out.push_str("</HTTP></Metrics>");
    }
}

/// `count`, the rates and the percentiles of one kind of event, as JSON members.
fn window_json(count: u64, rates: &[f64; 3], p: &[f64; 4]) -> Map<String, Value> {
    let mut out = Map::new();
    out.insert("count".into(), json!(count));
    for (name, v) in ["rate1", "rate5", "rate15"].iter().zip(rates) {
        out.insert((*name).into(), number(*v));
    }
    for (name, v) in ["p50", "p90", "p95", "p99"].iter().zip(p) {
        out.insert((*name).into(), number(*v));
    }
    out
}

fn push_rates_xml(out: &mut String, rates: &[f64; 3], p: &[f64; 4]) {
    for (name, v) in ["Rate1", "Rate5", "Rate15"].iter().zip(rates) {
        xml_elem(out, name, &go_float_g(*v));
    }
    for (name, v) in ["P50", "P90", "P95", "P99"].iter().zip(p) {
        xml_elem(out, name, &go_float_g(*v));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentiles_interpolate_like_go_metrics() {
        let now = Instant::now();
        let mut t = Timer::new(now);
        t.update(now, Duration::from_nanos(1_563_348));
        t.update(now, Duration::from_nanos(1_948_464));
        let p = t.percentiles();
        assert_eq!(p[0], 1_755_906.0);
        assert_eq!(p[1], 1_948_464.0);
    }

    #[test]
    fn first_tick_is_events_over_five_seconds() {
        let now = Instant::now();
        let mut t = Timer::new(now);
        t.update(now, Duration::from_nanos(1));
        t.catch_up(now + Duration::from_millis(5_100));
        assert!((t.rates[0].rate - 0.2).abs() < 1e-9);
        assert!((t.rates[2].rate - 0.2).abs() < 1e-9);
    }
}
