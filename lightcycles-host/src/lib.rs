//! # lightcycles-host
//!
//! Plays bots against each other under the rules of `lightcycles-core`.
