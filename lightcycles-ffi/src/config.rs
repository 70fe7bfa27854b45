//! The game configuration as a plain C struct (docs/RULES.md section 1).

use core::mem::size_of;

use lightcycles_core::{Config, FaultPolicy};

use crate::error::{check_struct_size, FfiError, FfiResult};
use crate::status::LcStatus;

/// `fault_policy = straight`: a fault is no move (the default, as in CodeClash).
pub const LC_FAULT_POLICY_STRAIGHT: u32 = 0;
/// `fault_policy = eliminate`: a faulted player crashes where it stands.
pub const LC_FAULT_POLICY_ELIMINATE: u32 = 1;

/// Everything that defines a game besides its seed (or map) and its bots.
///
/// Get one from `lc_config_default()` and change the fields you need; the
/// library checks the bounds of docs/RULES.md section 1 and names the first field
/// out of range. `struct_size` must be `sizeof(LcConfig)`: it lets a later
/// version of the library add fields at the end.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LcConfig {
    /// `sizeof(LcConfig)`, set by `lc_config_default()`.
    pub struct_size: u32,
    /// Board width, 8 to 255.
    pub width: u32,
    /// Board height, 8 to 255.
    pub height: u32,
    /// Number of players, 2 to 8 (boards of at least 16 × 16 for 3 or more).
    pub players: u32,
    /// The tick cap, 1 to 1 000 000.
    pub max_ticks: u32,
    /// Target rock cover in percent, 0 to 25.
    pub rock_density: u32,
    /// `LC_FAULT_POLICY_STRAIGHT` or `LC_FAULT_POLICY_ELIMINATE`.
    pub fault_policy: u32,
}

/// Size of the first version of [`LcConfig`].
pub(crate) const CONFIG_V1_SIZE: usize = size_of::<LcConfig>();

impl From<&Config> for LcConfig {
    fn from(c: &Config) -> Self {
        LcConfig {
            struct_size: CONFIG_V1_SIZE as u32,
            width: c.width,
            height: c.height,
            players: c.players,
            max_ticks: c.max_ticks,
            rock_density: c.rock_density,
            fault_policy: fault_policy_code(c.fault_policy),
        }
    }
}

/// The C code of a fault policy.
pub(crate) const fn fault_policy_code(policy: FaultPolicy) -> u32 {
    match policy {
        FaultPolicy::Straight => LC_FAULT_POLICY_STRAIGHT,
        FaultPolicy::Eliminate => LC_FAULT_POLICY_ELIMINATE,
    }
}

/// The fault policy of a C code, or an error naming `arg`.
pub(crate) fn parse_fault_policy(arg: &str, code: u32) -> FfiResult<FaultPolicy> {
    match code {
        LC_FAULT_POLICY_STRAIGHT => Ok(FaultPolicy::Straight),
        LC_FAULT_POLICY_ELIMINATE => Ok(FaultPolicy::Eliminate),
        _ => {
            Err(FfiError::out_of_range(format_args!("{arg} = {code} is not a fault policy (0 straight, 1 eliminate)")))
        }
    }
}

impl LcConfig {
    /// The core configuration, checked against every bound of the rules.
    pub(crate) fn to_config(self, arg: &str) -> FfiResult<Config> {
        check_struct_size(arg, self.struct_size, CONFIG_V1_SIZE)?;
        let config = Config {
            width: self.width,
            height: self.height,
            players: self.players,
            max_ticks: self.max_ticks,
            rock_density: self.rock_density,
            fault_policy: parse_fault_policy(&format!("{arg}->fault_policy"), self.fault_policy)?,
        };
        config.validate().map_err(|e| FfiError::new(LcStatus::Config, format_args!("{arg}: {e}")))?;
        Ok(config)
    }
}

/// The default configuration: 48 × 36, 2 players, 2000 ticks, 4 % rocks,
/// `straight`, with `struct_size` set. Cannot fail.
#[no_mangle]
pub extern "C" fn lc_config_default() -> LcConfig {
    LcConfig::from(&Config::default())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_is_the_rule_book_default() {
        let c = lc_config_default();
        assert_eq!(c.struct_size as usize, size_of::<LcConfig>());
        assert_eq!(c.to_config("config").unwrap(), Config::default());
    }

    #[test]
    fn bad_fields_are_named() {
        let bad = LcConfig { width: 300, ..lc_config_default() };
        let e = bad.to_config("config").unwrap_err();
        assert_eq!(e.status, LcStatus::Config);
        assert_eq!(e.message, "config: width = 300 is out of range: allowed 8 to 255");
        let bad = LcConfig { fault_policy: 2, ..lc_config_default() };
        let e = bad.to_config("config").unwrap_err();
        assert_eq!(e.status, LcStatus::OutOfRange);
        assert!(e.message.contains("config->fault_policy = 2"), "{}", e.message);
        let bad = LcConfig { struct_size: 4, ..lc_config_default() };
        assert_eq!(bad.to_config("config").unwrap_err().status, LcStatus::StructSize);
        let eliminate = LcConfig { fault_policy: LC_FAULT_POLICY_ELIMINATE, ..lc_config_default() };
        assert_eq!(eliminate.to_config("config").unwrap().fault_policy, FaultPolicy::Eliminate);
    }
}
