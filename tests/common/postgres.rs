//! A private PostgreSQL server for the tests of the team store: the distribution's package
//! (`initdb`, `pg_ctl`), a cluster in a temporary folder owned by an unprivileged user (the
//! package's `postgres` when the tests run as root: the server refuses to run as root), on a
//! loopback port, with SCRAM passwords. One plain cluster per test binary, and one with TLS on
//! (only `hostssl` lines: a connection that succeeds went over TLS) whose CA and `localhost`
//! certificate the harness makes with `openssl`. Each test takes a database of its own.
//!
//! Every cluster is stopped when the test binary exits (an `atexit` hook: a static is never
//! dropped), and a cluster a test starts for itself is stopped by its guard's `Drop`, on a
//! panic too. Without PostgreSQL, [`plain`] and [`with_tls`] give `None`, and the test says so
//! through `skip::cannot_run` (a failure under CI).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock};

/// The superuser's password (long and distinctive: any leak is found).
pub const SUPER_PASSWORD: &str = "pg_super_Kx9QmZ7wT4vB2nL8";
/// The password of the role each test's URL names.
pub const PASSWORD: &str = "pg_rec_Hs3Jd8Fk2Lq5Wz7Nc1";

/// A running cluster.
pub struct Cluster {
    root: PathBuf,
    data: PathBuf,
    bin: PathBuf,
    /// Its TCP port on 127.0.0.1.
    pub port: u16,
    /// The CA that signed its certificate (TLS clusters).
    pub ca: Option<PathBuf>,
}

/// The clusters to stop at exit.
static RUNNING: Mutex<Vec<(PathBuf, PathBuf, PathBuf)>> = Mutex::new(Vec::new());
static PLAIN: OnceLock<Option<Cluster>> = OnceLock::new();
static TLS: OnceLock<Option<Cluster>> = OnceLock::new();
static DATABASES: AtomicUsize = AtomicUsize::new(0);

/// The shared plain cluster (`None`: PostgreSQL cannot run here, and why is said by
/// [`why_not`]).
pub fn plain() -> Option<&'static Cluster> {
    PLAIN.get_or_init(|| Cluster::start(false).ok()).as_ref()
}

/// The shared TLS cluster.
pub fn with_tls() -> Option<&'static Cluster> {
    TLS.get_or_init(|| Cluster::start(true).ok()).as_ref()
}

/// Why no cluster could start here.
pub fn why_not() -> String {
    match Cluster::start(false) {
        Ok(c) => {
            c.stop();
            "it started on a second try".into()
        }
        Err(e) => e,
    }
}

/// The folder of PostgreSQL's programs: on PATH, else the newest under /usr/lib/postgresql.
fn bin_folder() -> Option<PathBuf> {
    let mut versions: Vec<PathBuf> = std::fs::read_dir("/usr/lib/postgresql")
        .ok()?
        .flatten()
        .map(|e| e.path().join("bin"))
        .filter(|p| p.join("initdb").exists())
        .collect();
    versions.sort_by_key(|p| {
        p.parent()
            .and_then(|v| v.file_name())
            .and_then(|v| v.to_str())
            .and_then(|v| v.parse::<u32>().ok())
            .unwrap_or(0)
    });
    versions.pop()
}

fn is_root() -> bool {
    // SAFETY: getuid has no preconditions.
    unsafe { libc::getuid() == 0 }
}

/// `program args…` as the cluster's owner.
fn as_owner(program: &Path) -> Command {
    if is_root() {
        let mut c = Command::new("runuser");
        c.args(["-u", "postgres", "--"]).arg(program);
        c
    } else {
        Command::new(program)
    }
}

