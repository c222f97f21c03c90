//! The two functions of the C math library that code linked into tunnelctl calls: `log`
//! (SQLite's FTS5 ranking) and `pow` (indicatif's rate estimate), from the `libm` crate.
//!
//! Defined here, the linker resolves those calls within the binary, so it does not need
//! `libm.so.6` at all: loading and binding one more shared library costs about 0.1 ms of every
//! start (bench S1), for two functions that are rarely called. Only on Linux with glibc, where
//! the binary would otherwise name libm; elsewhere the system's own are used.

/// The natural logarithm, for C callers (`double log(double)`).
#[cfg(all(target_os = "linux", target_env = "gnu"))]
#[no_mangle]
pub extern "C" fn log(x: f64) -> f64 {
    libm::log(x)
}

/// `x` to the power `y`, for C callers (`double pow(double, double)`).
#[cfg(all(target_os = "linux", target_env = "gnu"))]
#[no_mangle]
pub extern "C" fn pow(x: f64, y: f64) -> f64 {
    libm::pow(x, y)
}

#[cfg(all(test, target_os = "linux", target_env = "gnu"))]
mod tests {
    #[test]
    fn as_the_c_library_computes_them() {
        assert!((super::log(std::f64::consts::E) - 1.0).abs() < 1e-15);
        assert_eq!(super::pow(2.0, 10.0), 1024.0);
        assert!((super::pow(0.9, 0.5) - 0.9f64.sqrt()).abs() < 1e-15);
    }
}
