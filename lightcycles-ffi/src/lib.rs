//! # lightcycles-ffi
//!
//! The C ABI of LightCycles (`include/lightcycles.h`).