fn run_ok(cmd: &mut Command, what: &str) -> Result<String, String> {
    let out = cmd
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("{what}: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "{what} failed: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

/// A free TCP port on 127.0.0.1.
pub fn free_port() -> u16 {
    let l = std::net::TcpListener::bind("127.0.0.1:0").expect("a port");
    l.local_addr().expect("its address").port()
}

extern "C" fn stop_all() {
    let running = RUNNING.lock().map(|r| r.clone()).unwrap_or_default();
    for (bin, data, root) in running {
        let _ = as_owner(&bin.join("pg_ctl"))
            .arg("-D")
            .arg(&data)
            .args(["-m", "immediate", "-w", "stop"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status();
        let _ = std::fs::remove_dir_all(root);
    }
}

impl Cluster {
    /// Makes and starts a cluster (with TLS on when `tls`).
    pub fn start(tls: bool) -> Result<Cluster, String> {
        let bin = bin_folder()
            .ok_or("PostgreSQL is not installed (no /usr/lib/postgresql/*/bin/initdb)")?;
        if is_root()
            && Command::new("id")
                .arg("postgres")
                .output()
                .map_or(true, |o| !o.status.success())
        {
            return Err("no 'postgres' user to run the server as".into());
        }
        let root = tempfile::Builder::new()
            .prefix("tunnelctl-pg-")
            .tempdir()
            .map_err(|e| e.to_string())?
            .keep();
        let data = root.join("data");
        let pwfile = root.join("pw");
        std::fs::write(&pwfile, SUPER_PASSWORD).map_err(|e| e.to_string())?;
        if is_root() {
            run_ok(
                Command::new("chown")
                    .args(["-R", "postgres:postgres"])
                    .arg(&root),
                "chown",
            )?;
        }
        run_ok(
            as_owner(&bin.join("initdb"))
                .arg("-D")
                .arg(&data)
                .args([
                    "-U",
                    "postgres",
                    "-A",
                    "scram-sha-256",
                    "--no-sync",
                    "-E",
                    "UTF8",
                    "--locale=C",
                ])
                .arg(format!("--pwfile={}", pwfile.display())),
            "initdb",
        )?;
        let port = free_port();
        // fsync off (the machine does not crash under a test); commits still reach the log
        // before they return, so a server stopped at once keeps every commit, as a real one.
        let mut options = format!(
            "-p {port} -k {} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off \
             -c max_connections=200",
            data.display()
        );
        let mut ca = None;
        if tls {
            let made = make_certificates(&data)?;
            std::fs::write(
                data.join("pg_hba.conf"),
                "local all all scram-sha-256\nhostssl all all 127.0.0.1/32 scram-sha-256\n",
            )
            .map_err(|e| e.to_string())?;
            if is_root() {
                run_ok(
                    Command::new("chown")
                        .args(["-R", "postgres:postgres"])
                        .arg(&data),
                    "chown",
                )?;
            }
            options.push_str(" -c ssl=on -c ssl_cert_file=server.crt -c ssl_key_file=server.key");
            ca = Some(made);
        }
        let cluster = Cluster {
            root: root.clone(),
            data: data.clone(),
            bin: bin.clone(),
            port,
            ca,
        };
        {
            let mut running = RUNNING.lock().map_err(|e| e.to_string())?;
            if running.is_empty() {
                // SAFETY: registering a plain function with no captured state.
                unsafe { libc::atexit(stop_all) };
            }
            running.push((bin.clone(), data.clone(), root));
        }
        cluster.pg_ctl_start(&options)?;
        Ok(cluster)
    }

    fn pg_ctl_start(&self, options: &str) -> Result<(), String> {
        std::fs::write(self.root.join("options"), options).map_err(|e| e.to_string())?;
        run_ok(
            as_owner(&self.bin.join("pg_ctl"))
                .arg("-D")
                .arg(&self.data)
                .arg("-l")
                .arg(self.data.join("server.log"))
                .args(["-w", "-t", "60", "-o", options, "start"])
                .stdout(Stdio::null()),
            "pg_ctl start",
        )
        .map(drop)
    }

    /// Stops the server (at once, as a crash would).
    pub fn stop(&self) {
        let _ = as_owner(&self.bin.join("pg_ctl"))
            .arg("-D")
            .arg(&self.data)
            .args(["-m", "immediate", "-w", "stop"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status();
    }

    /// Starts it again on the same port, after [`Cluster::stop`].
    pub fn start_again(&self) {
        let options = std::fs::read_to_string(self.root.join("options")).expect("its options");
        self.pg_ctl_start(&options)
            .expect("the server starts again");
    }

    /// `psql` as a user would run it, as the superuser, on `db`: the rows of `sql`, one a
    /// line, fields split by `|`.
    pub fn psql(&self, db: &str, sql: &str) -> String {
        let psql = self.bin.join("psql");
        let psql = if psql.exists() {
            psql
        } else {
            PathBuf::from("psql")
        };
        run_ok(
            Command::new(psql)
                .env("PGPASSWORD", SUPER_PASSWORD)
                .env(
                    "PGSSLMODE",
                    if self.ca.is_some() {
                        "require"
                    } else {
                        "disable"
                    },
                )
                .args([
                    "-X",
                    "-q",
                    "-A",
                    "-t",
                    "-v",
                    "ON_ERROR_STOP=1",
                    "-h",
                    "127.0.0.1",
                ])
                .args([
                    "-p",
                    &self.port.to_string(),
                    "-U",
                    "postgres",
                    "-d",
                    db,
                    "-c",
                    sql,
                ]),
            "psql",
        )
        .unwrap_or_else(|e| panic!("{e}"))
        .trim_end()
        .to_string()
    }

    /// A new database for one test, with a role `rec_N` (password [`PASSWORD`]) that owns it.
    pub fn database(&self) -> TestDb {
        let n = DATABASES.fetch_add(1, Ordering::SeqCst);
        let name = format!("t{}_{n}", std::process::id());
        let role = format!("rec_{name}");
        self.psql(
            "postgres",
            &format!("CREATE ROLE {role} LOGIN PASSWORD '{PASSWORD}'"),
        );
        self.psql("postgres", &format!("CREATE DATABASE {name} OWNER {role}"));
        TestDb {
            name,
            role,
            port: self.port,
        }
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        self.stop();
        if let Ok(mut running) = RUNNING.lock() {
            running.retain(|(_, d, _)| d != &self.data);
        }
        let _ = std::fs::remove_dir_all(&self.root);
    }
}

/// A test's database on a cluster, and the role that owns it.
pub struct TestDb {
    /// Its name.
    pub name: String,
    /// The role that owns it.
    pub role: String,
    port: u16,
}

impl TestDb {
    /// `postgres://ROLE:PASSWORD@127.0.0.1:PORT/NAME` with these extra parameters.
    pub fn url_with(&self, params: &str) -> String {
        let q = if params.is_empty() {
            String::new()
        } else {
            format!("?{params}")
        };
        format!(
            "postgres://{}:{PASSWORD}@127.0.0.1:{}/{}{q}",
            self.role, self.port, self.name
        )
    }

    /// [`TestDb::url_with`] no parameters.
    pub fn url(&self) -> String {
        self.url_with("")
    }
}

/// A CA and a certificate for `localhost` (no IP address in it) signed by it, in `data`; the
/// CA's file.
fn make_certificates(data: &Path) -> Result<PathBuf, String> {
    let ossl = |args: &[&str]| {
        run_ok(
            Command::new("openssl").args(args).current_dir(data),
            "openssl",
        )
    };
    let ec = [
        "-newkey",
        "ec",
        "-pkeyopt",
        "ec_paramgen_curve:prime256v1",
        "-nodes",
    ];
    let mut args = vec![
        "req",
        "-x509",
        "-days",
        "3650",
        "-subj",
        "/CN=tunnelctl test CA",
    ];
    args.extend(ec);
    args.extend(["-keyout", "ca.key", "-out", "ca.pem"]);
    ossl(&args)?;
    let mut args = vec!["req", "-subj", "/CN=localhost"];
    args.extend(ec);
    args.extend(["-keyout", "server.key", "-out", "server.csr"]);
    ossl(&args)?;
    std::fs::write(data.join("san.ext"), "subjectAltName=DNS:localhost\n")
        .map_err(|e| e.to_string())?;
    ossl(&[
        "x509",
        "-req",
        "-in",
        "server.csr",
        "-CA",
        "ca.pem",
        "-CAkey",
        "ca.key",
        "-CAcreateserial",
        "-days",
        "3650",
        "-extfile",
        "san.ext",
        "-out",
        "server.crt",
    ])?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(
            data.join("server.key"),
            std::fs::Permissions::from_mode(0o600),
        )
        .map_err(|e| e.to_string())?;
    }
    // The CA outside the data folder, where any test may read it.
    let ca = data.parent().unwrap_or(data).join("ca.pem");
    std::fs::copy(data.join("ca.pem"), &ca).map_err(|e| e.to_string())?;
    Ok(ca)
}
