//! `lightcycles.Config`: the core's configuration, checked by the core, so
//! that an out-of-range value is the core's own error as a `ValueError`.

use lightcycles_core::{defaults, Config, FaultPolicy};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

/// The board, players, tick cap, rock density and fault policy of a game.
///
/// Every value is checked as the rule book bounds it; a value out of range
/// raises ValueError naming the field, the value and the range.
#[pyclass(name = "Config", module = "lightcycles", frozen, eq)]
#[derive(Clone, Copy, PartialEq)]
pub struct PyConfig {
    pub(crate) inner: Config,
}

#[pymethods]
impl PyConfig {
    #[new]
    #[pyo3(signature = (width=defaults::WIDTH, height=defaults::HEIGHT, players=defaults::PLAYERS, max_ticks=defaults::MAX_TICKS, rock_density=defaults::ROCK_DENSITY, fault_policy=defaults::FAULT_POLICY.as_str()))]
    fn new(
        width: u32,
        height: u32,
        players: u32,
        max_ticks: u32,
        rock_density: u32,
        fault_policy: &str,
    ) -> PyResult<PyConfig> {
        let fault_policy = fault_policy.parse::<FaultPolicy>().map_err(value_error)?;
        let inner = Config { width, height, players, max_ticks, rock_density, fault_policy };
        inner.validate().map_err(value_error)?;
        Ok(PyConfig { inner })
    }

    /// Board width, 8 to 255.
    #[getter]
    fn width(&self) -> u32 {
        self.inner.width
    }

    /// Board height, 8 to 255.
    #[getter]
    fn height(&self) -> u32 {
        self.inner.height
    }

    /// Number of players, 2 to 8.
    #[getter]
    fn players(&self) -> u32 {
        self.inner.players
    }

    /// The tick cap: at the cap the survivors draw.
    #[getter]
    fn max_ticks(&self) -> u32 {
        self.inner.max_ticks
    }

    /// Rock cover of seeded maps, in percent.
    #[getter]
    fn rock_density(&self) -> u32 {
        self.inner.rock_density
    }

    /// What a fault costs: "straight" or "eliminate".
    #[getter]
    fn fault_policy(&self) -> &'static str {
        self.inner.fault_policy.as_str()
    }

    /// Pickles (and copies) as the call that makes it again.
    #[allow(clippy::type_complexity)]
    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> PyResult<(Bound<'py, PyAny>, (u32, u32, u32, u32, u32, &'static str))> {
        let c = slf.get().inner;
        let args = (c.width, c.height, c.players, c.max_ticks, c.rock_density, c.fault_policy.as_str());
        Ok((slf.get_type().into_any(), args))
    }

    fn __repr__(&self) -> String {
        let c = &self.inner;
        format!(
            "Config(width={}, height={}, players={}, max_ticks={}, rock_density={}, fault_policy='{}')",
            c.width,
            c.height,
            c.players,
            c.max_ticks,
            c.rock_density,
            c.fault_policy.as_str()
        )
    }
}

impl PyConfig {
    /// The configuration a function was given, or the default one.
    pub(crate) fn or_default(config: Option<PyRef<'_, PyConfig>>) -> Config {
        config.map_or_else(Config::default, |c| c.inner)
    }
}

/// Any error of the core as a `ValueError` with its message.
pub(crate) fn value_error(e: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// The defaults of a game and a run, as `lightcycles.DEFAULTS` shows them:
/// the keywords whose default the signatures write as `...` (they are the
/// core's constants, `lightcycles_core::defaults`).
pub(crate) fn defaults_dict(py: Python<'_>) -> PyResult<Bound<'_, pyo3::types::PyDict>> {
    use lightcycles_core::defaults as d;
    let dict = pyo3::types::PyDict::new(py);
    dict.set_item("width", d::WIDTH)?;
    dict.set_item("height", d::HEIGHT)?;
    dict.set_item("players", d::PLAYERS)?;
    dict.set_item("max_ticks", d::MAX_TICKS)?;
    dict.set_item("rock_density", d::ROCK_DENSITY)?;
    dict.set_item("fault_policy", d::FAULT_POLICY.as_str())?;
    dict.set_item("time_first_ms", d::TIME_FIRST_MS)?;
    dict.set_item("time_ms", d::TIME_MS)?;
    Ok(dict)
}
